import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * PostgreSQL: the stored month and day totals by (organisation, account, period) carrying the
 * amount, so the account totals of a few accounts (the ledger's opening balance, the ageing's
 * control accounts; accounting/builtin/range-totals.ts) read their own rows from an index alone
 * rather than every account's rows of the range from the (organisation, period) index, filtered:
 * one account over a year and two partial months 1.6 → 0.5 ms (docs/performance.md). The primary
 * keys have these columns but not the amount, and a statement named once must be served by an
 * index-only scan whatever account it is asked for. SQLite keeps its statement, which reads the
 * totals of some accounts as before.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'postgres') return;
  await sql`create index acct_month_totals_account on acct_month_totals (organisation_id, account_id, month) include (amount)`.execute(db);
  await sql`create index acct_day_totals_account on acct_day_totals (organisation_id, account_id, date) include (amount)`.execute(db);
}
