/**
 * The Bills to Pay filters page (issue 14): an admin saves a filter from the form and the list shows
 * what it matches today; a bad value or a taken name is named beside its field with nothing saved;
 * the filter is renamed and its criteria changed on its own page, then deleted; every change is in
 * the audit log in words; posts without the CSRF token are refused; a submitter is refused the pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { documentsCreate } from '../../src/operations/documents-create.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { call } from '../helpers/call.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const fieldError = (body: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(body)?.[1];
/** The list's row of a filter: its name, count and amount due. */
const row = (body: string, name: string) =>
  new RegExp(
    `<td data-label="Name"><strong>${name}</strong>[\\s\\S]*?<td class="end" data-label="Bills">([^<]*)</td>\\s*<td class="end" data-label="Due">([^<]*)</td>`,
  )
    .exec(body)
    ?.slice(1, 3);

function fields(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    name: 'Office',
    description: 'Stationery and the like',
    tagsAny: 'office',
    suppliers: '',
    dueWithinDays: '',
    overdue: 'any',
    scheduled: 'any',
    foreignCurrency: 'any',
    minAmountDue: '',
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe(`Bills to Pay filters page [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let path: string;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .execute();
      // two outstanding payables: an office bill due in 11 days, and an overdue expense claim
      const doc = { currency: 'GBP', tax: 0, date: '2026-11-01' };
      await call(
        store,
        documentsCreate,
        books.org.id,
        { ...doc, type: 'bill', number: 'PC-1', supplier: 'Paper Co', dueDate: '2026-12-02', subtotal: 144.6, total: 144.6, tags: 'office' },
        { today: TODAY },
      );
      await call(
        store,
        documentsCreate,
        books.org.id,
        { ...doc, type: 'expense_claim', number: 'EC-1', supplier: 'Sam Submitter', dueDate: '2026-11-10', subtotal: 30, total: 30 },
        { today: TODAY },
      );
      server = await startServer(store, { today: TODAY });
      path = `/orgs/${books.org.id}/bill-filters`;
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

    const filterRows = () => store.db.selectFrom('bill_filters').selectAll().where('organisation_id', '=', books.org.id).execute();
    const auditActions = async () =>
      (
        (await store.db
          .selectFrom('audit_log' as any)
          .select('action')
          .where('organisation_id', '=', books.org.id)
          .execute()) as { action: string }[]
      ).map((r) => r.action);

    it('saves, renames, changes and deletes a filter through the forms, the list showing what each matches', async () => {
      const browser = await signedIn(books.users.admin.email);
      const empty = await browser.follow(path);
      assert.equal(empty.response.status, 200);
      assert.match(empty.body, /No saved filters yet/);

      const saved = await browser.submit(fields({ kinds: ['bill'] }), { action: path });
      assert.equal(saved.response.status, 200, saved.body.slice(0, 2000));
      assert.match(saved.body, /Filter saved\./);
      assert.deepEqual(row(saved.body, 'Office'), ['1', '144.60 GBP']);
      assert.match(saved.body, /Bills; tagged office/);
      const [stored] = await filterRows();
      assert.deepEqual(JSON.parse(stored!.criteria), { kinds: ['bill'], tagsAny: ['office'] });

      // every criterion at once, the minimum in pounds stored in pence
      const big = await browser.submit(
        fields({
          name: 'Big and soon',
          description: '',
          tagsAny: '',
          suppliers: 'Paper Co, Acme Software',
          dueWithinDays: '30',
          overdue: 'no',
          scheduled: 'no',
          foreignCurrency: 'no',
          minAmountDue: '100.5',
        }),
        { action: path },
      );
      assert.deepEqual(row(big.body, 'Big and soon'), ['1', '144.60 GBP']);
      const bigRow = (await filterRows()).find((f) => f.name === 'Big and soon')!;
      assert.deepEqual(JSON.parse(bigRow.criteria), {
        suppliers: ['Paper Co', 'Acme Software'],
        dueWithinDays: 30,
        overdue: false,
        scheduled: false,
        foreignCurrency: false,
        minAmountDue: 10050,
      });

      // its own page shows what is saved; rename it and make it select the overdue expense claims
      const id = stored!.id;
      const edit = await browser.follow(`${path}/${id}`);
      assert.equal(edit.response.status, 200);
      assert.match(edit.body, /<input id="name" name="name" type="text" value="Office"/);
      assert.match(edit.body, /<input type="checkbox" name="kinds" value="bill" checked>/);
      assert.match(edit.body, /<input type="checkbox" name="kinds" value="expense_claim">/);
      const renamed = await browser.submit(fields({ name: 'Overdue claims', kinds: ['expense_claim'], tagsAny: '', overdue: 'yes' }), {
        action: `${path}/${id}`,
      });
      assert.match(renamed.body, /Filter changed\./);
      assert.deepEqual(row(renamed.body, 'Overdue claims'), ['1', '30.00 GBP']);
      assert.equal(row(renamed.body, 'Office'), undefined);
      const after = (await filterRows()).find((f) => f.id === id)!;
      assert.deepEqual(
        [after.name, after.description, JSON.parse(after.criteria)],
        ['Overdue claims', 'Stationery and the like', { kinds: ['expense_claim'], overdue: true }],
      );

      const same = await browser.submit(fields({ name: 'Overdue claims', kinds: ['expense_claim'], tagsAny: '', overdue: 'yes' }), { action: `${path}/${id}` });
      assert.match(same.body, /Nothing was different, so nothing was changed/);

      const deleted = await browser.submit({}, { action: `${path}/${id}/delete` });
      assert.match(deleted.body, /Filter deleted\./);
      assert.equal(row(deleted.body, 'Overdue claims'), undefined);
      assert.deepEqual(
        (await filterRows()).map((f) => f.name),
        ['Big and soon'],
      );

      const audit = await browser.follow(`/orgs/${books.org.id}/audit`);
      assert.match(audit.body, /Saved the Bills to Pay filter “Office”/);
      assert.match(audit.body, /Renamed the Bills to Pay filter “Office” to “Overdue claims” and changed its criteria/);
      assert.match(audit.body, /Deleted the Bills to Pay filter “Overdue claims”/);
    });

    it('names bad values and a taken name beside their fields, keeps what was typed, and saves nothing', async () => {
      const browser = await signedIn(books.users.admin.email);
      await browser.follow(path);
      const before = (await filterRows()).length;
      const bad = await browser.submit(fields({ name: 'Bad <one>', dueWithinDays: 'soon', minAmountDue: '12.345' }), { action: path });
      assert.equal(bad.response.status, 400);
      assert.equal(fieldError(bad.body, 'new-dueWithinDays'), 'must be a whole number of days, 0 or more');
      assert.equal(fieldError(bad.body, 'new-minAmountDue'), 'must be an amount in GBP such as 250.00, 0 or more');
      assert.match(bad.body, /<input id="new-name" name="name" type="text" value="Bad &lt;one&gt;"/);
      assert.match(bad.body, /<input id="new-dueWithinDays" name="dueWithinDays" type="text" value="soon"[^>]* aria-invalid="true"/);

      await browser.submit(fields({ name: 'Taken' }), { action: path });
      const taken = await browser.submit(fields({ name: 'TAKEN' }), { action: path });
      assert.equal(taken.response.status, 409);
      assert.equal(fieldError(taken.body, 'new-name'), 'is taken');
      assert.match(taken.body, /a saved filter is already called &quot;Taken&quot;/);
      assert.equal((await filterRows()).length, before + 1);

      // renaming onto a taken name is refused on the filter's own page, what was typed kept
      const other = (await filterRows()).find((f) => f.name === 'Big and soon')!;
      await browser.follow(`${path}/${other.id}`);
      const clash = await browser.submit(fields({ name: 'taken' }), { action: `${path}/${other.id}` });
      assert.equal(clash.response.status, 409);
      assert.equal(fieldError(clash.body, 'name'), 'is taken');
      assert.match(clash.body, /<input id="name" name="name" type="text" value="taken"/);
      assert.equal((await filterRows()).find((f) => f.id === other.id)!.name, 'Big and soon');
    });

    it('refuses posts without the CSRF token, and refuses a submitter the pages', async () => {
      const admin = await signedIn(books.users.admin.email);
      await admin.follow(path);
      const before = await filterRows();
      const audited = (await auditActions()).length;
      const post = (browser: Browser, to: string, body: Record<string, string>) =>
        browser.request(to, {
          method: 'POST',
          headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(body).toString(),
        });
      assert.equal((await post(admin, path, { name: 'No token' })).status, 403);
      assert.equal((await post(admin, `${path}/${before[0]!.id}/delete`, {})).status, 403);
      assert.equal((await post(admin, `${path}/${before[0]!.id}`, { name: 'No token' })).status, 403);

      const submitter = await signedIn(books.users.submitter.email);
      assert.equal((await submitter.follow(path)).response.status, 403);
      assert.equal((await submitter.follow(`${path}/${before[0]!.id}`)).response.status, 403);
      const csrf = /name="csrf" value="([^"]+)"/.exec((await submitter.follow('/account')).body)![1]!;
      assert.equal((await post(submitter, path, { csrf, name: 'Submitted' })).status, 403);
      assert.equal((await post(submitter, `${path}/${before[0]!.id}/delete`, { csrf })).status, 403);
      assert.deepEqual(await filterRows(), before);
      assert.equal((await auditActions()).length, audited, 'nothing audited: nothing changed');
    });
  });
}
