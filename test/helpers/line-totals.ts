/**
 * The stored line totals by month and by day (acct_month_line_totals, acct_day_line_totals) hold
 * exactly their lines' sums and counts by account, period, type and contact: a row for every
 * group of lines, none left at zero.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Store } from '../../src/store/db.js';

export async function assertLineTotalsMatch(store: Store, organisationId?: string): Promise<void> {
  const ofOrganisation = organisationId === undefined ? sql`` : sql`where organisation_id = ${organisationId}`;
  for (const [table, period, ofLine] of [
    ['acct_month_line_totals', 'month', 'substr(date, 1, 7)'],
    ['acct_day_line_totals', 'date', 'date'],
  ] as const) {
    type Row = { key: string; amount: number | string; count: number | string };
    const fresh = await sql<Row>`
      select organisation_id || '/' || account_id || '/' || ${sql.raw(ofLine)} || '/' || type || '/' || coalesce(contact_id, '') as key, sum(amount)
        as amount, count(*) as count
      from acct_lines ${ofOrganisation} group by organisation_id, account_id, ${sql.raw(ofLine)}, type, coalesce(contact_id, '')`.execute(store.db);
    const stored = await sql<Row>`
      select organisation_id || '/' || account_id || '/' || ${sql.ref(period)} || '/' || type || '/' || contact_key as key, amount, count
      from ${sql.table(table)} ${ofOrganisation}`.execute(store.db);
    const text = (rows: Row[]) => rows.map((r) => `${r.key}=${Number(r.amount)}/${Number(r.count)}`).sort();
    assert.deepEqual(text(stored.rows), text(fresh.rows), table);
  }
}
