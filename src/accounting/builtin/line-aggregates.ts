/**
 * Aggregates of the builtin ledger's lines: summed in memory for a batch and added to the stored
 * rows in the batch's own database transaction. Adding rather than recomputing keeps concurrent
 * batches right: each upsert locks its row.
 * - acct_month_totals (migration 001): per account and month, what reports' whole months read;
 * - acct_day_totals (005): per account and day, so a report's partial months read a few hundred day
 *   rows instead of every line of those days;
 * - acct_month_line_totals (005): per account, month, transaction type and contact, with the count, so
 *   the ledger's totals (overall, by supplier, by month) over whole months never read the lines.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { monthKey } from '../../domain/dates.js';
import { groupKey } from '../../domain/ledger-groups.js';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import type { AcctLineRow, AcctMonthTotalRow, Database } from '../../store/schema.js';

export interface AcctDayTotalRow {
  organisation_id: string;
  account_id: string;
  /** yyyy-MM-dd */
  date: string;
  /** home currency minor units, debit positive */
  amount: number;
}

export interface AcctMonthLineTotalRow {
  organisation_id: string;
  account_id: string;
  /** yyyy-MM */
  month: string;
  type: string;
  /** the lines' contact, '' for lines without one */
  contact_key: string;
  amount: number;
  count: number;
}

export type AggregatesDatabase = Database & { acct_day_totals: AcctDayTotalRow; acct_month_line_totals: AcctMonthLineTotalRow };

type Db = Kysely<Database> | Transaction<Database>;

/** The same connection, seen with the aggregate tables (kept beside schema.ts, not in it). */
export function withAggregates(db: Db): Kysely<AggregatesDatabase> {
  return db as unknown as Kysely<AggregatesDatabase>;
}

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
  for (const { amount: lineAmount, ...line } of lines) {
    const amount = sign * lineAmount;
    const month = monthKey(line.date);
    const totalKey = `${line.organisation_id}\u0000${line.account_id}\u0000${month}`;
    const total = totals.get(totalKey);
    if (total) total.amount += amount;
    else totals.set(totalKey, { organisation_id: line.organisation_id, account_id: line.account_id, month, amount });
    const dayKey = `${line.organisation_id}\u0000${line.account_id}\u0000${line.date}`;
    const day = days.get(dayKey);
    if (day) day.amount += amount;
    else days.set(dayKey, { organisation_id: line.organisation_id, account_id: line.account_id, date: line.date, amount });
    const contact = groupKey('supplier', { contactId: line.contact_id, date: line.date });
    const monthKeyText = `${line.organisation_id}\u0000${line.account_id}\u0000${month}\u0000${line.type}\u0000${contact}`;
    const row = months.get(monthKeyText);
    if (row) {
      row.amount += amount;
      row.count += sign;
    } else {
      months.set(monthKeyText, { organisation_id: line.organisation_id, account_id: line.account_id, month, type: line.type, contact_key: contact, amount, count: sign });
    }
  }
  for (const chunk of chunks([...totals.values()], Math.floor(dialect.maxParameters / 4))) {
    await trx
      .insertInto('acct_month_totals')
      .values(chunk)
      .onConflict((oc) => oc.columns(['organisation_id', 'account_id', 'month']).doUpdateSet({ amount: sql`acct_month_totals.amount + excluded.amount` }))
      .execute();
  }
  const db = withAggregates(trx);
  for (const chunk of chunks([...days.values()], Math.floor(dialect.maxParameters / 4))) {
    await db
      .insertInto('acct_day_totals')
      .values(chunk)
      .onConflict((oc) => oc.columns(['organisation_id', 'account_id', 'date']).doUpdateSet({ amount: sql`acct_day_totals.amount + excluded.amount` }))
      .execute();
  }
  for (const chunk of chunks([...months.values()], Math.floor(dialect.maxParameters / 7))) {
    await db
      .insertInto('acct_month_line_totals')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['organisation_id', 'account_id', 'month', 'type', 'contact_key']).doUpdateSet({
          amount: sql`acct_month_line_totals.amount + excluded.amount`,
          count: sql`acct_month_line_totals.count + excluded.count`,
        }),
      )
      .execute();
  }
}
