/**
 * Aggregates of the builtin ledger's lines: summed in memory for a batch and added to the stored
 * rows in the batch's own database transaction. Adding rather than recomputing keeps concurrent
 * batches right: each upsert locks its row.
 * - acct_month_totals (migration 001): per account and month, what reports' whole months read;
 * - acct_day_totals (005): per account and day, so a report's partial months read a few hundred day
 *   rows instead of every line of those days;
 * - acct_month_line_totals (005): per account, month, transaction type and contact, with the count, so
 *   the ledger's totals (overall, by supplier, by month) over whole months never read the lines;
 * - acct_day_line_totals (015): the same per day, for the partial months at the ends of a ledger
 *   query's range.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { monthKey } from '../../domain/dates.js';
import { groupKey } from '../../domain/ledger-groups.js';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import type { AcctDayLineTotalRow, AcctDayTotalRow, AcctLineRow, AcctMonthLineTotalRow, AcctMonthTotalRow, Database } from '../../store/schema.js';

export type { AcctDayLineTotalRow, AcctDayTotalRow, AcctMonthLineTotalRow } from '../../store/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

type AggregatedLine = Pick<AcctLineRow, 'organisation_id' | 'account_id' | 'date' | 'type' | 'contact_id' | 'amount'>;

/**
 * Adds the lines to every aggregate; call it in the transaction that inserts the lines. With sign
 * -1 it takes them off again, in the transaction that deletes them (the mirror replacing a
 * transaction the vendor changed: mirror/ledger.ts).
 */
export async function addLineAggregates(trx: Db, dialect: DialectCapabilities, lines: AggregatedLine[], sign: 1 | -1 = 1): Promise<void> {
  const totals = new Map<string, AcctMonthTotalRow>();
  const days = new Map<string, AcctDayTotalRow>();
  const months = new Map<string, AcctMonthLineTotalRow>();
  const dayLines = new Map<string, AcctDayLineTotalRow>();
  for (const { amount: lineAmount, organisation_id, account_id, date, type, contact_id } of lines) {
    const amount = sign * lineAmount;
    const month = monthKey(date);
    const contact_key = groupKey('supplier', { contactId: contact_id, date });
    const totalKey = `${organisation_id}\u0000${account_id}\u0000${month}`;
    rowOf(totals, totalKey, () => ({ organisation_id, account_id, month, amount: 0 })).amount += amount;
    const dayKey = `${organisation_id}\u0000${account_id}\u0000${date}`;
    rowOf(days, dayKey, () => ({ organisation_id, account_id, date, amount: 0 })).amount += amount;
    const monthLineKey = `${totalKey}\u0000${type}\u0000${contact_key}`;
    const monthLine = rowOf(months, monthLineKey, () => ({ organisation_id, account_id, month, type, contact_key, amount: 0, count: 0 }));
    monthLine.amount += amount;
    monthLine.count += sign;
    const dayLineKey = `${dayKey}\u0000${type}\u0000${contact_key}`;
    const dayLine = rowOf(dayLines, dayLineKey, () => ({ organisation_id, account_id, date, type, contact_key, amount: 0, count: 0 }));
    dayLine.amount += amount;
    dayLine.count += sign;
  }
  for (const chunk of chunks([...totals.values()], Math.floor(dialect.maxParameters / 4))) {
    await trx
      .insertInto('acct_month_totals')
      .values(chunk)
      .onConflict((oc) => oc.columns(['organisation_id', 'account_id', 'month']).doUpdateSet({ amount: sql`acct_month_totals.amount + excluded.amount` }))
      .execute();
  }
  for (const chunk of chunks([...days.values()], Math.floor(dialect.maxParameters / 4))) {
    await trx
      .insertInto('acct_day_totals')
      .values(chunk)
      .onConflict((oc) => oc.columns(['organisation_id', 'account_id', 'date']).doUpdateSet({ amount: sql`acct_day_totals.amount + excluded.amount` }))
      .execute();
  }
  await addCounted(trx, dialect, 'acct_month_line_totals', 'month', [...months.values()]);
  await addCounted(trx, dialect, 'acct_day_line_totals', 'date', [...dayLines.values()]);
}

/** The row of `key`, made with nothing added to it yet the first time the key is seen. */
function rowOf<R>(rows: Map<string, R>, key: string, make: () => R): R {
  let row = rows.get(key);
  if (!row) rows.set(key, (row = make()));
  return row;
}

/** Upserts line totals with their count (the month and the day tables differ only in that column). */
async function addCounted(
  db: Db,
  dialect: DialectCapabilities,
  table: 'acct_month_line_totals' | 'acct_day_line_totals',
  period: 'month' | 'date',
  rows: (AcctMonthLineTotalRow | AcctDayLineTotalRow)[],
): Promise<void> {
  for (const chunk of chunks(rows, Math.floor(dialect.maxParameters / 7))) {
    await (db as Kysely<any>)
      .insertInto(table)
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['organisation_id', 'account_id', period, 'type', 'contact_key']).doUpdateSet({
          amount: sql`${sql.ref(table)}.amount + excluded.amount`,
          count: sql`${sql.ref(table)}.count + excluded.count`,
        }),
      )
      .execute();
  }
}
