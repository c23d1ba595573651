/**
 * Reads the HTML of GnuCash's own Payable or Receivable Aging report (made by
 * scripts/gnucash/make-aging-reports.sh): one row per company with its amounts in the columns
 * Pre-Payment, Current, 0-30 days, 31-60 days, 61-90 days, 91+ days and Total, all in pence, and
 * the Total row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GNUCASH_FIXTURES } from './gnucash-reports.js';

export const AGING_COLUMNS = ['Pre-Payment', 'Current', '0-30 days', '31-60 days', '61-90 days', '91+ days', 'Total'] as const;
export type AgingColumn = (typeof AGING_COLUMNS)[number];

export interface AgingReport {
  /** company name -> column -> pence */
  companies: Map<string, Map<AgingColumn, number>>;
  total: Map<AgingColumn, number>;
}

function pence(text: string): number {
  const m = /^(-?)£([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`not an amount in pounds: "${text}"`);
  const value = Number(m[2]!.replaceAll(',', '')) * 100 + Number(m[3]);
  return m[1] === '-' ? -value : value;
}

const cellText = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;/g, ' ')
    .trim();

export function readAgingReport(name: string): AgingReport {
  const html = readFileSync(join(GNUCASH_FIXTURES, 'reports', `${name}.html`), 'utf8');
  const headings = [...html.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => cellText(m[1]!));
  if (headings.join('|') !== ['Company', ...AGING_COLUMNS].join('|')) throw new Error(`unexpected columns: ${headings.join(', ')}`);
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  const companies = new Map<string, Map<AgingColumn, number>>();
  let total: Map<AgingColumn, number> | undefined;
  for (const row of body.split(/<tr[^>]*>/).slice(1)) {
    const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => cellText(m[1]!));
    if (cells.length !== AGING_COLUMNS.length + 1) throw new Error(`a row of ${cells.length} cells: ${cells.join(' | ')}`);
    const amounts = new Map(AGING_COLUMNS.map((c, i) => [c, pence(cells[i + 1]!)] as const));
    if (cells[0] === 'Total') total = amounts;
    else companies.set(cells[0]!, amounts);
  }
  if (!total) throw new Error('no Total row');
  return { companies, total };
}

/**
 * The column a bill falls in on the report date, as GnuCash's aging (report-utilities.scm,
 * gnc:owner-splits->aging-list) places it by due date: not yet due is Current; then by whole
 * 30-day steps back from the end of the report day.
 */
export function agingColumn(dueDate: string, reportDate: string): AgingColumn {
  const days = (Date.parse(`${reportDate}T00:00:00Z`) - Date.parse(`${dueDate}T00:00:00Z`)) / 86_400_000;
  if (days < 0) return 'Current';
  if (days < 30) return '0-30 days';
  if (days < 60) return '31-60 days';
  if (days < 90) return '61-90 days';
  return '91+ days';
}
