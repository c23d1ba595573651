/**
 * Values kept in this process while a place's data version stands (issue 39, item 4): the builtin
 * ledger's chart and contacts (accounting/builtin/kept-lists.ts) and the mirror's record lists
 * (accounting/mirror/kept-records.ts), each kept per organisation under the version a call read
 * with it. One rule for all of them:
 * - a place (an organisation) holds one version at a time; asking with another version drops
 *   every value it held, so nothing of an older (or, from a replica, a newer) version is answered;
 * - a value is computed once however many ask for it at once (the promise is kept), and a failed
 *   computation is not kept: the next call computes again;
 * - at most `maxPlaces` places, the least recently used dropped first.
 *
 * The answer cache (operations/result-cache.ts) can stand on it too: a place per organisation, a
 * key per operation and input, its version the data version the answer was computed from.
 */
export class VersionedCache<V, T> {
  private readonly places = new Map<string, { version: V; values: Map<string, Promise<T>> }>();

  constructor(private readonly maxPlaces: number) {}

  /** The value of `key` at `version` in `place`: the one kept, or `compute`d now and kept. */
  get(place: string, version: V, key: string, compute: () => Promise<T>): Promise<T> {
    let held = this.places.get(place);
    if (held) this.places.delete(place);
    if (!held || held.version !== version) held = { version, values: new Map() };
    // most recently used last; past the limit the first, least recently used, goes
    this.places.set(place, held);
    if (this.places.size > this.maxPlaces) this.places.delete(this.places.keys().next().value!);
    let value = held.values.get(key);
    if (!value) {
      const values = held.values;
      const computing = compute();
      values.set(key, (value = computing));
      computing.catch(() => {
        if (values.get(key) === computing) values.delete(key);
      });
    }
    return value;
  }

  /** How many places are held (for tests and metrics). */
  get size(): number {
    return this.places.size;
  }
}

/**
 * What a cache per store is keyed by: the store, whatever handle on it asks. A call that reads in
 * a snapshot asks from a transaction, a new handle on the same store at every call; the dialect's
 * adapter is one per opened store (as prepared.ts keys its statements).
 */
export const storeOf = (db: { getExecutor(): { adapter: object } }): object => db.getExecutor().adapter;

/** A VersionedCache per database handle (a test's store is never another's), made at its first use. */
export function cachePerHandle<V, T>(maxPlaces: number): (handle: object) => VersionedCache<V, T> {
  const caches = new WeakMap<object, VersionedCache<V, T>>();
  return (handle) => {
    let cache = caches.get(handle);
    if (!cache) caches.set(handle, (cache = new VersionedCache<V, T>(maxPlaces)));
    return cache;
  };
}

/**
 * The rule every value kept at a call's data version follows, in one place: kept per handle and
 * organisation under the version the call read and vouches for (a read on the primary), read
 * afresh when it vouches for none (a change, a replica that may lag, a snapshot read after the
 * version moved).
 */
export function keptAtVersion<T>(
  maxPlaces: number,
): (handle: object, organisationId: string, version: string | undefined, key: string, read: () => Promise<T>) => Promise<T> {
  const cacheOf = cachePerHandle<string, T>(maxPlaces);
  return (handle, organisationId, version, key, read) => (version === undefined ? read() : cacheOf(handle).get(organisationId, version, key, read));
}
