/**
 * Writing to QuickBooks Online (issue 42, the document loop) through the real connector against the
 * contract-checked fake over HTTP: a bill with its file published is a Bill with its Attachable in
 * QuickBooks, its lines in the mirror's ledger at once under the transaction id the connector
 * answered, and QuickBooks' own balance sheet totals equal Ledgerline's; one key makes one bill
 * however often it is sent; a publish whose answer was lost is found (and its file attached) by
 * findPublished; a closed period and an inactive account are refused naming the field, nothing
 * written; a receipt is a card Purchase, a supplier credit a VendorCredit; a bill payment lowers the
 * bill's Balance and deleting it restores it. And the fake itself refuses what Intuit's schemas or
 * rules do not allow.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { AccountingRefused, AccountingSystemError, type AccountingSystem, type DocumentToPublish } from '../../src/accounting/types.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { call } from '../helpers/call.js';
import { BILL_PDF } from '../helpers/fake-quickbooks-documents.js';
import { startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
let qb: FakeQuickBooks;

before(async () => {
  qb = await startFakeQuickBooks({ limits: false, today: TODAY });
});

after(async () => {
  await qb?.close();
});

let serial = 0;
/** A bill of Paper Supply Co (vendor 58): boxes on Office Supplies (20), a phone line on Telephone (25). */
function billDoc(overrides: Partial<DocumentToPublish> = {}): DocumentToPublish {
  serial += 1;
  return {
    documentId: `doc-${serial}`,
    key: `key-${serial}-${Math.random().toString(36).slice(2)}`,
    kind: 'bill',
    type: 'bill',
    contact: { id: '58', name: 'Paper Supply Co', kind: 'supplier' },
    number: `PS-${7000 + serial}`,
    date: '2026-06-10',
    dueDate: '2026-07-10',
    currency: 'USD',
    exchangeRate: null,
    lines: [
      { description: 'Bakery boxes', accountId: '20', taxCodeId: null, quantity: '1', subtotal: 15000, tax: 0, total: 15000 },
      { description: 'Phone line', accountId: '25', taxCodeId: null, quantity: '1', subtotal: 10050, tax: 0, total: 10050 },
    ],
    subtotal: 25050,
    tax: 0,
    total: 25050,
    paidFromAccountId: null,
    file: { fileName: `PS-${7000 + serial}.pdf`, contentType: 'application/pdf', data: BILL_PDF },
    ...overrides,
  };
}

describeEachDialect('QuickBooks: publishing documents and paying bills', (store) => {
  let org: string;
  let system: () => Promise<AccountingSystem>;

  beforeEach(async () => {
    qb.company.bookCloseDate = undefined;
    org = await vendorOrganisation(store(), 'quickbooks', `Publisher ${Math.random()}`, {
      realmId: qb.realmId,
      accessToken: qb.token,
      baseUrl: qb.baseUrl,
      mirrorMaxAgeMs: 3_600_000,
    });
    // a connector per call, as each request has its own
    system = async () => accountingSystemFor(store().db, (await getOrganisation(store().db, org))!);
    await (await system()).chartOfAccounts();
  });

  const billsOf = (doc: DocumentToPublish) => qb.company.entities.Bill.filter((b) => b.DocNumber === doc.number);
  const ledger = async (transactionId: string) =>
    (
      await (
        await system()
      ).lines(
        { accountIds: ['20', '25', '33', '35', '41'], from: '2026-01-01', to: '2026-12-31', types: ['bill', 'card_charge', 'supplier_credit', 'payment'] },
        1000,
      )
    ).filter((l) => l.transactionId === transactionId);
  /** QuickBooks' own BalanceSheet totals against Ledgerline's balance sheet from the mirror, as check-books compares them */
  const booksAgree = async () => {
    const theirs = await (await system()).ownBalanceSheetTotals!(TODAY);
    const ours = await call(store(), reportsBalanceSheet, org, { asAt: TODAY }, { today: TODAY });
    const mine = theirs.map(({ label }) => ({ label, amount: Math.round(ours.summary.find((l: any) => l.label === label).amounts[0] * 100) }));
    assert.deepEqual(mine, theirs, "Ledgerline's balance sheet totals equal QuickBooks' own report");
  };

  it('publishes a bill with its file: the Bill and its Attachable in QuickBooks, its lines in the ledger at once, the books agreeing', async () => {
    const doc = billDoc({ contact: { id: null, name: `New Supplier ${serial + 1} ${Math.random().toString(36).slice(2, 6)}`, kind: 'supplier' } });
    const published = await (await system()).publish!(doc);

    const [bill] = billsOf(doc);
    assert.ok(bill, 'QuickBooks holds the bill');
    assert.equal(billsOf(doc).length, 1);
    const vendor = qb.company.entities.Vendor.find((v) => v.DisplayName === doc.contact.name);
    assert.ok(vendor, 'the new supplier was made a vendor');
    assert.equal(bill.VendorRef.value, vendor.Id);
    assert.equal(bill.TotalAmt, 250.5);
    assert.equal(bill.TxnDate, '2026-06-10');
    assert.equal(bill.DueDate, '2026-07-10');
    assert.match(bill.PrivateNote, new RegExp(`\\[ledgerline:${doc.key}\\]`));
    assert.deepEqual(published, {
      transactionId: `Bill:${bill.Id}`,
      documentId: `Bill:${bill.Id}`,
      link: `https://app.qbo.intuit.com/app/bill?txnId=${bill.Id}`,
    });

    const attachments = qb.company.entities.Attachable.filter((a) =>
      a.AttachableRef?.some((r: any) => r.EntityRef.type === 'Bill' && r.EntityRef.value === bill.Id),
    );
    assert.equal(attachments.length, 1, 'the file is attached to the bill');
    assert.deepEqual(qb.company.files[attachments[0]!.Id], BILL_PDF);
    assert.equal(attachments[0]!.FileName, doc.file!.fileName);

    const lines = await ledger(published.transactionId);
    assert.deepEqual(
      lines.map((l) => [l.accountId, l.amount, l.type, l.number, l.contactId]),
      [
        ['20', 15000, 'bill', doc.number, vendor.Id],
        ['25', 10050, 'bill', doc.number, vendor.Id],
        ['33', -25050, 'bill', doc.number, vendor.Id],
      ],
    );
    // the file is what documents.file hands out for the published bill
    const file = await (await system()).documentFile!(published.documentId);
    assert.deepEqual(file?.data, BILL_PDF);
    const ids = qb.writes.requestIds.slice(-3);
    assert.equal(new Set(ids).size, 3, 'vendor, bill and attachment each under a requestid of their own');
    assert.ok(ids.every((id) => id.length <= 50));
    await booksAgree();
    assert.deepEqual(qb.violations, []);
  });

  it('the same publish sent twice under one key makes one bill and one attachment', async () => {
    const doc = billDoc();
    const first = await (await system()).publish!(doc);
    const second = await (await system()).publish!(doc);
    assert.deepEqual(second, first);
    assert.equal(billsOf(doc).length, 1, 'one bill');
    const id = first.documentId.split(':')[1];
    assert.equal(qb.company.entities.Attachable.filter((a) => a.AttachableRef?.some((r: any) => r.EntityRef.value === id)).length, 1, 'one attachment');
    assert.equal((await ledger(first.transactionId)).length, 3);
    await booksAgree();
  });

  it('a publish whose answer was lost is unknown, then found by findPublished, which attaches the file', async () => {
    const doc = billDoc();
    assert.equal(await (await system()).findPublished!(doc), null, 'nothing found before it is written');
    // the bill's answer and its retry's (the same requestid, answered the same) are both lost
    qb.writes.dropAnswers(2);
    await assert.rejects((await system()).publish!(doc), (e: unknown) => e instanceof AccountingSystemError && !(e instanceof AccountingRefused));
    const [bill] = billsOf(doc);
    assert.ok(bill, 'QuickBooks made the bill');
    const attachedTo = () =>
      qb.company.entities.Attachable.filter((a) => a.AttachableRef?.some((r: any) => r.EntityRef.type === 'Bill' && r.EntityRef.value === bill.Id));
    assert.equal(attachedTo().length, 0, 'the publish stopped before the file');

    const found = await (await system()).findPublished!(doc);
    assert.deepEqual(found, { transactionId: `Bill:${bill.Id}`, documentId: `Bill:${bill.Id}`, link: `https://app.qbo.intuit.com/app/bill?txnId=${bill.Id}` });
    assert.equal(attachedTo().length, 1, 'findPublished finished what was missing');
    assert.equal(billsOf(doc).length, 1);
    assert.equal((await ledger(found!.transactionId)).length, 3, 'the mirror holds it');
    await (
      await system()
    ).findPublished!(doc);
    assert.equal(attachedTo().length, 1, 'a second look attaches nothing more');
  });

  it('a date in a closed period is refused naming the date, and nothing is written (not even the new vendor)', async () => {
    qb.company.bookCloseDate = '2026-05-31';
    const name = `Closed Period Supplier ${Math.random().toString(36).slice(2, 6)}`;
    const before = { bills: qb.company.entities.Bill.length, vendors: qb.company.entities.Vendor.length, attachables: qb.company.entities.Attachable.length };
    for (const contact of [
      { id: null, name, kind: 'supplier' as const },
      { id: '58', name: 'Paper Supply Co', kind: 'supplier' as const },
    ]) {
      const error = await (await system()).publish!(billDoc({ date: '2026-05-31', contact })).catch((e) => e);
      assert.ok(error instanceof AccountingRefused, String(error));
      assert.equal(error.field, 'date');
      assert.match(error.message, /2026-05-31.*closed/);
    }
    assert.deepEqual(
      { bills: qb.company.entities.Bill.length, vendors: qb.company.entities.Vendor.length, attachables: qb.company.entities.Attachable.length },
      before,
    );
  });

  it('an inactive account is refused naming the line', async () => {
    const doc = billDoc();
    doc.lines[1]!.accountId = '22';
    const error = await (await system()).publish!(doc).catch((e) => e);
    assert.ok(error instanceof AccountingRefused, String(error));
    assert.equal(error.field, 'lines[1].accountId');
    assert.equal(billsOf(doc).length, 0);
  });

  it('a receipt paid by card is a Purchase from the card account; a supplier credit a VendorCredit', async () => {
    const receipt = billDoc({ kind: 'spend', type: 'receipt', dueDate: null, paidFromAccountId: '41' });
    const spent = await (await system()).publish!(receipt);
    const purchase = qb.company.entities.Purchase.find((p) => p.DocNumber === receipt.number)!;
    assert.equal(purchase.PaymentType, 'CreditCard');
    assert.equal(purchase.AccountRef.value, '41');
    assert.equal(spent.transactionId, `Purchase:${purchase.Id}`);
    assert.deepEqual(
      (await ledger(spent.transactionId)).map((l) => [l.accountId, l.amount, l.type]),
      [
        ['20', 15000, 'card_charge'],
        ['25', 10050, 'card_charge'],
        ['41', -25050, 'card_charge'],
      ],
    );

    const credit = billDoc({ kind: 'credit', type: 'supplier_credit', dueDate: null, file: null });
    const credited = await (await system()).publish!(credit);
    const vc = qb.company.entities.VendorCredit.find((v) => v.DocNumber === credit.number)!;
    assert.equal(credited.transactionId, `VendorCredit:${vc.Id}`);
    assert.deepEqual(
      (await ledger(credited.transactionId)).map((l) => [l.accountId, l.amount]),
      [
        ['20', -15000],
        ['25', -10050],
        ['33', 25050],
      ],
    );
    await booksAgree();
  });

  it("a bill payment lowers the bill's Balance; removing it restores it", async () => {
    const doc = billDoc();
    // one connector (one request) that reads, writes and reads again sees its own writes
    const one = await system();
    assert.equal((await one.payables!()).length > 0, true);
    const published = await one.publish!(doc);
    assert.equal((await one.payables!()).find((b) => b.documentId === published.documentId)?.amountDue, 25050, 'the same connector sees the new bill');
    const billId = published.documentId.split(':')[1]!;
    const payment = {
      key: `pay-${doc.key}`,
      billDocumentId: published.documentId,
      contact: { id: '58', name: 'Paper Supply Co' },
      bankAccountId: '35',
      date: '2026-06-12',
      amount: 10000,
      currency: 'USD',
      reference: 'CHQ 1044 PAPER SUPPLY',
    };
    assert.equal(await (await system()).findPayment!(payment), null);
    const paid = await one.payBill!(payment);
    assert.equal((await one.payables!()).find((b) => b.documentId === published.documentId)?.amountDue, 15050, 'and the payment');
    const held = qb.company.entities.BillPayment.find((p) => `BillPayment:${p.Id}` === paid.paymentId)!;
    assert.equal(held.PayType, 'Check');
    assert.equal(held.CheckPayment.BankAccountRef.value, '35');
    assert.equal(qb.company.entities.Bill.find((b) => b.Id === billId)!.Balance, 150.5);
    assert.deepEqual(await (await system()).payBill!(payment), paid, 'the same payment again is the same payment');
    assert.deepEqual(await (await system()).findPayment!(payment), paid);
    const due = (await (await system()).payables!()).find((b) => b.documentId === published.documentId);
    assert.equal(due?.amountDue, 15050, 'Bills to Pay shows what is left');
    assert.deepEqual(
      (await ledger(paid.paymentId)).map((l) => [l.accountId, l.amount]),
      [
        ['33', 10000],
        ['35', -10000],
      ],
    );
    await booksAgree();

    await (
      await system()
    ).removePayment!(paid.paymentId);
    assert.equal(
      qb.company.entities.BillPayment.some((p) => `BillPayment:${p.Id}` === paid.paymentId),
      false,
    );
    assert.equal(qb.company.entities.Bill.find((b) => b.Id === billId)!.Balance, 250.5, 'the bill is owed again');
    assert.equal((await (await system()).payables!()).find((b) => b.documentId === published.documentId)?.amountDue, 25050);
    assert.deepEqual(await ledger(paid.paymentId), []);
    await (
      await system()
    ).removePayment!(paid.paymentId);
    await booksAgree();
    assert.deepEqual(qb.violations, []);
  });
});

it('the fake refuses what Intuit refuses: an element the schemas do not have, a missing VendorRef; a requestid seen before makes nothing new', async () => {
  const fake = await startFakeQuickBooks({ limits: false, today: TODAY });
  try {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${fake.baseUrl}/company/${fake.realmId}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const line = { Amount: 12.5, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: { value: '20' } } };
    const bills = fake.company.entities.Bill.length;

    const unknown = await post('/bill?requestid=r1&minorversion=75', { VendorRef: { value: '58' }, Line: [line], Vendor: 'Paper Supply Co' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.Fault.Error[0].code, '2010');
    assert.match(unknown.body.Fault.Error[0].Detail, /Bill has no element or attribute "Vendor"/);
    const wrongKind = await post('/bill?requestid=r2', { VendorRef: { value: '58' }, Line: [{ ...line, Amount: '12.50' }] });
    assert.equal(wrongKind.status, 400, 'an amount is a number, as the schema says');
    const noVendor = await post('/bill?requestid=r3', { Line: [line] });
    assert.equal(noVendor.status, 400);
    assert.deepEqual(
      [noVendor.body.Fault.Error[0].code, noVendor.body.Fault.Error[0].Detail],
      ['2020', 'Required parameter VendorRef is missing in the request'],
    );
    const noLines = await post('/bill?requestid=r4', { VendorRef: { value: '58' } });
    assert.match(noLines.body.Fault.Error[0].Detail, /Line is missing/);
    const unknownAccount = await post('/bill?requestid=r5', {
      VendorRef: { value: '58' },
      Line: [{ ...line, AccountBasedExpenseLineDetail: { AccountRef: { value: '999' } } }],
    });
    assert.deepEqual(
      [unknownAccount.body.Fault.Error[0].code, unknownAccount.body.Fault.Error[0].Detail],
      ['2500', 'Invalid Reference Id : Accounts element id 999 not found'],
    );
    const notSummed = await post('/bill?requestid=r6', { VendorRef: { value: '58' }, TotalAmt: 13, Line: [line] });
    assert.equal(notSummed.body.Fault.Error[0].code, '6000');
    assert.equal(fake.company.entities.Bill.length, bills, 'nothing refused was written');

    const made = await post('/bill?requestid=r7', { VendorRef: { value: '58' }, TxnDate: '2026-06-01', Line: [line] });
    assert.equal(made.status, 200);
    const again = await post('/bill?requestid=r7', { VendorRef: { value: '58' }, TxnDate: '2026-06-01', Line: [line] });
    assert.deepEqual(again.body, made.body, 'the first answer again');
    assert.equal(fake.company.entities.Bill.length, bills + 1, 'one bill');
    fake.company.bookCloseDate = '2026-06-01';
    const closed = await post('/bill?requestid=r8', { VendorRef: { value: '58' }, TxnDate: '2026-06-01', Line: [line] });
    assert.equal(closed.body.Fault.Error[0].code, '6210');
    assert.equal(fake.company.entities.Bill.length, bills + 1);
  } finally {
    await fake.close();
  }
});
