/**
 * The organisation overview, "Books at a glance": the profit and loss of the last twelve complete
 * months and the balance sheet at their month ends, each as a chart and as a table; bank and card
 * balances over the same month ends; and the next bills due, with their count and total.
 */
import { humanDate } from '../../domain/dates.js';
import type { ReportOutput } from '../../operations/report-output.js';
import type { BooksOverview } from '../books-overview.js';
import { html, type SafeHtml } from '../html.js';
import { settingsPage, type Viewer } from './chrome.js';
import { bankSection, billsSection } from './overview-bank-bills.js';
import { amountText, columnMonth, longMonth, monthTable, notShown, shortMonth, type MonthRow } from './overview-parts.js';
import { COLOURS, responsiveChart, type Series } from './svg-chart.js';

export function overviewPage(v: Viewer, org: { id: string; name: string }, o: BooksOverview): string {
  const last = o.months[o.months.length - 1]!;
  return settingsPage(
    v,
    org,
    'overview',
    html`<p class="muted">The twelve complete months to ${humanDate(last.to)}, in ${o.currency} unless an account says otherwise, as the API answers
      them for you today (${humanDate(o.today)}).</p>
<section class="card overview" aria-labelledby="pl-title">
  <h3 id="pl-title">Profit and loss by month</h3>
  ${o.profitAndLoss.ok ? profitAndLoss(o.profitAndLoss.value) : notShown('The profit and loss is', o.profitAndLoss)}
</section>
<section class="card overview" aria-labelledby="bs-title">
  <h3 id="bs-title">Balance sheet at each month end</h3>
  ${o.balanceSheet.ok ? balanceSheet(o.balanceSheet.value) : notShown('The balance sheet is', o.balanceSheet)}
</section>
${bankSection(o)}
${billsSection(o)}`,
  );
}

/** A report's periods and a line's amounts, oldest first (the reports answer current first). */
const oldestFirst = <T>(items: readonly T[]): T[] => [...items].reverse();

function series(name: string, amounts: number[] | undefined, colour: string): Series[] {
  return amounts ? [{ name, values: oldestFirst(amounts), colour }] : [];
}

function profitAndLoss(r: ReportOutput): SafeHtml {
  const ends = oldestFirst(r.periods).map((p) => p.to);
  const section = (title: string) => r.sections.find((s) => s.title === title)?.total;
  const net = r.summary.find((s) => s.label === 'Net Profit')?.amounts;
  const rows: MonthRow[] = [
    ...r.sections.map((s) => ({ label: s.title, values: oldestFirst(s.total) })),
    ...r.summary.map((s) => ({ label: s.label, values: oldestFirst(s.amounts), total: true })),
  ];
  return html`${
    net
      ? html`<p class="figures"><span>Net profit in ${longMonth(ends[ends.length - 1]!)}:
        <strong>${amountText(net[0]!, r.currency)} ${r.currency}</strong></span></p>`
      : ''
  }
${responsiveChart({
  id: 'chart-pl',
  title: `Profit and loss by month, ${r.currency}`,
  description: 'Income and operating expenses as bars and net profit as a line, month by month; the table below gives every figure.',
  labels: ends.map(shortMonth),
  longLabels: ends.map(longMonth),
  bars: [...series('Income', section('Income'), COLOURS.blue), ...series('Operating Expenses', section('Operating Expenses'), COLOURS.orange)],
  lines: series('Net Profit', net, COLOURS.green),
  format: (n) => `${amountText(n, r.currency)} ${r.currency}`,
})}
${monthTable('pl-table', `Profit and loss by month, ${r.currency} (expenses shown positive)`, ends.map(columnMonth), rows, r.currency)}`;
}

function balanceSheet(r: ReportOutput): SafeHtml {
  const dates = oldestFirst(r.periods).map((p) => p.to);
  const line = (label: string) => r.summary.find((s) => s.label === label)?.amounts;
  // each section's groups, then the summary lines: the sections' own totals are the summary's first lines
  const rows: MonthRow[] = [
    ...r.sections.flatMap((s) => s.groups.map((g) => ({ label: `${s.title}: ${g.title}`, values: oldestFirst(g.total) }))),
    ...r.summary.map((s) => ({ label: s.label, values: oldestFirst(s.amounts), total: true })),
  ];
  return html`${responsiveChart({
    id: 'chart-bs',
    title: `Balance sheet at each month end, ${r.currency}`,
    description: 'Total assets, total liabilities and total equity at each month end as lines; the table below gives every figure.',
    labels: dates.map(shortMonth),
    longLabels: dates.map((d) => humanDate(d)),
    lines: [
      ...series('Total Assets', line('Total Assets'), COLOURS.blue),
      ...series('Total Liabilities', line('Total Liabilities'), COLOURS.orange),
      ...series('Total Equity', line('Total Equity'), COLOURS.green),
    ],
    format: (n) => `${amountText(n, r.currency)} ${r.currency}`,
  })}
${monthTable('bs-table', `Balance sheet at each month end, ${r.currency}`, dates.map(columnMonth), rows, r.currency)}`;
}
