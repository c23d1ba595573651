/**
 * Production behaviour: several instances on one PostgreSQL and one Redis, health and metrics, and
 * the faults the service must survive (database connections cut, Redis gone, the accounting system
 * slow or failing, oversized requests, shutdown with requests in flight).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { registerAccountingSystem } from '../../src/accounting/index.js';
import { AccountingSystemError, type AccountingSystem } from '../../src/accounting/types.js';
import { createApiClient } from '../../src/auth/clients.js';
import { buildApp } from '../../src/app/app.js';
import { Metrics } from '../../src/calls/metrics.js';
import { connectRedis, FallbackCounterStore, RedisCounterStore, whenReady } from '../../src/calls/redis-counters.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { api, discover, oidc } from '../helpers/oauth.js';
import { capturingLogger, freePort, startServer } from '../helpers/server.js';
import { openTestStore, TEST_DATABASE_URL } from '../helpers/store.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const REDIS = { host: '127.0.0.1', port: 6379 };
const METRICS_TOKEN = 'metrics-token-for-the-production-tests';
const scrape = async (baseUrl: string) => (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

async function clientToken(store: Store, baseUrl: string, organisationId: string) {
  const c = await createApiClient(store.db, { organisationId, name: 'production test' });
  const config = await discover(baseUrl, c.clientId, c.clientSecret);
  return { config, token: (await oidc.clientCredentialsGrant(config, { scope: 'service.read' })).access_token };
}

describe('two instances on one PostgreSQL and one Redis', () => {
  let store: Store;
  let second: Store;
  let orgId: string;
  const servers: { close(): Promise<unknown> }[] = [];
  const redisClients: ReturnType<typeof connectRedis>[] = [];
  let a: string;
  let b: string;

  before(async () => {
    store = await openTestStore('postgres');
    orgId = (await buildBooks(store)).org.id;
    second = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store.schema!, poolSize: 4 });
    const prefix = `ledgerline:test:${randomBytes(4).toString('hex')}:`;
    const counters = () => {
      const redis = connectRedis(`redis://${REDIS.host}:${REDIS.port}`);
      redisClients.push(redis);
      return new FallbackCounterStore(new RedisCounterStore(redis, prefix), { degraded() {}, recovered() {} });
    };
    const rateLimits = defaultRateLimits({ perToken: 4 });
    const first = await startServer(store, { today: TODAY, rateLimits, counters: counters() });
    a = first.baseUrl;
    // the second instance shares the first one's public address, as behind a load balancer
    const port = await freePort();
    const { app } = await buildApp({ store: second, baseUrl: a, today: TODAY, rateLimits, counters: counters() });
    await app.listen({ host: '127.0.0.1', port });
    b = `http://127.0.0.1:${port}`;
    servers.push(first, app);
  });
  after(async () => {
    for (const s of servers) await s.close();
    for (const r of redisClients) r.disconnect();
    await second.close();
    await store.close();
  });

  it('a token issued through one is accepted by the other; a revocation through one is refused by the other at once', async () => {
    const { config, token } = await clientToken(store, a, orgId);
    assert.equal((await api(b, '/v1/operations/accounts.list', token)).status, 200);
    await oidc.tokenRevocation(config, token); // through instance a
    const refused = await api(b, '/v1/operations/accounts.list', token);
    assert.equal(refused.status, 401);
  });

  it('the rate-limit budget is shared', async () => {
    const { token } = await clientToken(store, a, orgId);
    const statuses = [];
    for (const base of [a, b, a, b, a]) statuses.push((await api(base, '/v1/organisations', token)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  });
});

describe('faults', () => {
  let store: Store;
  let orgId: string;

  before(async () => {
    store = await openTestStore('postgres');
    orgId = (await buildBooks(store)).org.id;
  });
  after(async () => store.close());

  it('database connections cut: 503 with Retry-After, then recovery with no restart and nothing lost', async () => {
    const proxy = await new TcpProxy('127.0.0.1', 5432).start();
    const url = new URL(TEST_DATABASE_URL);
    url.port = String(proxy.port);
    const viaProxy = openStore({ databaseUrl: url.href, pgSchema: store.schema!, poolSize: 2 });
    const server = await startServer(viaProxy, { today: TODAY });
    try {
      const { token } = await clientToken(viaProxy, server.baseUrl, orgId);
      assert.equal((await api(server.baseUrl, '/v1/operations/reports.profit_and_loss', token)).status, 200);
      proxy.cut();
      const started = Date.now();
      const down = await api(server.baseUrl, '/v1/operations/reports.profit_and_loss', token);
      assert.equal(down.status, 503);
      assert.equal(down.body.code, 'database_unavailable');
      assert.equal(down.headers.get('retry-after'), '5');
      assert.ok(Date.now() - started < 5000, 'answers promptly rather than hanging');
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 503, 'without its database the service answers nothing: not ready');
      assert.equal(((await ready.json()) as any).status, 'unavailable');
      proxy.restore();
      const back = await api(server.baseUrl, '/v1/operations/reports.profit_and_loss', token);
      assert.equal(back.status, 200, 'the same token still works: nothing was lost');
      assert.deepEqual(back.body.summary.find((l: any) => l.label === 'Net Profit').amounts, [1788.25]);
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
    } finally {
      await server.close();
      await viaProxy.close();
      await proxy.close();
    }
  });

  it('Redis gone: requests keep being served with per-instance limits, said in logs and metrics; shared again when back', async () => {
    const proxy = await new TcpProxy(REDIS.host, REDIS.port).start();
    const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`);
    redis.on('error', () => {});
    // before the first connection calls count locally and would read as a degradation
    assert.equal(await whenReady(redis, 2000), true);
    const metrics = new Metrics();
    const events: string[] = [];
    const counters = new FallbackCounterStore(new RedisCounterStore(redis, `ledgerline:test:${randomBytes(4).toString('hex')}:`), {
      degraded: () => {
        events.push('degraded');
        metrics.rateLimitDegraded.set(1);
      },
      recovered: () => {
        events.push('recovered');
        metrics.rateLimitDegraded.set(0);
      },
    });
    const lines: Record<string, unknown>[] = [];
    const server = await startServer(store, {
      today: TODAY,
      counters,
      metrics,
      metricsToken: METRICS_TOKEN,
      countersReady: async () => (await redis.ping()) === 'PONG',
      logger: capturingLogger((e) => lines.push(e)),
    });
    try {
      const { token } = await clientToken(store, server.baseUrl, orgId);
      assert.equal((await api(server.baseUrl, '/v1/operations/accounts.list', token)).status, 200);
      // on a loaded machine a command can outlast its 250 ms before the cut too (a real, brief
      // degradation): start the count from a call that reached Redis
      for (let i = 0; i < 20 && counters.degraded; i++) await api(server.baseUrl, '/v1/operations/accounts.list', token);
      assert.equal(counters.degraded, false);
      events.length = 0;
      proxy.cut();
      for (let i = 0; i < 3; i++) assert.equal((await api(server.baseUrl, '/v1/operations/accounts.list', token)).status, 200);
      assert.deepEqual(events, ['degraded']);
      assert.match(await scrape(server.baseUrl), /ledgerline_rate_limit_degraded 1/);
      // still ready: calls are answered (per-instance limits), so a load balancer keeps the instance
      const readyz = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(readyz.status, 200, 'Redis away is degraded, not unready');
      const ready: any = await readyz.json();
      assert.equal(ready.status, 'degraded');
      assert.deepEqual(ready.checks, { database: 'ok', redis: 'unavailable', accounting: 'ok' });
      assert.match(ready.degraded.redis, /rate limits hold per instance until it answers; calls are served/);
      assert.match(await scrape(server.baseUrl), /ledgerline_dependency_up\{dependency="redis"\} 0/);
      assert.ok(
        lines.some((l) => l.level === 'warn' && l.dependency === 'redis' && /degraded \(still ready\)/.test(String(l.message))),
        'said once in the log',
      );
      proxy.restore();
      for (let i = 0; i < 50 && events.length < 2; i++) {
        await api(server.baseUrl, '/v1/operations/accounts.list', token);
        if (events.length < 2) await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(events, ['degraded', 'recovered']);
      const back: any = await (await fetch(`${server.baseUrl}/readyz`)).json();
      assert.equal(back.status, 'ready');
      assert.match(await scrape(server.baseUrl), /ledgerline_dependency_up\{dependency="redis"\} 1/);
    } finally {
      await server.close();
      redis.disconnect();
      await proxy.close();
    }
  });

  it('the accounting system slow or failing: 504 or 502 with a stable code, no hang, others unaffected', async () => {
    const slow: AccountingSystem = new Proxy({} as AccountingSystem, {
      get: (_t, p) => (p === 'kind' ? 'slow' : () => new Promise((resolve) => setTimeout(() => resolve([]), 3000))),
    });
    const failing: AccountingSystem = new Proxy({} as AccountingSystem, {
      get: (_t, p) => (p === 'kind' ? 'failing' : () => Promise.reject(new AccountingSystemError('the ledger service answered 500'))),
    });
    registerAccountingSystem('test-slow', () => slow);
    registerAccountingSystem('test-failing', () => failing);
    const slowOrg = await provisionOrganisation(store.db, {
      name: 'Slow Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-slow',
    });
    const failingOrg = await provisionOrganisation(store.db, {
      name: 'Failing Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-failing',
    });
    const server = await startServer(store, { today: TODAY, accountingTimeoutMs: 300 });
    try {
      const started = Date.now();
      const timedOut = await api(server.baseUrl, '/v1/operations/accounts.list', (await clientToken(store, server.baseUrl, slowOrg.id)).token);
      assert.equal(timedOut.status, 504);
      assert.equal(timedOut.body.code, 'accounting_timeout');
      assert.ok(Date.now() - started < 2500);
      const failed = await api(server.baseUrl, '/v1/operations/reports.balance_sheet', (await clientToken(store, server.baseUrl, failingOrg.id)).token);
      assert.equal(failed.status, 502);
      assert.equal(failed.body.code, 'accounting_unavailable');
      assert.match(failed.body.detail, /answered 500/);
      // bills to pay are the books' too: an empty list would read "nothing owed" (issue 38), so it fails the same way
      const failingToken = (await clientToken(store, server.baseUrl, failingOrg.id)).token;
      const bills = await api(server.baseUrl, '/v1/operations/bills.list_to_pay', failingToken);
      assert.deepEqual([bills.status, bills.body.code], [502, 'accounting_unavailable']);
      const own = await api(server.baseUrl, '/v1/organisations', failingToken);
      assert.equal(own.status, 200, 'what does not read the books still answers');
      const healthy = await api(server.baseUrl, '/v1/operations/accounts.list', (await clientToken(store, server.baseUrl, orgId)).token);
      assert.equal(healthy.status, 200);
    } finally {
      await server.close();
    }
  });

  it('oversized and malformed requests are refused with 4xx before any work', async () => {
    const server = await startServer(store, { today: TODAY });
    try {
      const big = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 'a'.repeat(100_000) }),
      });
      assert.equal(big.status, 413);
      assert.equal(((await big.json()) as any).code, 'payload_too_large');
      const broken = await fetch(`${server.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc": ' });
      assert.equal(broken.status, 400);
      const header = await fetch(`${server.baseUrl}/v1/organisations`, { headers: { authorization: `Bearer ${'x'.repeat(20_000)}` } });
      assert.equal(header.status, 431);
    } finally {
      await server.close();
    }
  });

  it('health, metrics by operation and status, request ids, and logs without secrets', async () => {
    const lines: Record<string, unknown>[] = [];
    const server = await startServer(store, { today: TODAY, metricsToken: METRICS_TOKEN, logger: capturingLogger((e) => lines.push(e)) });
    try {
      assert.deepEqual(await (await fetch(`${server.baseUrl}/healthz`)).json(), { status: 'ok' });
      const ready: any = await (await fetch(`${server.baseUrl}/readyz`)).json();
      assert.deepEqual(ready, { status: 'ready', checks: { database: 'ok', accounting: 'ok' } });
      const { token } = await clientToken(store, server.baseUrl, orgId);
      const r = await fetch(`${server.baseUrl}/v1/operations/reports.profit_and_loss`, {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-123' },
      });
      assert.equal(r.headers.get('x-request-id'), 'trace-123');
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      const again = await fetch(`${server.baseUrl}/v1/operations/reports.profit_and_loss`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(await again.text(), await r.text(), 'the kept answer, byte for byte');
      await api(server.baseUrl, '/v1/operations/reports.profit_and_loss?bad=1', token);
      const text = await scrape(server.baseUrl);
      assert.match(text, /ledgerline_http_requests_total\{route="reports.profit_and_loss",method="GET",status="200"\} 2/);
      assert.match(text, /ledgerline_result_cache_lookups_total\{result="hit"\} 1\n/);
      assert.match(text, /ledgerline_result_cache_lookups_total\{result="miss"\} 1\n/);
      assert.match(text, /ledgerline_result_cache_entries 1\n/);
      assert.match(text, /ledgerline_http_requests_total\{route="reports.profit_and_loss",method="GET",status="400"\} 1/);
      assert.match(text, /ledgerline_http_requests_total\{route="oauth",method="POST",status="200"\} \d/);
      assert.match(text, /ledgerline_token_checks_total\{result="valid"\} 3/);
      assert.match(text, /ledgerline_db_pool_connections \d/);
      const entry = lines.find((l) => l.requestId === 'trace-123');
      assert.deepEqual({ route: entry?.route, status: entry?.status }, { route: 'reports.profit_and_loss', status: 200 });
      assert.ok(!JSON.stringify(lines).includes(token), 'no token in the logs');
    } finally {
      await server.close();
    }
  });

  it('shutdown finishes the requests in flight', async () => {
    registerAccountingSystem(
      'test-unhurried',
      () =>
        new Proxy({} as AccountingSystem, {
          get: (_t, p) => (p === 'kind' ? 'unhurried' : () => new Promise((resolve) => setTimeout(() => resolve([]), 400))),
        }),
    );
    const org = await provisionOrganisation(store.db, {
      name: 'Unhurried Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-unhurried',
    });
    const server = await startServer(store, { today: TODAY });
    const { token } = await clientToken(store, server.baseUrl, org.id);
    const inFlight = api(server.baseUrl, '/v1/operations/accounts.list', token);
    await new Promise((r) => setTimeout(r, 100));
    const began = Date.now();
    const closing = server.close();
    const answer = await inFlight;
    await closing;
    assert.ok(Date.now() - began < 5_000, `shut down in ${Date.now() - began} ms: an idle keep-alive connection must not hold it`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { count: 0, accounts: [] });
  });
});
