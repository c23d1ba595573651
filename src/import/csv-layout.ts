/**
 * Where a bank CSV's columns are: the rows csv-parse reads, the header found by a preset, by the
 * person's own mapping or by recognising it, and the column roles resolved to indexes.
 */
import { parse } from 'csv-parse/sync';
import { CSV_PRESETS, guessColumns, type ColumnRef, type CsvColumns, type CsvLayout, type CsvPreset, type CsvOptions } from './csv-presets.js';
import { ImportRefusal } from './refusal.js';

/** How far down a file its header may be. */
const HEADER_SEARCH = 50;

export interface Row {
  line: number;
  cells: string[];
}
export function readRows(text: string, delimiter: string, toLine?: number): Row[] {
  const source = toLine === undefined ? text : text.split(/\r?\n/, toLine).join('\n');
  const options = { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true };
  try {
    const records = parse(source, options) as string[][];
    // with one record per physical line (no quoted line breaks) a record's line is its position
    let lines = 0;
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lines++;
    if (!source.endsWith('\n')) lines++;
    if (records.length === lines) return records.map((cells, i) => ({ line: i + 1, cells }));
    const withInfo = parse(source, { ...options, info: true }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
    const rows: Row[] = [];
    let next = 1;
    for (const { record, info } of withInfo) {
      rows.push({ line: next, cells: record });
      next = info.lines + 1;
    }
    return rows;
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new ImportRefusal('malformed', `${lines ? `line ${lines}: ` : ''}the CSV cannot be read: ${(error as Error).message}`);
  }
}

export function headRows(text: string, delimiter: string): Row[] {
  try {
    return readRows(text, delimiter, HEADER_SEARCH);
  } catch {
    return [];
  }
}

interface FoundLayout {
  name: string;
  layout: CsvLayout;
  headerIndex: number;
  notes: string[];
}

/** The layout to read the file with, and where its header is. */
export function findLayout(text: string, options: CsvOptions, preset: CsvPreset | undefined): FoundLayout {
  const delimiters = options.delimiter ? [options.delimiter] : preset ? [preset.delimiter] : [',', ';', '\t', '|'];
  if (options.columns && Object.keys(options.columns).length) return mappedLayout(text, options, delimiters);
  const candidates = preset ? [preset] : CSV_PRESETS;
  const matches: Array<{ preset: CsvPreset; headerIndex: number; delimiter: string }> = [];
  for (const delimiter of delimiters) {
    const rows = headRows(text, delimiter);
    for (const p of candidates) {
      if (!options.delimiter && p.delimiter !== delimiter) continue;
      const headerIndex = rows.findIndex((r) => p.header(r.cells));
      if (headerIndex >= 0) matches.push({ preset: p, headerIndex, delimiter });
    }
  }
  if (matches.length > 1) {
    throw new ImportRefusal('bad_options', `the header fits several presets (${matches.map((m) => m.preset.name).join(', ')}); choose one with --preset`);
  }
  if (matches.length === 1) {
    const m = matches[0]!;
    return {
      name: `preset ${m.preset.name}`,
      layout: { ...m.preset, delimiter: m.delimiter },
      headerIndex: m.headerIndex,
      notes: preset ? [] : [`recognised as ${m.preset.title}`],
    };
  }
  if (preset) throw new ImportRefusal('bad_options', `no header of the ${preset.name} preset (${preset.title}) in the first ${HEADER_SEARCH} lines`);
  for (const delimiter of delimiters) {
    const rows = headRows(text, delimiter);
    for (let i = 0; i < rows.length; i++) {
      const guess = guessColumns(rows[i]!.cells);
      if (!guess) continue;
      if ('error' in guess) throw new ImportRefusal('bad_options', `line ${rows[i]!.line}: ${guess.error}`);
      return {
        name: 'columns recognised from the header',
        layout: { delimiter, columns: guess.columns, dateFormat: null, decimal: null, sign: 'normal' },
        headerIndex: i,
        notes: [`columns recognised from the header at line ${rows[i]!.line}: ${describeColumns(guess.columns, rows[i]!.cells)}`],
      };
    }
  }
  throw new ImportRefusal(
    'unsupported_format',
    `no header with a date column and an amount (or debit and credit) column in the first ${HEADER_SEARCH} lines, and no preset fits; ` +
      `give --preset (${CSV_PRESETS.map((p) => p.name).join(', ')}) or the columns (--column date=NAME --column amount=NAME …)`,
  );
}

/** A layout from the person's own column mapping; the header is the first row naming every named column. */
function mappedLayout(text: string, options: CsvOptions, delimiters: string[]): FoundLayout {
  const given = options.columns!;
  if (!given.date) throw new ImportRefusal('bad_options', 'the column mapping needs a date column (--column date=NAME)');
  if (!given.amount && !(given.debit && given.credit))
    throw new ImportRefusal('bad_options', 'the column mapping needs an amount column, or debit and credit columns');
  const refs = (spec: string): ColumnRef[] =>
    spec
      .split('+')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (/^#\d+$/.test(s) ? Number(s.slice(1)) - 1 : s));
  const columns: CsvColumns = { date: refs(given.date)[0]!, description: given.description ? refs(given.description) : [] };
  for (const role of ['amount', 'debit', 'credit', 'balance', 'marker', 'currency', 'id', 'reference'] as const) {
    const spec = given[role];
    if (spec) columns[role] = refs(spec)[0]!;
  }
  const names = [
    columns.date,
    ...columns.description,
    columns.amount,
    columns.debit,
    columns.credit,
    columns.balance,
    columns.marker,
    columns.currency,
    columns.id,
    columns.reference,
  ].filter((r): r is string => typeof r === 'string');
  for (const delimiter of delimiters) {
    const rows = headRows(text, delimiter);
    const headerIndex = names.length === 0 ? -1 : rows.findIndex((r) => names.every((n) => r.cells.some((c) => c.trim().toLowerCase() === n.toLowerCase())));
    if (names.length === 0 || headerIndex >= 0) {
      return {
        name: 'column mapping',
        layout: { delimiter, columns, dateFormat: null, decimal: null, sign: 'normal' },
        headerIndex,
        notes: [],
      };
    }
  }
  throw new ImportRefusal('bad_options', `no row in the first ${HEADER_SEARCH} lines has every mapped column (${names.map((n) => `"${n}"`).join(', ')})`);
}

export interface ColumnIndex {
  date: number;
  description: number[];
  amount?: number;
  debit?: number;
  credit?: number;
  balance?: number;
  marker?: number;
  currency?: number;
  id?: number;
  reference?: number;
}

export function resolveColumns(columns: CsvColumns, header: string[] | undefined): ColumnIndex {
  const cells = header ?? [];
  const find = (ref: ColumnRef): number => {
    if (typeof ref === 'number') return ref;
    const i = cells.findIndex((c) => c.trim().toLowerCase() === ref.toLowerCase());
    if (i < 0) throw new ImportRefusal('bad_options', `the header has no column "${ref}"`);
    return i;
  };
  const index: ColumnIndex = { date: find(columns.date), description: columns.description.map(find) };
  for (const role of ['amount', 'debit', 'credit', 'balance', 'marker', 'currency', 'id', 'reference'] as const) {
    const ref = columns[role];
    if (ref !== undefined) index[role] = find(ref);
  }
  return index;
}

function describeColumns(columns: CsvColumns, cells: string[]): string {
  const name = (ref: ColumnRef) => `"${typeof ref === 'number' ? cells[ref]?.trim() : ref}"`;
  return Object.entries(columns)
    .filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([role, v]) => `${role} ${Array.isArray(v) ? v.map(name).join(' + ') : name(v as ColumnRef)}`)
    .join(', ');
}
