/**
 * The demo: three organisations with two years and more of books up to a given date, their bank
 * feeds, documents with original files, bills to pay and saved filters, and users in every role.
 * The same (date, seed, scale) always writes the same rows: every id and choice comes from a seeded
 * stream and every timestamp from the date. `scale` multiplies the activity of the first
 * organisation only, the benchmark one; about 400 gives it a million ledger lines. `bankScale`
 * multiplies that organisation's bank and card feed on top (busy card spending booked as one card
 * charge per merchant and day, see card-feed.ts): about 3.1 at scale 400 gives 500,000 bank
 * transactions while the ledger stays near a million lines. Left at 1, nothing changes.
 */
import { BuiltinAccounting } from '../accounting/builtin/reader.js';
import { insertChunked } from '../accounting/builtin/writer.js';
import { addMonths, isValidDate, startOfMonth } from '../domain/dates.js';
import { refreshSuggestions } from '../operations/banking/suggestions.js';
import type { Role } from '../operations/context.js';
import type { Store } from '../store/db.js';
import { optimizeSearchTables } from '../store/search-merge.js';
import { generateActivity } from './activity.js';
import { savedFilterRows } from './bills.js';
import { DEMO_ORGANISATIONS } from './organisations.js';
import { Random } from './random.js';
import { setupOrganisation } from './setup.js';
import { addDemoMemberships, createDemoUsers, DEMO_PASSWORD, DEMO_USERS } from './users.js';

export interface DemoOptions {
  /** the demo's today, yyyy-MM-dd: nothing is dated after it */
  date: string;
  seed: number;
  /** activity of the first organisation, times its usual volume */
  scale: number;
  /** bank and card feed items of the first organisation, times what its ledger alone would give; default 1 */
  bankScale?: number;
  log?: (message: string) => void;
}

export interface DemoOrganisationSummary {
  id: string;
  name: string;
  homeCurrency: string;
  timeZone: string;
  fyStartMonth: number;
  counts: { accounts: number; transactions: number; lines: number; bankTransactions: number; documents: number; bills: number };
}

export interface DemoSummary {
  date: string;
  /** the first day of the books */
  from: string;
  seed: number;
  scale: number;
  bankScale: number;
  organisations: DemoOrganisationSummary[];
  users: { email: string; name: string; roles: { organisation: string; role: Role }[] }[];
  password: string;
}

/** How far back the books go. */
export const DEMO_MONTHS = 26;

export async function generateDemo(store: Store, options: DemoOptions): Promise<DemoSummary> {
  const { date, seed, scale, log } = options;
  const bankScale = options.bankScale ?? 1;
  if (!isValidDate(date)) throw new RangeError(`demo date must be a yyyy-MM-dd date, not "${date}"`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`demo seed must be an integer, not ${seed}`);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 10_000) throw new RangeError(`demo scale must be above 0 and at most 10000, not ${scale}`);
  if (!Number.isFinite(bankScale) || bankScale < 1 || bankScale > 100) throw new RangeError(`demo bankScale must be from 1 to 100, not ${bankScale}`);

  const start = startOfMonth(addMonths(date, -DEMO_MONTHS));
  const createdAt = `${start}T09:00:00.000Z`;
  const root = new Random(`ledgerline-demo/${seed}/${date}`);
  const userIds = await createDemoUsers(store, root.fork('users'), createdAt);

  const organisations: DemoOrganisationSummary[] = [];
  for (const [index, def] of DEMO_ORGANISATIONS.entries()) {
    const volume = index === 0 ? scale : 1;
    const began = Date.now();
    const ctx = await setupOrganisation(store, def, {
      asOf: date,
      start,
      volume,
      bankScale: index === 0 ? bankScale : 1,
      rng: root.fork(def.key),
      userIds,
      createdAt,
    });
    await generateActivity(ctx, log);
    await insertChunked(store.db, 'bill_filters', savedFilterRows(ctx.organisationId, ctx.makeId), store.dialect);
    await addDemoMemberships(store, def.key, ctx.organisationId, userIds, createdAt);
    // the lines still to reconcile carry the suggestions the service itself makes, as after an import
    await refreshSuggestions(store.db, ctx.organisationId, new BuiltinAccounting(store.db, ctx.organisationId), { today: date });
    const counts = { accounts: ctx.chart.size, ...ctx.books.counts };
    const n = (x: number) => x.toLocaleString('en-US');
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    log?.(`${def.name}: ${n(counts.lines)} ledger lines, ${n(counts.bankTransactions)} bank transactions, ${n(counts.documents)} documents in ${seconds} s`);
    organisations.push({
      id: ctx.organisationId,
      name: def.name,
      homeCurrency: def.homeCurrency,
      timeZone: def.timeZone,
      fyStartMonth: def.fyStartMonth,
      counts,
    });
  }

  // the search tables merged, as after any bulk load (store/search-merge.ts)
  await optimizeSearchTables(store.db);
  return {
    date,
    from: start,
    seed,
    scale,
    bankScale,
    organisations,
    users: DEMO_USERS.map((u) => ({
      email: u.email,
      name: u.name,
      roles: Object.entries(u.roles).map(([key, role]) => ({ organisation: DEMO_ORGANISATIONS.find((o) => o.key === key)!.name, role })),
    })),
    password: DEMO_PASSWORD,
  };
}
