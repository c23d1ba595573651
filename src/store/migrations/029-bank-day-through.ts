import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';
import { dayThroughFill } from '../bank-day-through.js';

/**
 * Each bank line's sum through its own day (issue 43): the amounts of its account's lines on its
 * date up to and including it, in id order. A bank page's running balance is the stored daily
 * totals up to the line's day plus this; counting it per page read about half of each row's day
 * (19 of a searched page's 23 ms at 10,000,000 ledger lines, where a busy account's day holds a
 * hundred times the lines it holds at 100,000), so a page's cost followed a day's volume. Kept by
 * store/bank-totals.ts with the daily totals, in the writer's transaction, for every day it touches.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('bank_transactions')
    .addColumn('day_through', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await dayThroughFill(null).execute(db);
}
