/**
 * A vendor connection's call budget (src/accounting/call-budget.ts), in Redis shared by two
 * instances and in memory: the per-minute, per-day and at-once limits each refuse the next call at
 * once with 503 accounting_rate_limited and the seconds until there is room, and a slot is given
 * back when its call ends, also when the call fails. The minute is a rolling one, as Xero counts
 * it: a burst across a minute's end is refused, not doubled. Under a burst of 200 calls 20 at once
 * and a minute of steady demand, two instances sharing the budget in Redis keep Xero and QuickBooks
 * (fakes enforcing their documented limits) from answering a single 429 (issue 38, item 5).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryCallBudget, RedisCallBudget, withinBudget, XERO_LIMITS, type CallBudget, type VendorLimits } from '../../src/accounting/call-budget.js';
import { rejection } from '../helpers/call.js';

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
      assert.ok(error.retryAfter >= 1 && error.retryAfter <= 61, String(error.retryAfter));
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
      assert.ok(error.retryAfter > 60 && error.retryAfter <= 86_401, String(error.retryAfter));
    });

    it('gives the slot back when the call fails', async () => {
      const [a] = make();
      const one = { ...SMALL, concurrent: 1 };
      await assert.rejects(
        withinBudget(a, 'org_f', one, async () => Promise.reject(new Error('vendor down'))),
        /vendor down/,
      );
      assert.equal(await withinBudget(a, 'org_f', one, async () => 'answered'), 'answered');
      assert.equal(XERO_LIMITS.perMinute, 60);
    });
  });
}

describe('vendor call budget: a rolling minute, as Xero counts it', () => {
  it("refuses a burst across a minute's end that a fixed window would have let through, until the oldest call is a minute (and a second) old", async () => {
    const start = 1_700_000_000_000;
    let now = start;
    const budget = new MemoryCallBudget(() => now);
    const limits = { ...SMALL, perDay: 0, concurrent: 100 };
    await (await budget.acquire('org_r', limits)).release();
    now = start + 59_000;
    for (let i = 0; i < 5; i++) await (await budget.acquire('org_r', limits)).release();
    // a fixed window opened by the first call would have started again at +60 s and admitted 6 more here
    now = start + 60_500;
    const refused = await rejection(() => budget.acquire('org_r', limits));
    assert.equal(refused.code, 'accounting_rate_limited');
    assert.equal(refused.retryAfter, 1, 'room once the first call is 61 s old');
    now = start + 61_000;
    await (await budget.acquire('org_r', limits)).release();
    assert.equal((await rejection(() => budget.acquire('org_r', limits))).retryAfter, 59, 'the next room: when the calls of +59 s are 61 s old');
    now = start + 120_000;
    for (let i = 0; i < 5; i++) await (await budget.acquire('org_r', limits)).release();
  });
});

describe('vendors under load, two instances sharing the budget in Redis', () => {
  it(
    'a burst of 200 calls 20 at once, then a minute of steady demand: Xero and QuickBooks answer no 429 and never see more than their limits (a ' +
      'rolling minute, the calls at once)',
    { timeout: 240_000 },
    async () => {
      const { startFakeXero } = await import('../helpers/fake-xero.js');
      const { startFakeQuickBooks } = await import('../helpers/fake-quickbooks.js');
      const { XERO_DOCUMENTED_LIMITS, QUICKBOOKS_DOCUMENTED_LIMITS } = await import('../helpers/fake-vendor-load.js');
      const { openTestStore } = await import('../helpers/store.js');
      const { startServer } = await import('../helpers/server.js');
      const { vendorOrganisation } = await import('../helpers/vendor-organisation.js');
      const { clientToken, sendJson } = await import('../helpers/rest-calls.js');
      const { useCallBudget } = await import('../../src/accounting/call-budget.js');
      const TODAY = '2026-06-15';
      // answers take 40 ms, as across the internet, so calls sent together are in flight together
      const xero = await startFakeXero({ today: TODAY, latencyMs: 40 });
      const qb = await startFakeQuickBooks({ today: TODAY, latencyMs: 40 });
      const store = await openTestStore('sqlite');
      const server = await startServer(store, { today: TODAY, resultCacheBytes: 0 });
      // two instances' budgets over one Redis: calls alternate between them
      const prefix = `ledgerline:test:${randomBytes(6).toString('hex')}:`;
      const instances = [redisBudget(prefix), redisBudget(prefix)];
      let turn = 0;
      useCallBudget({ acquire: (connection, limits) => instances[turn++ % 2]!.acquire(connection, limits) });
      try {
        // mirrorMaxAgeMs 0: every call asks the vendor what changed, so demand on Ledgerline is demand on the vendor
        const xeroOrg = await vendorOrganisation(store, 'xero', 'Load Roasters', {
          tenantId: xero.tenantId,
          accessToken: xero.token,
          baseUrl: xero.baseUrl,
          mirrorMaxAgeMs: 0,
        });
        const qbOrg = await vendorOrganisation(store, 'quickbooks', 'Load Bakery', {
          realmId: qb.realmId,
          accessToken: qb.token,
          baseUrl: qb.baseUrl,
          mirrorMaxAgeMs: 0,
        });
        const load = async (organisationId: string) => {
          const token = await clientToken(store, server.baseUrl, organisationId, ['service.read']);
          const paths = ['/v1/operations/accounts.list', '/v1/operations/bills.list_to_pay', '/v1/operations/reports.profit_and_loss'];
          const statuses: Record<string, number> = {};
          const one = async (i: number) => {
            const answer = await sendJson(server.baseUrl, 'GET', paths[i % paths.length]!, token);
            const key = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.code}`;
            statuses[key] = (statuses[key] ?? 0) + 1;
          };
          // the burst: 200 calls, 20 at a time
          let next = 0;
          await Promise.all(
            Array.from({ length: 20 }, async () => {
              while (next < 200) await one(next++);
            }),
          );
          // then a minute of steady demand: a call every half second
          const steady: Promise<void>[] = [];
          for (let i = 0; i < 120; i++) {
            steady.push(one(i));
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          await Promise.all(steady);
          return statuses;
        };
        const [xeroStatuses, qbStatuses] = await Promise.all([load(xeroOrg), load(qbOrg)]);
        for (const [name, fake, limits, statuses] of [
          ['Xero', xero, XERO_DOCUMENTED_LIMITS, xeroStatuses],
          ['QuickBooks', qb, QUICKBOOKS_DOCUMENTED_LIMITS, qbStatuses],
        ] as const) {
          assert.deepEqual(fake.load.refused, [], `${name} answered no 429`);
          assert.ok(fake.load.maxPerMinute() <= limits.perMinute, `${name} saw ${fake.load.maxPerMinute()} calls within a minute`);
          assert.ok(fake.load.maxInFlight <= limits.concurrent, `${name} held ${fake.load.maxInFlight} at once`);
          assert.ok(fake.load.arrivals.length > 20, `${name} was asked (${fake.load.arrivals.length} calls)`);
          // Ledgerline answered from its copy, or said the budget is spent; never the vendor's refusal
          assert.deepEqual(
            Object.keys(statuses).filter((k) => k !== '200' && k !== '503 accounting_rate_limited'),
            [],
            `${name}: ${JSON.stringify(statuses)}`,
          );
          assert.ok((statuses['200'] ?? 0) > 200, `${name}: ${JSON.stringify(statuses)}`);
          assert.deepEqual(fake.violations, []);
        }
        assert.ok(xero.load.maxPerMinute() >= 50, `Xero's minute was used (${xero.load.maxPerMinute()})`);
      } finally {
        useCallBudget(new MemoryCallBudget());
        await server.close();
        await store.close();
        await xero.close();
        await qb.close();
      }
    },
  );
});

describe('a Xero organisation over REST within its call budget', () => {
  it(
    'keeps Xero within 60 calls a minute: a whole copy answers once they are spent, a first copy is refused with 503 accounting_rate_limited and ' +
      'Retry-After',
    async () => {
      const { startFakeXero } = await import('../helpers/fake-xero.js');
      const { openTestStore } = await import('../helpers/store.js');
      const { startServer } = await import('../helpers/server.js');
      const { provisionOrganisation } = await import('../../src/provision.js');
      const { clientToken, sendJson } = await import('../helpers/rest-calls.js');
      const { useCallBudget } = await import('../../src/accounting/call-budget.js');
      const TODAY = '2026-06-15';
      const xero = await startFakeXero({ today: TODAY });
      const store = await openTestStore('sqlite');
      const server = await startServer(store, { today: TODAY, resultCacheBytes: 0 });
      useCallBudget(new MemoryCallBudget());
      try {
        const org = await provisionOrganisation(store.db, {
          name: 'Xero Budget Ltd',
          homeCurrency: 'GBP',
          timeZone: 'Europe/London',
          fyStartMonth: 1,
          accountingSystem: 'xero',
        });
        // mirrorMaxAgeMs 0: every call asks Xero what changed (a fresh mirror would ask nothing: below)
        await store.db
          .updateTable('organisations')
          .set({ accounting_config: JSON.stringify({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl, mirrorMaxAgeMs: 0 }) })
          .where('id', '=', org.id)
          .execute();
        const token = await clientToken(store, server.baseUrl, org.id, ['service.read']);
        const statuses: number[] = [];
        for (let i = 0; i < 80; i++) statuses.push((await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', token)).status);
        // once the budget is spent, the passes are refused before Xero is asked and the whole copy answers
        assert.deepEqual(new Set(statuses), new Set([200]), 'every call answered');
        assert.ok(xero.requests.length <= 60, `Xero saw ${xero.requests.length} requests`);
        assert.ok(xero.requests.length >= 55, `the budget was spent (${xero.requests.length} requests)`);

        // an organisation on the same tenant with no whole copy yet: refused with Retry-After
        const second = await provisionOrganisation(store.db, {
          name: 'Xero Budget Two',
          homeCurrency: 'GBP',
          timeZone: 'Europe/London',
          fyStartMonth: 1,
          accountingSystem: 'xero',
        });
        await store.db
          .updateTable('organisations')
          .set({ accounting_config: JSON.stringify({ tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl }) })
          .where('id', '=', second.id)
          .execute();
        const refusal = await sendJson(
          server.baseUrl,
          'GET',
          '/v1/operations/accounts.list',
          await clientToken(store, server.baseUrl, second.id, ['service.read']),
        );
        assert.equal(refusal.status, 503);
        assert.equal(refusal.body.code, 'accounting_rate_limited');
        const wait = Number(refusal.headers.get('retry-after'));
        assert.ok(wait >= 1 && wait <= 61, `Retry-After ${wait}`);
        assert.equal(refusal.body.retryAfter, wait);
        assert.ok(xero.requests.length <= 60, `Xero saw ${xero.requests.length} requests`);

        assert.deepEqual(xero.load.refused, [], 'and Xero, counting its rolling minute, refused none');

        // the same calls on an organisation whose mirror may be a minute old: one pass, then none
        // (a budget and a fake Xero of their own: the minute above is spent at both)
        const own = await startFakeXero({ today: TODAY });
        const kept = await provisionOrganisation(store.db, {
          name: 'Xero Mirror Ltd',
          homeCurrency: 'GBP',
          timeZone: 'Europe/London',
          fyStartMonth: 1,
          accountingSystem: 'xero',
        });
        await store.db
          .updateTable('organisations')
          .set({ accounting_config: JSON.stringify({ tenantId: own.tenantId, accessToken: own.token, baseUrl: own.baseUrl }) })
          .where('id', '=', kept.id)
          .execute();
        useCallBudget(new MemoryCallBudget());
        const keptToken = await clientToken(store, server.baseUrl, kept.id, ['service.read']);
        const keptStatuses: number[] = [];
        try {
          for (let i = 0; i < 80; i++) keptStatuses.push((await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', keptToken)).status);
          assert.deepEqual(new Set(keptStatuses), new Set([200]), 'all 80 answered');
          assert.deepEqual(
            new Set(own.requests.map((q) => q.path)),
            new Set(['/Accounts', '/Contacts', '/Invoices', '/BankTransactions', '/CreditNotes', '/Payments', '/Journals']),
          );
          assert.ok(own.requests.length < 10, `one pass: ${own.requests.length} requests`);
        } finally {
          await own.close();
        }
      } finally {
        await server.close();
        await store.close();
        await xero.close();
      }
    },
  );
});
