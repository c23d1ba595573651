/**
 * Account movements over date ranges, read from the splits in one pass: SQLite sums the splits per
 * account and hour of post_date (one row per account and day in practice), the rows are then added
 * into every range that contains their date. Sums stay exact: a group is summed only over splits
 * whose denominator divides the home currency's minor unit (so the sum is a whole number of minor
 * units); any other split is its own group and rounded on its own, exactly as a ledger line is.
 */
import { maxDate, type IsoDate } from '../../domain/dates.js';
import type { DateRange } from '../types.js';
import { convertedSplits, NEEDS_CONVERSION } from './amounts.js';
import type { Book, BookContext } from './book.js';
import { COUNTED } from './counted.js';
import { fraction, toSafeNumber, toUnits } from './fractions.js';
import { bookDate, postDateCondition } from './post-dates.js';

interface GroupRow {
  account: string;
  stamp: string;
  denom: bigint;
  num: bigint;
}

export function readAccountTotals(db: Book, ctx: BookContext, chartIds: Set<string>, ranges: DateRange[], accountIds?: string[]): Map<string, number[]> {
  const result = new Map<string, number[]>();
  if (ranges.length === 0) return result;
  const from = ranges.some((r) => r.from === undefined) ? undefined : ranges.map((r) => r.from!).reduce((a, b) => (a < b ? a : b));
  const to = ranges.map((r) => r.to).reduce(maxDate);
  const wanted = accountIds ? new Set(accountIds) : chartIds;
  const sums = new Map<string, bigint[]>();
  const addAt = (account: string, date: IsoDate, amount: bigint) => {
    if (!wanted.has(account) || !chartIds.has(account)) return;
    let row = sums.get(account);
    ranges.forEach((r, i) => {
      if (date > r.to || (r.from !== undefined && date < r.from)) return;
      if (!row) sums.set(account, (row = ranges.map(() => 0n)));
      row[i]! += amount;
    });
  };

  const dates = postDateCondition('t.post_date', from, to);
  const accountFilter = accountIds ? `AND s.account_guid IN (SELECT value FROM json_each(@accounts))` : '';
  const rows = db
    .prepare(
      `SELECT s.account_guid AS account, substr(t.post_date, 1, 13) AS stamp,
              CASE WHEN a.commodity_guid = @home THEN s.quantity_denom ELSE s.value_denom END AS denom,
              sum(CASE WHEN a.commodity_guid = @home THEN s.quantity_num ELSE s.value_num END) AS num
       FROM splits s
       JOIN transactions t ON t.guid = s.tx_guid
       JOIN accounts a ON a.guid = s.account_guid
       WHERE ${dates.sql} AND ${COUNTED} AND NOT (${NEEDS_CONVERSION}) ${accountFilter}
       GROUP BY s.account_guid, stamp, denom, CASE WHEN denom > 0 AND @scale % denom = 0 THEN '' ELSE s.guid END`,
    )
    .safeIntegers(true)
    .all({ ...dates.params, home: ctx.homeGuid, scale: ctx.scale, ...(accountIds ? { accounts: JSON.stringify(accountIds) } : {}) }) as GroupRow[];
  for (const r of rows) addAt(r.account, bookDate(r.stamp), toUnits(fraction(r.num, r.denom), ctx.scale));
  for (const c of convertedSplits(db, ctx, { from, to })) addAt(c.accountGuid, bookDate(c.postDate), c.amount);

  for (const [account, amounts] of sums) result.set(account, amounts.map(toSafeNumber));
  return result;
}
