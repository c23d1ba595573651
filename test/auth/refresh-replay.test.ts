/**
 * A refresh token replayed within the grace window (a client that refreshed twice, or a response
 * lost on the way) gets the very answer the first refresh got, not a second live branch of tokens;
 * after the window, reuse is theft and revokes the grant (RFC 9700 §4.14.2). Issue 13, item 6c.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { KyselyPlugin, QueryId } from 'kysely';
import { registerApp } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { api, connect, discover } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

async function refresh(base: string, clientId: string, refreshToken: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Makes every consume (the update that marks a token used) answer 300 ms late, so concurrent
 * refreshes really race: the others look the token up and try to consume it while the winner has
 * consumed it but not yet answered.
 */
function slowConsume(): KyselyPlugin {
  const consumes = new WeakSet<QueryId>();
  return {
    transformQuery(args) {
      const node = args.node as { kind: string; updates?: { column?: { column?: { name?: string } } }[] };
      if (node.kind === 'UpdateQueryNode' && node.updates?.some((u) => u.column?.column?.name === 'consumed_at')) consumes.add(args.queryId);
      return args.node;
    },
    async transformResult(args) {
      if (consumes.has(args.queryId)) await new Promise((resolve) => setTimeout(resolve, 300));
      return args.result;
    },
  };
}

describeEachDialect('refresh token replay', (store) => {
  /** the default 10 s grace window */
  let server: Awaited<ReturnType<typeof startServer>>;
  /** a 1 s grace window, to see what happens after it */
  let brief: Awaited<ReturnType<typeof startServer>>;
  /** the default window, on a database that answers consumes late */
  let slow: Awaited<ReturnType<typeof startServer>>;
  let orgId: string;
  let email: string;

  before(async () => {
    orgId = (await provisionOrganisation(store().db, { name: 'Replay Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 })).id;
    const user = await createUser(store().db, { email: 'replay@example.test', name: 'Replay', passwordHash: await hash(PASSWORD) });
    email = user.email;
    await setMembership(store().db, orgId, user.id, 'admin');
    const rateLimits = defaultRateLimits({ tokenEndpointPerAddress: 100_000 });
    server = await startServer(store(), { rateLimits });
    brief = await startServer(store(), { rateLimits, refreshGraceSeconds: 1 });
    slow = await startServer({ ...store(), db: store().db.withPlugin(slowConsume()) }, { rateLimits });
  });
  after(async () => {
    await server.close();
    await brief.close();
    await slow.close();
  });

  /** A fresh app and a connection through it: its client id and first tokens. */
  async function connected(base: string) {
    const app = await registerApp(store().db, { name: 'Replay App', redirectUris: [REDIRECT] });
    const config = await discover(base, app.clientId);
    const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email, password: PASSWORD, organisations: [orgId] });
    return { clientId: app.clientId, tokens };
  }

  /** The client's token rows: live refresh tokens, and access tokens. */
  async function rows(clientId: string) {
    const all = await store().db.selectFrom('oauth_store').select(['model', 'consumed_at']).where('client_id', '=', clientId).execute();
    return {
      liveRefreshTokens: all.filter((r) => r.model === 'RefreshToken' && r.consumed_at === null).length,
      accessTokens: all.filter((r) => r.model === 'AccessToken').length,
    };
  }

  it('a replay within the window answers the same pair, byte for byte, and mints nothing', async () => {
    const { clientId, tokens } = await connected(server.baseUrl);
    const first = await refresh(server.baseUrl, clientId, tokens.refresh_token!);
    assert.equal(first.status, 200, first.text);
    const pair = JSON.parse(first.text) as { access_token: string; refresh_token: string };
    const again = await refresh(server.baseUrl, clientId, tokens.refresh_token!);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.text, first.text, 'the same answer');
    assert.equal((await refresh(server.baseUrl, clientId, tokens.refresh_token!)).text, first.text, 'and again');
    // one branch: the first access token and the new pair, no more
    assert.deepEqual(await rows(clientId), { liveRefreshTokens: 1, accessTokens: 2 });
    assert.equal((await api(server.baseUrl, '/v1/organisations', pair.access_token)).status, 200);
    // the new refresh token rotates as usual
    const next = await refresh(server.baseUrl, clientId, pair.refresh_token);
    assert.equal(next.status, 200, next.text);
    assert.notEqual(JSON.parse(next.text).refresh_token, pair.refresh_token);
  });

  for (const which of ['as they come', 'racing to rotate'] as const) {
    it(`concurrent refreshes with the same token all get the winner's pair (${which})`, async () => {
      const base = which === 'as they come' ? server.baseUrl : slow.baseUrl;
      const { clientId, tokens } = await connected(base);
      const answers = await Promise.all([1, 2, 3].map(() => refresh(base, clientId, tokens.refresh_token!)));
      for (const a of answers) assert.equal(a.status, 200, a.text);
      assert.deepEqual(new Set(answers.map((a) => a.text)).size, 1, 'one answer for all');
      assert.deepEqual(await rows(clientId), { liveRefreshTokens: 1, accessTokens: 2 });
      assert.equal((await api(base, '/v1/organisations', JSON.parse(answers[0]!.text).access_token)).status, 200);
    });
  }

  it('another client presenting the token is not answered', async () => {
    const { clientId, tokens } = await connected(server.baseUrl);
    assert.equal((await refresh(server.baseUrl, clientId, tokens.refresh_token!)).status, 200);
    const other = await registerApp(store().db, { name: 'Other App', redirectUris: [REDIRECT] });
    const stolen = await refresh(server.baseUrl, other.clientId, tokens.refresh_token!);
    assert.equal(stolen.status, 400);
    assert.equal(JSON.parse(stolen.text).error, 'invalid_grant');
    assert.doesNotMatch(stolen.text, /access_token/);
  });

  it('after the window a replay is refused and revokes the grant', async () => {
    const { clientId, tokens } = await connected(brief.baseUrl);
    const first = await refresh(brief.baseUrl, clientId, tokens.refresh_token!);
    assert.equal(first.status, 200, first.text);
    const pair = JSON.parse(first.text) as { access_token: string; refresh_token: string };
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await refresh(brief.baseUrl, clientId, tokens.refresh_token!);
    assert.equal(late.status, 400, late.text);
    assert.equal(JSON.parse(late.text).error, 'invalid_grant');
    assert.equal((await api(brief.baseUrl, '/v1/organisations', pair.access_token)).status, 401);
    assert.equal((await refresh(brief.baseUrl, clientId, pair.refresh_token)).status, 400);
  });
});
