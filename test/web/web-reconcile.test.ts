/**
 * Publishing from a document's page and the Reconcile page (issue 42), in Debian's Chromium over a
 * real port: an admin publishes a bill of a supplier new to the books (asked first, then created),
 * then on Reconcile accepts the suggested match in one click (the line reconciled in the service
 * and linked, the bill paid), undoes it, marks a line reconciled elsewhere, and matches a line that
 * is 1.50 short of its bill by booking the difference as a bank fee when the page offers it. A role
 * refused the operations sees no buttons and a forged post is refused; a post without the CSRF
 * token is refused; a submitter is refused the pages; the page fits 390 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Page } from 'playwright-core';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { documentsCreate } from '../../src/operations/documents-create.js';
import { documentsPublish } from '../../src/operations/documents-publish.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import type { Store } from '../../src/store/db.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { call } from '../helpers/call.js';
import { launchBrowser, type PersonBrowser } from '../helpers/chromium.js';
import { paperBill } from '../helpers/documents.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const ACCOUNT = 'bac_reconcile';
const SUPPLIER = 'Quill & Ink <Stationers>';

for (const dialect of DIALECTS) {
  describe(`publishing and reconciling in the pages [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let browser: PersonBrowser;
    let base: string;
    let org: string;

    const created = async (number: string, overrides: Record<string, unknown> = {}) =>
      (await call(store, documentsCreate, books.org.id, paperBill({ number, ...overrides }), { today: TODAY })).document.id as string;
    let lineNo = 0;
    const bankLine = async (date: string, description: string, amount: number) => {
      const row = statementLine({ id: `btx_r${++lineNo}`, organisationId: books.org.id, bankAccountId: ACCOUNT, date, description, amount });
      await insertBankLines(store.db, [row]);
      return row.id;
    };
    const line = (id: string) => store.db.selectFrom('bank_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const card = (page: Page, id: string) => page.locator(`#line-${id}`);
    const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor();
    const suggestionOf = async (id: string) =>
      (
        (
          await call(
            store,
            bankingTransactions,
            books.org.id,
            { account: ACCOUNT, status: 'to_reconcile', period: 'custom', from: '2026-01-01', to: '2026-12-31' },
            { today: TODAY },
          )
        ).transactions.find((t: any) => t.id === id) as any
      )?.suggestion ?? null;

    async function signIn(page: Page, email: string, next: string) {
      await page.context().clearCookies();
      await page.goto(`${base}${next}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}${next}`);
    }

    /** A post as a page sends it, from this browser's session, with the form fields given. */
    const post = (page: Page, path: string, form: Record<string, string>) =>
      page.request.post(`${base}${path}`, { form, headers: { origin: base }, maxRedirects: 0 });
    const csrfOf = async (page: Page) => (await page.locator('input[name=csrf]').first().getAttribute('value'))!;

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
          id: ACCOUNT,
          organisation_id: books.org.id,
          name: 'Current Account',
          number: '12345678',
          type: 'bank',
          bank: 'Barclays',
          currency: 'GBP',
          is_default: 1,
          ledger_account_id: books.ids.bank,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
      org = `/orgs/${books.org.id}`;
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await server?.close();
      await store?.close();
    });

    it(
      'an admin publishes a bill of a new supplier from its page, then accepts its match in one click, undoes it, and marks a line reconciled ' + 'elsewhere',
      async () => {
        const bill = await created('Q-101', { supplier: SUPPLIER });
        const payment = await bankLine('2026-11-12', 'QUILL & INK STATIONERS Q-101', -14460);
        const transfer = await bankLine('2026-11-14', 'TRANSFER TO SAVINGS 0042', -25000);
        const { page } = browser;
        await signIn(page, books.users.admin.email, `${org}/documents/${bill}`);

        await page.getByRole('button', { name: 'Publish to the books' }).click();
        const question = page.locator('#confirm-contact');
        await question.waitFor();
        assert.equal((await question.innerText()).split('\n')[0], `${SUPPLIER} is not a supplier in the books yet. Create it and publish?`);
        assert.equal(
          (await store.db.selectFrom('documents').select('published_at').where('id', '=', bill).executeTakeFirstOrThrow()).published_at,
          null,
          'nothing published before the answer',
        );
        await page.getByRole('button', { name: `Create ${SUPPLIER} and publish` }).click();
        await status(page, 'Published to the books.');
        const published = await store.db.selectFrom('documents').selectAll().where('id', '=', bill).executeTakeFirstOrThrow();
        assert.ok(published.published_at && published.accounting_transaction_id);
        const facts = await page.locator('dl.facts').innerText();
        assert.match(facts, /Published\s+\d{1,2} \w{3} 2026, \d\d:\d\d UTC/);
        assert.ok(facts.includes(published.accounting_transaction_id!), 'the id in the books');
        assert.equal(await page.getByRole('button', { name: /Publish/ }).count(), 0, 'no publish form once published');
        const audit = await store.db
          .selectFrom('audit_log')
          .select(['action', 'detail'])
          .where('target', '=', bill)
          .where('action', '=', 'document.published')
          .executeTakeFirstOrThrow();
        assert.match(String(audit.detail), /"contactCreated":true/);

        // the suggestion, once the service has scored the lines against the published bill
        const suggestion = await suggestionOf(payment);
        assert.equal(suggestion?.documentId, bill, 'the payment is suggested for the bill at once');
        assert.ok(suggestion.reasons.length > 0);
        await page.goto(`${base}${org}/reconcile`);
        await page.getByRole('link', { name: 'Reconcile' }).and(page.locator('[aria-current="page"]')).waitFor();
        const paymentCard = card(page, payment);
        const shown = await paymentCard.innerText();
        assert.ok(shown.includes(`Q-101 from ${SUPPLIER}, 144.60 GBP`), shown);
        assert.match(shown, new RegExp(`score ${suggestion.score}`));
        for (const reason of suggestion.reasons) assert.ok(shown.includes(reason), `reason "${reason}" shown`);

        await paymentCard.getByRole('button', { name: /^Accept/ }).click();
        await status(page, 'Matched: the line is reconciled and linked to its document.');
        const matched = await line(payment);
        assert.deepEqual([matched.status, matched.reconciled_in, matched.document_id], ['reconciled', 'service', bill]);
        const bills = await store.db.selectFrom('bills').select('amount_due').where('document_id', '=', bill).executeTakeFirstOrThrow();
        assert.equal(Number(bills.amount_due), 0, 'the bill is paid');
        const linked = card(page, payment);
        assert.match(await linked.innerText(), new RegExp(`Matched to Bill Q-101 from ${SUPPLIER.replace(/[<>&]/g, '.')}, 144.60 GBP`));
        assert.equal(await linked.getByRole('link', { name: 'Bill Q-101' }).getAttribute('href'), `${org}/documents/${bill}`);

        await linked.getByRole('button', { name: /^Undo/ }).click();
        await status(page, 'Match undone');
        const undone = await line(payment);
        assert.deepEqual([undone.status, undone.reconciled_in, undone.document_id], ['to_reconcile', null, null]);
        assert.equal(
          Number((await store.db.selectFrom('bills').select('amount_due').where('document_id', '=', bill).executeTakeFirstOrThrow()).amount_due),
          14460,
          'owed again',
        );
        assert.equal(
          await card(page, payment)
            .getByRole('button', { name: /^Reconciled elsewhere/ })
            .count(),
          1,
          'among the lines to reconcile again',
        );
        assert.equal(
          await card(page, payment)
            .getByRole('button', { name: /^Accept/ })
            .count(),
          1,
          'suggested again',
        );

        await card(page, transfer)
          .getByRole('button', { name: /^Reconciled elsewhere/ })
          .click();
        await status(page, 'Marked reconciled elsewhere.');
        const marked = await line(transfer);
        assert.deepEqual([marked.status, marked.reconciled_in], ['reconciled', 'outside_service']);
        assert.match(await card(page, transfer).innerText(), /Reconciled elsewhere/);
      },
    );

    it('a receipt asks which account paid it, and what else is missing is said in words with what to do', async () => {
      const receipt = await created('R-88', {
        type: 'receipt',
        dueDate: null,
        subtotal: 12,
        tax: 0,
        total: 12,
        codedLines: [{ description: 'Team lunch', subtotal: 12, total: 12 }],
      });
      const { page } = browser;
      await signIn(page, books.users.admin.email, `${org}/documents/${receipt}`);
      const paidFrom = page.getByLabel('Paid from');
      const choices = await paidFrom.locator('option').allInnerTexts();
      assert.ok(choices.some((c) => c.startsWith('Current Account (12345678), GBP')) && choices.some((c) => c.startsWith('Company Card')), choices.join(' | '));
      await page.getByRole('button', { name: 'Publish to the books' }).click();
      const refusal = page.getByRole('alert');
      await refusal.first().waitFor();
      const words = await refusal.first().innerText();
      assert.match(words, /Not published yet\./);
      assert.match(words, /Line 1 \("Team lunch"\) is not coded to an account: code it to an active account of the chart/);
      assert.equal(await page.locator('#paidFrom-error').innerText(), 'choose the bank or card account that paid it');
      assert.equal(await page.locator('#confirm-contact').count(), 0, 'Paper Co is a supplier in the books already');

      await store.db
        .updateTable('document_coded_lines')
        .set({ account_id: books.ids.office, account_name: 'Office' })
        .where('document_id', '=', receipt)
        .execute();
      const card = (await paidFrom.locator('option', { hasText: 'Company Card' }).getAttribute('value'))!;
      await paidFrom.selectOption(card);
      await page.getByRole('button', { name: 'Publish to the books' }).click();
      await status(page, 'Published to the books.');
      const published = await store.db.selectFrom('documents').selectAll().where('id', '=', receipt).executeTakeFirstOrThrow();
      assert.ok(published.published_at);
      const spent = await store.db
        .selectFrom('acct_lines')
        .select(['account_id', 'amount'])
        .where('transaction_id', '=', published.accounting_transaction_id!)
        .execute();
      assert.ok(
        spent.some((l) => Number(l.amount) === -1200 && l.account_id !== books.ids.office),
        JSON.stringify(spent),
      );
    });

    it('a line 1.50 short of its bill: Change to the bill, told the amounts differ, and the fee booked when the page offers it', async () => {
      const bill = await created('PC-FEE-1', {
        subtotal: 100,
        tax: 0,
        total: 100,
        codedLines: [{ description: 'Paper', account: 'Office:Stationery', subtotal: 100, tax: 0, total: 100 }],
      });
      await call(store, documentsPublish, books.org.id, { id: bill }, { today: TODAY });
      const short = await bankLine('2026-11-16', 'PAYMENT REF 88812', -10150);
      const { page } = browser;
      await signIn(page, books.users.admin.email, `${org}/reconcile`);
      await card(page, short)
        .getByRole('link', { name: /^(Change|Choose a document)/ })
        .click();
      await card(page, short).getByLabel('Find a published document').fill('fee-1');
      await card(page, short).getByRole('button', { name: 'Search' }).click();
      const choose = card(page, short).getByLabel('Match this line to');
      assert.deepEqual(await choose.locator('option').allInnerTexts(), ['Bill PC-FEE-1 from Paper Co, 100.00 GBP, 2 Nov 2026'], 'only what the search finds');
      await choose.selectOption(bill);
      await card(page, short).getByRole('button', { name: 'Match', exact: true }).click();
      const problem = page.locator(`#problem-${short}`);
      await problem.waitFor();
      assert.match(await problem.innerText(), /The amounts differ: the lines come to -101.50 GBP and bill PC-FEE-1 to -100.00 GBP/);
      assert.equal((await line(short)).status, 'to_reconcile', 'nothing matched');
      await problem.getByRole('button', { name: 'Book the 1.50 GBP difference as a bank fee and match' }).click();
      await status(page, 'Matched');
      const match = await store.db.selectFrom('bank_matches').selectAll().where('document_id', '=', bill).executeTakeFirstOrThrow();
      assert.deepEqual([Number(match.amount), Number(match.difference), match.difference_kind], [-10150, -150, 'fee']);

      // nothing sticks out sideways at a phone's width, the Change form and a refusal open too
      const other = await bankLine('2026-11-17', 'A VERY LONG BANK NARRATION WITHOUT ANY SPACES-1234567890-ABCDEFGHIJKLMNOPQRSTUVWXYZ', -999);
      await page.setViewportSize({ width: 390, height: 860 });
      try {
        await page.goto(`${base}${org}/reconcile?change=${other}`);
        await card(page, other).getByLabel('Find a published document').waitFor();
        const [scroll, window] = (await page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]')) as number[];
        assert.ok(window! <= 390 && window! > 300, `the window is ${window} px`);
        assert.equal(scroll, window, 'no horizontal overflow at 390 px');
      } finally {
        await page.setViewportSize({ width: 1280, height: 860 });
      }
    });

    it('without the CSRF token, or from another origin, nothing is matched or published', async () => {
      const bill = await created('CSRF-1');
      const free = await bankLine('2026-11-18', 'PAPER CO CSRF-1', -14460);
      const { page } = browser;
      await signIn(page, books.users.admin.email, `${org}/reconcile`);
      const noToken = await post(page, `${org}/reconcile/mark`, { transactionId: free, reconciled: 'true' });
      assert.equal(noToken.status(), 403);
      const wrong = await post(page, `${org}/documents/${bill}/publish`, { csrf: 'not-the-token', createContact: 'true' });
      assert.equal(wrong.status(), 403);
      const elsewhere = await page.request.post(`${base}${org}/reconcile/mark`, {
        form: { csrf: await csrfOf(page), transactionId: free },
        headers: { origin: 'https://evil.example' },
        maxRedirects: 0,
      });
      assert.equal(elsewhere.status(), 403);
      assert.equal((await line(free)).status, 'to_reconcile');
      assert.equal((await store.db.selectFrom('documents').select('published_at').where('id', '=', bill).executeTakeFirstOrThrow()).published_at, null);
    });

    it(
      'follows the role permissions: a role refused the operations sees no buttons and a forged post is refused; a submitter is refused the ' + 'pages',
      async () => {
        const bill = await created('ROLE-1');
        const free = await bankLine('2026-11-19', 'PAPER CO ROLE-1', -14460);
        const ops = ['documents.publish', 'banking.match', 'banking.unmatch', 'banking.mark_reconciled'];
        for (const op of ops) await setRoleAllowed(store.db, books.org.id, op, 'admin', false);
        const { page } = browser;
        try {
          await signIn(page, books.users.admin.email, `${org}/reconcile`);
          const shown = card(page, free);
          await shown.waitFor();
          assert.equal(await shown.getByRole('button').count(), 0, 'no Accept or Reconciled elsewhere');
          assert.equal(await shown.getByRole('link', { name: /Change|Choose/ }).count(), 0);
          assert.match(await shown.innerText(), /Your role may not match or mark bank lines/);
          const forged = await post(page, `${org}/reconcile/mark`, { csrf: await csrfOf(page), transactionId: free, account: ACCOUNT, page: '1' });
          assert.equal(forged.status(), 403);
          assert.match(await forged.text(), /Not allowed: /);
          const forgedMatch = await post(page, `${org}/reconcile/match`, { csrf: await csrfOf(page), transactionId: free, documentId: bill });
          assert.equal(forgedMatch.status(), 403);
          assert.equal((await line(free)).status, 'to_reconcile');

          await page.goto(`${base}${org}/documents/${bill}`);
          assert.equal(await page.getByRole('button', { name: /Publish/ }).count(), 0);
          assert.match(await page.locator('#publish-title').locator('..').innerText(), /Your role may not publish documents/);
          const forgedPublish = await post(page, `${org}/documents/${bill}/publish`, { csrf: await csrfOf(page), createContact: 'true' });
          assert.equal(forgedPublish.status(), 403);
          assert.equal((await store.db.selectFrom('documents').select('published_at').where('id', '=', bill).executeTakeFirstOrThrow()).published_at, null);
        } finally {
          for (const op of ops) await setRoleAllowed(store.db, books.org.id, op, 'admin', true);
        }

        await signIn(page, books.users.submitter.email, '/account');
        const csrf = await csrfOf(page);
        assert.equal((await page.goto(`${base}${org}/reconcile`))?.status(), 403);
        assert.equal((await page.goto(`${base}${org}/documents/${bill}`))?.status(), 403);
        assert.equal((await post(page, `${org}/reconcile/mark`, { csrf, transactionId: free })).status(), 403);
        assert.equal((await post(page, `${org}/documents/${bill}/publish`, { csrf, createContact: 'true' })).status(), 403);
        assert.equal((await line(free)).status, 'to_reconcile');
        assert.equal((await store.db.selectFrom('documents').select('published_at').where('id', '=', bill).executeTakeFirstOrThrow()).published_at, null);
      },
    );
  });
}
