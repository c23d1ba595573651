/**
 * No usable credential at rest (issue 13, item 1; RFC 9700 §4.14 asks for refresh tokens to be
 * protected against leakage): after every flow, no stored text holds an issued access token,
 * refresh token, authorization code, client secret or session cookie value, and whatever a copy of
 * the database holds (row ids, hashes, payload fields) is refused as a bearer token, a refresh
 * token, a client secret and a session cookie. Also: self-registered public clients get no secret
 * (RFC 7591 §3.2.1, issue 13 item 7a).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { createApiClient, registerApp } from '../../src/auth/clients.js';
import { sha256 } from '../../src/store/hash.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import { up as migrateCredentialsAtRest } from '../../src/store/migrations/007-credentials-at-rest.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { Browser } from '../helpers/browser.js';
import { api, discover, oidc, authorizationRequest } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
/** the cookies that carry a session: oidc-provider's sign-in session and the web pages' session */
const SESSION_COOKIES = /^(_session|ledgerline_session|__Host-ledgerline_session)$/;
const STORED_TABLES = ['oauth_store', 'oauth_clients', 'web_sessions', 'oauth_consents', 'audit_log'] as const;

/** A browser that remembers every session cookie value it was ever given. */
class RecordingBrowser extends Browser {
  readonly sessionValues = new Set<string>();
  override async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await super.request(url, init);
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (SESSION_COOKIES.test(name) && value) this.sessionValues.add(decodeURIComponent(value));
    }
    return response;
  }
}

/**
 * A cookie as oidc-provider signs it (keygrip: HMAC-SHA1 of "name=value", base64url). The signing
 * keys are in the database too (service_secrets), so a copy of it can sign any value it holds.
 */
function signedCookie(name: string, value: string, key: string): string {
  const sig = createHmac('sha1', key).update(`${name}=${value}`).digest('base64url');
  return `${name}=${value}; ${name}.sig=${sig}`;
}

describeEachDialect('credentials at rest', (store) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  let orgId: string;
  let email: string;
  let appClientId: string;
  /** every credential the service handed out in this suite */
  const issued = new Map<string, string>();
  const remember = (what: string, value: string | undefined) => {
    assert.ok(value, `${what} was issued`);
    issued.set(value, what);
  };

  before(async () => {
    const org = await provisionOrganisation(store().db, { name: 'At Rest Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    orgId = org.id;
    const user = await createUser(store().db, { email: 'rest@example.test', name: 'Rest', passwordHash: await hash(PASSWORD) });
    email = user.email;
    await setMembership(store().db, orgId, user.id, 'admin');
    appClientId = (await registerApp(store().db, { name: 'At Rest App', redirectUris: [REDIRECT] })).clientId;
    server = await startServer(store(), { rateLimits: defaultRateLimits({ tokenEndpointPerAddress: 100_000 }) });
    base = server.baseUrl;
  });
  after(async () => {
    await server.close();
  });

  /** Every column of every row of the tables that keep credentials or their traces, as text. */
  async function storedTexts(): Promise<string[]> {
    const texts: string[] = [];
    for (const table of STORED_TABLES) {
      const rows = (await sql`select * from ${sql.table(table)}`.execute(store().db)).rows as Record<string, unknown>[];
      for (const row of rows) for (const value of Object.values(row)) if (value !== null) texts.push(String(value));
    }
    return texts;
  }

  async function assertNothingUsableStored(): Promise<void> {
    const texts = await storedTexts();
    for (const [value, what] of issued) {
      const found = texts.find((t) => t.includes(value));
      assert.equal(found, undefined, `the ${what} is stored in clear`);
    }
  }

  /** Signs in and approves in the browser; answers the code and the tokens it buys. */
  async function authorizationCode(browser: RecordingBrowser, config: oidc.Configuration) {
    const { url, verifier, state } = await authorizationRequest(config, REDIRECT, 'service.read offline_access');
    let page = await browser.follow(url.href);
    if (page.body.includes('name="password"')) page = await browser.submit({ email, password: PASSWORD });
    if (page.body.includes('name="decision"')) {
      // mid-flow, while the consent interaction is stored beside the sign-in session
      for (const value of browser.sessionValues) remember('session cookie', value);
      await assertNothingUsableStored();
      page = await browser.submit({ decision: 'approve', organisation: orgId });
    }
    assert.ok(page.url.startsWith(REDIRECT), page.body.slice(0, 300));
    const code = new URL(page.url).searchParams.get('code')!;
    remember('authorization code', code);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url), { pkceCodeVerifier: verifier, expectedState: state });
    remember('access token', tokens.access_token);
    remember('refresh token', tokens.refresh_token);
    return { code, tokens };
  }

  it('client credentials: neither the secret nor the token is stored', async () => {
    const created = await createApiClient(store().db, { organisationId: orgId, name: 'At rest export' });
    remember('client secret', created.clientSecret);
    const config = await discover(base, created.clientId, created.clientSecret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'service.read' });
    remember('client credentials token', tokens.access_token);
    assert.equal((await api(base, '/v1/organisations', tokens.access_token)).status, 200);
    await assertNothingUsableStored();
  });

  it('authorization code with PKCE, refresh rotation, the sign-in session and revocation leave nothing usable stored', async () => {
    const config = await discover(base, appClientId);
    const browser = new RecordingBrowser(base);
    const first = await authorizationCode(browser, config);
    assert.equal((await api(base, '/v1/organisations', first.tokens.access_token)).status, 200);
    await assertNothingUsableStored();
    const rotated = await oidc.refreshTokenGrant(config, first.tokens.refresh_token!);
    remember('access token', rotated.access_token);
    remember('refresh token', rotated.refresh_token);
    // what is stored still serves the holder of the credentials: the rotated pair works, and rotates again
    assert.equal((await api(base, '/v1/organisations', rotated.access_token)).status, 200);
    const again = await oidc.refreshTokenGrant(config, rotated.refresh_token!);
    remember('access token', again.access_token);
    remember('refresh token', again.refresh_token);
    await assertNothingUsableStored();
    // a second authorization in the same browser rides on the sign-in session; then revocation
    const second = await authorizationCode(browser, config);
    assert.ok(browser.sessionValues.size > 0, 'the browser was given a session cookie');
    for (const value of browser.sessionValues) remember('session cookie', value);
    await assertNothingUsableStored();
    await oidc.tokenRevocation(config, second.tokens.access_token, { token_type_hint: 'access_token' });
    assert.equal((await api(base, '/v1/organisations', second.tokens.access_token)).status, 401);
    await oidc.tokenRevocation(config, second.tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    await assert.rejects(oidc.refreshTokenGrant(config, second.tokens.refresh_token!), (e: any) => e.error === 'invalid_grant');
    await assertNothingUsableStored();
  });

  it('a web sign-in session is stored only as a hash', async () => {
    const browser = new RecordingBrowser(base);
    await browser.follow('/signin');
    const page = await browser.submit({ email, password: PASSWORD });
    assert.equal(page.response.status, 200, page.body.slice(0, 300));
    assert.ok(browser.sessionValues.size > 0);
    for (const value of browser.sessionValues) remember('web session cookie', value);
    await assertNothingUsableStored();
  });

  it('self-registration of a public client answers and stores no client secret', async () => {
    const response = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // no token_endpoint_auth_method: the service makes every self-registered client public
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'No Secret', grant_types: ['authorization_code', 'refresh_token'] }),
    });
    assert.equal(response.status, 201);
    const registered = (await response.json()) as Record<string, unknown>;
    assert.equal(registered.token_endpoint_auth_method, 'none');
    assert.equal('client_secret' in registered, false, 'a public client gets no secret');
    assert.equal('client_secret_expires_at' in registered, false);
    const row = await store().db.selectFrom('oauth_clients').selectAll().where('client_id', '=', String(registered.client_id)).executeTakeFirstOrThrow();
    assert.equal(row.secret_hash, null);
    assert.doesNotMatch(row.metadata, /client_secret/);
    // and the client works as the public client it is
    const config = await discover(base, String(registered.client_id));
    const { tokens } = await authorizationCode(new RecordingBrowser(base), config);
    assert.equal((await api(base, '/v1/organisations', tokens.access_token)).status, 200);
  });

  /** Whether this cookie header signs its bearer in: the authorization goes on to consent or back to the app, not to the sign-in form. */
  async function signsIn(cookie: string): Promise<boolean> {
    const { url } = await authorizationRequest(await discover(base, appClientId), REDIRECT);
    const browser = new Browser(base);
    const page = await browser.follow(url.href, { headers: { cookie } });
    if (page.url.startsWith(REDIRECT)) return new URL(page.url).searchParams.has('code');
    assert.equal(page.response.status, 200, page.body.slice(0, 300));
    return !page.body.includes('name="password"');
  }

  it('refuses every value a copy of the database holds, as a bearer token, refresh token, client secret or session cookie', async () => {
    const candidates = new Set<string>();
    const collect = (value: unknown) => {
      if (typeof value === 'string' && value.length >= 8) candidates.add(value);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v);
    };
    const rows = await store().db.selectFrom('oauth_store').selectAll().execute();
    for (const row of rows) {
      collect(row.id);
      collect(JSON.parse(row.payload));
    }
    for (const row of await store().db.selectFrom('oauth_clients').select(['secret_hash']).execute()) collect(row.secret_hash);
    for (const row of (await sql`select id_hash from web_sessions`.execute(store().db)).rows as { id_hash: string }[]) collect(row.id_hash);
    // the origin of URLs in payloads is not a credential candidate worth a request each
    const values = [...candidates].filter((v) => !v.startsWith('http'));
    assert.ok(values.length > 10, `${values.length} stored values`);

    const cookieKey = server.service.secrets.cookieKeys[0]!;
    // the control: a real session cookie signs in
    const real = new RecordingBrowser(base);
    await authorizationCode(real, await discover(base, appClientId));
    const realSession = [...real.sessionValues].at(-1)!;
    assert.equal(await signsIn(signedCookie('_session', realSession, cookieKey)), true, 'the real session cookie signs in');

    const config = await discover(base, appClientId);
    const apiClients = await store().db.selectFrom('oauth_clients').select('client_id').where('kind', '=', 'api_client').execute();
    for (const value of values) {
      assert.equal((await api(base, '/v1/organisations', value)).status, 401, `bearer ${value}`);
      await assert.rejects(oidc.refreshTokenGrant(config, value), (e: any) => e.error === 'invalid_grant', `refresh ${value}`);
      for (const c of apiClients) {
        const cc = await discover(base, c.client_id, value);
        await assert.rejects(oidc.clientCredentialsGrant(cc, { scope: 'service.read' }), (e: any) => e.error === 'invalid_client', `secret ${value}`);
      }
      assert.equal(await signsIn(signedCookie('_session', value, cookieKey)), false, `session cookie ${value}`);
      const account = await fetch(`${base}/account`, { headers: { cookie: `ledgerline_session=${value}` }, redirect: 'manual' });
      assert.equal(account.status, 303, `web session ${value}`);
      assert.match(account.headers.get('location') ?? '', /\/signin/);
    }
  });

  it('migration 007 rewrites rows stored before: no jti in payloads, sessions keyed by their hash, and they still work', async () => {
    const db = store().db;
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const row = (model: string, id: string, payload: Record<string, unknown>, extra: Record<string, string> = {}) =>
      db
        .insertInto('oauth_store')
        .values({
          model,
          id,
          payload: JSON.stringify({ iat: exp - 3600, exp, kind: model, ...payload }),
          grant_id: null,
          client_id: null,
          account_id: null,
          uid: extra.uid ?? null,
          user_code: null,
          expires_at: Date.now() + 3_600_000,
          consumed_at: null,
        })
        .execute();
    const cookie = 'old-session-cookie-value-0123456789abcdef';
    const code = 'old-authorization-code-0123456789abcdefgh';
    await row('Session', cookie, { jti: cookie, uid: 'old-session-uid', accountId: 'usr_old' }, { uid: 'old-session-uid' });
    await row('AuthorizationCode', sha256(code), { jti: code, clientId: appClientId });
    await row('Interaction', 'old-interaction', { jti: 'old-interaction', session: { accountId: 'usr_old', uid: 'old-session-uid', cookie } });
    await migrateCredentialsAtRest(db, store().dialect);
    for (const [value, what] of [
      [cookie, 'old session cookie'],
      [code, 'old authorization code'],
    ] as const)
      issued.set(value, what);
    await assertNothingUsableStored();
    const { provider } = server.service;
    const session = await provider.Session.find(cookie);
    assert.equal(session?.accountId, 'usr_old');
    assert.equal(session?.jti, cookie, 'the id comes back from the lookup');
    assert.equal((await provider.Session.findByUid('old-session-uid'))?.accountId, 'usr_old');
    assert.equal((await provider.AuthorizationCode.find(code))?.jti, code);
    const interaction = await provider.Interaction.find('old-interaction');
    assert.deepEqual(interaction?.session, { accountId: 'usr_old', uid: 'old-session-uid' });
  });
});
