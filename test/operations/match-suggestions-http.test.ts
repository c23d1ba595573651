/**
 * Suggested matches end to end: an admin uploads a bank statement through the real server's page,
 * and banking.transactions over REST answers the line that pays a published bill with
 * suggestedMatch: true and the suggestion (the bill, its score, the reasons in words); a line
 * nothing explains has none; an unpublished document is never suggested. Then the refresh itself:
 * a reconciled line loses its suggestion, a refresh with nothing new writes nothing, and an open
 * bill of the connected system is suggested under its system id, but not when it is the system's
 * copy of a document the service published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { accountingSystemFor } from '../../src/accounting/index.js';
import type { AccountingSystem, PayableBill } from '../../src/accounting/types.js';
import { refreshSuggestions } from '../../src/operations/banking/suggestions.js';
import type { Store } from '../../src/store/db.js';
import { nowIso } from '../../src/store/ids.js';
import type { DocumentRow } from '../../src/store/schema.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';

/** An OFX 2 statement of one GBP current account, its lines as [date yyyyMMdd, amount, FITID, NAME]. */
function ofx(lines: [string, string, string, string][]): Buffer {
  const entries = lines.map(
    ([date, amount, id, name]) =>
      `<STMTTRN><TRNTYPE>${amount.startsWith('-') ? 'DEBIT' : 'CREDIT'}</TRNTYPE><DTPOSTED>${date}</DTPOSTED><TRNAMT>${amount}</TRNAMT><FITID>${id}</FI` +
      `TID><NAME>${name}</NAME></STMTTRN>`,
  );
  return Buffer.from(
    '<?xml version="1.0" encoding="US-ASCII"?>\n<?OFX OFXHEADER="200" VERSION="200" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n' +
      '<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><STMTRS><CURDEF>GBP</CURDEF>' +
      '<BANKACCTFROM><BANKID>400000</BANKID><ACCTID>44556677</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>' +
      `<BANKTRANLIST><DTSTART>20261101</DTSTART><DTEND>20261120</DTEND>${entries.join('')}</BANKTRANLIST>` +
      '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n',
  );
}

function document(organisationId: string, id: string, fields: Partial<DocumentRow>): DocumentRow {
  return {
    id,
    organisation_id: organisationId,
    number: 'KC-2231',
    type: 'bill',
    supplier: 'Kestrel Cloud Hosting Ltd',
    date: '2026-10-20',
    due_date: '2026-11-19',
    currency: 'GBP',
    subtotal: 19_189,
    tax: 3_838,
    total: 23_027,
    accounting_transaction_id: null,
    published_at: null,
    created_at: nowIso(),
    created_by: null,
    updated_at: null,
    ...fields,
  };
}

for (const dialect of DIALECTS) {
  describe(`suggested matches after a statement upload [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let token: string;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .execute();
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: 'bnk_sugg',
          organisation_id: books.org.id,
          name: 'Suggest Current',
          number: '44556677',
          type: 'bank',
          bank: 'Test Bank',
          currency: 'GBP',
          is_default: 0,
          ledger_account_id: null,
          created_at: nowIso(),
        })
        .execute();
      // the bill published to the books (written as documents.publish leaves it), and a draft for the same money that is not
      await store.db
        .insertInto('documents')
        .values([
          document(books.org.id, 'doc_sugg_published', {
            publish_state: 'published',
            published_at: '2026-10-21T09:00:00.000Z',
            accounting_document_id: 'sys-bill-1',
          }),
          document(books.org.id, 'doc_sugg_draft', { number: 'KC-2232', date: '2026-10-25', due_date: '2026-11-24' }),
        ])
        .execute();
      server = await startServer(store, { today: TODAY });
      token = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    const lines = async () => {
      const answer = await sendJson(server.baseUrl, 'GET', '/v1/operations/banking.transactions?account=bnk_sugg&limit=50', token);
      assert.equal(answer.status, 200, answer.bytes);
      return new Map((answer.body.transactions as any[]).map((t) => [t.description as string, t]));
    };

    it('an uploaded statement’s payment of a published bill is answered with suggestedMatch and the suggestion', async () => {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      assert.equal((await browser.submit({ email: books.users.admin.email, password: PASSWORD })).response.status, 200);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const body = new FormData();
      for (const [k, v] of Object.entries({ csrf, account: 'bnk_sugg', allow_unbalanced: '1' })) body.append(k, v);
      body.append(
        'file',
        new Blob([
          ofx([
            ['20261119', '-230.27', 'S1', 'DD KESTREL CLOUD HOS'],
            ['20261118', '-12.00', 'S2', 'TESCO STORES 2231'],
          ]),
        ]),
        'statement.ofx',
      );
      const uploaded = await browser.request(`/orgs/${books.org.id}/bank-import`, { method: 'POST', body, headers: { origin: server.baseUrl } });
      const text = await uploaded.text();
      assert.equal(uploaded.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));

      const answered = await lines();
      const paid = answered.get('DD KESTREL CLOUD HOS');
      assert.equal(paid?.suggestedMatch, true, JSON.stringify(paid));
      assert.deepEqual(
        { ...paid.suggestion, score: undefined },
        {
          documentId: 'doc_sugg_published',
          score: undefined,
          reasons: ['amount equal 230.27 GBP', "supplier name 'KESTREL CLOUD HOS' in the narration", 'paid on the due date'],
          number: 'KC-2231',
          supplier: 'Kestrel Cloud Hosting Ltd',
          total: 230.27,
          currency: 'GBP',
        },
      );
      assert.ok(paid.suggestion.score >= 50 && paid.suggestion.score <= 100, `${paid.suggestion.score}`);
      const other = answered.get('TESCO STORES 2231');
      assert.deepEqual([other?.suggestedMatch, other?.suggestion], [false, null]);
    });

    it('a refresh clears a reconciled line’s suggestion, writes nothing when nothing changed, and suggests an open bill of the system once', async () => {
      const accounting = accountingSystemFor(store.db, books.org);
      const again = await refreshSuggestions(store.db, books.org.id, accounting, { today: TODAY });
      assert.deepEqual([again.changed, again.suggested], [0, 1], 'the upload wrote every suggestion already');

      // the connected system holds two open bills: its copy of the published bill (the same document) and one of its own
      const payables: PayableBill[] = [
        {
          documentId: 'sys-bill-1',
          transactionId: 't1',
          kind: 'bill',
          supplier: 'Kestrel Cloud Hosting Ltd',
          number: 'KC-2231',
          date: '2026-10-20',
          dueDate: '2026-11-19',
          currency: 'GBP',
          originalAmount: 23_027,
          amountDue: 23_027,
          note: null,
        },
        {
          documentId: 'sys-bill-2',
          transactionId: 't2',
          kind: 'bill',
          supplier: 'Tesco Stores Ltd',
          number: '2231',
          date: '2026-11-01',
          dueDate: '2026-11-15',
          currency: 'GBP',
          originalAmount: 1_200,
          amountDue: 1_200,
          note: null,
        },
      ];
      const system = { ...accounting, kind: 'gnucash', payables: async () => payables } as AccountingSystem;
      const withSystem = await refreshSuggestions(store.db, books.org.id, system, { today: TODAY });
      assert.equal(withSystem.candidates, again.candidates + 1, 'the system’s own open bill, not its copy of the published one');
      let answered = await lines();
      assert.equal(answered.get('DD KESTREL CLOUD HOS')?.suggestion.documentId, 'doc_sugg_published');
      assert.deepEqual(
        [answered.get('TESCO STORES 2231')?.suggestedMatch, answered.get('TESCO STORES 2231')?.suggestion.documentId],
        [true, 'gnucash:sys-bill-2'],
      );

      // reconciled (as banking.match leaves a line): its suggestion goes
      await store.db
        .updateTable('bank_transactions')
        .set({ status: 'reconciled', reconciled_in: 'service' })
        .where('bank_account_id', '=', 'bnk_sugg')
        .where('description', '=', 'DD KESTREL CLOUD HOS')
        .execute();
      const cleared = await refreshSuggestions(store.db, books.org.id, system, { today: TODAY });
      assert.equal(cleared.changed, 1);
      answered = await lines();
      assert.deepEqual([answered.get('DD KESTREL CLOUD HOS')?.suggestedMatch, answered.get('DD KESTREL CLOUD HOS')?.suggestion], [false, null]);
      const row = await store.db
        .selectFrom('bank_transactions')
        .select(['suggested_document_id', 'suggestion_score', 'suggestion_reasons'])
        .where('description', '=', 'DD KESTREL CLOUD HOS')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { suggested_document_id: null, suggestion_score: null, suggestion_reasons: null });
    });
  });
}
