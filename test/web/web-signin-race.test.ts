/**
 * The sign-in limits hold under concurrency: many wrong passwords fired at once for one account
 * (or from one address) reach the password check at most `limit` times, the rest answered 429, on
 * the in-process counters and on Redis. A successful sign-in is not counted against the account.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import { RedisCounterStore } from '../../src/calls/redis-counters.js';
import { MemoryCounterStore, type CounterStore } from '../../src/calls/rate-limit.js';
import { defaultRateLimits } from '../../src/config.js';
import type { Store } from '../../src/store/db.js';
import { createUser } from '../../src/store/users.js';
import { Browser } from '../helpers/browser.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** A browser on the sign-in page, ready to post once. */
async function signInForm(base: string) {
  const browser = new Browser(base);
  const page = await browser.follow('/signin');
  const csrf = decode(/name="csrf" value="([^"]+)"/.exec(page.body)![1]!);
  return (email: string, password: string) =>
    browser.request('/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ csrf, email, password }),
    });
}

/** Fires all the posts at once (forms fetched first) and tallies the statuses. */
async function burst(base: string, attempts: { email: string; password: string }[]) {
  const forms = await Promise.all(attempts.map(() => signInForm(base)));
  const responses = await Promise.all(forms.map((post, i) => post(attempts[i]!.email, attempts[i]!.password)));
  const tally: Record<number, number> = {};
  for (const r of responses) {
    tally[r.status] = (tally[r.status] ?? 0) + 1;
    await r.arrayBuffer();
  }
  return tally;
}

// the limits live in the counters, not the database: one dialect is enough
const STORES: [string, () => { counters: CounterStore; close(): Promise<unknown> }][] = [
  ['memory', () => ({ counters: new MemoryCounterStore(), close: async () => {} })],
  [
    'redis',
    () => {
      // the store's atomicity is what is tested, so a client that waits for its connection and has no
      // 250 ms command limit (connectRedis's, for production behind the memory fallback): a busy
      // machine must not turn a slow answer into a failed sign-in here
      const redis = new Redis('redis://127.0.0.1:6379');
      return { counters: new RedisCounterStore(redis, `ledgerline:test:${randomBytes(4).toString('hex')}:`), close: () => redis.quit() };
    },
  ],
];

for (const [name, makeCounters] of STORES) {
  describe(`sign-in limits under concurrency [${name}]`, () => {
    let store: Store;
    const closers: (() => Promise<unknown>)[] = [];

    async function server(limits: { signInPerAccount: number; signInPerAddress: number }) {
      const c = makeCounters();
      const s = await startServer(store, { rateLimits: defaultRateLimits(limits), counters: c.counters });
      closers.push(
        () => s.close(),
        () => c.close(),
      );
      return s.baseUrl;
    }

    before(async () => {
      store = await openTestStore('sqlite');
      const passwordHash = await hash(PASSWORD);
      await createUser(store.db, { email: 'target@example.test', name: 'Target', passwordHash });
      await createUser(store.db, { email: 'happy@example.test', name: 'Happy', passwordHash });
    });
    after(async () => {
      for (const close of closers.reverse()) await close();
      await store.close();
    });

    it('30 concurrent wrong passwords for one account: at most 10 are checked, the rest 429', async () => {
      const base = await server({ signInPerAccount: 10, signInPerAddress: 1000 });
      const tally = await burst(
        base,
        Array.from({ length: 30 }, () => ({ email: 'target@example.test', password: 'wrong' })),
      );
      assert.equal((tally[401] ?? 0) + (tally[429] ?? 0), 30, JSON.stringify(tally));
      assert.ok((tally[401] ?? 0) <= 10, `at most 10 reach the password check: ${JSON.stringify(tally)}`);
      assert.ok((tally[401] ?? 0) >= 1, JSON.stringify(tally));
    });

    it('30 concurrent wrong passwords from one address for different accounts: at most 10 are checked', async () => {
      const base = await server({ signInPerAccount: 1000, signInPerAddress: 10 });
      const tally = await burst(
        base,
        Array.from({ length: 30 }, (_, i) => ({ email: `nobody-${i}@example.test`, password: 'wrong' })),
      );
      assert.equal((tally[401] ?? 0) + (tally[429] ?? 0), 30, JSON.stringify(tally));
      assert.ok((tally[401] ?? 0) <= 10, `at most 10 reach the password check: ${JSON.stringify(tally)}`);
    });

    it('successful sign-ins are not counted as failures', async () => {
      const base = await server({ signInPerAccount: 3, signInPerAddress: 1000 });
      for (let i = 0; i < 5; i++) assert.equal((await (await signInForm(base))('happy@example.test', PASSWORD)).status, 303);
      for (let i = 0; i < 3; i++) assert.equal((await (await signInForm(base))('happy@example.test', 'wrong')).status, 401);
      assert.equal((await (await signInForm(base))('happy@example.test', PASSWORD)).status, 429, 'the fourth attempt after three failures waits');
    });
  });
}
