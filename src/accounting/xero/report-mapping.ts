/**
 * Xero's own BalanceSheet report (GET /Reports/BalanceSheet, ReportWithRows) in Ledgerline's report
 * shape: the same sections, groups and summary lines `reports.balance_sheet` answers, amounts exact
 * in minor units, one per column of Xero's report. Ledgerline computes its reports from the mirrored
 * journals (docs/xero.md: why); this reading of Xero's report is what they are checked against
 * (`ledgerline check-books`, books-check.ts).
 *
 * Xero's sections become Ledgerline's groups: Bank and Current Assets → Assets: Current Assets;
 * Fixed Assets → Fixed Assets; Non-current Assets → Other Assets; Current Liabilities → Liabilities:
 * Current Liabilities; Non-current Liabilities → Long Term Liabilities; Equity → Equity (with Xero's
 * Current Year Earnings row, which names no account, kept as a line). Xero's own summary rows (Total
 * Bank, Total Assets, Net Assets, …) are not copied: the summary lines are added up from the
 * account lines, as Ledgerline adds up its own, and Total Liabilities and Equity is the sum of the
 * two, which Xero's report does not show.
 */
import { fromMajor } from '../../domain/money.js';
import { balanceSheetSummary, type ReportBody, type ReportGroup, type ReportLine, type ReportSection } from '../../domain/report.js';
import { AccountingSystemError } from '../types.js';

export interface XeroReportCell {
  Value?: string;
}

export interface XeroReportRow {
  RowType?: string;
  Title?: string;
  Cells?: XeroReportCell[];
  Rows?: XeroReportRow[];
}

export interface XeroReport {
  ReportType?: string;
  Rows?: XeroReportRow[];
}

const GROUP_OF: Record<string, [section: string, group: string]> = {
  bank: ['Assets', 'Current Assets'],
  'current assets': ['Assets', 'Current Assets'],
  'fixed assets': ['Assets', 'Fixed Assets'],
  'non-current assets': ['Assets', 'Other Assets'],
  'current liabilities': ['Liabilities', 'Current Liabilities'],
  'non-current liabilities': ['Liabilities', 'Long Term Liabilities'],
  equity: ['Equity', 'Equity'],
};

/** Ledgerline's order of sections and groups. */
const ORDER: [string, string[]][] = [
  ['Assets', ['Current Assets', 'Fixed Assets', 'Other Assets']],
  ['Liabilities', ['Current Liabilities', 'Long Term Liabilities']],
  ['Equity', ['Equity']],
];

const add = (a: number[], b: number[]) => a.map((v, i) => v + (b[i] ?? 0));

export function xeroBalanceSheetBody(report: XeroReport, currency: string): ReportBody {
  const header = (report.Rows ?? []).find((r) => r.RowType === 'Header');
  const columns = Math.max(0, (header?.Cells?.length ?? 1) - 1);
  const amount = (cell: XeroReportCell | undefined, where: string): number => {
    const text = (cell?.Value ?? '').replace(/,/g, '').trim();
    const minor = text === '' ? 0 : fromMajor(text, currency);
    if (minor === null) throw new AccountingSystemError(`Xero's BalanceSheet has an amount Ledgerline cannot read exactly (${where}: "${cell?.Value}")`);
    return minor;
  };
  const groups = new Map<string, ReportLine[]>();
  for (const section of report.Rows ?? []) {
    if (section.RowType !== 'Section') continue;
    const lines = (section.Rows ?? []).filter((r) => r.RowType === 'Row');
    const title = (section.Title ?? '').trim();
    const place = GROUP_OF[title.toLowerCase()];
    // Xero's heading sections (Assets, Liabilities) and Net Assets hold no account lines of their own
    if (!place || lines.length === 0) {
      if (place === undefined && lines.some((r) => !/^net assets$/i.test(r.Cells?.[0]?.Value ?? ''))) {
        throw new AccountingSystemError(`Xero's BalanceSheet has a section Ledgerline does not map ("${title}")`);
      }
      continue;
    }
    const key = place.join('\u0000');
    const into = groups.get(key) ?? [];
    for (const row of lines) {
      const name = row.Cells?.[0]?.Value ?? '';
      into.push({ name, amounts: Array.from({ length: columns }, (_, i) => amount(row.Cells?.[i + 1], `${title}: ${name}`)) });
    }
    groups.set(key, into);
  }
  const zeros = Array.from({ length: columns }, () => 0);
  const sections: ReportSection[] = ORDER.map(([section, titles]) => {
    const made: ReportGroup[] = titles.flatMap((g) => {
      const accounts = groups.get([section, g].join('\u0000'));
      return accounts ? [{ title: g, total: accounts.reduce((t, a) => add(t, a.amounts), zeros), accounts }] : [];
    });
    return { title: section, total: made.reduce((t, g) => add(t, g.total), zeros), groups: made };
  });
  return { sections, summary: balanceSheetSummary(sections) };
}
