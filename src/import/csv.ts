/**
 * Bank CSV exports through csv-parse, with a column mapping: a named preset (csv-presets.ts), a
 * mapping given by the person importing, or a header recognised without doubt. Lines above the
 * header (account details, balances, titles) are skipped; a row with no date and no amount whose
 * description is filled continues the row above it (OCBC writes every narration over two rows);
 * rows dated "Pending" are reported as skipped. Date format and decimal mark come from the
 * mapping or are told from the whole file's values, and an ambiguity is refused rather than guessed.
 */
import { formatMoney, isCurrencyCode } from '../domain/money.js';
import { detectDecimal, isAmbiguous, parseAmount, type DecimalMark } from './amounts.js';
import { detectDateFormat, isDateFormat, parseDateAs } from './dates.js';
import { bomEncoding, decodeAs, encodingFor, isUtf8 } from './decode.js';
import { CSV_PRESETS, findPreset, type CsvOptions, type CsvPreset } from './csv-presets.js';
import { findLayout, headRows, readRows, resolveColumns, type ColumnIndex, type Row } from './csv-layout.js';
import { ImportRefusal, Problems } from './refusal.js';
import { emptyStatement, joinNarration, type ParsedFile, type Statement, type StatementLine } from './statement.js';

export function parseCsv(bytes: Uint8Array, assumedCurrency: string, options: CsvOptions = {}): ParsedFile {
  const notes: string[] = [];
  const preset = options.preset ? findPreset(options.preset) : undefined;
  if (options.preset && !preset) {
    throw new ImportRefusal('bad_options', `unknown CSV preset "${options.preset}"; the presets are ${CSV_PRESETS.map((p) => p.name).join(', ')}`);
  }
  if (options.dateFormat && !isDateFormat(options.dateFormat)) {
    throw new ImportRefusal('bad_options', `date format "${options.dateFormat}" needs one each of day (dd), month (MM or MMM) and year (yyyy or yy)`);
  }
  const text = decodeCsv(bytes, options, preset, notes);
  const found = findLayout(text, options, preset);
  notes.push(...found.notes);
  const rows = readRows(text, found.layout.delimiter);
  // a mapping by positions only (#N) has no header: every row is data
  const header = found.headerIndex >= 0 ? rows[found.headerIndex] : undefined;
  const preamble = rows.slice(0, Math.max(0, found.headerIndex)).map((r) => r.cells);
  const body = rows.slice(found.headerIndex + 1);
  const layout = found.layout;
  const index = resolveColumns(layout.columns, header?.cells);

  const statement = emptyStatement(header ? `CSV header at line ${header.line}` : 'CSV file');
  statement.accountKind = layout.accountKind ?? null;
  statement.accountId = layout.accountId?.(preamble) ?? null;
  statement.currency = header ? (layout.currency?.(header.cells) ?? null) : null;
  const problems = new Problems();
  const cell = (row: Row, ref: number | undefined) => (ref === undefined ? '' : (row.cells[ref] ?? '').trim());

  // first pass: which rows are transactions, continuations, pending or blank
  const dataRows: Array<{ row: Row; extra: string[] }> = [];
  for (const row of body) {
    const date = cell(row, index.date);
    const amounts = [index.amount, index.debit, index.credit].map((i) => cell(row, i));
    const description = index.description.map((i) => cell(row, i));
    if (!date && amounts.every((a) => !a)) {
      if (description.some(Boolean)) {
        const previous = dataRows[dataRows.length - 1];
        if (previous) previous.extra.push(...description);
        else problems.add(`line ${row.line}`, 'a row with a description but no date or amount, and no transaction above it to continue');
      }
      continue;
    }
    if (/^pending$/i.test(date)) {
      statement.skipped.push({ where: `line ${row.line}`, reason: 'pending (the date column says Pending), not posted yet' });
      continue;
    }
    dataRows.push({ row, extra: [] });
  }

  if (index.currency !== undefined) {
    const named = dataRows.map((d) => cell(d.row, index.currency).toUpperCase()).find(Boolean);
    if (named && !statement.currency) statement.currency = named;
  }
  if (statement.currency && !isCurrencyCode(statement.currency)) {
    problems.add(statement.where, `"${statement.currency}" is not an ISO 4217 currency`);
    statement.currency = null;
  }
  const currency = statement.currency ?? assumedCurrency;

  const dateFormat =
    options.dateFormat ?? layout.dateFormat ?? chooseDateFormat(dataRows.map((d) => ({ text: cell(d.row, index.date), where: `line ${d.row.line}` })));
  const decimal =
    options.decimal ??
    layout.decimal ??
    chooseDecimal(
      dataRows.flatMap((d) => [index.amount, index.debit, index.credit, index.balance].map((i) => ({ text: cell(d.row, i), where: `line ${d.row.line}` }))),
    );
  const positiveOut = options.positiveOut ?? layout.sign === 'positive_out';

  const balances: Array<number | null> = [];
  for (const { row, extra } of dataRows) {
    const where = `line ${row.line}`;
    const date = parseDateAs(cell(row, index.date), dateFormat);
    if ('error' in date) problems.add(where, `date ${date.error}`);
    const amount = rowAmount(row, index, currency, decimal, positiveOut);
    if ('error' in amount) problems.add(where, amount.error);
    const rowCurrency = cell(row, index.currency).toUpperCase();
    if (rowCurrency && rowCurrency !== currency) problems.add(where, `the row is in ${rowCurrency} but the statement is in ${currency}`);
    let balance: number | null = null;
    const balanceText = cell(row, index.balance);
    if (balanceText) {
      const parsed = parseAmount(balanceText, currency, decimal);
      if ('error' in parsed) problems.add(where, `balance ${parsed.error}`);
      else balance = parsed.marker === 'DR' ? -Math.abs(parsed.minor) : parsed.minor;
    }
    if ('error' in date || 'error' in amount) continue;
    const reference = cell(row, index.reference);
    statement.lines.push({
      where,
      date: date.date,
      amount: amount.minor,
      description: joinNarration([...index.description.map((i) => cell(row, i)), ...extra, reference], ' ') || 'CSV transaction',
      externalId: cell(row, index.id) || null,
    });
    balances.push(balance);
  }
  problems.throwIfAny('the CSV file cannot be imported');
  if (index.balance !== undefined) checkRunningBalances(statement, balances, currency);
  const dates = statement.lines.map((l) => l.date).sort();
  statement.period = { from: dates[0] ?? null, to: dates[dates.length - 1] ?? null };
  return { format: `CSV (${found.name})`, label: 'CSV', statements: [statement], notes };
}

function decodeCsv(bytes: Uint8Array, options: CsvOptions, preset: CsvPreset | undefined, notes: string[]): string {
  if (options.encoding) {
    const encoding = encodingFor(options.encoding);
    if (!encoding) throw new ImportRefusal('bad_options', `unknown encoding "${options.encoding}"`);
    return decodeAs(bytes, encoding);
  }
  const bom = bomEncoding(bytes);
  if (bom) return decodeAs(bytes, bom);
  if (isUtf8(bytes)) return decodeAs(bytes, 'utf-8');
  const candidates = preset ? [preset] : CSV_PRESETS.filter((p) => p.encoding);
  for (const p of candidates) {
    if (!p.encoding) continue;
    const text = decodeAs(bytes, p.encoding);
    if (!preset && !headRows(text, p.delimiter).some((r) => p.header(r.cells))) continue;
    return text;
  }
  notes.push('the file is not UTF-8 and names no encoding; it was read as Windows-1252 (give --encoding if letters look wrong)');
  return decodeAs(bytes, 'windows-1252');
}

function chooseDateFormat(samples: Array<{ text: string; where: string }>): string {
  const detected = detectDateFormat(samples);
  if ('error' in detected) throw new ImportRefusal('malformed', detected.error, [{ where: 'dates', message: detected.error }]);
  return detected.format;
}

function chooseDecimal(samples: Array<{ text: string; where: string }>): DecimalMark {
  const filled = samples.filter((s) => s.text);
  let mark: DecimalMark | null;
  try {
    mark = detectDecimal(filled);
  } catch (error) {
    throw new ImportRefusal('malformed', `the amounts mix decimal marks: ${(error as Error).message}`);
  }
  if (mark) return mark;
  const unclear = filled.find((s) => isAmbiguous(s.text));
  if (unclear) {
    throw new ImportRefusal(
      'bad_options',
      `${unclear.where}: "${unclear.text}" could be read with a decimal point or a decimal comma, and no amount in the file tells which; give ` +
        `--decimal dot or --decimal comma`,
    );
  }
  return '.';
}

function rowAmount(row: Row, index: ColumnIndex, currency: string, decimal: DecimalMark, positiveOut: boolean): { minor: number } | { error: string } {
  const cell = (i: number | undefined) => (i === undefined ? '' : (row.cells[i] ?? '').trim());
  if (index.amount !== undefined) {
    const text = [cell(index.amount), cell(index.marker)].filter(Boolean).join(' ');
    const parsed = parseAmount(text, currency, decimal);
    if ('error' in parsed) return { error: `amount ${parsed.error}` };
    if (parsed.marker === 'CR') return { minor: Math.abs(parsed.minor) };
    if (parsed.marker === 'DR') return { minor: -Math.abs(parsed.minor) };
    return { minor: positiveOut ? -parsed.minor : parsed.minor };
  }
  const debitText = cell(index.debit);
  const creditText = cell(index.credit);
  const debit = debitText ? parseAmount(debitText, currency, decimal) : null;
  const credit = creditText ? parseAmount(creditText, currency, decimal) : null;
  if (debit && 'error' in debit) return { error: `debit ${debit.error}` };
  if (credit && 'error' in credit) return { error: `credit ${credit.error}` };
  const out = debit ? Math.abs(debit.minor) : 0;
  const into = credit ? Math.abs(credit.minor) : 0;
  if (out && into) return { error: `both debit "${debitText}" and credit "${creditText}" are filled` };
  if (!debit && !credit) return { error: 'neither debit nor credit is filled' };
  return { minor: into - out };
}

/**
 * A running-balance column must follow from the amounts: each given balance equals the previous
 * given balance plus the amounts between (rows with an empty balance are carried over). The file
 * may list newest first; its dates tell. The statement's opening and closing are the balances the
 * column implies before the first row and after the last.
 */
function checkRunningBalances(statement: Statement, balances: Array<number | null>, currency: string): void {
  const lines = statement.lines;
  if (lines.length === 0 || balances.every((b) => b === null)) return;
  const newestFirst = lines[0]!.date > lines[lines.length - 1]!.date;
  const order = lines.map((_, i) => (newestFirst ? lines.length - 1 - i : i));
  let known: { balance: number; line: StatementLine } | null = null;
  let since = 0;
  let before = 0;
  for (const i of order) {
    const line = lines[i]!;
    const given = balances[i]!;
    since += line.amount;
    if (given === null) continue;
    if (known === null) {
      before = given - since;
      statement.opening = { amount: before, date: lines[order[0]!]!.date, where: `implied by the balance on ${line.where}` };
    } else if (known.balance + since !== given) {
      statement.balanceProblems.push({
        where: line.where,
        message:
          `the balance ${formatMoney(given, currency)} does not follow from ${formatMoney(known.balance, currency)} on ${known.line.where} ` +
          `and the amounts since (${formatMoney(since, currency)}): expected ${formatMoney(known.balance + since, currency)}`,
      });
    }
    known = { balance: given, line };
    since = 0;
  }
  if (known)
    statement.closing = { amount: known.balance + since, date: lines[order[order.length - 1]!]!.date, where: `implied by the balance on ${known.line.where}` };
}
