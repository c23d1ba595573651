/**
 * The three demo organisations: a London design studio (GBP, financial year from April), a
 * Brooklyn furniture workshop (USD, calendar year) and a Sydney coffee roaster (AUD, year from
 * July). Different currencies, time zones, tax regimes and financial years, so reports, periods
 * and currencies are exercised on more than one shape of books. Amounts are minor units.
 *
 * Each one is data (organisations/<key>.json: its chart names, banks, tax, suppliers, customers,
 * merchants and volumes), checked against the catalog's schema as it is loaded; the generators hold
 * the logic. A JSON module, as openapi-examples.json is, so tsc copies it into dist/ beside the code.
 */
import { demoOrganisationSchema, type DemoOrganisationDef } from './catalog.js';
import harbour from './organisations/harbour.json' with { type: 'json' };
import northwind from './organisations/northwind.json' with { type: 'json' };
import wattle from './organisations/wattle.json' with { type: 'json' };

/** In order: the first is the benchmark organisation that `scale` grows. */
export const DEMO_ORGANISATIONS: readonly DemoOrganisationDef[] = [northwind, harbour, wattle].map((data) => demoOrganisationSchema.parse(data));
