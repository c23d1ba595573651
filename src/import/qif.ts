/**
 * Quicken Interchange Format, bank-like registers only (`!Type:Bank`, `CCard`, `Cash`, `Oth A`,
 * `Oth L`): one transaction per `^`-terminated record, `D` date, `T` (or `U`) amount, `P` payee,
 * `M` memo. QIF names no account, currency or balance, so the account's currency is assumed and
 * no balance can be checked. Split lines (`S`/`E`/`$`) and addresses (`A`) only categorise the
 * transaction; its total `T` is what moved the account, so they are not read (the spec's own
 * example carries a malformed `$=746.36` split, which therefore does no harm).
 * Dates are month first, as Quicken writes them, unless the file's dates only make sense day
 * first; `'` before the year (`6/1'04`) means 2000 onwards.
 */
import { detectDecimal, parseAmount, type DecimalMark } from './amounts.js';
import { detectDateFormat, fullYear, parseDateAs } from './dates.js';
import { decodeText } from './decode.js';
import { ImportRefusal, Problems } from './refusal.js';
import { emptyStatement, joinNarration, type ParsedFile } from './statement.js';

const REGISTERS = /^!Type:(Bank|CCard|Cash|Oth A|Oth L)\s*$/i;

interface RawRecord {
  line: number;
  fields: Map<string, string>;
}

export interface QifOptions {
  dateFormat?: string;
  decimal?: DecimalMark;
}

export function parseQif(bytes: Uint8Array, currency: string, options: QifOptions = {}): ParsedFile {
  const notes: string[] = [];
  const text = decodeText(bytes, null, 'windows-1252', (n) => notes.push(n));
  const lines = text.split(/\r\n|\n|\r/);
  const problems = new Problems();
  const records: RawRecord[] = [];
  let type: string | null = null;
  let current: RawRecord | null = null;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!line) return;
    if (line.startsWith('!')) {
      if (/^!Option:|^!Clear:/i.test(line)) return;
      const register = REGISTERS.exec(line);
      if (!register)
        throw new ImportRefusal(
          'unsupported_format',
          `line ${i + 1}: "${line}" is not a bank or card register; only !Type:Bank, CCard, Cash, Oth A and Oth L are imported`,
        );
      type = register[1]!;
      return;
    }
    if (!type) throw new ImportRefusal('malformed', `line ${i + 1}: QIF data before any !Type: header`);
    if (line === '^') {
      if (current) records.push(current);
      current = null;
      return;
    }
    current ??= { line: i + 1, fields: new Map() };
    const code = line[0]!;
    // only the first of a repeated code counts (address lines, splits are not read)
    if (!current.fields.has(code)) current.fields.set(code, line.slice(1));
  });
  if (current) records.push(current);
  if (!type) throw new ImportRefusal('malformed', 'no !Type: header, so the file is not a QIF register');

  const dateSamples = records.filter((r) => r.fields.has('D')).map((r) => ({ text: normaliseQifDate(r.fields.get('D')!), where: `line ${r.line}` }));
  let dateFormat = options.dateFormat;
  if (!dateFormat) {
    const detected = detectDateFormat(dateSamples, ['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd', 'dd.MM.yyyy']);
    // ambiguous month/day order is Quicken's month first
    dateFormat = 'format' in detected ? detected.format : 'MM/dd/yyyy';
  }
  const amountText = (r: RawRecord) => r.fields.get('T') ?? r.fields.get('U');
  let decimal = options.decimal ?? null;
  try {
    decimal ??= detectDecimal(records.filter(amountText).map((r) => ({ text: amountText(r)!, where: `line ${r.line}` })));
  } catch (error) {
    throw new ImportRefusal('malformed', `the amounts mix decimal marks: ${(error as Error).message}`);
  }

  const statement = emptyStatement('QIF register');
  statement.accountKind = type === 'CCard' ? 'credit_card' : 'bank';
  for (const record of records) {
    const where = `record at line ${record.line}`;
    const d = record.fields.get('D');
    const t = amountText(record);
    const date = d ? parseDateAs(options.dateFormat ? d : normaliseQifDate(d), dateFormat) : { error: 'the record has no D (date) line' };
    const amount = t !== undefined ? parseAmount(t, currency, decimal ?? '.') : { error: 'the record has no T (amount) line' };
    if ('error' in date) problems.add(where, date.error);
    if ('error' in amount) problems.add(where, amount.error);
    if ('error' in date || 'error' in amount) continue;
    const number = record.fields.get('N');
    statement.lines.push({
      where,
      date: date.date,
      amount: amount.marker === 'DR' ? -Math.abs(amount.minor) : amount.marker === 'CR' ? Math.abs(amount.minor) : amount.minor,
      description: joinNarration([record.fields.get('P'), record.fields.get('M')]) || (number ? `cheque ${number}` : 'QIF transaction'),
      externalId: null,
    });
  }
  problems.throwIfAny('the QIF file cannot be imported');
  return { format: `QIF (${type})`, label: 'QIF', statements: [statement], notes };
}

/** `6/1'04` → `6/1/2004`; `6/1/94` → `6/1/1994`; ` 6/ 1/94` (Quicken pads with spaces) → `6/1/1994`. */
function normaliseQifDate(text: string): string {
  const s = text.replace(/\s+/g, '');
  const m = /^(\d{1,2})[/.-](\d{1,2})(['/.-])(\d{2}|\d{4})$/.exec(s);
  if (!m) return s;
  const year = m[4]!.length === 4 ? Number(m[4]) : m[3] === "'" ? 2000 + Number(m[4]) : fullYear(Number(m[4]));
  return `${m[1]}/${m[2]}/${year}`;
}
