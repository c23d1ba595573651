/**
 * A parsed journal made exact: every amount in integer minor units of its currency and of the home
 * currency, the one amount a transaction leaves out filled in, and every transaction checked to
 * balance in the home currency. What cannot be made exact (a currency that is not ISO 4217, more
 * decimals than the currency has, a foreign amount with no rate, a transaction that does not
 * balance, a type Ledgerline does not know, a failed balance assertion) refuses the file with the
 * line named, before anything is read from or written to the books.
 */
import {
  amountBoundText,
  convertWithinBound,
  formatMoney,
  fromMajor,
  isCurrencyCode,
  minorDigits,
  overAmountBound,
  withinAmountBound,
} from '../../domain/money.js';
import { LISTED_TYPES, OTHER_TYPES, type TransactionType } from '../../accounting/types.js';
import { ImportRefusal, Problems, type RefusalCode } from '../refusal.js';
import type { Assertion, JournalEntry, JournalPosting, ParsedJournal, Price } from './entries.js';

export interface SettledPosting {
  where: string;
  /** its own date where the file gives one (hledger's posting date), else the transaction's */
  date: string;
  account: string;
  currency: string;
  /** minor units of `currency`, debit positive */
  amountInCurrency: number;
  /** minor units of the home currency, debit positive */
  amount: number;
  description: string | null;
}

export interface SettledEntry {
  where: string;
  date: string;
  number: string | null;
  /** as the file names it; null where it names none, to be told from the postings (infer-type.ts) */
  type: TransactionType | null;
  contact: string | null;
  /** hledger's payee where the file names no contact (entries.ts) */
  payee: string | null;
  /** the file's `closing:` tag (entries.ts) */
  closing: boolean | null;
  description: string;
  /** the first foreign currency among the postings, else the home currency */
  currency: string;
  /** home units per unit of `currency`, decimal text */
  exchangeRate: string;
  postings: SettledPosting[];
}

/** Symbols to the currencies they can mean; the home currency wins where it is one of them. */
const SYMBOLS: Record<string, string[]> = {
  '£': ['GBP'],
  '€': ['EUR'],
  $: ['USD', 'AUD', 'CAD', 'NZD', 'SGD', 'HKD', 'MXN'],
  '¥': ['JPY', 'CNY'],
  '₹': ['INR'],
};

/** Type names as systems export them, to Ledgerline's transaction types. */
const TYPE_NAMES: Record<string, TransactionType> = {
  'journal entry': 'journal',
  'general journal': 'journal',
  check: 'cheque',
  'credit card charge': 'card_charge',
  'card charge': 'card_charge',
  'credit card credit': 'card_refund',
  'card refund': 'card_refund',
  'credit card refund': 'card_refund',
  'vendor credit': 'supplier_credit',
  'supplier credit': 'supplier_credit',
  'bill payment': 'payment',
  'receive payment': 'payment',
  'customer payment': 'payment',
  'supplier payment': 'payment',
};
const TYPES: readonly string[] = [...LISTED_TYPES, ...OTHER_TYPES];

/** The type a file names, or null where it names none; undefined where it names one Ledgerline does not know. */
export function transactionType(name: string | null): TransactionType | null | undefined {
  if (name === null || name.trim() === '') return null;
  const key = name.trim().toLowerCase().replace(/[_-]/g, ' ');
  const exact = key.replace(/ /g, '_');
  if (TYPES.includes(exact)) return exact as TransactionType;
  return TYPE_NAMES[key];
}

interface Found {
  code: RefusalCode;
  where: string;
  message: string;
}

export function settleJournal(journal: ParsedJournal, homeCurrency: string): SettledEntry[] {
  const found: Found[] = [];
  const problem = (code: RefusalCode, where: string, message: string) => found.push({ code, where, message });
  const known = new Map<string, string | null>();
  const currencyOf = (commodity: string | null, where: string): string | null => {
    if (commodity === null) return homeCurrency;
    let code = known.get(commodity);
    if (code === undefined) {
      const candidates = SYMBOLS[commodity];
      const named = candidates ? (candidates.includes(homeCurrency) ? homeCurrency : candidates[0]!) : commodity.toUpperCase();
      code = isCurrencyCode(named) ? named : null;
      known.set(commodity, code);
    }
    if (code === null) problem('unknown_currency', where, `"${commodity}" is not an ISO 4217 currency code`);
    return code;
  };
  const entries = journal.entries.flatMap((entry) => {
    const settled = settleEntry(entry, homeCurrency, currencyOf, problem);
    return settled ? [settled] : [];
  });
  if (found.length === 0) checkAssertions(journal, entries, currencyOf, problem);
  if (found.length) {
    const problems = new Problems();
    for (const f of found) problems.add(f.where, f.message);
    throw ImportRefusal.of(found[0]!.code, 'the journal cannot be imported', problems.list);
  }
  return entries;
}

type CurrencyOf = (commodity: string | null, where: string) => string | null;
type Report = (code: RefusalCode, where: string, message: string) => void;

function settleEntry(entry: JournalEntry, home: string, currencyOf: CurrencyOf, problem: Report): SettledEntry | null {
  const type = transactionType(entry.type);
  if (type === undefined) problem('malformed', entry.where, `type "${entry.type}" is not one of ${TYPES.join(', ')}`);
  const elided = entry.postings.filter((p) => p.amount === null);
  if (elided.length > 1) problem('unbalanced', entry.where, 'more than one posting leaves its amount out; at most one may');
  const explicit: SettledPosting[] = [];
  for (const p of entry.postings) {
    if (p.amount === null) continue;
    const posting = settlePosting(p, entry.date, home, currencyOf, problem);
    if (posting) explicit.push(posting);
  }
  if (type === undefined || elided.length > 1 || explicit.length !== entry.postings.length - elided.length) return null;

  const postings = entry.postings.map((p) => (p.amount === null ? null : explicit.shift()!));
  const filled = postings.filter((p): p is SettledPosting => p !== null);
  const homeTotal = filled.reduce((s, p) => s + p.amount, 0);
  const currencies = new Set(filled.map((p) => p.currency));
  const [only] = currencies;
  const oneCurrency = currencies.size === 1 && only !== undefined;
  const inCurrencyTotal = filled.reduce((s, p) => s + p.amountInCurrency, 0);
  const rates = new Set(entry.postings.filter((p) => p.amount !== null).map((p) => (p.price?.per === 'unit' ? p.price.amount : null)));
  const [rate] = rates;
  const oneRate = rates.size === 1 && rate !== null && rate !== undefined;

  // the left-out amount balances the others at their home value, as hledger infers it from their cost
  const settled = entry.postings.map(
    (p, i): SettledPosting =>
      postings[i] ?? {
        where: p.where,
        date: p.date ?? entry.date,
        account: p.account,
        currency: home,
        amountInCurrency: -homeTotal,
        amount: -homeTotal,
        description: p.description,
      },
  );

  // the left-out amount is the others' sum: within the bound only if they are not too many at it
  const past = settled.find((p) => !withinAmountBound(p.amount));
  if (past) {
    problem(
      'amount_too_large',
      past.where,
      `the amount left out balances the others at ${formatMoney(past.amount, home)}, larger than the largest amount taken, ${amountBoundText(home)}`,
    );
    return null;
  }
  let balance = settled.reduce((s, p) => s + p.amount, 0);
  // one foreign currency at one rate, balanced in it: conversion rounding goes to the largest line
  if (balance !== 0 && oneCurrency && only !== home && oneRate && inCurrencyTotal === 0 && Math.abs(balance) <= settled.length) {
    const largest = settled.reduce((a, b) => (Math.abs(b.amount) > Math.abs(a.amount) ? b : a));
    largest.amount -= balance;
    balance = 0;
  }
  if (balance !== 0) {
    problem('unbalanced', entry.where, `the transaction does not balance: its postings sum to ${formatMoney(balance, home)}`);
    return null;
  }
  const foreign = settled.find((p) => p.currency !== home);
  return {
    where: entry.where,
    date: entry.date,
    number: entry.number,
    type,
    contact: entry.contact,
    payee: entry.payee,
    closing: entry.closing,
    description: entry.description,
    currency: foreign?.currency ?? home,
    exchangeRate: foreign ? rateOf(foreign, home) : '1',
    postings: settled,
  };
}

function settlePosting(p: JournalPosting, entryDate: string, home: string, currencyOf: CurrencyOf, problem: Report): SettledPosting | null {
  const currency = currencyOf(p.currency, p.where);
  if (!currency) return null;
  if (overAmountBound(p.amount!, currency)) {
    problem('amount_too_large', p.where, `${p.amount} ${currency} is larger than the largest amount taken, ${amountBoundText(currency)}`);
    return null;
  }
  const amountInCurrency = fromMajor(p.amount!, currency);
  if (amountInCurrency === null) {
    problem('malformed', p.where, `${p.amount} has more decimals than ${currency} has (${minorDigits(currency)})`);
    return null;
  }
  const amount = currency === home ? amountInCurrency : homeValue(p, amountInCurrency, currency, home, currencyOf, problem);
  if (amount === null) return null;
  return { where: p.where, date: p.date ?? entryDate, account: p.account, currency, amountInCurrency, amount, description: p.description };
}

function homeValue(p: JournalPosting, amountInCurrency: number, currency: string, home: string, currencyOf: CurrencyOf, problem: Report): number | null {
  const price: Price | null = p.price;
  if (!price) {
    problem('rate_required', p.where, `${p.amount} ${currency} needs a rate to ${home} (hledger: @ or @@ a ${home} price; CSV: a rate column)`);
    return null;
  }
  if (price.commodity !== null && currencyOf(price.commodity, p.where) !== home) {
    problem('rate_required', p.where, `the price must be in the home currency ${home}`);
    return null;
  }
  if (price.per === 'unit') {
    const value = convertWithinBound(amountInCurrency, currency, price.amount, home);
    if (value === null)
      problem(
        'amount_too_large',
        p.where,
        `${p.amount} ${currency} at ${price.amount} ${home} each is larger than the largest amount taken, ${amountBoundText(home)}`,
      );
    return value;
  }
  if (overAmountBound(price.amount, home)) {
    problem('amount_too_large', p.where, `${price.amount} ${home} is larger than the largest amount taken, ${amountBoundText(home)}`);
    return null;
  }
  const total = fromMajor(price.amount, home);
  if (total === null) {
    problem('malformed', p.where, `${price.amount} has more decimals than ${home} has`);
    return null;
  }
  return amountInCurrency < 0 ? -total : total;
}

/** Home units per unit of the posting's currency, to ten decimals, from its two amounts. */
function rateOf(p: SettledPosting, home: string): string {
  if (p.amountInCurrency === 0) return '1';
  const scale = 10n ** 10n;
  const value =
    (BigInt(Math.abs(p.amount)) * scale * 10n ** BigInt(minorDigits(p.currency))) / (BigInt(Math.abs(p.amountInCurrency)) * 10n ** BigInt(minorDigits(home)));
  const text = value.toString().padStart(11, '0');
  return `${text.slice(0, -10)}.${text.slice(-10)}`.replace(/\.?0+$/, '');
}

/**
 * hledger's balance assertions, checked as hledger checks a file on its own: after the asserting
 * posting, in the order of the postings' dates (a posting's own date where it has one; file order
 * within a date), from this file's postings. `= AMOUNT` is the account's balance in the amount's
 * currency; `==` also asserts that the account holds nothing in any other currency; `=*` and `==*`
 * assert the amount of the account with its sub-accounts (the other currencies `==*` rules out are,
 * as hledger 1.25 checks them, the account's own).
 */
function checkAssertions(journal: ParsedJournal, entries: SettledEntry[], currencyOf: CurrencyOf, problem: Report): void {
  const asserted = new Map<string, Assertion>();
  for (const entry of journal.entries) for (const p of entry.postings) if (p.assertion) asserted.set(p.where, p.assertion);
  if (asserted.size === 0) return;
  const postings = entries.flatMap((e) => e.postings).map((p, i) => ({ p, i }));
  postings.sort((a, b) => (a.p.date < b.p.date ? -1 : a.p.date > b.p.date ? 1 : a.i - b.i));
  /** account -> currency -> balance */
  const balances = new Map<string, Map<string, number>>();
  for (const { p } of postings) {
    const account = normaliseName(p.account);
    const own = balances.get(account) ?? new Map<string, number>();
    own.set(p.currency, (own.get(p.currency) ?? 0) + p.amountInCurrency);
    balances.set(account, own);
    const assertion = asserted.get(p.where);
    if (!assertion) continue;
    const currency = assertion.currency === null ? p.currency : currencyOf(assertion.currency, p.where);
    if (!currency) continue;
    const expected = fromMajor(assertion.amount, currency);
    if (expected === null) {
      problem('malformed', p.where, `assertion ${assertion.amount} has more decimals than ${currency} has`);
      continue;
    }
    // the account alone, or with every account below it (=*)
    const held = new Map<string, number>();
    for (const [name, amounts] of balances) {
      if (name !== account && !(assertion.inclusive && name.startsWith(`${account}:`))) continue;
      for (const [c, amount] of amounts) held.set(c, (held.get(c) ?? 0) + amount);
    }
    const actual = held.get(currency) ?? 0;
    const subject = `${p.account}${assertion.inclusive ? ' with its sub-accounts' : ''}`;
    const checked = "(this file's postings only, as hledger checks a file)";
    if (expected !== actual)
      problem('assertion_failed', p.where, `${subject} should be ${formatMoney(expected, currency)} here but is ${formatMoney(actual, currency)} ${checked}`);
    else if (assertion.total) {
      // hledger (1.25) looks for other currencies in the account's own balance, with `==*` too
      const other = [...own].find(([c, amount]) => c !== currency && amount !== 0);
      if (other)
        problem('assertion_failed', p.where, `${subject} should hold only ${currency} here (==) but also holds ${formatMoney(other[1], other[0])} ${checked}`);
    }
  }
}

/** `Assets : Bank` and `Assets:Bank` are one account (resolve.ts normaliseAccountName). */
const normaliseName = (name: string) =>
  name
    .split(':')
    .map((part) => part.trim())
    .join(':');
