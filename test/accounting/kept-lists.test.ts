/**
 * The builtin ledger's chart of accounts and contacts are kept per organisation while its data
 * version stands (src/accounting/builtin/kept-lists.ts): a second call at the same version reads
 * neither table again, and any change to them, by any writer, is seen by the very next call.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { LISTED_TYPES } from '../../src/accounting/types.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { contactsSearch } from '../../src/operations/contacts-search.js';
import { runOrganisationOperation, type CallEnvironment } from '../../src/operations/execute.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { BASE_URL, CLIENT } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

let orgId = '';

describeEachDialect(
  'the chart of accounts and contacts kept while the data version stands',
  (store) => {
    /** one call on a counting handle that stays the same across calls (the lists are kept per handle) */
    let counted: ReturnType<typeof countingQueries> | undefined;
    const handle = () => (counted ??= countingQueries(store().db));
    const call = async (op: OrganisationOperation<any, any>, input: Record<string, unknown> = {}, env: Partial<CallEnvironment> = {}) => {
      const { db, count } = handle();
      const before = count();
      const answer = await runOrganisationOperation({ db, baseUrl: BASE_URL, today: TODAY, ...env }, op, CLIENT, orgId, { input });
      return { answer: answer as any, statements: count() - before };
    };
    const names = (answer: { accounts: { name: string }[] }) => answer.accounts.map((a) => a.name);

    it('a second call at the same version does not read the chart again, and answers the same', async () => {
      const first = await call(accountsList);
      const second = await call(accountsList);
      assert.deepEqual(second.answer, first.answer);
      assert.equal(second.statements, first.statements - 1);
    });

    it('an account added is listed by the next call', async () => {
      const before = await call(accountsList);
      assert.ok(!names(before.answer).includes('Travel'));
      const w = new LedgerWriter(store().db, store().dialect, orgId, 'GBP');
      await w.createAccount({ name: 'Travel', number: '6400', type: 'Expense', parentId: null, active: true });
      const after = await call(accountsList);
      assert.ok(names(after.answer).includes('Travel'));
      assert.equal(after.statements, before.statements + 1, 'the chart is read again, once');
    });

    it('an account renamed by hand, outside the writer, is seen at once', async () => {
      await call(accountsList);
      await sql`update acct_accounts set name = 'Rent and Rates' where organisation_id = ${orgId} and name = 'Rent'`.execute(store().db);
      const after = await call(accountsList);
      assert.ok(names(after.answer).includes('Rent and Rates'));
      assert.ok(!names(after.answer).includes('Rent'));
    });

    it('a contact renamed is seen at once', async () => {
      const search = () => call(contactsSearch, { period: 'custom', from: '2026-01-01', to: TODAY });
      const before = (await search()).answer.contacts.map((c: { name: string }) => c.name);
      assert.ok(before.includes('Paper Co'));
      const again = await search();
      assert.deepEqual(
        again.answer.contacts.map((c: { name: string }) => c.name),
        before,
      );
      await sql`update acct_contacts set name = 'Paper Company' where organisation_id = ${orgId} and name = 'Paper Co'`.execute(store().db);
      const after = (await search()).answer.contacts.map((c: { name: string }) => c.name);
      assert.ok(after.includes('Paper Company'));
      assert.ok(!after.includes('Paper Co'));
    });

    it('a call reading from a replica keeps nothing: the version it read is the primary’s', async () => {
      const { db } = handle();
      const first = await call(accountsList, {}, { readDb: db });
      const second = await call(accountsList, {}, { readDb: db });
      assert.equal(second.statements, first.statements);
    });

    it('the kept lists are shared and frozen: an operation cannot change them for the next call', async () => {
      const { BuiltinAccounting } = await import('../../src/accounting/builtin/reader.js');
      const version = (await sql<{ v: string }>`select data_version as v from organisations where id = ${orgId}`.execute(store().db)).rows[0]!.v;
      const reader = new BuiltinAccounting(store().db, orgId, version);
      const chart = await reader.chartOfAccounts();
      assert.equal(await reader.chartOfAccounts(), chart);
      assert.ok(Object.isFrozen(chart) && Object.isFrozen(chart[0]));
      // without a version vouched for, a fresh list every time
      const fresh = new BuiltinAccounting(store().db, orgId);
      assert.notEqual(await fresh.chartOfAccounts(), await fresh.chartOfAccounts());
    });

    it('the ledger names its lines’ contacts from the kept list as the contacts table names them, a renamed one at once', async () => {
      const { BuiltinAccounting } = await import('../../src/accounting/builtin/reader.js');
      const db = store().db;
      const version = async () => (await sql<{ v: string }>`select data_version as v from organisations where id = ${orgId}`.execute(db)).rows[0]!.v;
      const accountIds = (await sql<{ id: string }>`select id from acct_accounts where organisation_id = ${orgId}`.execute(db)).rows.map((r) => r.id);
      const query = { accountIds, from: '2000-01-01', to: TODAY, types: [...LISTED_TYPES] };
      // a first page and a later one: each statement's form names its contacts
      const named = async (reader: InstanceType<typeof BuiltinAccounting>) =>
        [...(await reader.lines(query, 5)), ...(await reader.lines(query, 5, 5))].map((l) => ({
          line: `${l.transactionId}/${l.lineNo}`,
          contactId: l.contactId,
          name: l.contactName,
        }));
      const kept = await named(new BuiltinAccounting(db, orgId, await version()));
      assert.deepEqual(kept, await named(new BuiltinAccounting(db, orgId)));
      const withContact = kept.find((l) => l.contactId !== null);
      assert.ok(withContact?.name, JSON.stringify(kept));
      await sql`update acct_contacts set name = ${`${withContact.name} (renamed)`} where id = ${withContact.contactId}`.execute(db);
      const after = await named(new BuiltinAccounting(db, orgId, await version()));
      assert.equal(after.find((l) => l.line === withContact.line)?.name, `${withContact.name} (renamed)`);
      assert.deepEqual(after, await named(new BuiltinAccounting(db, orgId)));
    });
  },
  async (s: Store) => {
    orgId = (await buildBooks(s)).org.id;
  },
);
