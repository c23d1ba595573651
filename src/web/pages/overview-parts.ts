/** What the overview's sections share: amounts as the tables write them, month labels, a refused section, a table of rows by month. */
import { minorDigits } from '../../domain/money.js';
import { monthLabel, monthName } from '../../domain/dates.js';
import { html, type SafeHtml } from '../html.js';
import type { PageAnswer } from '../operation-for-page.js';

/** An amount in major units with its currency's decimals and thousands separators, without the code (the caption says it). */
export function amountText(major: number, currency: string): string {
  const digits = minorDigits(currency);
  return major.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "Dec" under a chart's axis; "Dec 2025" over a table's column; "December 2025" in a hover title. */
export const shortMonth = (date: string) => monthName(Number(date.slice(5, 7)));
export const columnMonth = (date: string) => `${monthName(Number(date.slice(5, 7)))} ${date.slice(0, 4)}`;
export const longMonth = (date: string) => monthLabel(date);

/** In place of a section whose operation refused or failed: which, and why (the operation's own words). */
export function notShown(what: string, answer: Extract<PageAnswer<unknown>, { ok: false }>): SafeHtml {
  const why = answer.message.charAt(0).toUpperCase() + answer.message.slice(1);
  const hint = answer.code === 'role_not_allowed' ? html` A super admin can allow it under <strong>Role permissions</strong>.` : '';
  return html`<div class="notice" role="status" data-refused="${answer.code}"><strong>${what} not shown.</strong> ${why}.${hint}</div>`;
}

export interface MonthRow {
  label: string;
  /** one per column, oldest first */
  values: (number | null)[];
  /** a total line, set bold */
  total?: boolean;
}

/**
 * A wide table in a box that scrolls sideways on a phone, its title above the box: a caption would
 * be as wide as the table and cut off with it.
 */
export function scrollingTable(id: string, title: string, table: SafeHtml): SafeHtml {
  return html`<p class="table-title" id="${id}">${title}</p>
<div class="scroll"><table class="figures-table" aria-labelledby="${id}">${table}</table></div>`;
}

/** Rows by month, the label column first. */
export function monthTable(id: string, caption: string, columns: string[], rows: MonthRow[], currency: string): SafeHtml {
  return scrollingTable(
    id,
    caption,
    html`
<thead><tr><th scope="col">${currency}</th>${columns.map((c) => html`<th scope="col" class="num">${c}</th>`)}</tr></thead>
<tbody>${rows.map(
      (r) =>
        html`<tr${r.total ? html` class="total"` : ''}><th scope="row">${r.label}</th>${r.values.map(
          (v) => html`<td class="num">${v === null ? '—' : amountText(v, currency)}</td>`,
        )}</tr>`,
    )}</tbody>`,
  );
}
