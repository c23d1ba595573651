/**
 * A vendor connection's call budget (src/accounting/call-budget.ts), in Redis shared by two
 * instances and in memory: the per-minute, per-day and at-once limits each refuse the next call at
 * once with 503 accounting_rate_limited and the seconds until there is room, and a slot is given
 * back when its call ends, also when the call fails.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryCallBudget, RedisCallBudget, withinBudget, XERO_LIMITS, type CallBudget, type VendorLimits } from '../src/accounting/call-budget.js';
import { rejection } from './helpers/call.js';

const SMALL: VendorLimits = { vendor: 'Xero', perMinute: 6, concurrent: 2, perDay: 8 };

const redisClients: Redis[] = [];
function redisBudget(prefix: string): CallBudget {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: false, maxRetriesPerRequest: 1 });
  redisClients.push(redis);
  return new RedisCallBudget(redis, prefix);
}

const kinds: [string, () => [CallBudget, CallBudget]][] = [
  [
    'Redis, two instances',
    () => {
      const prefix = `ledgerline:test:${randomBytes(6).toString('hex')}:`;
      return [redisBudget(prefix), redisBudget(prefix)];
    },
  ],
  [
    'memory',
    () => {
      const one = new MemoryCallBudget();
      return [one, one];
    },
  ],
];

after(async () => {
  for (const r of redisClients) r.disconnect();
});

for (const [kind, make] of kinds) {
  describe(`vendor call budget [${kind}]`, () => {
    it('admits calls up to the per-minute limit across instances, then refuses with the seconds to wait', async () => {
      const [a, b] = make();
      const limits = { ...SMALL, perDay: 0, concurrent: 10 };
      for (let i = 0; i < 6; i++) await (await (i % 2 ? a : b).acquire('org_1', limits)).release();
      const error = await rejection(() => a.acquire('org_1', limits));
      assert.equal(error.code, 'accounting_rate_limited');
      assert.ok(error.retryAfter >= 1 && error.retryAfter <= 60, String(error.retryAfter));
      assert.match(error.message, /Xero allows this organisation 6 calls a minute/);
      // another connection has its own budget
      await (await b.acquire('org_2', limits)).release();
    });

    it('refuses a call beyond the at-once limit until a slot is given back', async () => {
      const [a, b] = make();
      const first = await a.acquire('org_c', SMALL);
      await b.acquire('org_c', SMALL);
      const error = await rejection(() => a.acquire('org_c', SMALL));
      assert.deepEqual([error.code, error.retryAfter], ['accounting_rate_limited', 1]);
      assert.match(error.message, /2 calls at once/);
      await first.release();
      await first.release(); // giving back twice frees one slot, not two
      await a.acquire('org_c', SMALL);
      assert.equal((await rejection(() => b.acquire('org_c', SMALL))).code, 'accounting_rate_limited');
    });

    it('refuses beyond the per-day limit', async () => {
      const [a] = make();
      const limits = { ...SMALL, perMinute: 100, concurrent: 100, perDay: 3 };
      for (let i = 0; i < 3; i++) await (await a.acquire('org_d', limits)).release();
      const error = await rejection(() => a.acquire('org_d', limits));
      assert.match(error.message, /3 calls a day/);
      assert.ok(error.retryAfter > 60 && error.retryAfter <= 86_400);
    });

    it('gives the slot back when the call fails', async () => {
      const [a] = make();
      const one = { ...SMALL, concurrent: 1 };
      await assert.rejects(withinBudget(a, 'org_f', one, async () => Promise.reject(new Error('vendor down'))), /vendor down/);
      assert.equal(await withinBudget(a, 'org_f', one, async () => 'answered'), 'answered');
      assert.equal(XERO_LIMITS.perMinute, 60);
    });
  });
}

describe('a Xero organisation over REST within its call budget', () => {
  it("keeps Xero within 60 calls a minute: a whole copy answers once they are spent, a first copy is refused with 503 accounting_rate_limited and Retry-After", async () => {
    const { startFakeXero } = await import('./helpers/fake-xero.js');
    const { openTestStore } = await import('./helpers/store.js');
    const { startServer } = await import('./helpers/server.js');
    const { provisionOrganisation } = await import('../src/provision.js');
    const { clientToken, sendJson } = await import('./helpers/rest-calls.js');
    const { useCallBudget } = await import('../src/accounting/call-budget.js');
    const TODAY = '2026-06-15';
    const xero = await startFakeXero({ today: TODAY });
    const store = await openTestStore('sqlite');
    const server = await startServer(store, { today: TODAY, resultCacheBytes: 0 });
    useCallBudget(new MemoryCallBudget());
    try {
      const org = await provisionOrganisation(store.db, { name: 'Xero Budget Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'xero' });
      // mirrorMaxAgeMs 0: every call asks Xero what changed (a fresh mirror would ask nothing: below)
      await store.db.updateTable('organisations').set({ accounting_config: JSON.stringify({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl, mirrorMaxAgeMs: 0 }) }).where('id', '=', org.id).execute();
      const token = await clientToken(store, server.baseUrl, org.id, ['service.read']);
      const statuses: number[] = [];
      for (let i = 0; i < 80; i++) statuses.push((await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', token)).status);
      // once the budget is spent, the passes are refused before Xero is asked and the whole copy answers
      assert.deepEqual(new Set(statuses), new Set([200]), 'every call answered');
      assert.ok(xero.requests.length <= 60, `Xero saw ${xero.requests.length} requests`);
      assert.ok(xero.requests.length >= 55, `the budget was spent (${xero.requests.length} requests)`);

      // an organisation on the same tenant with no whole copy yet: refused with Retry-After
      const second = await provisionOrganisation(store.db, { name: 'Xero Budget Two', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'xero' });
      await store.db.updateTable('organisations').set({ accounting_config: JSON.stringify({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl }) }).where('id', '=', second.id).execute();
      const refusal = await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', await clientToken(store, server.baseUrl, second.id, ['service.read']));
      assert.equal(refusal.status, 503);
      assert.equal(refusal.body.code, 'accounting_rate_limited');
      const wait = Number(refusal.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
      assert.equal(refusal.body.retryAfter, wait);
      assert.ok(xero.requests.length <= 60, `Xero saw ${xero.requests.length} requests`);

      // the same calls on an organisation whose mirror may be a minute old: one pass, then none
      const kept = await provisionOrganisation(store.db, { name: 'Xero Mirror Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'xero' });
      await store.db.updateTable('organisations').set({ accounting_config: JSON.stringify({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl }) }).where('id', '=', kept.id).execute();
      useCallBudget(new MemoryCallBudget());
      const keptToken = await clientToken(store, server.baseUrl, kept.id, ['service.read']);
      const before = xero.requests.length;
      const keptStatuses: number[] = [];
      for (let i = 0; i < 80; i++) keptStatuses.push((await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', keptToken)).status);
      assert.deepEqual(new Set(keptStatuses), new Set([200]), 'all 80 answered');
      assert.deepEqual(new Set(xero.requests.slice(before).map((q) => q.path)), new Set(['/Accounts', '/Contacts', '/Invoices', '/BankTransactions', '/CreditNotes', '/Payments', '/Journals']));
      assert.ok(xero.requests.length - before < 10, `one pass: ${xero.requests.length - before} requests`);
    } finally {
      await server.close();
      await store.close();
      await xero.close();
    }
  });
});
