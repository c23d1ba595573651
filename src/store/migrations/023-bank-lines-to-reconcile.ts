import { sql, type Kysely } from 'kysely';

/**
 * The lines still to reconcile, indexed by themselves (issue 43). They are the few a bookkeeper
 * works through (23,449 of the benchmark's 506,231 bank lines), so a page of them walked along the
 * date indexes read about twenty lines for each it kept, each from the table to test its status:
 * page 4 of 500 to reconcile over a year, 490 ms on one account. Partial indexes over just those
 * lines, by organisation and date and by account and date, give the page its rows in order
 * directly. The page's statement names the status as a literal (store/banking.ts), which is what
 * lets either database's planner use a partial index. The reconciled lines are nearly all of them:
 * the date indexes serve their pages as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index bank_transactions_to_reconcile on bank_transactions (organisation_id, date, id) where status = 'to_reconcile'`.execute(db);
  await sql`create index bank_transactions_account_to_reconcile on bank_transactions (organisation_id, bank_account_id, date, id)
            where status = 'to_reconcile'`.execute(db);
}
