/**
 * Issue 14's promise, end to end on a database with no demo: an organisation made from nothing
 * fills every one of the spec's 11 operations with its own data, each through a documented path —
 * its books from a journal (import ledger), a bank statement (import statement), a bill with its
 * file (documents.create) and a saved filter (bills.create_saved_filter) — and each operation,
 * called over REST with the organisation's own API client, answers that data.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import { importStatement } from '../../src/import/importer.js';
import { importJournal } from '../../src/import/journal/load.js';
import { effectOf } from '../../src/operations/operation.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { discover, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-07-15';
const JOURNAL = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'journal', 'small-business.journal'));
const STATEMENT = Buffer.from(
  ['Date,Description,Amount', '2026-07-01,OPENING,0.00', '2026-07-02,CARD PAYMENT ADOBE,-54.60', '2026-07-06,TRANSFER IN NORTHWIND,1200.00'].join('\n'),
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

for (const dialect of DIALECTS) {
  describe(`a new organisation answers every operation from its own data [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let token: string;
    let orgId: string;
    const get = async (name: string, query = '') => {
      const r = await fetch(`${server.baseUrl}/v1/operations/${name}${query}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200, `${name}${query}: ${r.status}`);
      return (await r.json()) as any;
    };
    const send = async (method: string, name: string, body: unknown) => {
      const r = await fetch(`${server.baseUrl}/v1/operations/${name}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await r.json()) as any;
      assert.ok(r.status < 300, `${name}: ${r.status} ${JSON.stringify(answer)}`);
      return answer;
    };

    before(async () => {
      store = await openTestStore(dialect);
      const org = await provisionOrganisation(store.db, { name: 'Harbour Lane Design', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
      orgId = org.id;
      const journal = await importJournal(store, { organisation: org, fileName: 'small-business.journal', bytes: JOURNAL, allowNewAccounts: true });
      assert.equal(journal.new, 16);
      const bankAccount = (
        await store.db
          .selectFrom('acct_accounts')
          .select('id')
          .where('organisation_id', '=', org.id)
          .where('full_name', '=', 'Assets:Bank:Current Account')
          .executeTakeFirstOrThrow()
      ).id;
      const statement = await importStatement(store, {
        organisation: org,
        account: { create: { name: 'Business Current Account', type: 'bank', currency: 'GBP', bank: 'Barclays', ledgerAccountId: bankAccount } },
        fileName: 'statement.csv',
        bytes: STATEMENT,
        options: { allowUnbalanced: true },
      });
      assert.equal(statement.new, 3);
      server = await startServer(store, { today: TODAY });
      const client = await createApiClient(store.db, { organisationId: org.id, name: 'books', scopes: ['service.read', 'service.write'] });
      token = (await oidc.clientCredentialsGrant(await discover(server.baseUrl, client.clientId, client.clientSecret), { scope: 'service.read service.write' }))
        .access_token;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    let documentId: string;
    const called = new Set<string>();
    const answer = async (name: string, query = '') => {
      called.add(name);
      return get(name, query);
    };

    before(async () => {
      // what a new organisation does next: its first bill with the PDF, and a filter for Bills to Pay
      const created = await send('POST', 'documents.create', {
        type: 'bill',
        number: 'AD-2207',
        supplier: 'Adobe',
        date: '2026-07-02',
        dueDate: '2026-08-01',
        currency: 'GBP',
        subtotal: 45.5,
        tax: 9.1,
        total: 54.6,
        codedLines: [{ description: 'Design software, July', account: 'Expenses:Software', subtotal: 45.5, tax: 9.1, total: 54.6 }],
        file: { name: 'ad-2207.pdf', data: PDF.toString('base64') },
      });
      documentId = created.document.id;
      await send('POST', 'bills.create_saved_filter', { name: 'Due this month', criteria: { dueWithinDays: 31 } });
    });

    it('organisations: the one the client belongs to', async () => {
      called.add('organisations');
      const r = await fetch(`${server.baseUrl}/v1/organisations`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(
        ((await r.json()) as any).organisations.map((o: any) => o.id),
        [orgId],
      );
    });

    it('accounts.list: the chart the journal declared', async () => {
      const accounts = await answer('accounts.list');
      assert.ok(accounts.accounts.some((a: any) => a.fullName === 'Assets:Bank:Current Account'));
      assert.ok(accounts.accounts.some((a: any) => a.fullName === 'Expenses:Rent'));
    });

    it("ledger.account_transactions: the journal's rent", async () => {
      const rent = await answer('ledger.account_transactions', '?account=Expenses%3ARent&from=2026-01-01&to=2026-06-30');
      assert.ok(rent.transactions.length > 0, JSON.stringify(rent).slice(0, 300));
      assert.ok(rent.transactions.every((t: any) => /Landmark|rent/i.test(JSON.stringify(t))));
    });

    it("reports.profit_and_loss: the journal's income and expenses", async () => {
      const pl = await answer('reports.profit_and_loss', '?from=2026-01-01&to=2026-06-30');
      assert.match(JSON.stringify(pl), /Rent/);
      assert.match(JSON.stringify(pl), /Income|Sales/);
    });

    it("reports.balance_sheet: the journal's bank balance", async () => {
      const bs = await answer('reports.balance_sheet', '?asAt=2026-06-30');
      assert.match(JSON.stringify(bs), /Current Account/);
    });

    it('banking.accounts: the account the statement made', async () => {
      const bank = await answer('banking.accounts');
      assert.deepEqual(
        bank.accounts.map((a: any) => a.name),
        ['Business Current Account'],
      );
    });

    it("banking.transactions: the statement's lines", async () => {
      const bank = await get('banking.accounts');
      const lines = await answer('banking.transactions', `?account=${encodeURIComponent(bank.accounts[0].id)}`);
      assert.equal(lines.transactions.length, 3);
    });

    it('bills.list_to_pay: the bill documents.create made', async () => {
      const toPay = await answer('bills.list_to_pay');
      assert.deepEqual(
        toPay.bills.map((b: any) => [b.supplier, b.invoiceNumber, b.amountDue]),
        [['Adobe', 'AD-2207', 54.6]],
      );
    });

    it('bills.list_saved_filters: the filter bills.create_saved_filter made, counting that bill', async () => {
      const filters = await answer('bills.list_saved_filters');
      assert.deepEqual(
        filters.filters.map((f: any) => [f.name, f.count, f.total]),
        [['Due this month', 1, 54.6]],
      );
    });

    it('documents.get: the document, its line on the account named', async () => {
      const docs = await answer('documents.get', `?ids=${documentId}`);
      assert.equal(docs.documents[0].codedLines[0].account, 'Expenses:Software');
    });

    it('documents.file: its PDF, byte for byte', async () => {
      const file = await answer('documents.file', `?id=${documentId}`);
      assert.deepEqual(Buffer.from(file.data, 'base64'), PDF);
    });

    it("issue 15's reads: the bill to pay aged, books that balance", async () => {
      const aged = await answer('reports.aged_payables');
      assert.equal(aged.totals.total, 54.6);
      assert.deepEqual(
        aged.contacts.map((c: any) => [c.contact, c.total]),
        [['Adobe', 54.6]],
      );
      const trial = await answer('reports.trial_balance');
      assert.equal(trial.balanced, true);
      for (const name of ['reports.aged_receivables', 'reports.cash_summary', 'contacts.search']) await answer(name);
      const invoices = await answer('sales.list_invoices', '?period=custom&from=2026-01-01&to=2026-06-30');
      assert.ok(
        invoices.invoices.some((i: any) => i.number === 'INV-101'),
        "the journal's invoice",
      );
    });

    it("that was every read operation of the spec, and issue 15's", () => {
      const reads = OPERATIONS.filter((op) => effectOf(op) === 'read').map((op) => op.name);
      assert.equal(reads.length, 17, "the spec's 11 reads and issue 15's 6");
      assert.deepEqual([...called].sort(), reads.sort());
    });
  });
}
