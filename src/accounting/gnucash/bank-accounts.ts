/**
 * The book's bank and card accounts (GnuCash types BANK, CHECKING, SAVINGS, MONEYMRKT and CREDIT;
 * not CASH: petty cash has no statements) with their balances at a date: every split posted on or
 * before it (post-dates.ts), its quantity in the account's own commodity, voided splits aside,
 * scheduled templates aside. Not GnuCash's account tree total, which counts future-dated splits
 * too: a balance said to be at a date holds nothing dated after it. A split GnuCash marks
 * reconciled ('y') counts towards the reconciled balance too.
 * Placeholder accounts (which hold no splits) and hidden accounts are not listed.
 */
import type { IsoDate } from '../../domain/dates.js';
import { minorDigits } from '../../domain/money.js';
import type { SystemBankAccount } from '../types.js';
import type { Book, BookContext } from './book.js';
import { readChart } from './chart.js';
import { fraction, sumOf, toSafeNumber, toUnits, type Fraction } from './fractions.js';
import { bookDate, postDateCondition } from './post-dates.js';

const BANK_TYPES = ['BANK', 'CHECKING', 'SAVINGS', 'MONEYMRKT'];
const CARD_TYPES = ['CREDIT'];

interface Row {
  guid: string;
  account_type: string;
  placeholder: bigint | null;
  currency: string;
}

interface SplitRow {
  account_guid: string;
  reconcile_state: string;
  quantity_num: bigint;
  quantity_denom: bigint;
}

export function readBankAccounts(db: Book, ctx: BookContext, asAt: IsoDate): SystemBankAccount[] {
  const chart = new Map(readChart(db, ctx).map((a) => [a.id, a]));
  const types = JSON.stringify([...BANK_TYPES, ...CARD_TYPES]);
  const accounts = (
    db
      .prepare(
        `SELECT a.guid, a.account_type, a.placeholder, c.mnemonic AS currency FROM accounts a JOIN commodities c ON c.guid = a.commodity_guid
         WHERE a.account_type IN (SELECT value FROM json_each(@types))`,
      )
      .safeIntegers(true)
      .all({ types }) as Row[]
  ).filter((a) => chart.get(a.guid)?.active === true && !a.placeholder);
  if (accounts.length === 0) return [];
  const dates = postDateCondition('t.post_date', undefined, asAt);
  const splits = db
    .prepare(
      `SELECT s.account_guid, s.reconcile_state, s.quantity_num, s.quantity_denom FROM splits s JOIN transactions t ON t.guid = s.tx_guid
       WHERE s.account_guid IN (SELECT value FROM json_each(@ids)) AND s.reconcile_state <> 'v' AND ${dates.sql}`,
    )
    .safeIntegers(true)
    .all({ ...dates.params, ids: JSON.stringify(accounts.map((a) => a.guid)) }) as SplitRow[];
  const all = new Map<string, Fraction[]>();
  const reconciled = new Map<string, Fraction[]>();
  for (const s of splits) {
    const q = fraction(s.quantity_num, s.quantity_denom);
    (all.get(s.account_guid) ?? all.set(s.account_guid, []).get(s.account_guid)!).push(q);
    if (s.reconcile_state === 'y') (reconciled.get(s.account_guid) ?? reconciled.set(s.account_guid, []).get(s.account_guid)!).push(q);
  }
  return accounts
    .map((a) => {
      const chartAccount = chart.get(a.guid)!;
      const scale = 10n ** BigInt(minorDigits(a.currency));
      const units = (list: Fraction[] | undefined) => toSafeNumber(toUnits(sumOf(list ?? []), scale));
      return {
        accountId: a.guid,
        name: chartAccount.name,
        number: chartAccount.number ?? '',
        type: CARD_TYPES.includes(a.account_type) ? ('credit_card' as const) : ('bank' as const),
        currency: a.currency,
        balance: units(all.get(a.guid)),
        reconciledBalance: units(reconciled.get(a.guid)),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.accountId.localeCompare(b.accountId));
}

/** The splits of one account GnuCash marks reconciled ('y'), dated from..to, in the account's currency. */
export function readReconciledLines(db: Book, accountId: string, from: IsoDate, to: IsoDate): { date: IsoDate; amount: number }[] {
  const dates = postDateCondition('t.post_date', from, to);
  const rows = db
    .prepare(
      `SELECT t.post_date, s.quantity_num, s.quantity_denom, c.mnemonic AS currency
       FROM splits s JOIN transactions t ON t.guid = s.tx_guid JOIN accounts a ON a.guid = s.account_guid
       JOIN commodities c ON c.guid = a.commodity_guid
       WHERE s.account_guid = @account AND s.reconcile_state = 'y' AND ${dates.sql}`,
    )
    .safeIntegers(true)
    .all({ ...dates.params, account: accountId }) as { post_date: string; quantity_num: bigint; quantity_denom: bigint; currency: string }[];
  return rows.map((r) => ({
    date: bookDate(r.post_date),
    amount: toSafeNumber(toUnits(fraction(r.quantity_num, r.quantity_denom), 10n ** BigInt(minorDigits(r.currency)))),
  }));
}
