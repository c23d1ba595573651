/**
 * The text content of a tool result, for a model (or a person) that reads text rather than
 * structuredContent: the same answer, written so that each thing is said once and nothing needs
 * JSON to be read. Nothing is left out; a value that is the same in every row, or absent in every
 * row, is said once above its table instead of in each row.
 *
 * - Top-level values as "name: value" lines; a nested record as "name: key value; key value".
 * - A list of records as a Markdown table; a record inside a row becomes columns (account.name);
 *   a list of records inside a row becomes a table of its own after it, each row naming the row it
 *   belongs to; a list of amounts that runs along the answer's periods becomes one column per period.
 * - A report (periods, sections of groups of accounts, a summary: the profit and loss and balance
 *   sheet) as one statement: a row per account, group and section total, and summary line, with a
 *   column per period and the currency said once.
 * - Absent values are written `none`, so an empty cell never stands for one.
 */

type Row = Record<string, unknown>;
const NONE = 'none';

const isRecord = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
const isRecordList = (v: unknown): v is Row[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);

/** One cell or value: text as it is, none for absent, a list of plain values joined; pipes and line breaks escaped. */
export function cell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? NONE
      : Array.isArray(value)
        ? value.length === 0
          ? NONE
          : value.map((v) => (isRecord(v) || Array.isArray(v) ? JSON.stringify(v) : String(v))).join('; ')
        : isRecord(value)
          ? JSON.stringify(value)
          : String(value);
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '\\n');
}

/** The answer's periods, when it has them: lists of that many numbers are shown one column per period. */
interface Periods {
  labels: string[];
}

function periodsOf(answer: Row): Periods | undefined {
  const periods = answer.periods;
  if (!isRecordList(periods)) return undefined;
  return { labels: periods.map((p, i) => String(p.label ?? `period ${i + 1}`)) };
}

const alongPeriods = (value: unknown, periods: Periods | undefined): value is number[] =>
  !!periods && Array.isArray(value) && value.length === periods.labels.length && value.every((v) => typeof v === 'number' || v === null);

/** A record's own values, flattened: nested records as dotted names; lists of records set aside. */
function flatten(row: Row, periods: Periods | undefined, prefix = '', out: Map<string, unknown> = new Map(), children: [string, Row[]][] = []) {
  for (const [key, value] of Object.entries(row)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value)) flatten(value, periods, name, out, children);
    else if (isRecordList(value)) children.push([name, value]);
    else if (alongPeriods(value, periods)) value.forEach((v, i) => out.set(`${name} (${periods!.labels[i]})`, v));
    else out.set(name, value);
  }
  return { values: out, children };
}

/** What names a row for the rows of its own lists: the first of these it has, or its position. */
function rowName(row: Row, index: number): string {
  for (const key of ['id', 'number', 'title', 'name', 'label', 'date'])
    if (typeof row[key] === 'string' || typeof row[key] === 'number') return String(row[key]);
  return `#${index + 1}`;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function table(name: string, rows: Row[], periods: Periods | undefined, parent?: { column: string; names: string[] }): string[] {
  const flat = rows.map((r) => flatten(r, periods));
  // a list that holds records in some row is a table of its own, also for the rows where it is empty
  const childNames = [...new Set(flat.flatMap((f) => f.children.map(([n]) => n)))];
  // a record null in some rows (a line's suggestion) is its dotted columns there too, each none: not a column of its own
  const keys = [...new Set(flat.flatMap((f) => [...f.values.keys()]))];
  const columns = keys.filter((c) => !childNames.includes(c) && !keys.some((k) => k.startsWith(`${c}.`)));
  const value = (i: number, c: string) => flat[i]!.values.get(c);
  // said once above the table: columns absent in every row, and (with several rows) the same in every row
  const empty = columns.filter((c) => rows.every((_, i) => isEmpty(value(i, c))));
  const same = rows.length > 1 ? columns.filter((c) => !empty.includes(c) && rows.every((_, i) => cell(value(i, c)) === cell(value(0, c)))) : [];
  const shown = columns.filter((c) => !empty.includes(c) && !same.includes(c));
  const out = [`${name} (${rows.length}):`];
  if (same.length) out.push(`same in every row: ${same.map((c) => `${c} ${cell(value(0, c))}`).join('; ')}`);
  if (empty.length) out.push(`${NONE} in every row: ${empty.join(', ')}`);
  const head = [...(parent ? [parent.column] : []), ...shown];
  if (head.length) {
    out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    rows.forEach((_, i) => out.push(`| ${[...(parent ? [cell(parent.names[i])] : []), ...shown.map((c) => cell(value(i, c)))].join(' | ')} |`));
  }
  // the lists inside rows, each a table of its own naming the row it belongs to
  for (const child of childNames) {
    const childRows: Row[] = [];
    const owners: string[] = [];
    flat.forEach((f, i) => {
      for (const [n, list] of f.children) if (n === child) for (const r of list) (childRows.push(r), owners.push(rowName(rows[i]!, i)));
    });
    out.push('', ...table(`${name} › ${child}`, childRows, periods, { column: singular(name), names: owners }));
  }
  return out;
}

const singular = (name: string) => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name);

/** A record as one line of "key value" pairs, or dotted lines when it nests further. */
function recordLines(name: string, record: Row, periods: Periods | undefined): string[] {
  const { values, children } = flatten(record, periods);
  const lines = [`${name}: ${[...values].map(([k, v]) => `${k} ${cell(v)}`).join('; ') || NONE}`];
  for (const [child, rows] of children) lines.push(...table(`${name}.${child}`, rows, periods));
  return lines;
}

interface StatementAccount {
  name: string;
  amounts: (number | null)[];
}
interface StatementGroup {
  title: string;
  total: (number | null)[];
  accounts: StatementAccount[];
}
interface StatementSection {
  title: string;
  total: (number | null)[];
  groups: StatementGroup[];
}

/** A report as its statement: answers with periods, sections of groups of accounts, and a summary. */
function isStatement(answer: Row): answer is Row & { periods: Row[]; sections: StatementSection[]; summary: { label: string; amounts: (number | null)[] }[] } {
  return (
    isRecordList(answer.periods) &&
    Array.isArray(answer.sections) &&
    answer.sections.every((s) => isRecord(s) && Array.isArray(s.groups) && s.groups.every((g: unknown) => isRecord(g) && Array.isArray(g.accounts))) &&
    Array.isArray(answer.summary)
  );
}

function statement(answer: Row & { periods: Row[]; sections: StatementSection[]; summary: { label: string; amounts: (number | null)[] }[] }): string {
  const { periods, sections, summary, ...rest } = answer;
  const lines = Object.entries(rest).map(([k, v]) => `${k}: ${cell(v)}`);
  const heads = periods.map((p) => `${cell(p.label)} (${cell(p.from)} to ${cell(p.to)})`);
  const row = (section: string, group: string, line: string, amounts: (number | null)[]) =>
    `| ${[section, group, line].map(cell).join(' | ')} | ${amounts.map(cell).join(' | ')} |`;
  const out = [
    ...lines,
    `Every amount is in ${cell(answer.currency)}, one column per period. A group's total is its "total" row; a section's is its row with group "all"; ` +
      `the summary lines come last.`,
    `| section | group | account | ${heads.join(' | ')} |`,
    `|---|---|---|${heads.map(() => '---').join('|')}|`,
  ];
  for (const s of sections) {
    for (const g of s.groups) {
      for (const a of g.accounts) out.push(row(s.title, g.title, a.name, a.amounts));
      // a group of one account of the same amounts says nothing more in its total
      const single = g.accounts.length === 1 && g.accounts[0]!.amounts.every((v, i) => v === g.total[i]);
      if (!single) out.push(row(s.title, g.title, 'total', g.total));
    }
    out.push(row(s.title, 'all', 'total', s.total));
  }
  for (const line of summary) out.push(row('summary', 'all', line.label, line.amounts));
  return out.join('\n');
}

export function renderText(answer: Record<string, unknown>): string {
  if (isStatement(answer)) return statement(answer);
  const periods = periodsOf(answer);
  const lines: string[] = [];
  const tables: string[] = [];
  for (const [name, value] of Object.entries(answer)) {
    if (isRecordList(value)) tables.push('', ...table(name, value, periods));
    else if (isRecord(value)) lines.push(...recordLines(name, value, periods));
    else if (alongPeriods(value, periods)) lines.push(`${name}: ${value.map((v, i) => `${periods!.labels[i]} ${cell(v)}`).join('; ')}`);
    else lines.push(`${name}: ${cell(value)}`);
  }
  return [...lines, ...tables].join('\n').trim();
}
