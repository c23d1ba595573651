/**
 * Saved Bills to Pay filters as data the organisation manages, over REST with real tokens: create,
 * rename, change criteria, delete; names unique in any case; bad criteria named by key with nothing
 * written; the write scope and the role policy; every change audited; bills.list_saved_filters and
 * bills.list_to_pay follow at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { billsCreateSavedFilter } from '../../src/operations/bills-saved-filter-changes.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { asUser, call, rejection } from '../helpers/call.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

for (const dialect of DIALECTS) {
  describe(`saved filter changes over REST [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;
    let reader: string;

    const send = (method: string, path: string, token: string, body?: unknown) => sendJson(server.baseUrl, method, path, token, body);
    const stored = async () =>
      (
        await store.db
          .selectFrom('bill_filters')
          .select(['id', 'name', 'description', 'criteria'])
          .where('organisation_id', '=', books.org.id)
          .orderBy('position')
          .execute()
      ).map((r) => ({
        ...r,
        criteria: JSON.parse(r.criteria),
      }));
    const listed = async () =>
      (await send('GET', '/v1/operations/bills.list_saved_filters', reader)).body.filters as { id: string; name: string; count: number; total: number }[];

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, books.org.id, ['service.read', 'service.write']);
      reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('creates, renames, changes criteria and deletes a filter; the lists follow at once', async () => {
      const created = await send('POST', '/v1/operations/bills.create_saved_filter', writer, {
        name: 'Foreign',
        description: 'Bills not in pounds',
        criteria: { foreignCurrency: true },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.filter.id;
      assert.deepEqual(created.body.filter, { id, name: 'Foreign', description: 'Bills not in pounds', criteria: { foreignCurrency: true } });
      // the books hold one outstanding USD bill (Acme Software); the filter counts it
      const foreign = (await listed()).find((f) => f.id === id);
      assert.equal(foreign?.count, (await send('GET', '/v1/operations/bills.list_to_pay?filter=Foreign', reader)).body.bills.length);

      const renamed = await send('PATCH', '/v1/operations/bills.update_saved_filter', writer, {
        id,
        name: 'Not in GBP',
        criteria: { foreignCurrency: true, dueWithinDays: 30 },
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual(
        (await stored()).find((f) => f.id === id),
        { id, name: 'Not in GBP', description: 'Bills not in pounds', criteria: { foreignCurrency: true, dueWithinDays: 30 } },
      );
      assert.equal((await send('GET', '/v1/operations/bills.list_to_pay?filter=Not%20in%20GBP', reader)).body.filter.id, id);

      const deleted = await send('DELETE', `/v1/operations/bills.delete_saved_filter?id=${id}`, writer);
      assert.deepEqual([deleted.status, deleted.body], [200, { deleted: id }]);
      assert.equal(
        (await listed()).some((f) => f.id === id),
        false,
      );
      assert.equal((await send('DELETE', `/v1/operations/bills.delete_saved_filter?id=${id}`, writer)).status, 404);

      const actions = (await store.db
        .selectFrom('audit_log' as any)
        .select(['action', 'detail'])
        .where('target', '=', id)
        .orderBy('created_at')
        .execute()) as { action: string; detail: string }[];
      assert.deepEqual(
        actions.map((a) => a.action),
        ['bill_filter.created', 'bill_filter.updated', 'bill_filter.deleted'],
      );
      assert.equal(JSON.parse(actions[1]!.detail).from, 'Foreign');
    });

    it('refuses a taken name in any case, bad criteria by key, and no change at all; nothing is written', async () => {
      const first = await send('POST', '/v1/operations/bills.create_saved_filter', writer, { name: 'Rent and rates' });
      assert.equal(first.status, 201);
      const before = await stored();
      const taken = await send('POST', '/v1/operations/bills.create_saved_filter', writer, { name: 'RENT AND RATES' });
      assert.deepEqual([taken.status, taken.body.code], [409, 'already_exists']);
      const cases: [unknown, string[]][] = [
        [{ name: 'x', criteria: { overdue: 'yes' } }, ['criteria.overdue']],
        [{ name: 'x', criteria: { dueWithin: 3 } }, ['criteria.dueWithin']],
        [{ name: 'x', criteria: { kinds: ['invoice'] } }, ['criteria.kinds.0']],
        [{ name: '' }, ['name']],
        [{ description: 'no name' }, ['name']],
      ];
      for (const [body, fields] of cases) {
        const r = await send('POST', '/v1/operations/bills.create_saved_filter', writer, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.deepEqual(
          r.body.errors.map((e: any) => e.parameter),
          fields,
          `${JSON.stringify(body)}: ${JSON.stringify(r.body.errors)}`,
        );
      }
      const nothing = await send('PATCH', '/v1/operations/bills.update_saved_filter', writer, { id: first.body.filter.id });
      assert.equal(nothing.status, 400);
      const renameToTaken = await send('POST', '/v1/operations/bills.create_saved_filter', writer, { name: 'Other' });
      const clash = await send('PATCH', '/v1/operations/bills.update_saved_filter', writer, { id: renameToTaken.body.filter.id, name: 'rent and rates' });
      assert.equal(clash.status, 409);
      assert.deepEqual(
        (await stored()).filter((f) => f.name !== 'Other'),
        before,
      );
    });

    it('needs service.write, and a role the policy allows (admins by default)', async () => {
      const before = await stored();
      const refused = await send('POST', '/v1/operations/bills.create_saved_filter', reader, { name: 'Read only' });
      assert.deepEqual([refused.status, refused.body.code], [403, 'insufficient_scope']);
      assert.match(refused.headers.get('www-authenticate') ?? '', /scope="service\.write"/);
      const submitter = await rejection(() =>
        call(store, billsCreateSavedFilter, books.org.id, { name: 'Mine' }, { today: TODAY, principal: asUser(books.users.submitter.id) }),
      );
      assert.equal(submitter.code, 'role_not_allowed');
      const admin = await call(store, billsCreateSavedFilter, books.org.id, { name: 'Admin made' }, { today: TODAY, principal: asUser(books.users.admin.id) });
      assert.equal(admin.filter.name, 'Admin made');
      assert.equal((await stored()).length, before.length + 1);
    });
  });
}
