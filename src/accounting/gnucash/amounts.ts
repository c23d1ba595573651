/**
 * A split's amount in the home currency, exactly, in minor units. A GnuCash split carries a value
 * (in the transaction's currency) and a quantity (in its account's commodity):
 *
 * 1. account in the home currency: its quantity, which is what GnuCash's own balances add up;
 * 2. transaction in the home currency: its value;
 * 3. neither (a dollar account in a dollar transaction): its value times the transaction's own rate,
 *    taken from its home-currency splits (the size of their quantities over the size of their
 *    values), or, when it has none, from GnuCash's price database (the price of the transaction
 *    currency in the home currency on the latest day on or before the transaction, else the
 *    earliest after; an inverse price counts too). Each such amount is rounded half away from zero; a rounding difference
 *    left in the transaction goes to its largest converted split, so every transaction still
 *    balances in the home currency.
 */
import type { IsoDate } from '../../domain/dates.js';
import { AccountingSystemError } from '../types.js';
import type { Book, BookContext } from './book.js';
import { COUNTED } from './counted.js';
import { divide, fraction, multiply, signOf, sumOf, toUnits, type Fraction } from './fractions.js';
import { bookDate, postDateCondition } from './post-dates.js';

export interface ValuedSplit {
  account_commodity: string;
  tx_currency: string;
  value_num: bigint;
  value_denom: bigint;
  quantity_num: bigint;
  quantity_denom: bigint;
}

/** Rules 1 and 2, or undefined when the split needs a conversion (rule 3). */
export function homeAmount(split: ValuedSplit, ctx: BookContext): bigint | undefined {
  if (split.account_commodity === ctx.homeGuid) return toUnits(fraction(split.quantity_num, split.quantity_denom), ctx.scale);
  if (split.tx_currency === ctx.homeGuid) return toUnits(fraction(split.value_num, split.value_denom), ctx.scale);
  return undefined;
}

/** SQL: the split needs a conversion (with `s`, `a` and `t` for split, account and transaction). */
export const NEEDS_CONVERSION = `a.commodity_guid <> @home AND t.currency_guid <> @home`;

interface TxSplit extends ValuedSplit {
  guid: string;
  tx_guid: string;
  account_guid: string;
  post_date: string;
  description: string;
  currency: string;
}

export interface ConvertedSplit {
  guid: string;
  txGuid: string;
  accountGuid: string;
  postDate: string;
  amount: bigint;
}

/**
 * Rule 3 for every split that needs it in the transactions selected: either given ids, or those
 * dated in from..to. Returns the converted splits only.
 */
export function convertedSplits(db: Book, ctx: BookContext, select: { txGuids: string[] } | { from?: IsoDate; to: IsoDate }): ConvertedSplit[] {
  let txCondition: string;
  let params: Record<string, unknown> = { home: ctx.homeGuid };
  if ('txGuids' in select) {
    if (select.txGuids.length === 0) return [];
    txCondition = `t.guid IN (SELECT value FROM json_each(@ids))`;
    params.ids = JSON.stringify(select.txGuids);
  } else {
    const dates = postDateCondition('t.post_date', select.from, select.to);
    txCondition = dates.sql;
    params = { ...params, ...dates.params };
  }
  const splits = db
    .prepare(
      `SELECT s.guid, s.tx_guid, s.account_guid, a.commodity_guid AS account_commodity, t.currency_guid AS tx_currency,
              s.value_num, s.value_denom, s.quantity_num, s.quantity_denom, t.post_date, t.description, c.mnemonic AS currency
       FROM splits s
       JOIN transactions t ON t.guid = s.tx_guid
       JOIN accounts a ON a.guid = s.account_guid
       JOIN commodities c ON c.guid = t.currency_guid
       WHERE ${COUNTED} AND t.currency_guid <> @home
         AND t.guid IN (SELECT t.guid FROM transactions t JOIN splits s ON s.tx_guid = t.guid JOIN accounts a ON a.guid = s.account_guid
                        WHERE ${txCondition} AND ${NEEDS_CONVERSION} AND ${COUNTED})
       ORDER BY s.tx_guid`,
    )
    .safeIntegers(true)
    .all(params) as TxSplit[];
  const byTx = new Map<string, TxSplit[]>();
  for (const s of splits) {
    const list = byTx.get(s.tx_guid) ?? [];
    list.push(s);
    byTx.set(s.tx_guid, list);
  }
  const out: ConvertedSplit[] = [];
  for (const txSplits of byTx.values()) out.push(...convertTransaction(db, ctx, txSplits));
  return out;
}

function convertTransaction(db: Book, ctx: BookContext, splits: TxSplit[]): ConvertedSplit[] {
  const first = splits[0]!;
  const home = splits.filter((s) => s.account_commodity === ctx.homeGuid);
  const foreign = splits.filter((s) => s.account_commodity !== ctx.homeGuid);
  // sizes, not signed sums: home splits may cancel out (a transfer between two pound accounts, or
  // GnuCash's trading-account splits), and at one rate the ratio of the sizes is that rate
  const size = (f: Fraction): Fraction => (f.num < 0n ? { num: -f.num, den: f.den } : f);
  const homeValue = sumOf(home.map((s) => size(fraction(s.value_num, s.value_denom))));
  const rate =
    signOf(homeValue) !== 0
      ? divide(sumOf(home.map((s) => size(fraction(s.quantity_num, s.quantity_denom)))), homeValue)
      : priceOf(db, ctx, first.tx_currency, first.currency, bookDate(first.post_date), first.description);
  const amounts = foreign.map((s) => toUnits(multiply(fraction(s.value_num, s.value_denom), rate), ctx.scale));
  const homeTotal = home.reduce((t, s) => t + toUnits(fraction(s.quantity_num, s.quantity_denom), ctx.scale), 0n);
  const residual = -(homeTotal + amounts.reduce((t, a) => t + a, 0n));
  if (residual !== 0n && amounts.length > 0) {
    let largest = 0;
    amounts.forEach((a, i) => {
      if ((a < 0n ? -a : a) > (amounts[largest]! < 0n ? -amounts[largest]! : amounts[largest]!)) largest = i;
    });
    amounts[largest] = amounts[largest]! + residual;
  }
  return foreign.map((s, i) => ({ guid: s.guid, txGuid: s.tx_guid, accountGuid: s.account_guid, postDate: s.post_date, amount: amounts[i]! }));
}

interface PriceRow {
  date: string;
  commodity_guid: string;
  value_num: bigint;
  value_denom: bigint;
}

/** Home-currency units per unit of `currency` on `date`, from GnuCash's price database. */
function priceOf(db: Book, ctx: BookContext, currencyGuid: string, currency: string, date: IsoDate, description: string): Fraction {
  const rows = db
    .prepare(
      `SELECT date, commodity_guid, value_num, value_denom FROM prices
       WHERE ((commodity_guid = @cur AND currency_guid = @home) OR (commodity_guid = @home AND currency_guid = @cur)) AND value_num <> 0`,
    )
    .safeIntegers(true)
    .all({ cur: currencyGuid, home: ctx.homeGuid }) as PriceRow[];
  const dated = rows.map((r) => ({ ...r, day: bookDate(r.date) }));
  const before = dated.filter((r) => r.day <= date).sort((a, b) => (a.day === b.day ? b.date.localeCompare(a.date) : b.day.localeCompare(a.day)));
  const after = dated.filter((r) => r.day > date).sort((a, b) => a.date.localeCompare(b.date));
  const chosen = before[0] ?? after[0];
  if (!chosen)
    throw new AccountingSystemError(
      `The GnuCash book ${ctx.name} has no ${ctx.homeCurrency} price for ${currency}, needed for the transaction "${description}" of ${date}; add one ` +
        `in GnuCash's Price Database.`,
    );
  const value = fraction(chosen.value_num, chosen.value_denom);
  return chosen.commodity_guid === currencyGuid ? value : divide(fraction(1, 1), value);
}
