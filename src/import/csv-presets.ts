/**
 * Named CSV layouts of real bank exports. A preset says how to find its header row, which column
 * plays which part, and how dates and amounts are written; a file whose header matches exactly one
 * preset is read with it without being asked. Columns are header names (compared trimmed and
 * case-insensitively) or 0-based positions where a header repeats a name or mangles it.
 */
import type { DecimalMark } from './amounts.js';

export type ColumnRef = string | number;

export interface CsvColumns {
  date: ColumnRef;
  /** joined in order, each part once */
  description: ColumnRef[];
  /** one signed amount… */
  amount?: ColumnRef;
  /** …or unsigned money out and money in */
  debit?: ColumnRef;
  credit?: ColumnRef;
  /** running balance after the row */
  balance?: ColumnRef;
  /** a CR/DR marker beside the amount */
  marker?: ColumnRef;
  /** the row's currency, checked against the statement's */
  currency?: ColumnRef;
  /** the bank's unique id for the transaction, used to recognise it again */
  id?: ColumnRef;
  /** a reference shown with the narration (not assumed unique) */
  reference?: ColumnRef;
}

export interface CsvLayout {
  delimiter: string;
  columns: CsvColumns;
  dateFormat: string | null;
  decimal: DecimalMark | null;
  /** `positive_out`: card exports that list charges as positive amounts */
  sign: 'normal' | 'positive_out';
  /** the statement currency, from the preset or its header */
  currency?: (header: string[]) => string | null;
  /** the account identifier, from the lines above the header */
  accountId?: (preamble: string[][]) => string | null;
  accountKind?: 'bank' | 'credit_card';
}

export interface CsvPreset extends CsvLayout {
  name: string;
  title: string;
  /** for exports that are never UTF-8 */
  encoding?: string;
  header(cells: string[]): boolean;
}

const same = (cells: string[], expected: string[]) => expected.every((name, i) => (cells[i] ?? '').trim().toLowerCase() === name.toLowerCase());
const currencyIn = (text: string | undefined) => /\b([A-Z]{3})\)?\s*$/.exec(text ?? '')?.[1] ?? null;

export const CSV_PRESETS: CsvPreset[] = [
  {
    name: 'bank-of-ireland',
    title: 'Bank of Ireland current account (Date, Details, Debit, Credit, Balance)',
    delimiter: ',',
    header: (c) => c.length === 5 && same(c, ['Date', 'Details', 'Debit', 'Credit', 'Balance']),
    columns: { date: 'Date', description: ['Details'], debit: 'Debit', credit: 'Credit', balance: 'Balance' },
    dateFormat: 'dd/MM/yyyy',
    decimal: '.',
    sign: 'normal',
  },
  {
    name: 'john-lewis-card',
    title: 'John Lewis Partnership Card (Date Processed, Description, Amount, CR marker)',
    delimiter: ',',
    header: (c) => same(c, ['Date Processed', 'Description', 'Amount']) && c.length <= 4,
    columns: { date: 'Date Processed', description: ['Description'], amount: 'Amount', marker: 3 },
    dateFormat: 'dd-MMM-yyyy',
    decimal: '.',
    sign: 'positive_out',
    accountKind: 'credit_card',
  },
  {
    name: 'ocbc',
    title: 'OCBC Bank (Singapore) transaction history (Withdrawals and Deposits columns)',
    delimiter: ',',
    header: (c) => same(c, ['Transaction date', 'Value date', 'Description']) && /^withdrawals/i.test(c[3] ?? '') && /^deposits/i.test(c[4] ?? ''),
    columns: { date: 'Transaction date', description: ['Description'], debit: 3, credit: 4 },
    dateFormat: 'dd/MM/yyyy',
    decimal: '.',
    sign: 'normal',
    currency: (h) => currencyIn(h[3]),
    accountId: (pre) => {
      const row = pre.find((r) => /^account details for/i.test(r[0] ?? ''));
      return /([\d][\d-]{5,})\s*$/.exec(row?.[1] ?? '')?.[1] ?? null;
    },
  },
  {
    name: 'ing-diba',
    title: 'ING-DiBa (Germany) Umsatzanzeige (Buchung; Valuta; …; Saldo; Währung; Betrag; Währung)',
    delimiter: ';',
    header: (c) => same(c, ['Buchung', 'Valuta']) && c.length >= 9 && (c[7] ?? '').trim() === 'Betrag',
    // the header's umlauts are mangled in some exports, and "Währung" appears twice: positions are safer
    columns: { date: 0, description: [2, 3, 4], balance: 5, amount: 7, currency: 8 },
    dateFormat: 'dd.MM.yyyy',
    decimal: ',',
    sign: 'normal',
    accountId: (pre) => pre.find((r) => (r[0] ?? '').trim() === 'IBAN')?.[1]?.trim() || null,
  },
  {
    name: 'ceska-sporitelna',
    title: 'Česká spořitelna internet banking export (Windows-1250, Datum zaúčtování; Částka CZK; …)',
    delimiter: ';',
    encoding: 'windows-1250',
    header: (c) => /^datum za/i.test((c[1] ?? '').trim()) && /^částka/i.test((c[2] ?? '').trim()),
    columns: { date: 1, description: [7, 0, 10, 11, 13], amount: 2, reference: 12 },
    dateFormat: 'yyyy/MM/dd',
    decimal: ',',
    sign: 'normal',
    currency: (h) => currencyIn(h[2]),
  },
  {
    name: 'chase-card',
    title: 'Chase credit card activity (Transaction Date, Post Date, Description, Category, Type, Amount, Memo)',
    delimiter: ',',
    header: (c) => same(c, ['Transaction Date', 'Post Date', 'Description', 'Category', 'Type', 'Amount', 'Memo']),
    columns: { date: 'Post Date', description: ['Description', 'Memo'], amount: 'Amount' },
    dateFormat: 'MM/dd/yyyy',
    decimal: '.',
    sign: 'normal',
    accountKind: 'credit_card',
  },
];

export function findPreset(name: string): CsvPreset | undefined {
  return CSV_PRESETS.find((p) => p.name === name.trim().toLowerCase());
}

// --- recognising a plain header when no preset fits ---

const GUESSES: Array<[keyof CsvColumns, RegExp]> = [
  ['date', /^(date|transaction date|posting date|posted date|post date|booking date|buchungstag|datum)$/i],
  ['amount', /^(amount|betrag|montant|importe|bedrag)\b/i],
  ['debit', /^(debit|debits|withdrawals?|paid out|money out)\b/i],
  ['credit', /^(credit|credits|deposits?|paid in|money in)\b/i],
  ['balance', /^(balance|running balance|saldo)\b/i],
  ['currency', /^(currency|ccy)$/i],
  ['description', /^(description|details|narrative|narration|memo|payee|particulars|transaction details|text|reference)$/i],
];

/**
 * The columns of a header with recognisable names, or why they cannot be told: a header needs
 * exactly one date column and either exactly one amount column or one debit and one credit column.
 * Returns null when the row does not look like a header at all.
 */
export function guessColumns(cells: string[]): { columns: CsvColumns } | { error: string } | null {
  const found = new Map<keyof CsvColumns, number[]>();
  cells.forEach((cell, i) => {
    for (const [role, pattern] of GUESSES) {
      if (pattern.test(cell.trim())) {
        found.set(role, [...(found.get(role) ?? []), i]);
        break;
      }
    }
  });
  const dates = found.get('date') ?? [];
  const amounts = found.get('amount') ?? [];
  const debits = found.get('debit') ?? [];
  const credits = found.get('credit') ?? [];
  if (dates.length === 0 || (amounts.length === 0 && (debits.length === 0 || credits.length === 0))) return null;
  const name = (list: number[]) => list.map((i) => `"${cells[i]!.trim()}"`).join(', ');
  if (dates.length > 1) return { error: `the header has several date columns (${name(dates)}); say which one with --column date=NAME` };
  if (amounts.length > 1) return { error: `the header has several amount columns (${name(amounts)}); say which one with --column amount=NAME` };
  if (amounts.length === 0 && (debits.length > 1 || credits.length > 1))
    return { error: `the header has several debit or credit columns (${name([...debits, ...credits])}); give them with --column` };
  const single = (role: keyof CsvColumns) => (found.get(role)?.length === 1 ? found.get(role)![0] : undefined);
  const columns: CsvColumns = { date: dates[0]!, description: found.get('description') ?? [] };
  if (amounts.length === 1) columns.amount = amounts[0]!;
  else {
    columns.debit = debits[0]!;
    columns.credit = credits[0]!;
  }
  const balance = single('balance');
  if (balance !== undefined) columns.balance = balance;
  const currency = single('currency');
  if (currency !== undefined) columns.currency = currency;
  return { columns };
}

export type CsvRole = keyof CsvColumns;
export const CSV_ROLES: CsvRole[] = ['date', 'description', 'amount', 'debit', 'credit', 'balance', 'marker', 'currency', 'id', 'reference'];

export interface CsvOptions {
  preset?: string;
  /** role → column: a header name, `#N` for the Nth column (from 1), several joined with `+` */
  columns?: Partial<Record<CsvRole, string>>;
  dateFormat?: string;
  decimal?: DecimalMark;
  delimiter?: string;
  encoding?: string;
  /** amounts are positive for money out (card exports) */
  positiveOut?: boolean;
}
