/**
 * The text content of a tool result: a compact rendering of the answer, since structuredContent
 * already carries it as JSON and a model would otherwise be handed it twice. Top-level fields as
 * "name: value" lines; each list of records as a Markdown table, which names each field once
 * instead of once per row. Nothing is left out: a nested value is written as JSON in its cell.
 */

type Row = Record<string, unknown>;

function isRecordList(value: unknown): value is Row[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
}

/** One cell: text as it is, null as empty, anything nested as JSON; pipes and line breaks escaped. */
export function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '\\n');
}

function table(name: string, rows: Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [
    `${name} (${rows.length}):`,
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`),
  ].join('\n');
}

export function renderText(answer: Record<string, unknown>): string {
  const lines: string[] = [];
  const tables: string[] = [];
  for (const [name, value] of Object.entries(answer)) {
    if (isRecordList(value)) tables.push(table(name, value));
    else lines.push(`${name}: ${value !== null && typeof value === 'object' ? JSON.stringify(value) : cell(value)}`);
  }
  return [...lines, ...tables].join('\n');
}
