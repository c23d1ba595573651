/**
 * What a GnuCash business document (a vendor bill, a customer invoice) still leaves open: the
 * balance of its posted lot, and that balance in home minor units. Read the same way for payables
 * and receivables.
 */
import type { IsoDate } from '../../domain/dates.js';
import { AccountingSystemError } from '../types.js';
import { convertedSplits, homeAmount, type ValuedSplit } from './amounts.js';
import type { Book, BookContext } from './book.js';
import { divide, fraction, multiply, sumOf, toUnits, type Fraction } from './fractions.js';
import { postDateCondition } from './post-dates.js';

export interface PostingSplit extends ValuedSplit {
  guid: string;
  tx_guid: string;
  lot_guid: string | null;
}

/**
 * Each lot's balance (the sum of its splits' quantities, voided ones aside): the posting, payments
 * and the credit notes applied to it; with asAt, only what is dated on or before it.
 */
export function lotBalances(db: Book, lots: string[], asAt?: IsoDate): Map<string, Fraction> {
  const dated = asAt === undefined ? { sql: '1 = 1', params: {} } : postDateCondition('t.post_date', undefined, asAt);
  const rows = db
    .prepare(
      `SELECT s.lot_guid, s.quantity_num, s.quantity_denom FROM splits s JOIN transactions t ON t.guid = s.tx_guid
       WHERE s.lot_guid IN (SELECT value FROM json_each(@lots)) AND s.reconcile_state <> 'v' AND ${dated.sql}`,
    )
    .safeIntegers(true)
    .all({ lots: JSON.stringify(lots), ...dated.params }) as { lot_guid: string; quantity_num: bigint; quantity_denom: bigint }[];
  const splits = new Map<string, Fraction[]>();
  for (const s of rows) splits.set(s.lot_guid, [...(splits.get(s.lot_guid) ?? []), fraction(s.quantity_num, s.quantity_denom)]);
  return new Map([...splits].map(([lot, quantities]) => [lot, sumOf(quantities)]));
}

/** The lot splits of these transactions (the documents' postings), by `${tx_guid}/${lot_guid}`. */
export function postingSplits(db: Book, txGuids: string[]): Map<string, PostingSplit> {
  const rows = db
    .prepare(
      `SELECT s.guid, s.tx_guid, s.lot_guid, a.commodity_guid AS account_commodity, t.currency_guid AS tx_currency,
              s.value_num, s.value_denom, s.quantity_num, s.quantity_denom
       FROM splits s JOIN transactions t ON t.guid = s.tx_guid JOIN accounts a ON a.guid = s.account_guid
       WHERE s.tx_guid IN (SELECT value FROM json_each(@txs)) AND s.lot_guid IS NOT NULL`,
    )
    .safeIntegers(true)
    .all({ txs: JSON.stringify(txGuids) }) as PostingSplit[];
  return new Map(rows.map((s) => [`${s.tx_guid}/${s.lot_guid}`, s]));
}

/**
 * An open amount of a lot in home-currency minor units. On a home-currency account: the amount
 * itself. On an account in another currency: at the rate the document was posted at, as Ledgerline
 * keeps every foreign balance (docs/gnucash.md, Amounts).
 */
export function homeValueOfLot(db: Book, ctx: BookContext, posting: PostingSplit, open: Fraction): bigint {
  if (posting.account_commodity === ctx.homeGuid) return toUnits(open, ctx.scale);
  const postedHome = homeAmount(posting, ctx) ?? convertedSplits(db, ctx, { txGuids: [posting.tx_guid] }).find((c) => c.guid === posting.guid)?.amount;
  if (postedHome === undefined) throw new AccountingSystemError(`the GnuCash split ${posting.guid} could not be converted to ${ctx.homeCurrency}`);
  const quantity = fraction(posting.quantity_num, posting.quantity_denom);
  // home minor units per unit of the account's commodity, times what is open
  return toUnits(multiply(divide(fraction(postedHome, ctx.scale), quantity), open), ctx.scale);
}
