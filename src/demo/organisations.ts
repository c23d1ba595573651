/**
 * The three demo organisations: a London design studio (GBP, financial year from April), a
 * Brooklyn furniture workshop (USD, calendar year) and a Sydney coffee roaster (AUD, year from
 * July). Different currencies, time zones, tax regimes and financial years, so reports, periods
 * and currencies are exercised on more than one shape of books. Amounts are minor units.
 */
import type { DemoOrganisationDef } from './catalog.js';
import { harbour } from './organisations/harbour.js';
import { northwind } from './organisations/northwind.js';
import { wattle } from './organisations/wattle.js';

/** In order: the first is the benchmark organisation that `scale` grows. */
export const DEMO_ORGANISATIONS: readonly DemoOrganisationDef[] = [northwind, harbour, wattle];
