/** The admin page that uploads a bank statement: same importer and summary as the CLI, CSRF-protected. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Store } from '../../src/store/db.js';
import { nowIso } from '../../src/store/ids.js';
import { FIXTURES } from '../helpers/bank-statements.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const FIXTURE = join(FIXTURES, 'ofx2', 'multiple-accounts-gbp.ofx');

for (const dialect of DIALECTS) {
  describe(`bank statement upload page [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      const passwordHash = await hash(PASSWORD);
      await store.db.updateTable('users').set({ password_hash: passwordHash }).execute();
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: 'bnk_upload',
          organisation_id: books.org.id,
          name: 'Upload Current',
          number: '546582659855',
          type: 'bank',
          bank: 'Test Bank',
          currency: 'GBP',
          is_default: 1,
          ledger_account_id: null,
          created_at: nowIso(),
        })
        .execute();
      server = await startServer(store, { today: TODAY });
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    async function signedIn(email: string) {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const page = await browser.submit({ email, password: PASSWORD });
      assert.equal(page.response.status, 200);
      return browser;
    }

    function upload(browser: Browser, fields: Record<string, string>, file: Buffer | null, origin = server.baseUrl) {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      if (file) body.append('file', new Blob([file]), 'statement.ofx');
      return browser.request(`/orgs/${books.org.id}/bank-import`, { method: 'POST', body, headers: { origin } });
    }

    it('an admin uploads a statement, sees the summary, and a second upload adds nothing', async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      assert.equal(page.response.status, 200);
      assert.match(page.body, /Upload Current \(546582659855, GBP\)/);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const bytes = readFileSync(FIXTURE);
      const dry = await upload(browser, { csrf, account: 'bnk_upload', dry_run: '1', allow_unbalanced: '1' }, bytes);
      const dryText = await dry.text();
      assert.equal(dry.status, 200, /role="alert"[^>]*>([^<]*)/.exec(dryText)?.[1] ?? dryText.slice(0, 400));
      assert.match(dryText, /Checked, nothing written: statement.ofx/);
      const written = await store.db.selectFrom('bank_transactions').select('id').where('bank_account_id', '=', 'bnk_upload').execute();
      assert.equal(written.length, 0);
      const first = await (await upload(browser, { csrf, account: 'bnk_upload', allow_unbalanced: '1' }, bytes)).text();
      const added = (await store.db.selectFrom('bank_transactions').select('id').where('bank_account_id', '=', 'bnk_upload').execute()).length;
      assert.ok(added > 0);
      assert.match(first, new RegExp(`<strong>${added}</strong> new, 0 already present`));
      const second = await (await upload(browser, { csrf, account: 'bnk_upload', allow_unbalanced: '1' }, bytes)).text();
      assert.match(second, new RegExp(`<strong>0</strong> new, ${added} already present`));
      const audit = await store.db.selectFrom('audit_log').select(['action']).where('organisation_id', '=', books.org.id).execute();
      assert.equal(audit.filter((e) => e.action === 'bank_statement.imported').length, 2);
    });

    it('refuses a malformed file with nothing written, and a post without the CSRF token or from elsewhere', async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const before = (await store.db.selectFrom('bank_transactions').select('id').execute()).length;
      const bad = await upload(browser, { csrf, account: 'bnk_upload' }, Buffer.from('this is not a statement'));
      assert.equal(bad.status, 422);
      assert.match(await bad.text(), /Nothing was imported/);
      assert.equal((await upload(browser, { account: 'bnk_upload' }, readFileSync(FIXTURE))).status, 403);
      assert.equal((await upload(browser, { csrf, account: 'bnk_upload' }, readFileSync(FIXTURE), 'https://evil.example')).status, 403);
      assert.equal((await store.db.selectFrom('bank_transactions').select('id').execute()).length, before);
    });

    it('says so when a card statement goes into a current account', async () => {
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: 'bnk_eur',
          organisation_id: books.org.id,
          name: 'Euro Current',
          number: '12345678901234567890',
          type: 'bank',
          bank: 'Test Bank',
          currency: 'EUR',
          is_default: 0,
          ledger_account_id: null,
          created_at: nowIso(),
        })
        .execute();
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const card = await upload(
        browser,
        { csrf, account: 'bnk_eur', dry_run: '1', allow_unbalanced: '1', rate: '0.85' },
        readFileSync(join(FIXTURES, 'ofx2', 'cc-eur-pending-banktranlistp.ofx')),
      );
      const text = await card.text();
      assert.equal(card.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));
      assert.match(
        text,
        /<div class="notice" role="status"><strong>Check:<\/strong> <ul><li>[^<]* is a credit card statement imported into a bank account<\/li>/,
      );
    });

    it('creates the account with the first statement when the organisation has none yet', async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      assert.match(page.body, /<option value="new">A new account…<\/option>/);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const unnamed = await upload(browser, { csrf, account: 'new', new_type: 'bank', new_currency: 'GBP' }, readFileSync(FIXTURE));
      assert.equal(unnamed.status, 400);
      assert.match(await unnamed.text(), /Give the new account a name/);
      const badCurrency = await upload(browser, { csrf, account: 'new', new_name: 'Savings', new_type: 'bank', new_currency: 'POUNDS' }, readFileSync(FIXTURE));
      assert.match(await badCurrency.text(), /is not a currency code/);
      const created = await upload(
        browser,
        { csrf, account: 'new', new_name: 'Business Savings', new_type: 'bank', new_currency: 'gbp', new_number: '21252344525548', allow_unbalanced: '1' },
        readFileSync(FIXTURE),
      );
      const text = await created.text();
      assert.equal(created.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));
      assert.match(text, /statement for <strong><a href="[^"]+">Business Savings<\/a><\/strong>/);
      const row = await store.db
        .selectFrom('bank_accounts')
        .selectAll()
        .where('organisation_id', '=', books.org.id)
        .where('name', '=', 'Business Savings')
        .executeTakeFirst();
      assert.deepEqual([row?.number, row?.currency, row?.type], ['21252344525548', 'GBP', 'bank']);
      assert.match(text, /<option value="[^"]+">Business Savings \(21252344525548, GBP\)<\/option>/, 'the page lists it at once');
      const again = await upload(browser, { csrf, account: 'new', new_name: 'business savings', new_type: 'bank', new_currency: 'GBP' }, readFileSync(FIXTURE));
      assert.match(await again.text(), /There is already an account named/);
    });

    it("an account's page gives its bank balance and its imports; an admin removes an import whole, audited, and the balances are as before it", async () => {
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: 'bnk_batches',
          organisation_id: books.org.id,
          name: 'Batches Current',
          number: '546582659855',
          type: 'bank',
          bank: 'Test Bank',
          currency: 'GBP',
          is_default: 0,
          ledger_account_id: null,
          created_at: nowIso(),
        })
        .execute();
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const accountPage = `/orgs/${books.org.id}/bank-import/accounts/bnk_batches`;
      const before = await browser.follow(accountPage);
      assert.match(before.body, /Nothing has been imported into this account yet/);
      const imported = await (await upload(browser, { csrf, account: 'bnk_batches' }, readFileSync(FIXTURE))).text();
      // the statement's own LEDGERBAL is the balance now
      assert.match(imported, /Balance now 3,000\.25 GBP, counted from the bank(?:'|&#39;)s own balance/);
      const listed = await browser.follow(accountPage);
      assert.equal(listed.response.status, 200);
      assert.match(listed.body, /Bank balance at 2014-07-18<\/dt><dd><strong>3,000\.25 GBP<\/strong>/);
      assert.match(
        listed.body,
        /<td data-label="File">statement\.ofx<\/td>\s*<td data-label="Format">OFX[^<]*<\/td>\s*<td data-label="Lines" class="num">2 new<\/td>/,
      );
      assert.match(listed.body, /opening 2,504\.23 GBP \(closing less the lines\), closing 3,000\.25 GBP/);
      const remove = /href="(\/orgs\/[^"]+\/bank-import\/imports\/([^"]+)\/remove)"/.exec(listed.body)!;
      const confirm = await browser.follow(remove[1]!);
      assert.match(confirm.body, /Remove the import of statement\.ofx\?/);
      const done = await browser.submit({ csrf }, { action: remove[1]! });
      assert.equal(done.response.status, 200);
      assert.match(done.body, /The import was removed/);
      assert.match(done.body, /Nothing has been imported into this account yet/);
      const left = await store.db.selectFrom('bank_transactions').select('id').where('bank_account_id', '=', 'bnk_batches').execute();
      assert.equal(left.length, 0);
      const audit = await store.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('organisation_id', '=', books.org.id)
        .where('action', '=', 'bank_import.removed')
        .execute();
      assert.deepEqual(
        audit.map((e) => JSON.parse(e.detail)),
        [{ importId: remove[2], file: 'statement.ofx', format: JSON.parse(audit[0]!.detail).format, lines: 2, statements: 1 }],
      );
      assert.equal((await browser.follow(`/orgs/${books.org.id}/bank-import/imports/${remove[2]}/remove`)).response.status, 404);
    });

    it("a new account is linked to the books' account chosen, and counts from the opening balance given", async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      // the builtin chart's bank accounts are offered, after the suggestion and before none
      const offered = [...page.body.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].filter((m) =>
        /new_ledger/.test(page.body.slice(page.body.lastIndexOf('<select', m.index), m.index)),
      );
      assert.ok(offered.length >= 2, 'the books offer their bank accounts');
      const [chosen] = offered.filter((m) => m[1] !== '' && m[1] !== 'auto');
      const bytes = Buffer.from('Date,Description,Amount\n2026-02-03,COFFEE,-3.50\n');
      const body = new FormData();
      for (const [k, v] of Object.entries({
        csrf,
        account: 'new',
        new_name: 'Linked Current',
        new_type: 'bank',
        new_currency: 'GBP',
        new_ledger: chosen![1]!,
        new_opening: '1000.00',
        new_opening_date: '2026-02-01',
      }))
        body.append(k, v);
      body.append('file', new Blob([bytes]), 'feb.csv');
      const response = await browser.request(`/orgs/${books.org.id}/bank-import`, { method: 'POST', body, headers: { origin: server.baseUrl } });
      const text = await response.text();
      assert.equal(response.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));
      assert.match(text, /Balance now 996\.50 GBP, counted from the opening balance entered for the account: 1,000\.00 GBP before 2026-02-01/);
      const row = await store.db
        .selectFrom('bank_accounts')
        .selectAll()
        .where('organisation_id', '=', books.org.id)
        .where('name', '=', 'Linked Current')
        .executeTakeFirstOrThrow();
      assert.equal(row.ledger_account_id, chosen![1]);
      const bad = new FormData();
      for (const [k, v] of Object.entries({
        csrf,
        account: 'new',
        new_name: 'Bad Opening',
        new_type: 'bank',
        new_currency: 'GBP',
        new_opening: 'lots',
        new_opening_date: '2026-02-01',
      }))
        bad.append(k, v);
      bad.append('file', new Blob([bytes]), 'feb.csv');
      assert.match(
        await (await browser.request(`/orgs/${books.org.id}/bank-import`, { method: 'POST', body: bad, headers: { origin: server.baseUrl } })).text(),
        /“lots” is not an amount in GBP/,
      );
    });

    it('is for admins only', async () => {
      const browser = await signedIn(books.users.submitter.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      assert.equal(page.response.status, 403);
    });
  });
}
