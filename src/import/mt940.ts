/**
 * SWIFT MT940 customer statements (`.sta`, `.940`): one statement per `:20:` block, with `:25:`
 * account, `:60F:`/`:60M:` opening balance, `:61:` entries each followed by an optional `:86:`
 * narrative, and `:62F:`/`:62M:` closing balance. MT940 is a line format with no general-purpose
 * parser worth depending on, so its few field rules are written here; bank header lines before
 * `:20:` (ABN AMRO's `ABNANL2A`/`940`) and SWIFT `{1:…}` blocks are ignored.
 */
import { parsePlainAmount } from './amounts.js';
import { checkedDate, yymmdd } from './dates.js';
import { decodeText } from './decode.js';
import { ImportRefusal, Problems } from './refusal.js';
import { emptyStatement, joinNarration, type Balance, type ParsedFile, type Statement, type StatementLine } from './statement.js';

interface Field {
  tag: string;
  value: string;
  line: number;
}

/** Splits the text into tagged fields; continuation lines join their field with a newline. */
function fields(text: string): Field[] {
  const out: Field[] = [];
  let current: Field | null = null;
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = raw.replace(/\s+$/, '');
    const tagged = /^:(\d{2}[A-Z]?|NS):(.*)$/.exec(line);
    if (tagged) {
      current = { tag: tagged[1]!, value: tagged[2]!, line: i + 1 };
      out.push(current);
    } else if (line === '-' || line === '-}' || line.startsWith('{')) {
      current = null;
    } else if (current && line) {
      current.value += `\n${line}`;
    }
  });
  return out;
}

interface Entry {
  line: StatementLine;
  narrative: string | null;
  ns: string | null;
  /** the customer reference and supplementary details of the :61: line, the narration of last resort */
  reference: string;
}

export function parseMt940(bytes: Uint8Array, assumedCurrency: string): ParsedFile {
  const notes: string[] = [];
  const text = decodeText(bytes, null, 'windows-1252', (n) => notes.push(n));
  const all = fields(text);
  if (!all.some((f) => f.tag === '20')) throw new ImportRefusal('malformed', 'no :20: field, so the file holds no MT940 statement');
  const problems = new Problems();
  const statements: Statement[] = [];
  let statement: Statement | null = null;
  let entries: Entry[] = [];
  let stage: 'header' | 'opened' | 'entries' | 'closed' = 'header';
  // the tag before this one, :NS: lines aside: an :86: right after a :61: is that entry's narrative
  let previous = '';
  const finish = () => {
    if (statement) {
      for (const e of entries) {
        e.line.description = narration(e) || e.reference || 'MT940 entry';
        statement.lines.push(e.line);
      }
      statements.push(statement);
    }
    statement = null;
    entries = [];
  };
  for (const field of all) {
    const where = `line ${field.line}`;
    const before = previous;
    if (field.tag !== 'NS') previous = field.tag;
    if (field.tag === '20') {
      finish();
      statement = emptyStatement(`statement :20: ${field.value.split('\n')[0]} at line ${field.line}`);
      statement.accountKind = 'bank';
      stage = 'header';
      continue;
    }
    if (!statement) {
      problems.add(where, `:${field.tag}: comes before any statement's :20:`);
      continue;
    }
    const current: Statement = statement;
    switch (field.tag) {
      case '25':
        if (stage !== 'header')
          problems.add(where, ":25: (account identification) inside the statement's entries; an entry's :86: or the closing :62: was expected");
        else current.accountId = field.value.trim();
        break;
      case '60F':
      case '60M': {
        if (stage !== 'header') problems.add(where, `:${field.tag}: (opening balance) after the statement's entries`);
        const balance = readBalance(field, current, problems);
        if (balance) current.opening = balance;
        stage = 'opened';
        break;
      }
      case '61': {
        if (stage === 'closed') problems.add(where, ':61: entry after the closing balance :62:');
        stage = 'entries';
        const entry = readEntry(field, current.currency ?? assumedCurrency, problems);
        if (entry) entries.push(entry);
        break;
      }
      case '86': {
        const last = entries[entries.length - 1];
        if (before === '61' && last && last.narrative === null) last.narrative = field.value;
        break;
      }
      case 'NS': {
        const last = entries[entries.length - 1];
        if (stage === 'entries' && last) last.ns = (last.ns ? `${last.ns}\n` : '') + field.value;
        break;
      }
      case '62F':
      case '62M': {
        const balance = readBalance(field, current, problems);
        if (balance) current.closing = balance;
        stage = 'closed';
        break;
      }
      default:
        break;
    }
  }
  finish();
  problems.throwIfAny('the MT940 file cannot be imported');
  return { format: 'MT940', label: 'MT940', statements, notes };
}

function readBalance(field: Field, statement: Statement, problems: Problems): Balance | null {
  const where = `line ${field.line}`;
  const m = /^([CD])(\d{6})([A-Z]{3})([\d,]+)$/.exec(field.value.trim());
  if (!m) {
    problems.add(where, `:${field.tag}: "${field.value}" is not a balance (C/D, YYMMDD, currency, amount)`);
    return null;
  }
  const currency = m[3]!;
  if (statement.currency && statement.currency !== currency) {
    problems.add(where, `:${field.tag}: is in ${currency} but the statement's opening balance is in ${statement.currency}`);
    return null;
  }
  statement.currency = currency;
  const date = yymmdd(m[2]!);
  const amount = parsePlainAmount(m[4]!, currency, ',');
  if ('error' in date) problems.add(where, `:${field.tag}: ${date.error}`);
  if ('error' in amount) problems.add(where, `:${field.tag}: ${amount.error}`);
  if ('error' in date || 'error' in amount) return null;
  return { amount: m[1] === 'D' ? -amount.minor : amount.minor, date: date.date, where };
}

/**
 * `:61:YYMMDD[MMDD](C|D|RC|RD)[funds code]amount(N|S|F)xxx reference[//bank reference]`. The entry
 * (booking) date is used when given, in the value date's year unless the two straddle a new year.
 */
function readEntry(field: Field, currency: string, problems: Problems): Entry | null {
  const where = `line ${field.line}`;
  const [first = '', ...rest] = field.value.split('\n');
  const m = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d[\d,]*)([NSF][A-Z0-9 ]{3})(.*)$/.exec(first);
  if (!m) {
    problems.add(where, `:61: "${first}" is not an MT940 entry (date, C/D mark, amount, type code)`);
    return null;
  }
  const value = yymmdd(m[1]!);
  if ('error' in value) {
    problems.add(where, `:61: value date ${value.error}`);
    return null;
  }
  let date = value.date;
  if (m[2]) {
    const valueYear = Number(value.date.slice(0, 4));
    const month = Number(m[2].slice(0, 2));
    const valueMonth = Number(value.date.slice(5, 7));
    const year = month === 1 && valueMonth === 12 ? valueYear + 1 : month === 12 && valueMonth === 1 ? valueYear - 1 : valueYear;
    const entry = checkedDate(year, month, Number(m[2].slice(2)), m[2]);
    if ('error' in entry) {
      problems.add(where, `:61: entry date ${entry.error}`);
      return null;
    }
    date = entry.date;
  }
  const amount = parsePlainAmount(m[5]!, currency, ',');
  if ('error' in amount) {
    problems.add(where, `:61: ${amount.error}`);
    return null;
  }
  // RC is the reversal of a credit (money out), RD the reversal of a debit (money in)
  const out = m[3] === 'D' || m[3] === 'RC';
  const [customerRef = '', bankRef = ''] = m[7]!.split('//');
  return {
    line: {
      where,
      date,
      amount: out ? -amount.minor : amount.minor,
      description: '',
      externalId: bankRef.trim() || null,
    },
    narrative: null,
    ns: null,
    reference: joinNarration([customerRef.trim() === 'NONREF' ? '' : customerRef.trim(), ...rest]),
  };
}

/**
 * The :86: narrative. German banks structure it as a three-digit transaction code and `?nn`
 * subfields hard-wrapped at 65 characters: booking text (?00), purpose (?20–?29, ?60–?63) and
 * counterparty name (?32–?33) are kept. Other banks' free text keeps its line breaks as spaces.
 * Without :86:, the proprietary :NS: lines some banks use (Sberbank: 15–16 partner, 09 text).
 */
function narration(entry: Entry): string {
  const text = entry.narrative;
  if (text !== null) {
    const joined = text.replace(/\n/g, '');
    if (/^\d{3}\?/.test(joined)) {
      const sub = new Map<number, string>();
      for (const m of joined.slice(3).matchAll(/\?(\d{2})([^?]*)/g)) sub.set(Number(m[1]), (sub.get(Number(m[1])) ?? '') + m[2]!);
      const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => sub.get(from + k) ?? '').join('');
      return joinNarration([sub.get(0), range(20, 29) + range(60, 63), range(32, 33)]);
    }
    return text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
  }
  if (entry.ns) {
    const sub = new Map<string, string>();
    for (const line of entry.ns.split('\n')) {
      const m = /^(\d{2})(.*)$/.exec(line);
      if (m) sub.set(m[1]!, (sub.get(m[1]!) ?? '') + m[2]!);
    }
    return joinNarration([(sub.get('15') ?? '') + (sub.get('16') ?? ''), sub.get('09')]);
  }
  return '';
}
