/**
 * Exactly once, against a system outside the database: a connector that reads the builtin ledger's
 * books but writes to a record of its own, and can lose its answer (the write made, the caller told
 * it timed out) or refuse (a lock date). A publish whose outcome was unknown leaves its intent, the
 * document is held, and the retry looks the transaction up by its key instead of writing a second;
 * a refusal writes nothing and frees the document; a bill's payment likewise, and its unmatch
 * removes the payment in the system.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { registerAccountingSystem } from '../../src/accounting/index.js';
import { AccountingRefused, AccountingSystemError, type BillPayment, type DocumentToPublish, type PublishedTransaction } from '../../src/accounting/types.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { paperBill } from '../helpers/documents.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

/** What the outside system holds, and how its next call goes. */
const outside = {
  transactions: new Map<string, DocumentToPublish & { id: string }>(),
  payments: new Map<string, BillPayment & { id: string }>(),
  /** the next write is made but its answer lost */
  loseNextAnswer: false,
  /** the next write is refused, naming this field */
  refuseNext: null as string | null,
  /** the next write never reaches the system (a network failure before it) */
  failNextUnsent: false,
};

class OutsideBooks extends BuiltinAccounting {
  override readonly kind = 'outside' as 'builtin';
  async publish(doc: DocumentToPublish): Promise<PublishedTransaction> {
    if (outside.failNextUnsent) {
      outside.failNextUnsent = false;
      throw new AccountingSystemError('the accounting system (outside) could not be reached', 'accounting_unavailable');
    }
    if (outside.refuseNext) {
      const field = outside.refuseNext;
      outside.refuseNext = null;
      throw new AccountingRefused('the date is on or before the lock date 2026-11-05', field);
    }
    // idempotent by key, as the vendors' keys are
    const existing = [...outside.transactions.values()].find((t) => t.key === doc.key);
    const id = existing?.id ?? `OUT-${outside.transactions.size + 1}`;
    if (!existing) outside.transactions.set(id, { ...doc, id });
    if (outside.loseNextAnswer) {
      outside.loseNextAnswer = false;
      throw new AccountingSystemError('the accounting system (outside) did not answer within 10000 ms', 'accounting_timeout');
    }
    return { transactionId: id, documentId: id, link: `https://outside.example/txn/${id}` };
  }
  async findPublished(doc: DocumentToPublish): Promise<PublishedTransaction | null> {
    const found = [...outside.transactions.values()].find((t) => t.key === doc.key);
    return found ? { transactionId: found.id, documentId: found.id, link: `https://outside.example/txn/${found.id}` } : null;
  }
  async payBill(p: BillPayment) {
    const existing = [...outside.payments.values()].find((x) => x.key === p.key);
    const id = existing?.id ?? `PAY-${outside.payments.size + 1}`;
    if (!existing) outside.payments.set(id, { ...p, id });
    if (outside.loseNextAnswer) {
      outside.loseNextAnswer = false;
      throw new AccountingSystemError('the accounting system (outside) did not answer within 10000 ms', 'accounting_timeout');
    }
    return { paymentId: id, link: null };
  }
  async findPayment(p: BillPayment) {
    const found = [...outside.payments.values()].find((x) => x.key === p.key);
    return found ? { paymentId: found.id, link: null } : null;
  }
  async removePayment(id: string) {
    outside.payments.delete(id);
  }
}

for (const dialect of DIALECTS) {
  describe(`publishing and paying exactly once, outside the database [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let org: string;
    let token: string;
    const send = (method: string, path: string, body?: unknown) => sendJson(server.baseUrl, method, path, token, body);

    before(async () => {
      registerAccountingSystem('outside', (db, o) => new OutsideBooks(db, o.id));
      store = await openTestStore(dialect);
      const books = await buildBooks(store);
      org = books.org.id;
      await store.db.updateTable('organisations').set({ accounting_system: 'outside' }).where('id', '=', org).execute();
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: 'bac_out',
          organisation_id: org,
          name: 'Current Account',
          number: '1',
          type: 'bank',
          bank: 'Barclays',
          currency: 'GBP',
          is_default: 1,
          ledger_account_id: books.ids.bank,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      server = await startServer(store, { today: TODAY });
      token = await clientToken(store, server.baseUrl, org, ['service.read', 'service.write']);
      outside.transactions.clear();
      outside.payments.clear();
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('a publish whose answer was lost holds the document, and its retry finds the transaction instead of writing another', async () => {
      const id = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'LOST-1', file: null }))).body.document.id;
      outside.loseNextAnswer = true;
      const lost = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(lost.status, 504, lost.bytes);
      assert.equal(outside.transactions.size, 1, 'the system wrote it');
      const held = await send('PATCH', '/v1/operations/documents.update', { id, number: 'LOST-2' });
      assert.equal(held.status, 409, 'the content it was sent with is held');
      assert.match(held.body.detail, /outcome is not known/);

      const retried = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(retried.status, 201, retried.bytes);
      assert.equal(outside.transactions.size, 1, 'one transaction, not two');
      assert.deepEqual([retried.body.document.accountingId, retried.body.document.accountingLink], ['OUT-1', 'https://outside.example/txn/OUT-1']);
    });

    it('a refusal writes nothing, names the field, and frees the document', async () => {
      const id = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'LOCK-1', date: '2026-11-01', file: null }))).body.document.id;
      const before = outside.transactions.size;
      outside.refuseNext = 'date';
      const refused = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(refused.status, 422, refused.bytes);
      assert.equal(refused.body.code, 'accounting_refused');
      assert.deepEqual(
        refused.body.errors.map((e: any) => e.parameter),
        ['date'],
      );
      assert.equal(outside.transactions.size, before);
      const changed = await send('PATCH', '/v1/operations/documents.update', { id, date: '2026-11-10' });
      assert.equal(changed.status, 200, changed.bytes);
      const published = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(published.status, 201, published.bytes);
      assert.equal(outside.transactions.size, before + 1);
    });

    it('a retry whose plan no longer holds (an account archived since) finds what the first try wrote, or lets the document go', async () => {
      const archive = (active: number) =>
        store.db.updateTable('acct_accounts').set({ active }).where('organisation_id', '=', org).where('full_name', '=', 'Office:Stationery').execute();
      // written, answer lost, then the account archived: the retry finds the bill by its key
      const written = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'ARCH-1', file: null }))).body.document.id;
      outside.loseNextAnswer = true;
      assert.equal((await send('POST', '/v1/operations/documents.publish', { id: written })).status, 504);
      const before = outside.transactions.size;
      await archive(0);
      try {
        const found = await send('POST', '/v1/operations/documents.publish', { id: written });
        assert.equal(found.status, 201, found.bytes);
        assert.equal(outside.transactions.size, before, 'nothing written again');

        // never sent, then the account archived: nothing to find, so the document is let go and says why
        await archive(1);
        const unsent = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'ARCH-2', file: null }))).body.document.id;
        outside.failNextUnsent = true;
        assert.equal((await send('POST', '/v1/operations/documents.publish', { id: unsent })).status, 502);
        assert.equal((await send('PATCH', '/v1/operations/documents.update', { id: unsent, note: 'x' })).status, 409, 'held while the outcome is unknown');
        await archive(0);
        const incomplete = await send('POST', '/v1/operations/documents.publish', { id: unsent });
        assert.equal(incomplete.status, 422, incomplete.bytes);
        assert.equal(incomplete.body.code, 'document_incomplete');
        const recoded = await send('PATCH', '/v1/operations/documents.update', {
          id: unsent,
          codedLines: [{ description: 'Copier paper', account: 'Office:Software', subtotal: 120.5, tax: 24.1, total: 144.6 }],
        });
        assert.equal(recoded.status, 200, `free to change again: ${recoded.bytes}`);
      } finally {
        await archive(1);
      }
    });

    it('a retry sent with another paidFrom or rate than the first try is refused, naming it', async () => {
      const id = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'RATE-1', currency: 'EUR', file: null }))).body.document.id;
      outside.failNextUnsent = true;
      assert.equal((await send('POST', '/v1/operations/documents.publish', { id, exchangeRate: '0.86' })).status, 502);
      const other = await send('POST', '/v1/operations/documents.publish', { id, exchangeRate: '0.87' });
      assert.equal(other.status, 400, other.bytes);
      assert.deepEqual(
        other.body.errors.map((e: any) => e.parameter),
        ['exchangeRate'],
      );
      assert.equal((await send('POST', '/v1/operations/documents.publish', { id })).status, 201, 'the same try, finished');
    });

    it("a bill's payment whose answer was lost is finished by the same match sent again; unmatch removes it in the system", async () => {
      const id = (await send('POST', '/v1/operations/documents.create', paperBill({ number: 'PAY-1', file: null }))).body.document.id;
      assert.equal((await send('POST', '/v1/operations/documents.publish', { id })).status, 201);
      await insertBankLines(store.db, [
        statementLine({ id: 'btx_out1', organisationId: org, bankAccountId: 'bac_out', date: '2026-11-12', description: 'PAPER CO PAY-1', amount: -14460 }),
      ]);
      outside.loseNextAnswer = true;
      const lost = await send('POST', '/v1/operations/banking.match', { transactionIds: 'btx_out1', documentId: id });
      assert.equal(lost.status, 504, lost.bytes);
      assert.equal(outside.payments.size, 1);
      const retried = await send('POST', '/v1/operations/banking.match', { transactionIds: 'btx_out1', documentId: id });
      assert.equal(retried.status, 201, retried.bytes);
      assert.equal(outside.payments.size, 1, 'one payment, not two');
      assert.equal(retried.body.match.paymentId, [...outside.payments.keys()][0]);
      assert.equal(retried.body.transactions[0].reconciledIn, 'service');
      const bill = (await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.find((b: any) => b.invoiceNumber === 'PAY-1');
      assert.equal(bill, undefined);

      const undone = await send('DELETE', '/v1/operations/banking.unmatch?transactionId=btx_out1');
      assert.equal(undone.status, 200, undone.bytes);
      assert.equal(outside.payments.size, 0, 'the payment is removed in the system');
      assert.equal((await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.find((b: any) => b.invoiceNumber === 'PAY-1').amountDue, 144.6);
    });
  });
}
