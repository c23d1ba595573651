/**
 * Xero's BalanceSheet report in Ledgerline's shape (src/accounting/xero/report-mapping.ts): the
 * official contract's own example (xero_accounting.yaml, GET /Reports/BalanceSheet, three columns)
 * maps to a balance sheet whose Total Assets, Total Liabilities and Total Equity equal the example's
 * own total rows, with Total Liabilities and Equity their sum; and the fake Xero's report of its book
 * maps to the same totals Ledgerline computes from that book's mirrored journals.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { xeroBalanceSheetBody, type XeroReport } from '../../src/accounting/xero/report-mapping.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { call } from '../helpers/call.js';
import { startFakeXero, xeroContract, type FakeXero } from '../helpers/fake-xero.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const cents = (major: number) => Math.round(major * 100);
const summary = (body: { summary: { label: string; amounts: number[] }[] }, label: string) => body.summary.find((l) => l.label === label)!.amounts;

/** The values of one summary row of a Xero report, in cents. */
function xeroTotal(report: XeroReport, title: string): number[] {
  for (const section of report.Rows ?? []) {
    for (const row of section.Rows ?? []) {
      if (row.RowType === 'SummaryRow' && row.Cells?.[0]?.Value === title) return row.Cells.slice(1).map((c) => cents(Number(c.Value)));
    }
  }
  throw new Error(`no ${title} row`);
}

it("maps the contract's example BalanceSheet: Total Assets, Liabilities and Equity equal the example's own rows", () => {
  const example = (xeroContract().example('/Reports/BalanceSheet') as { Reports: XeroReport[] }).Reports[0]!;
  const body = xeroBalanceSheetBody(example, 'NZD');
  assert.deepEqual(summary(body, 'Total Assets'), xeroTotal(example, 'Total Assets'));
  assert.deepEqual(summary(body, 'Total Assets'), [17_953_309, 17_940_278, 35_650]);
  assert.deepEqual(summary(body, 'Total Liabilities'), xeroTotal(example, 'Total Liabilities'));
  assert.deepEqual(summary(body, 'Total Equity'), xeroTotal(example, 'Total Equity'));
  const liabilitiesAndEquity = xeroTotal(example, 'Total Liabilities').map((v, i) => v + xeroTotal(example, 'Total Equity')[i]!);
  assert.deepEqual(summary(body, 'Total Liabilities and Equity'), liabilitiesAndEquity);
  // Xero's example itself is a cent out: Net Assets 185,448.30 against Total Equity 185,448.29 (April)
  assert.deepEqual(liabilitiesAndEquity, [17_953_308, 17_940_278, 35_650]);

  const assets = body.sections.find((s) => s.title === 'Assets')!;
  assert.deepEqual(
    assets.groups.map((g) => [g.title, g.total]),
    [
      ['Current Assets', xeroTotal(example, 'Total Bank').map((v, i) => v + xeroTotal(example, 'Total Current Assets')[i]!)],
      ['Fixed Assets', xeroTotal(example, 'Total Fixed Assets')],
    ],
  );
  const equity = body.sections.find((s) => s.title === 'Equity')!.groups[0]!;
  assert.deepEqual(
    equity.accounts.map((a) => a.name),
    ['Current Year Earnings', 'Owner A Drawings', 'Owner A Funds Introduced', 'Retained Earnings'],
  );
});

it('refuses an amount it cannot read exactly rather than rounding it', () => {
  const report: XeroReport = {
    Rows: [
      { RowType: 'Header', Cells: [{ Value: '' }, { Value: '30 Apr 2019' }] },
      { RowType: 'Section', Title: 'Bank', Rows: [{ RowType: 'Row', Cells: [{ Value: 'Bank' }, { Value: '10.005' }] }] },
    ],
  };
  assert.throws(() => xeroBalanceSheetBody(report, 'GBP'), /cannot read exactly \(Bank: Bank: "10.005"\)/);
});

let xero: FakeXero;
before(async () => {
  xero = await startFakeXero({ limits: false, today: '2026-06-15' });
});
after(async () => {
  await xero?.close();
});

describeEachDialect("Xero's report of the fake book, mapped", (store) => {
  it("equals the balance sheet Ledgerline computes from the book's mirrored journals", async () => {
    const org = await vendorOrganisation(store(), 'xero', 'Harbour Roasters', { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl });
    const ours = await call(store(), reportsBalanceSheet, org, { asAt: '2026-06-15' }, { today: '2026-06-15' });
    const theirs = xeroBalanceSheetBody((await xero.get('/Reports/BalanceSheet?date=2026-06-15')).Reports[0], 'GBP');
    for (const label of ['Total Assets', 'Total Liabilities', 'Total Equity', 'Total Liabilities and Equity']) {
      assert.deepEqual(summary(ours, label).map(cents), summary(theirs, label), label);
    }
  });
});
