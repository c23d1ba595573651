/**
 * The one rule of the caches kept on a data version (src/store/versioned-cache.ts), which the
 * builtin ledger's kept lists and the mirror's kept records stand on: a place holds one version,
 * a value is computed once however many ask, a failure is not kept, and past the limit the least
 * recently used place goes.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cachePerHandle, VersionedCache } from '../../src/store/versioned-cache.js';

/** A computation that counts its runs. */
function counting<T>(value: T) {
  let runs = 0;
  return { compute: () => (runs++, Promise.resolve(value)), runs: () => runs };
}

it('keeps a value while its place’s version stands, and drops every value of the place at another version', async () => {
  const cache = new VersionedCache<number, string>(10);
  const chart = counting('chart v1');
  const contacts = counting('contacts v1');
  assert.equal(await cache.get('org_a', 1, 'chart', chart.compute), 'chart v1');
  assert.equal(await cache.get('org_a', 1, 'contacts', contacts.compute), 'contacts v1');
  assert.equal(await cache.get('org_a', 1, 'chart', chart.compute), 'chart v1');
  assert.deepEqual([chart.runs(), contacts.runs()], [1, 1]);
  // a new version: both computed again, whichever is asked
  const chart2 = counting('chart v2');
  assert.equal(await cache.get('org_a', 2, 'chart', chart2.compute), 'chart v2');
  assert.equal(await cache.get('org_a', 2, 'contacts', contacts.compute), 'contacts v1');
  assert.deepEqual([chart2.runs(), contacts.runs()], [1, 2]);
  // and back to the older version (a replica behind): not the newer one's values
  assert.equal(await cache.get('org_a', 1, 'chart', chart.compute), 'chart v1');
  assert.equal(chart.runs(), 2);
});

it('computes once however many ask at the same time, and keeps no failure', async () => {
  const cache = new VersionedCache<string, number>(10);
  let runs = 0;
  let release!: (n: number) => void;
  const slow = () => (runs++, new Promise<number>((resolve) => (release = resolve)));
  const both = Promise.all([cache.get('org', 'v', 'k', slow), cache.get('org', 'v', 'k', slow)]);
  release(7);
  assert.deepEqual(await both, [7, 7]);
  assert.equal(runs, 1);
  const failing = () => Promise.reject(new Error('database away'));
  await assert.rejects(cache.get('org', 'v', 'other', failing), /database away/);
  assert.equal(await cache.get('org', 'v', 'other', () => Promise.resolve(8)), 8, 'the failure was not kept');
});

it('past its limit drops the least recently used place', async () => {
  const cache = new VersionedCache<number, string>(2);
  const a = counting('a');
  await cache.get('org_a', 1, 'k', a.compute);
  await cache.get('org_b', 1, 'k', () => Promise.resolve('b'));
  // org_a used again: org_b is now the least recently used
  await cache.get('org_a', 1, 'k', a.compute);
  const b = counting('b again');
  await cache.get('org_c', 1, 'k', () => Promise.resolve('c'));
  assert.equal(cache.size, 2);
  await cache.get('org_a', 1, 'k', a.compute);
  assert.equal(a.runs(), 1, 'org_a was kept');
  assert.equal(await cache.get('org_b', 1, 'k', b.compute), 'b again', 'org_b was dropped');
});

it('is one cache per handle', async () => {
  const keptFor = cachePerHandle<number, string>(10);
  const one = {};
  const other = {};
  assert.equal(keptFor(one), keptFor(one));
  await keptFor(one).get('org', 1, 'k', () => Promise.resolve('one'));
  assert.equal(await keptFor(other).get('org', 1, 'k', () => Promise.resolve('other')), 'other');
});
