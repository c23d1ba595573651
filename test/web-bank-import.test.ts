/** The admin page that uploads a bank statement: same importer and summary as the CLI, CSRF-protected. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Store } from '../src/store/db.js';
import { nowIso } from '../src/store/ids.js';
import { withWebTables } from '../src/store/web-schema.js';
import { FIXTURES } from './helpers/bank-statements.js';
import { buildBooks, TODAY } from './helpers/books.js';
import { Browser } from './helpers/browser.js';
import { startServer } from './helpers/server.js';
import { DIALECTS, openTestStore } from './helpers/store.js';

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
        .values({ id: 'bnk_upload', organisation_id: books.org.id, name: 'Upload Current', number: '546582659855', type: 'bank', bank: 'Test Bank', currency: 'GBP', is_default: 1, ledger_account_id: null, created_at: nowIso() })
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
      const audit = await withWebTables(store.db).selectFrom('audit_log').select(['action']).where('organisation_id', '=', books.org.id).execute();
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
        .values({ id: 'bnk_eur', organisation_id: books.org.id, name: 'Euro Current', number: '12345678901234567890', type: 'bank', bank: 'Test Bank', currency: 'EUR', is_default: 0, ledger_account_id: null, created_at: nowIso() })
        .execute();
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const card = await upload(browser, { csrf, account: 'bnk_eur', dry_run: '1', allow_unbalanced: '1', rate: '0.85' }, readFileSync(join(FIXTURES, 'ofx2', 'cc-eur-pending-banktranlistp.ofx')));
      const text = await card.text();
      assert.equal(card.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));
      assert.match(text, /<div class="notice" role="status"><strong>Check:<\/strong> <ul><li>[^<]* is a credit card statement imported into a bank account<\/li>/);
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
      const created = await upload(browser, { csrf, account: 'new', new_name: 'Business Savings', new_type: 'bank', new_currency: 'gbp', new_number: '21252344525548', allow_unbalanced: '1' }, readFileSync(FIXTURE));
      const text = await created.text();
      assert.equal(created.status, 200, /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 400));
      assert.match(text, /statement for <strong>Business Savings<\/strong>/);
      const row = await store.db.selectFrom('bank_accounts').selectAll().where('organisation_id', '=', books.org.id).where('name', '=', 'Business Savings').executeTakeFirst();
      assert.deepEqual([row?.number, row?.currency, row?.type], ['21252344525548', 'GBP', 'bank']);
      assert.match(text, /<option value="[^"]+">Business Savings \(21252344525548, GBP\)<\/option>/, 'the page lists it at once');
      const again = await upload(browser, { csrf, account: 'new', new_name: 'business savings', new_type: 'bank', new_currency: 'GBP' }, readFileSync(FIXTURE));
      assert.match(await again.text(), /There is already an account named/);
    });

    it('is for admins only', async () => {
      const browser = await signedIn(books.users.submitter.email);
      const page = await browser.follow(`/orgs/${books.org.id}/bank-import`);
      assert.equal(page.response.status, 403);
    });
  });
}
