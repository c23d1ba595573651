/**
 * authenticate (src/auth/verify.ts, on the reads of src/auth/token-check.ts) must answer exactly
 * what a check through oidc-provider's own models answers (the reference below), for every kind of
 * token and every way a token stops being valid, while reading the token with one indexed lookup
 * (three for a person's token).
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { createApiClient, registerApp, revokeClient } from '../../src/auth/clients.js';
import { revokeConsent, saveConsent } from '../../src/auth/consents.js';
import { findConsent } from '../../src/auth/consents.js';
import { sha256 } from '../../src/store/hash.js';
import { blockForOrganisation, organisationsBlocking, unblockForOrganisation } from '../../src/store/client-blocks.js';
import { authenticate, AuthenticationError, type Caller } from '../../src/auth/verify.js';
import { buildApp } from '../../src/app/app.js';
import { provisionOrganisation } from '../../src/provision.js';
import { getOrganisation } from '../../src/store/organisations.js';
import type { Store } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';
import { createUser, organisationsOfUser, removeMembership, setMembership } from '../../src/store/users.js';
import { injectedClientToken } from '../helpers/rest-calls.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

const BASE = 'https://ledgerline.test';
const ORG_A = 'org_tc_a';
const ORG_B = 'org_tc_b';
const ORG_C = 'org_tc_c';
const USER = 'usr_tc';

/**
 * The reference: the token read through oidc-provider's models (as an AccessToken, then as
 * ClientCredentials, with their own validity rules), the grant through its Grant model, then the
 * client, organisation, consent and memberships one by one, as the service checked tokens before.
 */
async function referenceCheck(provider: Provider, db: Kysely<Database>, authorization: string | undefined, audience: string): Promise<Caller> {
  if (!authorization) throw new AuthenticationError('send an access token: Authorization: Bearer <token>', 'invalid_request');
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization.trim());
  if (!match) throw new AuthenticationError('the Authorization header must be "Bearer <token>"', 'invalid_request');
  const value = match[1]!;
  const token = (await provider.AccessToken.find(value)) ?? (await provider.ClientCredentials.find(value));
  if (!token || !token.isValid) throw new AuthenticationError('the access token is invalid, expired or revoked');
  const tokenAudience = (token as { aud?: string | string[] }).aud;
  if (!(Array.isArray(tokenAudience) ? tokenAudience.includes(audience) : tokenAudience === audience)) {
    throw new AuthenticationError(`the access token was issued for another resource; request one for ${audience}`);
  }
  const client = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', token.clientId!).executeTakeFirst();
  if (!client || client.blocked) throw new AuthenticationError('the client this token was issued to has been revoked');
  const scopes = new Set(
    String(token.scope ?? '')
      .split(' ')
      .filter(Boolean),
  );
  if (token.kind === 'ClientCredentials') {
    if (client.kind !== 'api_client' || !client.organisation_id) throw new AuthenticationError('this client cannot use client credentials');
    const org = await getOrganisation(db, client.organisation_id);
    if (!org) throw new AuthenticationError('the organisation of this client no longer exists');
    return {
      principal: { kind: 'client', clientId: client.client_id },
      coverage: { organisations: [{ id: org.id, name: org.name }], all: false },
      leftOrganisationIds: [],
      blockedOrganisations: [],
      scopes,
      clientId: client.client_id,
      tokenKey: sha256(value),
      // the whole row, for the call's organisation step (execute.ts loadOrganisation)
      organisationRow: org,
    };
  }
  const grantId = (token as { grantId?: string }).grantId;
  const accountId = (token as { accountId?: string }).accountId;
  const [grant, consent] = grantId ? await Promise.all([provider.Grant.find(grantId), findConsent(db, grantId)]) : [undefined, undefined];
  if (!grant || !consent || consent.userId !== accountId || consent.clientId !== client.client_id) {
    throw new AuthenticationError('the approval behind this token has been revoked');
  }
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', consent.userId).executeTakeFirst();
  if (!user) throw new AuthenticationError('the user behind this token no longer exists');
  const memberships = await organisationsOfUser(db, user.id);
  // "all organisations": memberships held when the consent was given or made by the person
  // themselves since, less those an organisation's admin took out (the rule in words, read apart
  // from the SQL of src/store/consent-cover.ts)
  const given = (await db.selectFrom('oauth_consents').select('created_at').where('grant_id', '=', grantId!).executeTakeFirstOrThrow()).created_at;
  const joined = new Map(
    (await db.selectFrom('memberships').select(['organisation_id', 'created_at', 'joined_by']).where('user_id', '=', user.id).execute()).map((r) => [
      r.organisation_id,
      r,
    ]),
  );
  const excluded = new Set(
    (await db.selectFrom('oauth_consent_exclusions').select('organisation_id').where('grant_id', '=', grantId!).execute()).map((r) => r.organisation_id),
  );
  const inAll = (id: string) => {
    const m = joined.get(id)!;
    return (m.joined_by === 'invitation' || m.joined_by === 'creator' || m.created_at <= given) && !excluded.has(id);
  };
  const covered = memberships.filter((m) => (consent.allOrganisations ? inAll(m.id) : consent.organisationIds.includes(m.id)));
  const left = consent.allOrganisations ? [] : consent.organisationIds.filter((id) => !memberships.some((m) => m.id === id));
  const blocking = await organisationsBlocking(
    db,
    client.client_id,
    covered.map((m) => m.id),
  );
  const approved = covered.filter((m) => !blocking.has(m.id));
  const blocked = covered.filter((m) => blocking.has(m.id)).map((m) => ({ id: m.id, name: m.name }));
  if (blocked.length && !approved.length) throw new AuthenticationError(`an admin of ${blocked.map((o) => o.name).join(', ')} has blocked this app`);
  return {
    principal: { kind: 'user', userId: user.id, email: user.email, role: approved[0]?.role ?? 'custom' },
    coverage: { organisations: approved.map((m) => ({ id: m.id, name: m.name })), all: consent.allOrganisations },
    leftOrganisationIds: left,
    blockedOrganisations: blocked,
    scopes,
    clientId: client.client_id,
    tokenKey: sha256(value),
  };
}

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
  const before = await outcome(() => referenceCheck(service.provider, store.db, header, audience));
  const after = await outcome(() => authenticate(store.db, header, audience));
  assert.deepEqual(after, before);
  return 'ok' in before ? 'ok' : before.error!;
}

async function clientToken(store: Store, resource?: string): Promise<string> {
  return (await clientTokenWithId(store, resource)).token;
}

async function clientTokenWithId(store: Store, resource?: string): Promise<{ token: string; clientId: string }> {
  const client = await createApiClient(store.db, { organisationId: ORG_A, name: `Token check ${resource ?? 'api'}` });
  const { app } = await appFor(store);
  const token = await injectedClientToken(app, client, resource ? { resource } : {});
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
    it('answers client credentials tokens as the reference does, reading the token once', async () => {
      const token = await clientToken(store());
      assert.equal(await same(store(), `Bearer ${token}`), 'ok');
      const { db, count } = countingQueries(store().db);
      const caller = await authenticate(db, `Bearer ${token}`, (await appFor(store())).service.resources.api);
      assert.equal(count(), 1);
      assert.deepEqual(caller.coverage.organisations, [{ id: ORG_A, name: 'Alpha Ltd' }]);
    });

    it('refuses what the reference refuses, with the same message', async () => {
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
      await db
        .updateTable('oauth_store')
        .set({ expires_at: Date.now() - 1000 })
        .where('model', '=', 'ClientCredentials')
        .where('client_id', 'is not', null)
        .execute();
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

      // a stored row whose payload names another kind of token is not this one
      const mislabelled = await clientToken(store());
      for (const r of await db.selectFrom('oauth_store').select(['id', 'payload']).where('model', '=', 'ClientCredentials').execute()) {
        const payload = JSON.parse(r.payload) as object;
        await db
          .updateTable('oauth_store')
          .set({ payload: JSON.stringify({ ...payload, kind: 'RefreshToken' }) })
          .where('model', '=', 'ClientCredentials')
          .where('id', '=', r.id)
          .execute();
      }
      await assert.rejects(authenticate(db, `Bearer ${mislabelled}`, (await appFor(store())).service.resources.api), /invalid, expired or revoked/);
    });

    it('answers a person’s tokens as the reference does: organisations, left ones, revoked consent and grant', async () => {
      const db = store().db;
      const some = await userToken(store(), { organisations: [ORG_A, ORG_B] });
      assert.equal(await same(store(), `Bearer ${some.value}`), 'ok');
      const { db: counted, count } = countingQueries(db);
      await authenticate(counted, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      await authenticate(counted, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      // the token with its client, then the consent with its grant and user, then memberships: per call
      assert.equal(count(), 6);
      const all = await userToken(store(), { organisations: 'all' });
      assert.equal(await same(store(), `Bearer ${all.value}`), 'ok');

      await removeMembership(db, ORG_B, USER);
      assert.equal(await same(store(), `Bearer ${some.value}`), 'ok');
      const caller = await authenticate(db, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      assert.deepEqual(caller.leftOrganisationIds, [ORG_B]);
      assert.deepEqual(
        caller.coverage.organisations.map((o) => o.id),
        [ORG_A],
      );
      await setMembership(db, ORG_B, USER, 'submitter');

      // one organisation's block takes that organisation out of the token's cover, for that app
      // only; when every organisation it covers blocked the app, the token is refused
      await blockForOrganisation(db, { clientId: some.clientId, organisationId: ORG_B, userId: null });
      assert.equal(await same(store(), `Bearer ${some.value}`), 'ok');
      const partly = await authenticate(db, `Bearer ${some.value}`, (await appFor(store())).service.resources.api);
      assert.deepEqual(
        partly.coverage.organisations.map((o) => o.id),
        [ORG_A],
      );
      assert.deepEqual(
        partly.blockedOrganisations.map((o) => o.id),
        [ORG_B],
      );
      assert.equal(await same(store(), `Bearer ${all.value}`), 'ok', 'another app of the same user is not blocked');
      assert.deepEqual((await authenticate(db, `Bearer ${all.value}`, (await appFor(store())).service.resources.api)).blockedOrganisations, []);
      await blockForOrganisation(db, { clientId: some.clientId, organisationId: ORG_A, userId: null });
      assert.match(await same(store(), `Bearer ${some.value}`), /has blocked this app/);
      await unblockForOrganisation(db, { clientId: some.clientId, organisationId: ORG_A });
      await unblockForOrganisation(db, { clientId: some.clientId, organisationId: ORG_B });
      assert.equal((await authenticate(db, `Bearer ${some.value}`, (await appFor(store())).service.resources.api)).coverage.organisations.length, 2);

      await db
        .updateTable('oauth_store')
        .set({ expires_at: Date.now() - 1000 })
        .where('model', '=', 'Grant')
        .where('id', '=', all.grantId)
        .execute();
      assert.match(await same(store(), `Bearer ${all.value}`), /approval behind this token has been revoked/);
      // a damaged grant row is no approval: refused (401), not an error
      const damaged = await userToken(store(), { organisations: 'all' });
      await db.updateTable('oauth_store').set({ payload: '{not json' }).where('model', '=', 'Grant').where('id', '=', damaged.grantId).execute();
      await assert.rejects(
        authenticate(db, `Bearer ${damaged.value}`, (await appFor(store())).service.resources.api),
        /approval behind this token has been revoked/,
      );
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
