/**
 * QuickBooks' own BalanceSheet report (GET /reports/BalanceSheet, Intuit's Report: nested Rows whose
 * sections carry a `group` and a Summary) as the totals Ledgerline's balance sheet has: the Summary
 * of the sections QuickBooks names TotalAssets, Liabilities, Equity and TotalLiabilitiesAndEquity,
 * first money column, exact in minor units. What `ledgerline check-books` compares Ledgerline's
 * balance sheet from the mirror with.
 */
import { fromMajor } from '../../domain/money.js';
import { AccountingSystemError } from '../types.js';

interface ReportRow {
  group?: string;
  Summary?: { ColData?: { value?: string }[] };
  Rows?: { Row?: ReportRow[] };
}

export interface QuickBooksReport {
  Rows?: { Row?: ReportRow[] };
}

const TOTALS: [label: string, group: string][] = [
  ['Total Assets', 'TotalAssets'],
  ['Total Liabilities', 'Liabilities'],
  ['Total Equity', 'Equity'],
  ['Total Liabilities and Equity', 'TotalLiabilitiesAndEquity'],
];

function findGroup(rows: ReportRow[] | undefined, group: string): ReportRow | undefined {
  for (const row of rows ?? []) {
    if (row.group === group) return row;
    const inner = findGroup(row.Rows?.Row, group);
    if (inner) return inner;
  }
  return undefined;
}

export function quickBooksBalanceSheetTotals(report: QuickBooksReport, currency: string): { label: string; amount: number }[] {
  return TOTALS.map(([label, group]) => {
    const text = findGroup(report.Rows?.Row, group)?.Summary?.ColData?.[1]?.value;
    // QuickBooks leaves a section out when it holds nothing
    const amount = text === undefined || text.trim() === '' ? 0 : fromMajor(text.replace(/,/g, ''), currency);
    if (amount === null) throw new AccountingSystemError(`QuickBooks' BalanceSheet has an amount Ledgerline cannot read exactly (${label}: "${text}")`);
    return { label, amount };
  });
}
