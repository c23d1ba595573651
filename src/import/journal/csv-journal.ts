/**
 * General-journal CSV, as accounting systems export it: one row per posting with date, number,
 * type, account (full name or number), contact, description, debit and credit or one signed
 * amount (positive = debit), currency and rate. Headers are matched by name in any case with the
 * usual synonyms. Rows make transactions: a row continues the transaction above when it has the
 * same number (and no other date), or no date and no number, or, in files without numbers, the
 * same date while the transaction above does not balance yet.
 */
import { parse } from 'csv-parse/sync';
import { decodeText } from '../decode.js';
import { ImportRefusal, Problems } from '../refusal.js';
import type { JournalEntry, JournalPosting, ParsedJournal } from './entries.js';
import { journalDate, readAmount } from './hledger.js';

type Column = 'date' | 'number' | 'type' | 'account' | 'contact' | 'description' | 'debit' | 'credit' | 'amount' | 'currency' | 'rate';

const SYNONYMS: Record<Column, string[]> = {
  date: ['date', 'posting date', 'transaction date', 'txn date', 'entry date'],
  number: [
    'number',
    'no',
    'num',
    'ref',
    'reference',
    'journal',
    'journal no',
    'journal number',
    'entry',
    'entry no',
    'transaction',
    'transaction id',
    'txn id',
    'id',
  ],
  type: ['type', 'transaction type', 'txn type'],
  account: ['account', 'account name', 'ledger account', 'gl account', 'account code', 'code', 'account number'],
  contact: ['contact', 'name', 'payee', 'supplier', 'customer', 'vendor'],
  description: ['description', 'memo', 'narration', 'details', 'memo description', 'notes'],
  debit: ['debit', 'dr', 'debit amount'],
  credit: ['credit', 'cr', 'credit amount'],
  amount: ['amount', 'signed amount', 'value', 'net'],
  currency: ['currency', 'ccy', 'currency code'],
  rate: ['rate', 'exchange rate', 'fx rate'],
};

const normalise = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function columnsOf(header: string[]): Partial<Record<Column, number>> | { error: string } {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((name, index) => {
    const key = normalise(name);
    for (const [column, names] of Object.entries(SYNONYMS) as [Column, string[]][]) {
      if (found[column] === undefined && names.includes(key)) found[column] = index;
    }
  });
  const missing = [
    found.date === undefined ? 'date' : null,
    found.account === undefined ? 'account' : null,
    found.amount === undefined && found.debit === undefined && found.credit === undefined ? 'amount (or debit and credit)' : null,
  ].filter(Boolean);
  if (missing.length) return { error: `the header names no ${missing.join(', no ')} column (it has ${header.map((h) => `"${h}"`).join(', ')})` };
  return found;
}

/** Balanced to half a cent: the rounding a rate can leave between a foreign row and its home value. */
const balanced = (micros: bigint) => micros < 5_000n && micros > -5_000n;

/** Sums plain decimals exactly (millionths), to tell whether the rows so far balance. */
function micro(amount: string | null): bigint {
  if (amount === null) return 0n;
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return amount.startsWith('-') ? -value : value;
}

export function parseCsvJournal(bytes: Uint8Array): ParsedJournal {
  const notes: string[] = [];
  const text = decodeText(bytes, null, 'windows-1252', (note) => notes.push(note));
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const delimiter = [',', ';', '\t'].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ',');
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch (error) {
    throw new ImportRefusal('malformed', `the CSV cannot be read: ${(error as Error).message}`);
  }
  const header = rows[0];
  if (!header) throw new ImportRefusal('malformed', 'the file is empty');
  const columns = columnsOf(header);
  if ('error' in columns) throw new ImportRefusal('malformed', columns.error);
  const cell = (row: string[], column: Column) => (columns[column] === undefined ? '' : (row[columns[column]!] ?? '').trim());

  const problems = new Problems();
  const entries: JournalEntry[] = [];
  let current: JournalEntry | null = null;
  let balance = 0n;
  rows.slice(1).forEach((row, index) => {
    const where = `line ${index + 2}`;
    if (row.every((c) => c.trim() === '')) return;
    const dateText = cell(row, 'date');
    const number = cell(row, 'number') || null;
    const date = dateText ? journalDate(dateText) : null;
    if (dateText && !date) {
      problems.add(where, `"${dateText}" is not a date (yyyy-MM-dd)`);
      return;
    }
    const posting = readRow(row, cell, where, problems);
    if (!posting) return;
    const continues =
      current !== null &&
      ((!date && !number) ||
        (number !== null && number === current.number && (!date || date === current.date)) ||
        (number === null && current.number === null && date === current.date && !balanced(balance)));
    if (!continues) {
      if (!date) {
        problems.add(where, 'the first row of a transaction needs a date');
        return;
      }
      current = {
        where,
        date,
        number,
        type: cell(row, 'type') || null,
        contact: cell(row, 'contact') || null,
        payee: null,
        closing: null,
        description: cell(row, 'description'),
        postings: [],
      };
      entries.push(current);
      balance = 0n;
    }
    const entry = current!;
    if (posting.description === entry.description) posting.description = null;
    entry.postings.push(posting);
    balance += posting.price ? (micro(posting.amount) * micro(posting.price.amount)) / 1_000_000n : micro(posting.amount);
  });
  for (const entry of entries) if (entry.postings.length < 2) problems.add(entry.where, 'a transaction needs at least two rows');
  if (problems.list.length) throw ImportRefusal.of('malformed', 'the journal CSV cannot be read', problems.list);
  return { format: 'csv', entries, accounts: [], notes };
}

function readRow(row: string[], cell: (row: string[], column: Column) => string, where: string, problems: Problems): JournalPosting | null {
  const account = cell(row, 'account');
  if (!account) {
    problems.add(where, 'no account');
    return null;
  }
  const amount = rowAmount(cell(row, 'amount'), cell(row, 'debit'), cell(row, 'credit'));
  if ('error' in amount) {
    problems.add(where, amount.error);
    return null;
  }
  const rate = cell(row, 'rate');
  if (rate && !/^\d+(\.\d+)?$/.test(rate)) {
    problems.add(where, `rate "${rate}" is not a positive decimal`);
    return null;
  }
  return {
    where,
    account,
    amount: amount.amount,
    currency: cell(row, 'currency') || amount.commodity,
    price: rate ? { amount: rate, commodity: null, per: 'unit' } : null,
    description: cell(row, 'description') || null,
    date: null,
    assertion: null,
  };
}

/** The row's signed amount: debit − credit, or the amount column; `(12.50)` is negative. */
function rowAmount(amountText: string, debitText: string, creditText: string): { amount: string; commodity: string | null } | { error: string } {
  const read = (text: string) => readAmount(text.replace(/^\((.*)\)$/, '-$1'));
  if (amountText) {
    if (debitText || creditText) return { error: 'both an amount and a debit or credit' };
    return read(amountText);
  }
  if (debitText && creditText) return { error: 'both a debit and a credit on one row; write them on two rows' };
  if (!debitText && !creditText) return { error: 'no amount' };
  const value = read(debitText || creditText);
  if ('error' in value) return value;
  if (value.amount.startsWith('-')) return { error: `a ${debitText ? 'debit' : 'credit'} cannot be negative` };
  return { amount: debitText ? value.amount : `-${value.amount}`, commodity: value.commodity };
}
