/**
 * hledger and Ledger journal files (the plain-text accounting format): transactions of dated
 * postings (a posting may have a date of its own), one amount per transaction left out to balance
 * it, `@`/`@@` prices, `=`, `==`, `=*`, `==*` balance assertions and `account` directives with
 * hledger's type tags. What would change the meaning of
 * a file behind the reader's back (include, alias, apply account, automated and periodic
 * transactions, virtual postings) is refused rather than ignored; display directives
 * (commodity, P, D, payee, tag) are read past. Amounts stay text here; settle.ts makes them exact.
 */
import { isValidDate } from '../../domain/dates.js';
import type { AccountType } from '../../domain/chart.js';
import { ImportRefusal, Problems } from '../refusal.js';
import type { DeclaredAccount, JournalEntry, JournalPosting, ParsedJournal } from './entries.js';

/** hledger's account type letters and words (`account NAME  ; type: A`) to Ledgerline account types. */
const HLEDGER_TYPES: Record<string, AccountType> = {
  a: 'Other Current Asset',
  asset: 'Other Current Asset',
  c: 'Bank',
  cash: 'Bank',
  l: 'Other Current Liability',
  liability: 'Other Current Liability',
  e: 'Equity',
  equity: 'Equity',
  r: 'Income',
  revenue: 'Income',
  x: 'Expense',
  expense: 'Expense',
};

const IGNORED_DIRECTIVES = /^(commodity|P|D|payee|tag|Y|year|N|decimal-mark\s+\.)(\s|$)/;
const REFUSED_DIRECTIVES = /^(include|alias|apply|end\s+apply|decimal-mark|[=~])/;

/** A commodity: "quoted", a code of letters, or one currency symbol. */
const COMMODITY = String.raw`(?:"[^"]+"|[A-Za-z]{1,12}|[£$€¥₹])`;
const NUMBER = String.raw`(?:\d[\d,]*(?:\.\d*)?|\.\d+)`;
const AMOUNT = new RegExp(String.raw`^([+-])?\s*(${COMMODITY})?\s*([+-])?\s*(${NUMBER})\s*(${COMMODITY})?$`);

export interface AmountText {
  /** plain decimal, sign first, no grouping */
  amount: string;
  /** the commodity as written, quotes removed; null = none */
  commodity: string | null;
}

/** `£-1,234.50`, `-1234.5 GBP`, `EUR 10`: a plain decimal and its commodity, or why not. */
export function readAmount(text: string): AmountText | { error: string } {
  const m = AMOUNT.exec(text.trim());
  if (!m) return { error: `"${text.trim()}" is not an amount` };
  const [, sign1, before, sign2, number, after] = m;
  if (before && after) return { error: `"${text.trim()}" names two commodities` };
  if (sign1 && sign2) return { error: `"${text.trim()}" has two signs` };
  if (number!.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(number!))
    return { error: `"${text.trim()}": a comma may only group thousands (write decimals with a point)` };
  const digits = number!.replace(/,/g, '').replace(/\.$/, '');
  const sign = (sign1 ?? sign2) === '-' ? '-' : '';
  const commodity = (before ?? after ?? null)?.replace(/^"|"$/g, '') ?? null;
  return { amount: `${sign}${digits.startsWith('.') ? `0${digits}` : digits}`, commodity };
}

/** yyyy-MM-dd from hledger's yyyy-mm-dd, yyyy/mm/dd or yyyy.mm.dd (months and days may be one digit). */
export function journalDate(text: string): string | null {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (!m) return null;
  const date = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  return isValidDate(date) ? date : null;
}

/** Splits `text ; comment` at the first semicolon. */
function withoutComment(text: string): { text: string; comment: string } {
  const at = text.indexOf(';');
  return at < 0 ? { text, comment: '' } : { text: text.slice(0, at), comment: text.slice(at + 1) };
}

/** hledger tags (`name: value`, comma separated) in a comment, names in lower case. */
function tags(comment: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of comment.matchAll(/([\w-]+):[ \t]*([^,]*)/g)) found.set(m[1]!.toLowerCase(), m[2]!.trim());
  return found;
}

export function parseHledger(text: string): ParsedJournal {
  const problems = new Problems();
  const entries: JournalEntry[] = [];
  const accounts: DeclaredAccount[] = [];
  let current: JournalEntry | null = null;
  /** indented lines under a directive (commodity format, account notes) belong to it */
  let inDirective = false;
  let inBlockComment = false;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);

  lines.forEach((raw, index) => {
    const where = `line ${index + 1}`;
    const line = raw.replace(/\s+$/, '');
    if (inBlockComment) {
      if (/^end\s+comment$/.test(line)) inBlockComment = false;
      return;
    }
    if (line === '') {
      current = null;
      inDirective = false;
      return;
    }
    const indented = /^[ \t]/.test(line);
    if (indented) {
      const body = line.trim();
      if (body.startsWith(';') || body.startsWith('#')) return;
      if (current) {
        const posting = readPosting(body, where, problems, current.date);
        if (posting) current.postings.push(posting);
      } else if (!inDirective) problems.add(where, 'an indented line outside a transaction');
      return;
    }
    current = null;
    inDirective = false;
    if (/^[;#*%|]/.test(line)) return;
    if (/^comment$/.test(line)) {
      inBlockComment = true;
      return;
    }
    if (/^\d/.test(line)) {
      current = readHeader(line, where, problems);
      if (current) entries.push(current);
      return;
    }
    if (/^account\s/.test(line)) {
      const declared = readAccountDirective(line, where, problems);
      if (declared) accounts.push(declared);
      inDirective = true;
      return;
    }
    if (IGNORED_DIRECTIVES.test(line)) {
      inDirective = true;
      return;
    }
    if (REFUSED_DIRECTIVES.test(line)) {
      problems.add(where, `"${line.split(/\s/)[0]}" changes other lines' meaning and is not imported; write its result out in full`);
      return;
    }
    problems.add(where, `"${line.slice(0, 40)}" is neither a transaction nor a directive Ledgerline reads`);
  });

  for (const entry of entries) {
    if (entry.postings.length < 2) problems.add(entry.where, 'a transaction needs at least two postings');
  }
  if (problems.list.length) throw ImportRefusal.of('malformed', 'the journal cannot be read', problems.list);
  return { format: 'journal', entries, accounts, notes: [] };
}

function readHeader(line: string, where: string, problems: Problems): JournalEntry | null {
  const { text, comment } = withoutComment(line);
  const m = /^(\S+?)(?:=\S+)?(?:\s+([*!]))?(?:\s+\(([^)]*)\))?(?:\s+(.*))?$/.exec(text.trim());
  const date = m ? journalDate(m[1]!) : null;
  if (!m || !date) {
    problems.add(where, `"${text.trim().split(/\s/)[0]}" is not a date (yyyy-mm-dd)`);
    return null;
  }
  const described = (m[4] ?? '').trim();
  const bar = described.indexOf('|');
  const tagged = tags(comment);
  const contact = tagged.get('contact') ?? (bar >= 0 ? described.slice(0, bar).trim() || null : null);
  const description = bar >= 0 ? described.slice(bar + 1).trim() : described;
  return {
    where,
    date,
    number: m[3]?.trim() || null,
    type: tagged.get('type') || null,
    contact,
    // hledger's payee is the part before `|`, or the whole description when there is none
    payee: contact === null && bar < 0 && description ? description : null,
    closing: tagged.has('closing') ? !/^(no|false|keep)$/i.test(tagged.get('closing')!) : null,
    description,
    postings: [],
  };
}

/**
 * A posting's own date, hledger's and Ledger's: a `date:` tag or a `[DATE]` (`[DATE=DATE2]`) in its
 * comment; a date without a year takes the transaction's. Null when it has none; undefined (with
 * the problem noted) when it names one that is not a date.
 */
function postingDate(comment: string, entryDate: string, where: string, problems: Problems): string | null | undefined {
  const text = tags(comment).get('date') ?? /\[([^\]=]+)(?:=[^\]]*)?\]/.exec(comment)?.[1];
  if (text === undefined || text.trim() === '') return null;
  const written = text.trim();
  const partial = /^(\d{1,2})[-/.](\d{1,2})$/.exec(written);
  const date = partial ? journalDate(`${entryDate.slice(0, 4)}-${partial[1]}-${partial[2]}`) : journalDate(written);
  if (!date) {
    problems.add(where, `posting date "${written}" is not a date (yyyy-mm-dd)`);
    return undefined;
  }
  return date;
}

function readPosting(body: string, where: string, problems: Problems, entryDate: string): JournalPosting | null {
  const { text, comment } = withoutComment(body);
  const m = /^(?:[*!]\s+)?(.+?)(?:(?:\s{2,}|\t)\s*(.*))?$/.exec(text.trim());
  if (!m) {
    problems.add(where, 'a posting without an account');
    return null;
  }
  const account = m[1]!.trim();
  if (/^[([]/.test(account)) {
    problems.add(where, `"${account}" is a virtual posting, which need not balance; write it as a real posting`);
    return null;
  }
  const rest = (m[2] ?? '').trim();
  const posting: JournalPosting = {
    where,
    account,
    amount: null,
    currency: null,
    price: null,
    description: tags(comment).get('description') ?? null,
    date: null,
    assertion: null,
  };
  const date = postingDate(comment, entryDate, where, problems);
  if (date === undefined) return null;
  if (date !== entryDate) posting.date = date;
  if (!rest) return posting;
  const assertionAt = rest.search(/==?\*?/);
  const valuePart = assertionAt >= 0 ? rest.slice(0, assertionAt).trim() : rest;
  if (assertionAt >= 0) {
    const operator = /^==?\*?/.exec(rest.slice(assertionAt))![0];
    const assertion = readAmount(rest.slice(assertionAt + operator.length));
    if ('error' in assertion) problems.add(where, `balance assertion: ${assertion.error}`);
    else posting.assertion = { amount: assertion.amount, currency: assertion.commodity, total: operator.startsWith('=='), inclusive: operator.endsWith('*') };
  }
  if (!valuePart) return posting;
  const price = /^(.*?)\s*(@@?)\s*(.*)$/.exec(valuePart);
  const amount = readAmount(price ? price[1]! : valuePart);
  if ('error' in amount) {
    problems.add(where, amount.error);
    return posting;
  }
  posting.amount = amount.amount;
  posting.currency = amount.commodity;
  if (price) {
    const cost = readAmount(price[3]!);
    if ('error' in cost) problems.add(where, `price: ${cost.error}`);
    else if (cost.amount.startsWith('-')) problems.add(where, 'a price cannot be negative');
    else posting.price = { amount: cost.amount, commodity: cost.commodity, per: price[2] === '@' ? 'unit' : 'total' };
  }
  return posting;
}

function readAccountDirective(line: string, where: string, problems: Problems): DeclaredAccount | null {
  const { text, comment } = withoutComment(line);
  const name = text
    .replace(/^account\s+/, '')
    .split(/\s{2,}|\t/)[0]!
    .trim();
  if (!name) {
    problems.add(where, 'an account directive without a name');
    return null;
  }
  const typeTag = tags(comment).get('type');
  if (typeTag === undefined) return { where, name, type: null };
  const type = HLEDGER_TYPES[typeTag.toLowerCase()];
  if (!type) {
    problems.add(where, `account type "${typeTag}" is not one of A, L, E, R, X, C (or Asset, Liability, Equity, Revenue, Expense, Cash)`);
    return null;
  }
  return { where, name, type };
}
