/**
 * The local mirror of a QuickBooks organisation (src/accounting/mirror/, quickbooks/sync.ts)
 * against the contract-checked fake: a first full copy by paged queries; calls within the mirror's
 * age asking QuickBooks nothing; after a change (a purchase changed, one deleted, a vendor renamed)
 * one Change Data Capture call brings it up to date and the answers show it, the profit and loss
 * still equal to QuickBooks' own report; changeToken moving only with a change; several passes in
 * a row, each after a change, keep bills to pay and the profit and loss equal to QuickBooks' (the
 * fake refusing CDC for the entities Intuit documents it as not taking, as Intuit does).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { getOrganisation } from '../../src/store/organisations.js';
import type { Store } from '../../src/store/db.js';
import { call } from '../helpers/call.js';
import { settle } from '../helpers/fake-quickbooks-book.js';
import { CDC_UNSUPPORTED_BY_INTUIT, reportRow, startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
/** what QuickBooks' CDC is asked for: every entity the connector reads but the two Intuit's CDC does not take */
const CDC_TAKES = [
  'Account',
  'Vendor',
  'Customer',
  'Item',
  'Attachable',
  'Bill',
  'BillPayment',
  'VendorCredit',
  'Purchase',
  'Deposit',
  'Transfer',
  'JournalEntry',
  'Invoice',
  'Payment',
  'SalesReceipt',
  'RefundReceipt',
  'CreditMemo',
];
const cents = (major: number) => Math.round(major * 100);

let qb: FakeQuickBooks;

before(async () => {
  qb = await startFakeQuickBooks({ limits: false, today: TODAY });
});

after(async () => {
  await qb?.close();
});

const quickBooksOrganisation = (store: Store, name: string, mirrorMaxAgeMs: number) =>
  vendorOrganisation(store, 'quickbooks', name, { realmId: qb.realmId, accessToken: qb.token, baseUrl: qb.baseUrl, pageSize: 5, mirrorMaxAgeMs });

describeEachDialect('QuickBooks local mirror', (store) => {
  const run = <T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}) =>
    call<T>(store(), op, organisationId, input, { today: TODAY });
  const token = async (organisationId: string) => accountingSystemFor(store().db, (await getOrganisation(store().db, organisationId))!).changeToken!();
  const netIncome = async (organisationId: string) => {
    const r = await run(reportsProfitAndLoss, organisationId, { from: '2026-01-01', to: '2026-06-30' });
    return cents(r.summary.find((l: any) => l.label === 'Net Profit').amounts[0]);
  };
  const quickBooksNetIncome = async () =>
    reportRow(await qb.get('/reports/ProfitAndLoss?start_date=2026-01-01&end_date=2026-06-30&summarize_column_by=Total'), 'Net Income')[0]!;

  it('makes a full copy on the first call, then answers within its age without asking QuickBooks anything', async () => {
    const org = await quickBooksOrganisation(store(), `Kept ${Math.random()}`, 3_600_000);
    const before = qb.requests.length;
    const first = await run(accountsList, org, { includeInactive: true });
    const copied = qb.requests.slice(before);
    assert.ok(
      copied.every((q) => q.path.endsWith('/query')),
      'a first copy reads by queries',
    );
    assert.ok(
      copied.some((q) => /FROM Account .*STARTPOSITION 6/.test(q.query.query ?? '')),
      'paged through the accounts',
    );

    const still = qb.requests.length;
    assert.deepEqual(await run(accountsList, org, { includeInactive: true }), first);
    assert.equal(await netIncome(org), await quickBooksNetIncome(), "Net Income equals QuickBooks' own report, from the mirror");
    assert.equal(qb.requests.length, still + 1, 'no call to QuickBooks while the mirror is fresh (the one call is the test reading the report)');
  });

  it('after a change, one CDC call brings it up to date; changeToken moves only then', async () => {
    const org = await quickBooksOrganisation(store(), `Incremental ${Math.random()}`, 0);
    await run(accountsList, org);
    const t1 = await token(org);
    assert.equal(await token(org), t1, 'a pass that finds nothing new keeps the token');

    const company = qb.company;
    const saved = JSON.stringify(company);
    const now = new Date().toISOString();
    const telco = company.entities.Vendor.find((v) => v.DisplayName === 'Telco Inc')!;
    const mobile = company.entities.Purchase.find((p) => p.Id === '161')!;
    const bags = company.entities.Purchase.find((p) => p.Id === '163')!;
    try {
      telco.DisplayName = 'Telco Incorporated';
      telco.MetaData = { ...telco.MetaData, LastUpdatedTime: now };
      mobile.Line[0].Amount = 55;
      mobile.EntityRef = { ...mobile.EntityRef, name: 'Telco Incorporated' };
      mobile.MetaData = { ...mobile.MetaData, LastUpdatedTime: now };
      company.entities.Purchase = company.entities.Purchase.filter((p) => p !== bags);
      company.deleted.push({ entity: 'Purchase', Id: bags.Id, LastUpdatedTime: now });
      settle(company);

      const before = qb.requests.length;
      const income = await netIncome(org);
      const pass = qb.requests.slice(before);
      assert.deepEqual(
        pass.filter((q) => !q.path.includes('/reports/')).map((q) => (q.path.endsWith('/cdc') ? `cdc ${q.query.entities}` : q.query.query!.split(' ')[3])),
        [`cdc ${CDC_TAKES.join(',')}`, 'TaxRate', 'TaxAgency'],
        'one Change Data Capture call for the entities CDC takes, and the two it does not read whole',
      );
      assert.ok(
        pass.every((q) => q.status === 200),
        'every call answered 200',
      );
      assert.equal(income, await quickBooksNetIncome(), "Net Income equals QuickBooks' own report after the change");
      assert.notEqual(await token(org), t1, 'the change moved the token');

      const chart = await run(accountsList, org);
      const telephone = chart.accounts.find((a: any) => a.id === mobile.Line[0].AccountBasedExpenseLineDetail.AccountRef.value).id;
      const r = await run(ledgerAccountTransactions, org, { account: telephone, from: '2026-02-01', to: '2026-02-28' });
      const line = r.transactions.find((t: any) => t.amount === 55);
      assert.ok(line, 'the changed purchase is in the ledger with its new amount');
      assert.equal(line.supplier, 'Telco Incorporated');
      const supplies = await run(ledgerAccountTransactions, org, {
        account: bags.Line[0].AccountBasedExpenseLineDetail.AccountRef.value,
        from: '2026-03-01',
        to: '2026-03-31',
      });
      assert.ok(!supplies.transactions.some((t: any) => t.description === 'Bags and labels'), 'the deleted purchase is gone');
    } finally {
      Object.assign(company, JSON.parse(saved));
    }
  });

  it('several passes in a row each bring the mirror up to date: CDC is never asked for an entity it does not take', async () => {
    const org = await quickBooksOrganisation(store(), `Passes ${Math.random()}`, 0);
    const company = qb.company;
    const saved = JSON.stringify(company);
    const toPay = async () => (await run<any>(billsListToPay, org, {})).bills.map((b: any) => `${b.invoiceNumber} ${b.amountDue}`).sort();
    const quickBooksToPay = () =>
      company.entities.Bill.filter((b) => b.Balance > 0)
        .map((b) => `${b.DocNumber} ${b.Balance}`)
        .sort();
    const before = qb.requests.length;
    try {
      assert.deepEqual(await toPay(), quickBooksToPay(), 'the first copy');
      const stamp = () => ({ CreateTime: new Date().toISOString(), LastUpdatedTime: new Date().toISOString() });
      const changes: (() => void)[] = [
        // a new bill
        () => {
          const first = company.entities.Bill[0]!;
          company.entities.Bill.push({
            ...structuredClone(first),
            Id: '901',
            DocNumber: 'NEW-1',
            TxnDate: '2026-06-10',
            DueDate: '2026-07-10',
            MetaData: stamp(),
          });
        },
        // that bill part paid
        () => {
          const payment = structuredClone(company.entities.BillPayment[0]!);
          company.entities.BillPayment.push({
            ...payment,
            Id: '902',
            TxnDate: '2026-06-11',
            TotalAmt: 250,
            Line: [{ Amount: 250, LinkedTxn: [{ TxnId: '901', TxnType: 'Bill' }] }],
            MetaData: stamp(),
          });
          company.entities.Bill.find((b) => b.Id === '901')!.MetaData = stamp();
        },
        // an older bill's amount changed
        () => {
          const bill = company.entities.Bill.find((b) => b.Id === '147')!;
          bill.Line[0].Amount = 95;
          bill.MetaData = stamp();
        },
        // the new bill deleted
        () => {
          company.entities.Bill = company.entities.Bill.filter((b) => b.Id !== '901');
          company.entities.BillPayment = company.entities.BillPayment.filter((p) => p.Id !== '902');
          company.deleted.push(
            { entity: 'Bill', Id: '901', LastUpdatedTime: new Date().toISOString() },
            { entity: 'BillPayment', Id: '902', LastUpdatedTime: new Date().toISOString() },
          );
        },
      ];
      for (const [k, change] of changes.entries()) {
        // QuickBooks' times are to the second, and the next pass asks from this one's start
        await new Promise((resolve) => setTimeout(resolve, 5));
        change();
        settle(company);
        assert.deepEqual(await toPay(), quickBooksToPay(), `bills to pay after change ${k + 1}`);
        assert.equal(await netIncome(org), await quickBooksNetIncome(), `Net Income equals QuickBooks' own report after change ${k + 1}`);
      }
      const asked = qb.requests.slice(before);
      const cdc = asked.filter((q) => q.path === '/cdc');
      assert.ok(cdc.length >= changes.length, `a CDC call per pass (${cdc.length})`);
      for (const q of cdc) for (const name of q.query.entities!.split(',')) assert.ok(!CDC_UNSUPPORTED_BY_INTUIT.includes(name), `CDC was asked for ${name}`);
      assert.deepEqual(
        asked.filter((q) => q.status !== 200).map((q) => `${q.path} ${q.status}`),
        [],
        'every call answered 200',
      );
    } finally {
      Object.assign(company, JSON.parse(saved));
    }
  });

  it('made only requests the contract allows', () => {
    assert.deepEqual(qb.violations, []);
  });
});
