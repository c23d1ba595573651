/**
 * The per-request hot path builds no query (issue 17): the bearer check and the call's access check
 * are compiled once per database handle (src/store/prepared.ts) and only run on each call, one
 * statement each (on PostgreSQL, named prepared statements); and nothing about a token is kept, so a revocation, through this instance or
 * another on the same database, refuses the very next call.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createApiClient, revokeClient } from '../../src/auth/clients.js';
import { authenticate } from '../../src/auth/verify.js';
import { buildApp } from '../../src/app/app.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore } from '../../src/store/db.js';
import { getCallAccess } from '../../src/store/organisations.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { injectedClientToken } from '../helpers/rest-calls.js';
import { countingQueries, describeEachDialect, TEST_DATABASE_URL } from '../helpers/store.js';
import { preparedStatements } from '../helpers/named-session.js';

const BASE = 'https://ledgerline.test';
const ORG = 'org_hot';
const USER = 'usr_hot';
const CALLS = 25;

type App = Awaited<ReturnType<typeof buildApp>>['app'];

const organisations = (app: App, token: string) => app.inject({ method: 'GET', url: '/v1/organisations', headers: { authorization: `Bearer ${token}` } });

describeEachDialect(
  'the hot path, compiled once',
  (store) => {
    let counted: ReturnType<typeof countingQueries>;
    let app: App;
    /** a second instance on the same database, as behind a load balancer */
    let other: App;
    before(async () => {
      counted = countingQueries(store().db);
      app = (await buildApp({ store: { ...store(), db: counted.db }, baseUrl: BASE })).app;
      other = (await buildApp({ store: store(), baseUrl: BASE })).app;
    });
    after(async () => {
      await app.close();
      await other.close();
    });

    /** runs `call` CALLS times after two warm-up calls; answers the statements run and the queries compiled meanwhile */
    const perCalls = async (call: () => Promise<unknown>) => {
      await call();
      await call();
      const [ran, compiled] = [counted.count(), counted.compiled()];
      for (let i = 0; i < CALLS; i++) await call();
      return { statements: counted.count() - ran, compiled: counted.compiled() - compiled };
    };

    it(`GET /v1/organisations: one statement a call, no query built, over ${CALLS} calls`, async () => {
      const client = await createApiClient(store().db, { organisationId: ORG, name: 'Hot path' });
      const token = await injectedClientToken(app, client);
      const seen = await perCalls(async () => assert.equal((await organisations(app, token)).statusCode, 200));
      assert.deepEqual(seen, { statements: CALLS, compiled: 0 });
    });

    it(
      "an API client's call for its organisation: the organisation comes with the token, one statement a kept answer, and a change is seen at " + 'once',
      async () => {
        const client = await createApiClient(store().db, { organisationId: ORG, name: 'Hot path, organisation' });
        const token = await injectedClientToken(app, client);
        const accounts = async () => {
          const response = await app.inject({ method: 'GET', url: '/v1/operations/accounts.list', headers: { authorization: `Bearer ${token}` } });
          assert.equal(response.statusCode, 200, response.body);
          return (response.json() as { accounts: { id: string; name: string }[] }).accounts;
        };
        // kept answers: the bearer check alone (it was two: the token, then the organisation's row for its data version)
        const seen = await perCalls(accounts);
        assert.deepEqual(seen, { statements: CALLS, compiled: 0 });
        // the data version read with the token is live: a change to the books is in the next answer
        assert.equal((await accounts()).length, 0);
        await store()
          .db.insertInto('acct_accounts')
          .values({
            id: 'acc_hot',
            organisation_id: ORG,
            parent_id: null,
            name: 'Added on the hot path',
            full_name: 'Added on the hot path',
            number: null,
            type: 'Expense',
            classification: 'expense',
            active: 1,
          })
          .execute();
        assert.deepEqual(
          (await accounts()).map((a) => a.name),
          ['Added on the hot path'],
        );
      },
    );

    it('the call access check: one statement a call, no query built, for a member and for an API client', async () => {
      const member = await perCalls(async () => assert.equal((await getCallAccess(counted.db, ORG, USER, 'accounts.list'))?.role, 'admin'));
      assert.deepEqual(member, { statements: CALLS, compiled: 0 });
      const client = await perCalls(async () => assert.equal((await getCallAccess(counted.db, ORG, null, 'accounts.list'))?.row.id, ORG));
      assert.deepEqual(client, { statements: CALLS, compiled: 0 });
      // a different operation or organisation is a value of the same statement, not a new one
      const mixed = await perCalls(async () => {
        await getCallAccess(counted.db, ORG, USER, 'ledger.account_transactions');
        assert.equal(await getCallAccess(counted.db, 'org_missing', USER, 'accounts.list'), undefined);
      });
      assert.deepEqual(mixed, { statements: 2 * CALLS, compiled: 0 });
    });

    it('PostgreSQL: the hot statements are named prepared statements, and survive a column added to organisations', async (t) => {
      if (store().dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      // one connection, so the session that prepared them is the one asked
      const one = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 });
      try {
        const client = await createApiClient(one.db, { organisationId: ORG, name: 'Prepared' });
        const token = await injectedClientToken(app, client);
        for (let i = 0; i < 3; i++) {
          await authenticate(one.db, `Bearer ${token}`, `${BASE}/v1`);
          assert.equal((await getCallAccess(one.db, ORG, USER, 'accounts.list'))?.role, 'admin');
          assert.equal((await getCallAccess(one.db, ORG, null, 'accounts.list'))?.row.name, 'Hot Path Ltd');
        }
        const prepared = await preparedStatements(one.db);
        const texts = prepared.map((r) => r.statement);
        assert.ok(
          texts.some((x) => x.includes('"oauth_store" as "s"')),
          'the token lookup is prepared',
        );
        assert.ok(
          texts.some((x) => x.includes('call_member_role')),
          'the call access check is prepared',
        );
        assert.equal(prepared.length, 3, texts.join('\n'));
        // another instance's migration adds a column: the prepared statements name their columns, so they still run
        await sql`alter table organisations add column hot_path_extra text`.execute(one.db);
        try {
          assert.equal((await getCallAccess(one.db, ORG, USER, 'accounts.list'))?.role, 'admin');
          assert.equal((await getCallAccess(one.db, ORG, null, 'accounts.list'))?.row.name, 'Hot Path Ltd');
          assert.equal((await authenticate(one.db, `Bearer ${token}`, `${BASE}/v1`)).clientId, client.clientId);
        } finally {
          await sql`alter table organisations drop column hot_path_extra`.execute(one.db);
        }
      } finally {
        await one.close();
      }
    });

    it("the provider's request storage is switched off once no provider request is open (Node 20-22 hook on every promise)", async () => {
      const client = await createApiClient(store().db, { organisationId: ORG, name: 'Provider storage' });
      // several at once: each is answered in full while the others are open, and its token works
      const tokens = await Promise.all(Array.from({ length: 5 }, () => injectedClientToken(app, client)));
      for (const token of tokens) assert.equal((await organisations(app, token)).statusCode, 200);
      const storage = ((await import('oidc-provider/lib/helpers/als.js' as string)) as { default: { enabled?: boolean } }).default;
      // `enabled` is the hook-based implementation's flag (Node 20 and 22); AsyncContextFrame (Node 24) runs no hook to switch off
      if ('enabled' in storage) assert.equal(storage.enabled, false);
    });

    it('a token revoked at /oauth/revoke is refused on the next call, on this instance and on another', async () => {
      const client = await createApiClient(store().db, { organisationId: ORG, name: 'Revoked at the endpoint' });
      const token = await injectedClientToken(app, client);
      for (let i = 0; i < 3; i++) {
        assert.equal((await organisations(app, token)).statusCode, 200);
        assert.equal((await organisations(other, token)).statusCode, 200);
      }
      const revoked = await other.inject({
        method: 'POST',
        url: '/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token, client_id: client.clientId, client_secret: client.clientSecret }).toString(),
      });
      assert.equal(revoked.statusCode, 200, revoked.body);
      for (const instance of [app, other]) {
        const refused = await organisations(instance, token);
        assert.equal(refused.statusCode, 401);
        assert.match(refused.headers['www-authenticate'] as string, /invalid, expired or revoked/);
      }
    });

    it('a revoked or blocked client refuses its tokens on the next call', async () => {
      const client = await createApiClient(store().db, { organisationId: ORG, name: 'Revoked client' });
      const token = await injectedClientToken(app, client);
      for (let i = 0; i < 3; i++) assert.equal((await organisations(app, token)).statusCode, 200);
      await revokeClient(store().db, client.clientId);
      assert.equal((await organisations(app, token)).statusCode, 401);

      // blocked in place by plain SQL (another instance's write): refused at once
      const blocked = await createApiClient(store().db, { organisationId: ORG, name: 'Blocked client' });
      const blockedToken = await injectedClientToken(app, blocked);
      for (let i = 0; i < 3; i++) assert.equal((await organisations(app, blockedToken)).statusCode, 200);
      await store().db.updateTable('oauth_clients').set({ blocked: 1 }).where('client_id', '=', blocked.clientId).execute();
      const refused = await organisations(app, blockedToken);
      assert.equal(refused.statusCode, 401);
      assert.match(refused.headers['www-authenticate'] as string, /has been revoked/);
    });
  },
  async (s) => {
    await provisionOrganisation(s.db, { id: ORG, name: 'Hot Path Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    await createUser(s.db, { id: USER, email: 'hot@example.test', name: 'Hot Path' });
    await setMembership(s.db, ORG, USER, 'admin');
  },
);
