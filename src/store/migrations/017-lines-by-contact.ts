import { sql, type Kysely } from 'kysely';

/**
 * The ledger's newest lines of one contact in an account (a supplier's group of the ledger by
 * supplier) in the order they are shown: the contact's lines of the account by date and
 * transaction, so the read stops at the page's last line instead of walking the account's dates
 * and skipping every other contact's lines. On PostgreSQL it also gives that statement a plan that
 * holds for any values, so it is prepared once (store/prepared.ts genericPlan): without the index,
 * the generic plan sorted every line of the supplier (80 ms against 0.2); with it, custom plans
 * cost 0.47-0.83 ms of PostgreSQL's CPU and the generic one 0.30-0.33 (docs/performance.md, issue
 * 17's ninth session).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`create index acct_lines_contact_order on acct_lines (organisation_id, account_id, contact_id, date, transaction_id, line_no)`).execute(db);
}
