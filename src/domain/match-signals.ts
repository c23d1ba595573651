/**
 * What one bank line and one candidate document have in common, each signal with its points and
 * the words that say it (match-suggestions.ts adds them up). Points out of 115 in all: the amount
 * 45, the supplier's name 30, the document's number 25, the dates 15.
 */
import { addDays, type IsoDate } from './dates.js';
import { findName, findNumber, type Narration, type NumberForms } from './match-text.js';
import { formatMoney, minorDigits } from './money.js';

export type CandidateKind = 'bill' | 'receipt' | 'expense_claim' | 'supplier_credit';

/** A bank line still to reconcile. */
export interface LineToMatch {
  id: string;
  date: IsoDate;
  description: string;
  /** minor units of `currency`, the account's; negative for money spent */
  amount: number;
  /** home-currency minor units, at the day's rate */
  homeAmount: number;
  currency: string;
}

/** A document a bank line may pay (or, for a supplier credit, refund). */
export interface MatchCandidate {
  id: string;
  kind: CandidateKind;
  supplier: string;
  number: string;
  date: IsoDate;
  dueDate: IsoDate | null;
  currency: string;
  /** what a line pays or refunds in full: minor units of `currency`, positive */
  amount: number;
  /** the same in home-currency minor units where known (a document in home currency: `amount`) */
  homeAmount: number | null;
}

export interface Signal {
  points: number;
  /** in words, made only for the candidates kept (most scored pairs are thrown away) */
  reason: () => string;
}

export const MAX_POINTS = 115;

const WORD: Record<CandidateKind, string> = { bill: 'bill', receipt: 'receipt', expense_claim: 'expense claim', supplier_credit: 'credit note' };
const NUMBER_WORD: Record<CandidateKind, string> = {
  bill: 'invoice number',
  receipt: 'receipt number',
  expense_claim: 'claim number',
  supplier_credit: 'credit note number',
};

export const kindWord = (kind: CandidateKind) => WORD[kind];

/** Money in for a supplier's credit (a refund), money out for everything else. */
export const rightWay = (line: LineToMatch, c: MatchCandidate) => (c.kind === 'supplier_credit' ? line.amount > 0 : line.amount < 0);

/**
 * How much a bank's fee may add to a payment (or take off a refund) and the line still be that
 * document's: 5% of the amount, at least 1 and at most 25 units of the currency (a charge on a
 * payment abroad). None on a card receipt: the card pays the receipt's amount.
 */
export function feeAllowance(amount: number, currency: string, kind: CandidateKind): number {
  if (kind === 'receipt') return 0;
  const unit = 10 ** minorDigits(currency);
  return Math.min(25 * unit, Math.max(unit, Math.round(amount * 0.05)));
}

/** Relative gaps for a line against a document in another currency, both in home currency: a day's rate against the document's. */
export const CONVERTED_WITHIN = [0.01, 0.025, 0.04] as const;

export function amountSignal(line: LineToMatch, c: MatchCandidate): Signal | undefined {
  const size = Math.abs(line.amount);
  if (c.currency === line.currency) {
    if (size === c.amount) return { points: 45, reason: () => `amount equal ${formatMoney(size, c.currency)}` };
    // a fee makes money out larger than the bill and a refund smaller than the credit
    const fee = c.kind === 'supplier_credit' ? c.amount - size : size - c.amount;
    if (fee <= 0 || fee > feeAllowance(c.amount, c.currency, c.kind)) return undefined;
    const way = c.kind === 'supplier_credit' ? 'less' : 'more';
    return {
      points: 24,
      reason: () =>
        `amount ${formatMoney(size, c.currency)}, ${formatMoney(fee, c.currency)} ${way} than ` +
        `the ${WORD[c.kind]}'s ${formatMoney(c.amount, c.currency)} (a bank fee?)`,
    };
  }
  if (c.homeAmount === null || c.homeAmount <= 0) return undefined;
  const gap = Math.abs(Math.abs(line.homeAmount) - c.homeAmount) / c.homeAmount;
  const points = gap <= CONVERTED_WITHIN[0] ? 40 : gap <= CONVERTED_WITHIN[1] ? 34 : gap <= CONVERTED_WITHIN[2] ? 22 : 0;
  if (points === 0) return undefined;
  const apart = gap < 0.0005 ? 'at the same rate' : `${(gap * 100).toFixed(1)}% apart at the day's rate`;
  return { points, reason: () => `amount ${formatMoney(size, line.currency)} for ${formatMoney(c.amount, c.currency)} converted, ${apart}` };
}

/**
 * The supplier's name in the narration: in full, cut short by the bank, or its first words.
 * `forms[1]`, a person's name with an initial, counts only in full.
 */
export function nameSignal(narration: Narration, forms: string[][]): Signal | undefined {
  let found = findName(narration, forms[0]!);
  if (found?.fit !== 'whole') {
    const initial = forms[1] ? findName(narration, forms[1]) : undefined;
    if (initial?.fit === 'whole') found = initial;
  }
  if (!found) return undefined;
  if (found.fit === 'whole') return { points: 30, reason: () => `supplier name '${found.quoted}' in the narration` };
  // NORTHWIND at the narration's end may be all of Northwind Ltd or the start of Northwind Traders: alike
  if (found.fit === 'cut')
    return {
      points: 18 + Math.round(12 * (found.atWordEnd && found.share * joinedLength(forms[0]!) >= 6 ? Math.max(found.share, 0.8) : found.share)),
      reason: () => `supplier name '${found.quoted}' in the narration`,
    };
  return { points: 6 + Math.round(10 * found.share), reason: () => `part of the supplier name, '${found.quoted}', in the narration` };
}

export function numberSignal(narration: Narration, c: MatchCandidate, number: NumberForms): Signal | undefined {
  const fit = findNumber(narration, number);
  if (fit === 'exact') return { points: 25, reason: () => `${NUMBER_WORD[c.kind]} ${c.number} in the narration` };
  if (fit === 'digits') return { points: 20, reason: () => `${NUMBER_WORD[c.kind]} ${c.number} in the narration (its digits ${number.digits})` };
  return undefined;
}

const joinedLength = (words: string[]) => words.reduce((n, w) => n + w.length, 0);

/**
 * Days from one date to another, the dates read once: a thousand lines against a thousand
 * documents ask for the same few hundred dates a million times, and dates.ts parses each time.
 */
const epochDays = new Map<string, number>();
function daysBetween(from: IsoDate, to: IsoDate): number {
  return epochDay(to) - epochDay(from);
}
function epochDay(date: IsoDate): number {
  let day = epochDays.get(date);
  if (day === undefined) {
    if (epochDays.size > 50_000) epochDays.clear();
    day = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
    epochDays.set(date, day);
  }
  return day;
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * When the line came against the document's dates; undefined when it cannot be its payment: a bill
 * paid before it was issued (a few days' grace) or over 400 days after, a card receipt not within
 * days of the purchase, a refund before its credit note.
 */
export { daysBetween, epochDay };

/** A line's and a document's dates as day numbers (epochDay), read once per line and per document; `due` defaults to 30 days after the date. */
export interface DaysOf {
  line: number;
  date: number;
  due: number;
}

export function dateSignal(line: LineToMatch, c: MatchCandidate, at?: DaysOf): Signal | undefined {
  const after = at ? at.line - at.date : daysBetween(c.date, line.date);
  const word = WORD[c.kind];
  if (c.kind === 'receipt') {
    if (after < -3 || after > 45) return undefined;
    const when = after === 0 ? `on the receipt's date` : after > 0 ? `${days(after)} after the receipt's date` : `${days(-after)} before the receipt's date`;
    return { points: Math.abs(after) <= 3 ? 15 : after <= 10 ? 8 : 2, reason: () => `paid ${when}` };
  }
  if (c.kind === 'supplier_credit') {
    if (after < -3 || after > 365) return undefined;
    return { points: after <= 60 ? 10 : after <= 180 ? 4 : 0, reason: () => `refunded ${days(Math.max(0, after))} after the credit note` };
  }
  if (after < -5 || after > 400) return undefined;
  if (after < 0) return { points: 0, reason: () => `paid ${days(-after)} before the ${word}'s date` };
  const late = at ? at.line - at.due : daysBetween(c.dueDate ?? addDays(c.date, 30), line.date);
  if (late === 0) return { points: 15, reason: () => 'paid on the due date' };
  if (Math.abs(late) <= 5)
    return { points: 15, reason: () => (late > 0 ? `paid ${days(late)} after the due date` : `paid ${days(-late)} before the due date`) };
  if (late < 0) return { points: 11, reason: () => `paid ${days(after)} after the ${word}'s date, ${days(-late)} before the due date` };
  // long overdue bills are seldom what a payment is for, when newer ones are open
  return { points: late <= 30 ? 8 : late <= 90 ? 3 : late <= 180 ? -5 : -10, reason: () => `paid ${days(late)} after the due date` };
}
