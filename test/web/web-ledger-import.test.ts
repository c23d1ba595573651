/** The admin page that loads books from a journal: same loader as `ledgerline import ledger`, CSRF-protected. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import type { OrganisationRow } from '../../src/store/schema.js';
import { setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const JOURNAL = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'journal', 'small-business.journal'));

for (const dialect of DIALECTS) {
  describe(`books upload page [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let empty: OrganisationRow;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      empty = await provisionOrganisation(store.db, { name: 'Harbour Lane Design', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
      await setMembership(store.db, empty.id, books.users.admin.id, 'admin');
      await setMembership(store.db, empty.id, books.users.submitter.id, 'submitter');
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
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
      assert.equal((await browser.submit({ email, password: PASSWORD })).response.status, 200);
      return browser;
    }
    function upload(browser: Browser, fields: Record<string, string>, file: Buffer, name = 'books.journal') {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      body.append('file', new Blob([file]), name);
      return browser.request(`/orgs/${empty.id}/ledger-import`, { method: 'POST', body, headers: { origin: server.baseUrl } });
    }
    const count = async () =>
      Number(
        (
          await store.db
            .selectFrom('acct_lines')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', empty.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('an admin loads a journal into an empty organisation; unknown accounts are refused until allowed; again adds nothing', async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(`/orgs/${empty.id}/ledger-import`);
      assert.equal(page.response.status, 200);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;

      const refused = await upload(browser, { csrf }, JOURNAL);
      assert.equal(refused.status, 422);
      const refusedText = await refused.text();
      assert.match(refusedText, /Nothing was loaded: the journal names accounts the books have not\./);
      assert.match(refusedText, /<li><strong>line 24<\/strong>: no account &quot;Assets:Bank:Current Account&quot;/);
      assert.equal(await count(), 0);

      const loaded = await (await upload(browser, { csrf, allow_new_accounts: '1' }, JOURNAL)).text();
      assert.match(loaded, /Loaded: books\.journal/);
      assert.match(loaded, /16 transactions from 2026-01-01 to 2026-06-30: <strong>16<\/strong> added \(38 ledger lines\), 0 already present/);
      assert.equal(await count(), 38);
      const again = await (await upload(browser, { csrf }, JOURNAL)).text();
      assert.match(again, /<strong>0<\/strong> added \(0 ledger lines\), 16 already present/);
      const audit = await store.db.selectFrom('audit_log').select(['action']).where('organisation_id', '=', empty.id).execute();
      assert.equal(audit.filter((e) => e.action === 'ledger_journal.imported').length, 1, 'a load that adds nothing is not an action');
    });

    it('is for admins only, and says when the books are elsewhere', async () => {
      const submitter = await signedIn(books.users.submitter.email);
      assert.equal((await submitter.follow(`/orgs/${empty.id}/ledger-import`)).response.status, 403);
      await store.db.updateTable('organisations').set({ accounting_system: 'gnucash' }).where('id', '=', empty.id).execute();
      try {
        const admin = await signedIn(books.users.admin.email);
        const page = await admin.follow(`/orgs/${empty.id}/ledger-import`);
        assert.match(page.body, /keeps its books in gnucash; journals load only into Ledgerline/);
        assert.doesNotMatch(page.body, /<form method="post" action="\/orgs\/[^"]+\/ledger-import"/);
      } finally {
        await store.db.updateTable('organisations').set({ accounting_system: 'builtin' }).where('id', '=', empty.id).execute();
      }
    });
  });
}
