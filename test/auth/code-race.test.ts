/**
 * An authorization code is redeemed once (RFC 6749 §4.1.2). Requests that redeem the same code at
 * the same moment all pass the code's checks before any of them marks it used; only the one whose
 * update marks it wins. The others must fail with invalid_grant and, as for any reuse of a code,
 * revoke what the code produced: a code redeemed twice has leaked, and nothing tells which of the
 * requests is the client's own (RFC 9700 §4.2.4 / §4.5). Issue 13, follow-up A.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { KyselyPlugin, QueryId, RootOperationNode } from 'kysely';
import { registerApp } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { api, authorizeInBrowser, discover } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
const RACERS = 3;

interface Timing {
  /** how late the update that marked the code used answers */
  wonMs: number;
  /** how late an update that found the code already marked answers */
  lostMs: number;
}

/** A meeting of RACERS: each who arrives waits until all have, or 10 s have passed (a bound, not a wait). */
function meeting(): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async () => {
    if (++arrived === RACERS) release();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([allArrived, new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
  };
}

/**
 * Makes the redemptions race: the update that marks the code used answers late, as late as its
 * outcome says, so the test chooses who learns first. On PostgreSQL the lookups of the code also
 * meet, in rounds of RACERS, until the first mark: a redemption looks the code up twice (code-reuse.ts
 * for its grant, then oidc-provider), and each round waits for every request's lookup, so no request
 * marks the code before all have looked it up and every one finds it unused. When only the first
 * lookups met, a request that reached its second lookup late under load found the code already
 * marked; oidc-provider revoked the grant as a reused code and no redemption won (three failures in
 * busy full runs, the last "400, 400, 400"). A delay here holds its database connection: on SQLite,
 * which has one, the lookups cannot wait for each other, and the slow marks queue everything behind
 * them, so there the requests race less.
 */
function codeRace(timing: Timing, lookupsMeet: boolean): KyselyPlugin {
  const lookups = new WeakSet<QueryId>();
  const marks = new WeakSet<QueryId>();
  const rounds: (() => Promise<void>)[] = [];
  let lookedUp = 0;
  let marking = false;
  const touchesCodes = (node: RootOperationNode) => JSON.stringify(node).includes('"AuthorizationCode"');
  return {
    transformQuery(args) {
      const node = args.node;
      const updates = (node as { updates?: { column?: { column?: { name?: string } } }[] }).updates;
      if (lookupsMeet && !marking && node.kind === 'SelectQueryNode' && touchesCodes(node)) lookups.add(args.queryId);
      if (node.kind === 'UpdateQueryNode' && touchesCodes(node) && updates?.some((u) => u.column?.column?.name === 'consumed_at')) {
        marking = true;
        marks.add(args.queryId);
      }
      return args.node;
    },
    async transformResult(args) {
      if (lookups.has(args.queryId)) {
        const round = Math.floor(lookedUp++ / RACERS);
        rounds[round] ??= meeting();
        await rounds[round]();
      }
      if (marks.has(args.queryId)) {
        const won = Number(args.result.numAffectedRows ?? 0) > 0;
        await new Promise((resolve) => setTimeout(resolve, won ? timing.wonMs : timing.lostMs));
      }
      return args.result;
    },
  };
}

interface Answer {
  status: number;
  contentType: string | null;
  body: { error?: string; access_token?: string; refresh_token?: string };
}

async function redeem(base: string, clientId: string, code: string, verifier: string): Promise<Answer> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier }),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as Answer['body'] };
}

async function refresh(base: string, clientId: string, refreshToken: string): Promise<Answer> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as Answer['body'] };
}

describeEachDialect('authorization code redeemed concurrently', (store) => {
  let orgId: string;
  let email: string;
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];

  before(async () => {
    orgId = (await provisionOrganisation(store().db, { name: 'Race Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 })).id;
    const user = await createUser(store().db, { email: 'code-race@example.test', name: 'Race', passwordHash: await hash(PASSWORD) });
    email = user.email;
    await setMembership(store().db, orgId, user.id, 'admin');
  });
  after(async () => {
    for (const server of servers) await server.close();
  });

  /** A server whose database makes redemptions race as timed; a fresh app; a code for it, not yet redeemed. */
  async function race(timing: Timing) {
    const server = await startServer(
      { ...store(), db: store().db.withPlugin(codeRace(timing, store().dialect.name === 'postgres')) },
      { rateLimits: defaultRateLimits({ tokenEndpointPerAddress: 100_000 }) },
    );
    servers.push(server);
    const app = await registerApp(store().db, { name: 'Race App', redirectUris: [REDIRECT] });
    const config = await discover(server.baseUrl, app.clientId);
    const flow = await authorizeInBrowser(server.baseUrl, { config, redirectUri: REDIRECT, email, password: PASSWORD, organisations: [orgId] });
    const code = new URL(flow.callback).searchParams.get('code');
    assert.ok(code, flow.callback);
    const answers = await Promise.all(Array.from({ length: RACERS }, () => redeem(server.baseUrl, app.clientId, code, flow.verifier)));
    for (const a of answers) {
      assert.ok(a.status === 200 || a.status === 400, `200 or 400, not ${a.status} ${JSON.stringify(a.body)}`);
      if (a.status === 400) {
        assert.equal(a.body.error, 'invalid_grant', JSON.stringify(a.body));
        assert.match(a.contentType ?? '', /^application\/json/);
        assert.equal(a.body.access_token, undefined);
      }
    }
    const rows = await store()
      .db.selectFrom('oauth_store')
      .select(['model'])
      .where('client_id', '=', app.clientId)
      .where('model', 'in', ['AccessToken', 'RefreshToken'])
      .execute();
    return { base: server.baseUrl, clientId: app.clientId, answers, liveTokens: rows.length };
  }

  it('one redemption gets tokens, the others invalid_grant, and what it got is revoked', async () => {
    // the losers learn 1.7 s after the winner: room for the winner to answer on a machine under load (a 300 ms gap failed there)
    const { base, clientId, answers, liveTokens } = await race({ wonMs: 300, lostMs: 2_000 });
    const winners = answers.filter((a) => a.status === 200);
    const statuses = answers.map((a) => a.status).join(', ');
    if (store().dialect.name === 'postgres') {
      // all three find the code unused and race to mark it (before the fix: three 200s); the winner
      // learns first and answers, then the losers learn and revoke what it got
      assert.equal(winners.length, 1, `exactly one redemption succeeds: ${statuses}`);
    } else {
      // SQLite's one connection, held by each slow mark, queues the winner behind the losers (or a
      // later request finds the code used: oidc-provider's own reuse check); a loser may revoke while
      // the winner still issues, and then the winner is refused too
      assert.ok(winners.length <= 1, `one redemption at most succeeds: ${statuses}`);
    }
    assert.ok(answers.filter((a) => a.status === 400).length >= RACERS - 1);
    assert.equal(liveTokens, 0, 'nothing the code produced is left');
    for (const winner of winners) {
      assert.ok(winner.body.access_token && winner.body.refresh_token);
      assert.equal((await api(base, '/v1/organisations', winner.body.access_token)).status, 401, "the winner's access token is refused");
      const refreshed = await refresh(base, clientId, winner.body.refresh_token);
      assert.equal(refreshed.status, 400);
      assert.equal(refreshed.body.error, 'invalid_grant');
    }
  });

  it('when the losers revoke before the winner has saved its tokens, those tokens die too', async () => {
    // the winner learns 1 s after the losers: room for them to revoke the grant on a machine under load
    const { base, answers, liveTokens } = await race({ wonMs: 1_000, lostMs: 0 });
    if (store().dialect.name === 'postgres') {
      // the grant was revoked while the winner was still issuing: it answers invalid_grant as well
      assert.deepEqual(
        answers.map((a) => a.status),
        Array.from({ length: RACERS }, () => 400),
      );
    } else {
      // SQLite's one writer takes turns with the event loop (store/sqlite-writer.ts), so the winner
      // may finish saving before the losers revoke; the revocation then deletes what it saved. Either
      // way the code produced nothing that works
      const winners = answers.filter((a) => a.status === 200);
      assert.ok(winners.length <= 1, answers.map((a) => a.status).join(', '));
      for (const winner of winners)
        assert.equal((await api(base, '/v1/organisations', winner.body.access_token!)).status, 401, "the winner's access token is refused");
    }
    assert.equal(liveTokens, 0, 'no token saved after the revocation survives');
  });
});
