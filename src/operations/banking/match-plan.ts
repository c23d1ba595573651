/**
 * What banking.match checks before it writes: the lines are free and of one account the caller
 * sees, the document is the service's, published and not matched yet, in the account's currency,
 * and the lines add up to it (a bill, claim or receipt is money out of its total, a supplier's
 * refund of a credit money in), or differ only by a difference the caller names as a fee or a
 * rounding, booked on its own account.
 */
import type { ChartAccount } from '../../accounting/types.js';
import { minorDigits, sum, toMajor } from '../../domain/money.js';
import type { BankAccountRow, BankTransactionRow } from '../../store/schema.js';
import { OperationError, invalidParameter } from '../errors.js';
import { PAYABLE_TYPES } from '../documents/input.js';

export interface DifferenceChoice {
  kind: 'fee' | 'rounding';
  account?: string | undefined;
}

export interface MatchPlan {
  /** payment: the lines pay a bill or claim (or are a credit's refund); document: they are the receipt's own spend */
  kind: 'payment' | 'document';
  /** the lines' sum, account currency minor units (money in positive) */
  amount: number;
  home: number;
  /** lines' sum minus what the document asks, signed as the lines */
  difference: number;
  differenceHome: number;
  /** fee | rounding, as the caller named it; null when the lines agree */
  differenceKind: 'fee' | 'rounding' | null;
  differenceAccount: ChartAccount | null;
}

/** What each kind of difference may be, in words. */
const DIFFERENCE_RULES = {
  fee: () => 'a fee is money the bank took: the lines go out by more (or a refund comes in by less) than the document, by less than its total',
  rounding: (oneUnit: string) => `a rounding is at most ${oneUnit} either way`,
};

/**
 * The kinds a difference of the lines from the document may be booked as (lines minus what the
 * document asks, both signed as money in): a fee when the bank took money, less than the document's
 * total; a rounding when it is at most one unit of the currency. The pages offer exactly these.
 */
export function allowedDifferences(difference: number, expected: number, currency: string): ('fee' | 'rounding')[] {
  if (difference === 0) return [];
  const kinds: ('fee' | 'rounding')[] = [];
  if (difference < 0 && Math.abs(difference) < Math.abs(expected)) kinds.push('fee');
  if (Math.abs(difference) <= 10 ** minorDigits(currency)) kinds.push('rounding');
  return kinds;
}

const FEE_ACCOUNT = /\b(bank|merchant|card|payment)\b.*\b(fees?|charges?)\b/i;

/** The account a difference goes to: the one named, else the chart's single bank fees or charges expense. */
function differenceAccount(chart: ChartAccount[], named: string | undefined): ChartAccount | undefined {
  const expenses = chart.filter((a) => a.active && (a.classification === 'Expense' || a.classification === 'Revenue'));
  if (named) {
    const lower = named.trim().toLowerCase();
    return chart.find(
      (a) => a.active && (a.id === named.trim() || a.number === named.trim() || a.fullName.toLowerCase() === lower || a.name.toLowerCase() === lower),
    );
  }
  const fees = expenses.filter((a) => FEE_ACCOUNT.test(a.name));
  return fees.length === 1 ? fees[0] : undefined;
}

export function matchPlan(input: {
  lines: BankTransactionRow[];
  account: BankAccountRow;
  document: { currency: string; type: string; total: number | string; number: string };
  chart: ChartAccount[];
  difference: DifferenceChoice | undefined;
}): MatchPlan {
  const { lines, account, document: doc } = input;
  if (doc.currency !== account.currency)
    throw invalidParameter(
      'documentId',
      `the document is in ${doc.currency} and the account ${account.name} in ${account.currency}: match it to lines of an account in ${doc.currency}`,
    );
  const refund = doc.type === 'supplier_credit';
  const expected = (refund ? 1 : -1) * Number(doc.total);
  const amount = sum(lines.map((l) => Number(l.amount)));
  const home = sum(lines.map((l) => Number(l.home_amount)));
  const difference = amount - expected;
  const money = (minor: number) => `${toMajor(minor, doc.currency).toFixed(minorDigits(doc.currency))} ${doc.currency}`;
  let differenceAccountRow: ChartAccount | null = null;
  if (difference !== 0) {
    const what = `the lines come to ${money(amount)} and ${doc.type.replace('_', ' ')} ${doc.number} to ${money(expected)}`;
    if (!input.difference)
      throw new OperationError(
        'match_amounts_differ',
        `${what}: a difference of ${money(difference)}. Match the right lines, or name it with difference: { kind: "fee" or "rounding" }.`,
        [{ parameter: 'transactionIds', message: `${what}` }],
      );
    if (!allowedDifferences(difference, expected, doc.currency).includes(input.difference.kind))
      throw new OperationError(
        'match_amounts_differ',
        `${what}: ${DIFFERENCE_RULES[input.difference.kind](money(10 ** minorDigits(doc.currency)))}; this one is ${money(difference)}`,
        [{ parameter: 'difference.kind', message: `not a ${input.difference.kind}` }],
      );
    const found = differenceAccount(input.chart, input.difference.account);
    if (!found)
      throw invalidParameter(
        'difference.account',
        input.difference.account
          ? `"${input.difference.account}" is not an active account of the chart`
          : 'the chart has no single bank fees or charges account: name the account the difference goes to',
      );
    differenceAccountRow = found;
  } else if (input.difference) {
    throw invalidParameter('difference', `the lines come to exactly ${money(expected)}: there is no difference to book`);
  }
  // the difference's home amount in proportion to the lines' (exact when the account is in home currency)
  const differenceHome = difference === 0 ? 0 : amount === 0 ? 0 : Math.round((difference * home) / amount);
  return {
    kind: PAYABLE_TYPES.has(doc.type) || refund ? 'payment' : 'document',
    amount,
    home,
    difference,
    differenceHome,
    differenceKind: difference === 0 ? null : input.difference!.kind,
    differenceAccount: differenceAccountRow,
  };
}
