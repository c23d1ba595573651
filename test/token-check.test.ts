/**
 * checkBearer (src/auth/token-check.ts) must answer exactly what authenticate (verify.ts) answers,
 * for every kind of token and every way a token stops being valid, while reading the token with one
 * indexed lookup (three for a person's token).
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Kysely, KyselyPlugin } from 'kysely';
import { createApiClient, registerApp, revokeClient } from '../src/auth/clients.js';
import { revokeConsent, saveConsent } from '../src/auth/consents.js';
import { checkBearer } from '../src/auth/token-check.js';
import { authenticate } from '../src/auth/verify.js';
import { buildApp } from '../src/http/app.js';
import { provisionOrganisation } from '../src/provision.js';
import type { Store } from '../src/store/db.js';
import type { Database } from '../src/store/schema.js';
import { createUser, removeMembership, setMembership } from '../src/store/users.js';
import { describeEachDialect } from './helpers/store.js';

const BASE = 'https://ledgerline.test';
const ORG_A = 'org_tc_a';
const ORG_B = 'org_tc_b';
const ORG_C = 'org_tc_c';
const USER = 'usr_tc';

/** The same header through both checks: the same Caller, or the same error. */
async function same(store: Store, header: string | undefined, audience?: string): Promise<'ok' | string> {
  const service = (await appFor(store)).service;
  audience ??= service.resources.api;
  const outcome = async (fn: () => Promise<unknown>) => {
    try {
      return { ok: await fn() };
    } catch (error) {
      return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
    }
  };
  const before = await outcome(() => authenticate(service.provider, store.db, header, audience));
  const after = await outcome(() => checkBearer(store.db, header, audience));
  assert.deepEqual(after, before);
  return 'ok' in before ? 'ok' : before.error!;
}

function counting(db: Kysely<Database>): { db: Kysely<Database>; count: () => number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), count: () => n };
}

async function clientToken(store: Store, resource?: string): Promise<string> {
  return (await clientTokenWithId(store, resource)).token;
}

async function clientTokenWithId(store: Store, resource?: string): Promise<{ token: string; clientId: string }> {
  const client = await createApiClient(store.db, { organisationId: ORG_A, name: `Token check ${resource ?? 'api'}` });
  const { app } = await appFor(store);
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'service.read',
      ...(resource ? { resource } : {}),
    }).toString(),
  });
  const token = (response.json() as { access_token?: string }).access_token;
  assert.ok(token, response.body);
  return { token, clientId: client.clientId };
}

const apps = new WeakMap<Store, Awaited<ReturnType<typeof buildApp>>>();
async function appFor(store: Store) {
  let built = apps.get(store);
  if (!built) {
    built = await buildApp({ store, baseUrl: BASE });
    apps.set(store, built);
  }
  return built;
}

/** A person's token through the provider's own models, as the authorization code flow saves them. */
async function userToken(store: Store, options: { organisations: string[] | 'all'; session?: boolean }) {
  const { service: s } = await appFor(store);
  const app = await registerApp(store.db, { name: 'Token check app', redirectUris: ['https://app.example/cb'] });
  const grant = new s.provider.Grant({ accountId: USER, clientId: app.clientId });
  grant.addResourceScope(s.resources.api, 'service.read');
  const grantId = await grant.save();
  await saveConsent(store.db, {
    grantId,
    userId: USER,
    clientId: app.clientId,
    allOrganisations: options.organisations === 'all',
    organisationIds: options.organisations === 'all' ? [] : options.organisations,
    scope: 'service.read',
  });
  const sessionUid = `uid_${grantId.slice(0, 8)}`;
  if (options.session) {
    // the Session model's types hide the constructor payload and the TTL its save() needs
    const Session = s.provider.Session as unknown as new (payload: object) => { save(ttl: number): Promise<string> };
    const session = new Session({ jti: `sess_${grantId.slice(0, 8)}`, uid: sessionUid, accountId: USER, authorizations: { [app.clientId]: { grantId } } });
    await session.save(3600);
  }
  const token = new s.provider.AccessToken({
    accountId: USER,
    clientId: app.clientId,
    grantId,
    scope: 'service.read',
    aud: s.resources.api,
    gty: 'authorization_code',
    ...(options.session ? { expiresWithSession: true, sessionUid } : {}),
  } as never);
  const value = await token.save();
  return { value, grantId, clientId: app.clientId, sessionUid };
}

describeEachDialect(
  'token check in one lookup',
  (store) => {
    after(async () => {
      await apps.get(store())?.app.close();
    });
    it('answers client credentials tokens as authenticate does, reading the token once', async () => {
      const token = await clientToken(store());
      assert.equal(await same(store(), `Bearer ${token}`), 'ok');
      const { db, count } = counting(store().db);
      const caller = await checkBearer(db, `Bearer ${token}`, (await appFor(store())).service.resources.api);
      assert.equal(count(), 1);
      assert.deepEqual(caller.coverage.organisations, [{ id: ORG_A, name: 'Alpha Ltd' }]);
    });

    it('refuses what authenticate refuses, with the same message', async () => {
      const token = await clientToken(store());
      assert.match(await same(store(), undefined), /send an access token/);
      assert.match(await same(store(), 'Basic abc'), /must be "Bearer <token>"/);
      assert.match(await same(store(), 'Bearer not-a-token'), /invalid, expired or revoked/);
      assert.match(await same(store(), `Bearer ${token}`, `${BASE}/mcp`), /issued for another resource/);
      const mcpToken = await clientToken(store(), `${BASE}/mcp`);
      assert.match(await same(store(), `Bearer ${mcpToken}`), /issued for another resource/);
    });

    it('stops a token at once when it expires, its client is blocked or revoked, or its organisation is gone', async () => {
      const db = store().db;
      const expired = await clientToken(store());
      await db.updateTable('oauth_store').set({ expires_at: Date.now() - 1000 }).where('model', '=', 'ClientCredentials').where('client_id', 'is not', null).execute();
      assert.match(await same(store(), `Bearer ${expired}`), /invalid, expired or revoked/);

      const stale = await clientToken(store());
      const rows = await db.selectFrom('oauth_store').select(['id', 'payload']).where('model', '=', 'ClientCredentials').execute();
      for (const r of rows) {
        const payload = JSON.parse(r.payload) as { exp: number };
        await db
          .updateTable('oauth_store')
          .set({ payload: JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) - 1 }), expires_at: null })
          .where('model', '=', 'ClientCredentials')
          .where('id', '=', r.id)
          .execute();
      }
      assert.match(await same(store(), `Bearer ${stale}`), /invalid, expired or revoked/);

      const blocked = await clientTokenWithId(store());
      await db.updateTable('oauth_clients').set({ blocked: 1 }).where('client_id', '=', blocked.clientId).execute();
      assert.match(await same(store(), `Bearer ${blocked.token}`), /client this token was issued to has been revoked/);
      await db.updateTable('oauth_clients').set({ blocked: 0 }).where('client_id', '=', blocked.clientId).execute();
      assert.equal(await same(store(), `Bearer ${blocked.token}`), 'ok');

      const gone = await clientTokenWithId(store());
      await db.deleteFrom('organisations').where('id', '=', ORG_C).execute();
      await db.updateTable('oauth_clients').set({ organisation_id: ORG_C }).where('client_id', '=', gone.clientId).execute();
      assert.match(await same(store(), `Bearer ${gone.token}`), /organisation of this client no longer exists/);

      const revoked = await clientTokenWithId(store());
      await revokeClient(db, revoked.clientId);
      assert.match(await same(store(), `Bearer ${revoked.token}`), /invalid, expired or revoked/);
    });

    it('answers a person’s tokens as authenticate does: organisations, left ones, revoked consent and grant', async () => {
      const db = store().db;
      const some = await userToken(store(), { organisations: [ORG_A, ORG_B] });
      assert.equal(await same(store(), `Bearer ${some.value}`), 'ok');
      const { db: counted, count } = counting(db);
      await checkBearer(counted, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      await checkBearer(counted, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      // the token with its client, then the consent with its grant and user, then memberships: per call
      assert.equal(count(), 6);
      const all = await userToken(store(), { organisations: 'all' });
      assert.equal(await same(store(), `Bearer ${all.value}`), 'ok');

      await removeMembership(db, ORG_B, USER);
      assert.equal(await same(store(), `Bearer ${some.value}`), 'ok');
      const caller = await checkBearer(db, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      assert.deepEqual(caller.leftOrganisationIds, [ORG_B]);
      assert.deepEqual(
        caller.coverage.organisations.map((o) => o.id),
        [ORG_A],
      );
      await setMembership(db, ORG_B, USER, 'submitter');

      await db.updateTable('oauth_store').set({ expires_at: Date.now() - 1000 }).where('model', '=', 'Grant').where('id', '=', all.grantId).execute();
      assert.match(await same(store(), `Bearer ${all.value}`), /approval behind this token has been revoked/);
      await revokeConsent(db, some.grantId);
      assert.match(await same(store(), `Bearer ${some.value}`), /invalid, expired or revoked/);
    });

    it('keeps a session-bound token only while its sign-in session holds the grant', async () => {
      const bound = await userToken(store(), { organisations: [ORG_A], session: true });
      assert.equal(await same(store(), `Bearer ${bound.value}`), 'ok');
      await store().db.deleteFrom('oauth_store').where('model', '=', 'Session').where('uid', '=', bound.sessionUid).execute();
      assert.match(await same(store(), `Bearer ${bound.value}`), /invalid, expired or revoked/);
    });
  },
  async (s) => {
    await provisionOrganisation(s.db, { id: ORG_A, name: 'Alpha Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    await provisionOrganisation(s.db, { id: ORG_B, name: 'Beta Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    await provisionOrganisation(s.db, { id: ORG_C, name: 'Gamma Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    await createUser(s.db, { id: USER, email: 'tc@example.test', name: 'Token Check' });
    await setMembership(s.db, ORG_A, USER, 'admin');
    await setMembership(s.db, ORG_B, USER, 'submitter');
    await setMembership(s.db, ORG_C, USER, 'custom');
  },
);
