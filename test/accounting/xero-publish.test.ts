/**
 * Writing to Xero (issue 42): the Xero connector's publish, findPublished, payBill, findPayment and
 * removePayment, over HTTP against the contract-checked fake Xero (helpers/fake-xero.ts, whose
 * writes check every body against xero_accounting.yaml's requestBody and the books as Xero does:
 * fake-xero-writes.ts). The organisation's mirror is kept an hour, so a write shows in the ledger
 * only because the connector brings the mirror up to date after it; Xero's own balance sheet must
 * equal Ledgerline's afterwards, as `ledgerline check-books` compares them.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import {
  AccountingRefused,
  AccountingSystemError,
  LISTED_TYPES,
  OTHER_TYPES,
  type AccountingSystem,
  type DocumentToPublish,
} from '../../src/accounting/types.js';
import { fromMajor } from '../../src/domain/money.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { call, rejection } from '../helpers/call.js';
import { defaultFakeBook, fakeId, type FakeBook } from '../helpers/fake-xero-book.js';
import { startFakeXero, xeroContract, type FakeXero } from '../helpers/fake-xero.js';
import { XERO_SCOPES, XERO_WRITES } from '../../src/domain/xero-scopes.js';
import type { XeroClient } from '../../src/accounting/xero/client.js';
import { payXeroBill } from '../../src/accounting/xero/payments.js';
import { publishToXero } from '../../src/accounting/xero/publish.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const account = (code: string) => fakeId(`account ${code}`);
const PAPER_CO = fakeId('contact Paper Co');
const PC_7781 = fakeId('bill PC-7781');

/** The default book with a VAT account (Xero's GST system account), as a UK organisation has. */
function vatBook(): FakeBook {
  const book = defaultFakeBook();
  book.accounts.push({ id: account('820'), code: '820', name: 'VAT', type: 'CURRLIAB', status: 'ACTIVE', systemAccount: 'GST' });
  return book;
}

let n = 0;
/** A bill from a supplier new to the books: flyers with VAT, delivery without, the invoice PDF. */
function bill(extra: Partial<DocumentToPublish> = {}): DocumentToPublish {
  n += 1;
  return {
    documentId: `doc_${n}`,
    key: `publish-key-${n}-${Math.random()}`,
    kind: 'bill',
    type: 'bill',
    contact: { id: null, name: `Northern Print ${n} Ltd`, kind: 'supplier' },
    number: `NP-${1000 + n}`,
    date: '2026-06-10',
    dueDate: '2026-07-10',
    currency: 'GBP',
    exchangeRate: null,
    lines: [
      { description: 'Flyers', accountId: account('461'), taxCodeId: 'INPUT2', quantity: '500', subtotal: 25_000, tax: 5_000, total: 30_000 },
      { description: 'Delivery', accountId: account('429'), taxCodeId: null, quantity: '1', subtotal: 1_500, tax: 0, total: 1_500 },
    ],
    subtotal: 26_500,
    tax: 5_000,
    total: 31_500,
    paidFromAccountId: null,
    file: { fileName: `NP-${1000 + n}.pdf`, contentType: 'application/pdf', data: PDF },
    ...extra,
  };
}

describeEachDialect('Xero publishing', (store) => {
  let xero: FakeXero;
  let org: string;
  /** a connector as an operation gets one: a new one each call */
  const system = async (): Promise<AccountingSystem> => accountingSystemFor(store().db, (await getOrganisation(store().db, org))!);
  const allAccounts = () => vatBook().accounts.map((a) => a.id);
  const linesOf = async (transactionId: string) =>
    (await (await system()).lines({ accountIds: allAccounts(), from: '2026-01-01', to: '2026-12-31', types: [...LISTED_TYPES, ...OTHER_TYPES] }, 500)).filter(
      (l) => l.transactionId === transactionId,
    );

  before(async () => {
    xero = await startFakeXero({ limits: false, today: TODAY, book: vatBook() });
    org = await vendorOrganisation(store(), 'xero', `Publishing ${Math.random()}`, {
      tenantId: xero.tenantId,
      accessToken: xero.token,
      baseUrl: xero.baseUrl,
      mirrorMaxAgeMs: 3_600_000,
    });
    // the first copy of the books, kept an hour from here
    await (await system()).chartOfAccounts();
  });
  after(async () => {
    await xero?.close();
  });

  it(
    "a bill with its file is an ACCPAY invoice in Xero with the file attached, its lines in the ledger at once, and Xero's balance sheet equals " +
      "Ledgerline's",
    async () => {
      const doc = bill();
      const published = await (await system()).publish!(doc);
      const inv = xero.book.invoices.find((i) => i.id === published.documentId);
      assert.ok(inv, 'Xero holds the invoice');
      assert.equal(inv.type, 'ACCPAY');
      assert.equal(inv.number, doc.number);
      assert.equal(xero.book.contacts.find((c) => c.id === inv.contactId)?.name, doc.contact.name, 'the new supplier was made with it');
      assert.deepEqual(
        inv.lines.map((l) => [l.accountCode, l.amount, l.tax ?? 0, l.taxType]),
        [
          ['461', 25_000, 5_000, 'INPUT2'],
          ['429', 1_500, 0, 'NONE'],
        ],
      );
      assert.deepEqual(
        inv.attachments?.map((a) => [a.fileName, a.mimeType, a.bytes.equals(PDF)]),
        [[doc.file!.fileName, 'application/pdf', true]],
      );
      assert.equal(published.transactionId, published.documentId);
      assert.equal(published.link, `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${published.documentId}`);

      const lines = await linesOf(published.transactionId);
      assert.deepEqual(
        lines.map((l) => [l.accountId, l.amount, l.type, l.number, l.contactName, l.documentId]).sort((a, b) => Number(a[1]) - Number(b[1])),
        [
          [account('800'), -31_500, 'bill', doc.number, doc.contact.name, published.documentId],
          [account('429'), 1_500, 'bill', doc.number, doc.contact.name, published.documentId],
          [account('820'), 5_000, 'bill', doc.number, doc.contact.name, published.documentId],
          [account('461'), 25_000, 'bill', doc.number, doc.contact.name, published.documentId],
        ],
      );

      const theirs = await (await system()).ownBalanceSheetTotals!(TODAY);
      const ours = await call<{ summary: { label: string; amounts: number[] }[] }>(store(), reportsBalanceSheet, org, { asAt: TODAY }, { today: TODAY });
      assert.ok(theirs.length >= 4);
      for (const { label, amount } of theirs) assert.equal(fromMajor(ours.summary.find((l) => l.label === label)?.amounts[0] ?? 0, 'GBP'), amount, label);
      // the loan, the bills owed before, this one, less the VAT it lets the organisation reclaim
      assert.equal(
        theirs.find((t) => t.label === 'Total Liabilities')?.amount,
        500_000 + 45_000 + 24_000 + 50_000 + 31_500 - 5_000,
        'the bill is owed in both',
      );
    },
  );

  it('the same document published twice under one key makes one invoice with one file', async () => {
    const doc = bill();
    const before = xero.book.invoices.length;
    const first = await (await system()).publish!(doc);
    const second = await (await system()).publish!(doc);
    assert.deepEqual(second, first);
    assert.equal(xero.book.invoices.length, before + 1);
    assert.equal(xero.book.invoices.find((i) => i.id === first.documentId)?.attachments?.length, 1);
    assert.equal(xero.book.contacts.filter((c) => c.name === doc.contact.name).length, 1);
  });

  it('a publish whose answer is lost is an unknown outcome, and findPublished finds the invoice by its mark and attaches its file once', async () => {
    const doc = bill({ contact: { id: PAPER_CO, name: 'Paper Co', kind: 'supplier' } });
    assert.equal(await (await system()).findPublished!(doc), null, 'nothing published yet');
    const before = xero.book.invoices.length;
    xero.dropAnswers(1);
    const lost = await rejection(async () => (await system()).publish!(doc));
    assert.ok(lost instanceof AccountingSystemError, String(lost));
    assert.match(lost.message, /whether PUT \/Invoices was made is not known/);
    const made = xero.book.invoices.at(-1)!;
    const attached = () => made.attachments?.length ?? 0;
    assert.equal(xero.book.invoices.length, before + 1, 'Xero made it');
    assert.equal(attached(), 0, 'the file was never sent');

    const found = await (await system()).findPublished!(doc);
    assert.deepEqual(found, { transactionId: made.id, documentId: made.id, link: `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${made.id}` });
    assert.equal(attached(), 1, 'the file is attached');
    assert.deepEqual(await (await system()).findPublished!(doc), found);
    assert.equal(attached(), 1, 'and not twice');
    assert.equal(xero.book.invoices.length, before + 1);
    assert.ok((await linesOf(made.id)).length > 0, 'the ledger has it');
  });

  it("Xero's refusals name the field, and nothing is written: a date in the locked period, an unknown account code, an archived account", async () => {
    xero.book.periodLockDate = '2026-03-31';
    try {
      const invoices = xero.book.invoices.length;
      const contacts = xero.book.contacts.length;
      // a new supplier too: Xero makes it with the bill, so a refused bill leaves none
      const locked = await rejection(async () => (await system()).publish!(bill({ date: '2026-03-31', dueDate: '2026-04-30' })));
      assert.ok(locked instanceof AccountingRefused, String(locked));
      assert.equal(locked.field, 'date');
      assert.match(locked.message, /lock date \(2026-03-31\)/);
      const unknown = bill();
      unknown.lines[1] = { ...unknown.lines[1]!, accountId: fakeId('no such account') };
      const refused = await rejection(async () => (await system()).publish!(unknown));
      assert.ok(refused instanceof AccountingRefused, String(refused));
      assert.equal(refused.field, 'lines[1].accountId');
      const archived = bill();
      archived.lines[0] = { ...archived.lines[0]!, accountId: account('499') };
      assert.equal((await rejection(async () => (await system()).publish!(archived))).field, 'lines[0].accountId');
      assert.equal(xero.book.invoices.length, invoices);
      assert.equal(xero.book.contacts.length, contacts);
    } finally {
      delete xero.book.periodLockDate;
    }
  });

  it(
    'a receipt is a SPEND bank transaction from the card it was paid from with its file; a supplier credit a credit note, found again by its ' + 'facts',
    async () => {
      const receipt = bill({ kind: 'spend', type: 'receipt', paidFromAccountId: account('091'), dueDate: null });
      const spent = await (await system()).publish!(receipt);
      const bt = xero.book.bankTransactions.find((b) => b.id === spent.documentId)!;
      assert.deepEqual([bt.type, bt.bankCode, bt.reference, bt.attachments?.length], ['SPEND', '091', receipt.number, 1]);
      assert.equal(spent.link, `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${spent.documentId}`);
      const lines = await linesOf(spent.transactionId);
      assert.deepEqual(
        lines.map((l) => l.type),
        lines.map(() => 'card_charge'),
      );
      assert.equal(lines.find((l) => l.accountId === account('091'))?.amount, -31_500);
      assert.deepEqual(await (await system()).findPublished!(receipt), spent);

      const credit = bill({
        kind: 'credit',
        type: 'supplier_credit',
        contact: { id: PAPER_CO, name: 'Paper Co', kind: 'supplier' },
        dueDate: null,
        file: null,
      });
      const credited = await (await system()).publish!(credit);
      assert.equal(xero.book.creditNotes?.find((c) => c.id === credited.documentId)?.number, credit.number);
      assert.equal((await linesOf(credited.transactionId)).find((l) => l.accountId === account('800'))?.amount, 31_500);
      assert.deepEqual(await (await system()).findPublished!(credit), credited);
    },
  );

  it("a bill's payment reduces what is owed, in Xero and in bills to pay; the same key pays once; removing it owes the bill again", async () => {
    const payment = {
      key: `pay-${Math.random()}`,
      billDocumentId: PC_7781,
      contact: { id: PAPER_CO, name: 'Paper Co' },
      bankAccountId: account('090'),
      date: '2026-06-12',
      amount: 10_000,
      currency: 'GBP',
      reference: 'PAPER CO 7781',
    };
    const owed = async () => (await (await system()).payables!()).find((b) => b.documentId === PC_7781)?.amountDue;
    assert.equal(await owed(), 24_000);
    assert.equal(await (await system()).findPayment!(payment), null);
    const paid = await (await system()).payBill!(payment);
    assert.deepEqual(await (await system()).payBill!(payment), paid, 'the same key: the first answer');
    const inv = xero.book.invoices.find((i) => i.id === PC_7781)!;
    assert.deepEqual(
      inv.payments.map((p) => [p.id, p.amount, p.bankCode]),
      [[paid.paymentId, 10_000, '090']],
    );
    assert.equal((await xero.get(`/Invoices?where=${encodeURIComponent('InvoiceNumber=="PC-7781"')}`)).Invoices[0].AmountDue, 140);
    assert.equal(await owed(), 14_000, 'bills to pay, from the mirror brought up to date');
    assert.deepEqual(await (await system()).findPayment!(payment), paid);
    assert.equal((await linesOf(paid.paymentId)).find((l) => l.accountId === account('090'))?.amount, -10_000);

    const over = await rejection(async () => (await system()).payBill!({ ...payment, key: `over-${Math.random()}`, amount: 20_000 }));
    assert.ok(over instanceof AccountingRefused, String(over));
    assert.equal(over.field, 'amount');

    await (
      await system()
    ).removePayment!(paid.paymentId);
    assert.equal(await owed(), 24_000);
    assert.equal((await xero.get(`/Invoices?where=${encodeURIComponent('InvoiceNumber=="PC-7781"')}`)).Invoices[0].AmountDue, 240);
    assert.equal(await (await system()).findPayment!(payment), null, 'a deleted payment is not found again');
    assert.equal(
      (await linesOf(paid.paymentId)).reduce((s, l) => s + (l.accountId === account('090') ? l.amount : 0), 0),
      0,
      'the bank is as before',
    );
  });

  it('a connection granted only reading scopes is told to connect Xero again to allow writing, and goes on reading', async () => {
    const readOnly = [
      'offline_access',
      'accounting.transactions.read',
      'accounting.contacts.read',
      'accounting.settings.read',
      'accounting.attachments.read',
      'accounting.journals.read',
      'accounting.reports.read',
    ];
    const token = xero.identity.issue(undefined, readOnly).accessToken;
    const reader = await vendorOrganisation(store(), 'xero', `Read only ${Math.random()}`, {
      tenantId: xero.tenantId,
      accessToken: token,
      baseUrl: xero.baseUrl,
      mirrorMaxAgeMs: 0,
    });
    const connector = accountingSystemFor(store().db, (await getOrganisation(store().db, reader))!);
    const refused = await rejection(() => connector.publish!(bill({ contact: { id: PAPER_CO, name: 'Paper Co', kind: 'supplier' } })));
    assert.ok(refused instanceof AccountingSystemError, String(refused));
    assert.match(
      refused.message,
      /Xero refused PUT \/Invoices for want of the scope accounting\.transactions .*connect it to Xero again and allow Ledgerline to write/,
    );
    assert.ok((await connector.chartOfAccounts()).length > 0);
  });

  it(
    'a file Xero refuses after it made the invoice is not a refusal of the publish: the outcome is open, and findPublished answers the one invoice ' +
      'saying the file is not attached',
    async () => {
      const WEBP = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00', 'latin1');
      const doc = bill({
        contact: { id: PAPER_CO, name: 'Paper Co', kind: 'supplier' },
        file: { fileName: 'receipt-photo.webp', contentType: 'image/webp', data: WEBP },
      });
      const before = xero.book.invoices.length;
      const open = await rejection(async () => (await system()).publish!(doc));
      assert.ok(open instanceof AccountingSystemError, `not AccountingRefused ("nothing was written"): ${String(open)}`);
      const made = xero.book.invoices.at(-1)!;
      assert.equal(xero.book.invoices.length, before + 1, 'Xero made the invoice');
      assert.equal(made.attachments?.length ?? 0, 0);
      assert.ok(open.message.includes(`made the bill (ACCPAY Invoice) ${made.id}`), open.message);
      assert.match(open.message, /refused its file receipt-photo\.webp \(The file couldn't be uploaded because it isn't a supported file type\.\)/);
      assert.match(open.message, /Publish the document again: .* found, not made again.* standing without the file/);

      const found = await (await system()).findPublished!(doc);
      assert.equal(found?.documentId, made.id, 'the same invoice');
      assert.match(String((found as { fileNotAttached?: string }).fileNotAttached), /receipt-photo\.webp: The file couldn't be uploaded/);
      assert.deepEqual(await (await system()).findPublished!(doc), found, 'answered again the same, never thrown');
      assert.equal(xero.book.invoices.length, before + 1, 'no second invoice');
      assert.equal(made.attachments?.length ?? 0, 0);
    },
  );

  it('made only requests the contract allows', () => {
    assert.deepEqual(xero.violations, []);
  });
});

it(
  'a 200 from Xero without the new id is an outcome not known (AccountingSystemError), never a refusal: the invoice and the payment are looked up on ' +
    'the next try',
  async () => {
    // Xero answering 200 with the record but not its id (the contract makes every field optional)
    const answering = (body: unknown) =>
      ({
        writeTarget: (path: string) => ({ url: new URL(`https://api.xero.com/api.xro/2.0${path}`), headers: {}, fetchImpl: async () => Response.json(body) }),
      }) as unknown as XeroClient;
    const invoice = await rejection(() =>
      publishToXero(
        {
          client: answering({ Invoices: [{ Status: 'AUTHORISED' }] }),
          accounts: async () => vatBook().accounts.map((a) => ({ AccountID: a.id, Code: a.code, Name: a.name, Status: a.status })),
        },
        bill({ file: null }),
      ),
    );
    assert.ok(invoice instanceof AccountingSystemError, String(invoice));
    assert.match(invoice.message, /without the new record's id: whether it was made is not known/);
    const payment = {
      key: 'k',
      billDocumentId: PC_7781,
      contact: { id: PAPER_CO, name: 'Paper Co' },
      bankAccountId: account('090'),
      date: '2026-06-12',
      amount: 100,
      currency: 'GBP',
      reference: 'x',
    };
    const paid = await rejection(() => payXeroBill(answering({ Payments: [{ Status: 'AUTHORISED' }] }), payment));
    assert.ok(paid instanceof AccountingSystemError, String(paid));
    assert.match(paid.message, /without the payment's id: whether it was made is not known; send the same banking.match again/);
  },
);

it("every write the connector makes is an operation of Xero's contract with the scopes it names there, and the sign-in asks for one", () => {
  const contract = xeroContract();
  const asked = XERO_SCOPES.split(' ');
  for (const e of XERO_WRITES) {
    assert.equal(contract.templateOf(e.template, e.method), e.template, `${e.method} ${e.template} is in the contract`);
    assert.deepEqual([...e.scopes].sort(), [...(contract.scopesFor(e.template, e.method) ?? [])].sort(), `the scopes of ${e.method} ${e.template}`);
    assert.ok(asked.includes(e.asked), `the sign-in asks for ${e.asked}`);
  }
  for (const write of ['accounting.transactions', 'accounting.contacts', 'accounting.attachments']) assert.ok(asked.includes(write), write);
});

it(
  "the fake refuses a write the contract does not allow, answers Xero's ValidationException for what the books refuse, and answers a repeated " +
    'Idempotency-Key once',
  async () => {
    const xero = await startFakeXero({ limits: false, today: TODAY, book: vatBook() });
    try {
      const put = (path: string, body: unknown, key?: string) =>
        fetch(`${xero.baseUrl}${path}`, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${xero.token}`,
            'xero-tenant-id': xero.tenantId,
            'content-type': 'application/json',
            ...(key ? { 'idempotency-key': key } : {}),
          },
          body: JSON.stringify(body),
        });
      const invoice = (extra: Record<string, unknown> = {}) => ({
        Invoices: [
          {
            Type: 'ACCPAY',
            Contact: { ContactID: PAPER_CO },
            Date: '2026-06-01',
            Status: 'AUTHORISED',
            LineAmountTypes: 'NoTax',
            LineItems: [{ Description: 'Paper', Quantity: 1, UnitAmount: 12.5, AccountCode: '461', LineAmount: 12.5 }],
            ...extra,
          },
        ],
      });
      const before = xero.book.invoices.length;
      const offContract = await put('/Invoices', invoice({ Supplier: 'Paper Co' }));
      assert.equal(offContract.status, 400);
      assert.match(xero.violations.join('\n'), /PUT \/Invoices request body: .*must NOT have additional properties/);
      xero.violations.length = 0;
      assert.equal((await put('/Invoices', invoice({ Type: 'BILL' }))).status, 400);
      assert.match(xero.violations.join('\n'), /must be equal to one of the allowed values/);
      xero.violations.length = 0;

      const archived = await put(
        '/Invoices',
        invoice({ LineItems: [{ Description: 'Van', Quantity: 1, UnitAmount: 10, AccountCode: '499', LineAmount: 10 }] }),
      );
      assert.equal(archived.status, 400);
      const error = (await archived.json()) as any;
      assert.equal(error.Type, 'ValidationException');
      assert.match(error.Elements[0].ValidationErrors[0].Message, /account code '499' has been archived/);
      const wrongTotal = await put('/Invoices', invoice({ Total: 13 }));
      assert.match(((await wrongTotal.json()) as any).Elements[0].ValidationErrors[0].Message, /Total 13 does not add up/);
      const unknownBank = await put('/BankTransactions', {
        BankTransactions: [
          {
            Type: 'SPEND',
            Contact: { ContactID: PAPER_CO },
            BankAccount: { Code: '461' },
            Status: 'AUTHORISED',
            LineItems: [{ Description: 'x', AccountCode: '429', LineAmount: 1 }],
          },
        ],
      });
      assert.match(((await unknownBank.json()) as any).Elements[0].ValidationErrors[0].Message, /bank account 461 could not be found/);
      assert.equal(xero.book.invoices.length, before, 'nothing was made');

      const first = await (await put('/Invoices', invoice(), 'key-1')).json();
      const again = await (await put('/Invoices', invoice(), 'key-1')).json();
      assert.deepEqual(again, first);
      assert.equal(xero.book.invoices.length, before + 1);
      assert.equal((await put('/Invoices', invoice({ InvoiceNumber: 'other' }), 'key-1')).status, 400, 'the key with another request');
      assert.deepEqual(xero.violations, []);
    } finally {
      await xero.close();
    }
  },
);
