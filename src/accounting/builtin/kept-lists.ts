/**
 * The builtin ledger's chart of accounts and contacts, kept per organisation while its data version
 * stands. Every write to acct_accounts or acct_contacts moves organisations.data_version in the
 * writer's own transaction (migration 006), and every call reads that version live with the
 * organisation's row (getCallAccess; an API client's call, with its token: token-check.ts), so a
 * list kept under the version a call read is exactly what the tables hold at that version: a
 * change is seen by the next call. A call that cannot vouch for its version (a change, or a read
 * from a replica that may lag the primary's version) passes none and reads the tables.
 *
 * Kept per database handle in a VersionedCache (store/versioned-cache.ts: one version per
 * organisation, read once however many ask, at most MAX_ORGANISATIONS, the least recently used
 * dropped first). The lists are frozen: they are shared by every call at that version.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { cachePerHandle } from '../../store/versioned-cache.js';
import type { ChartAccount, Contact } from '../types.js';

const MAX_ORGANISATIONS = 1000;

interface Lists {
  chart: readonly ChartAccount[];
  contacts: readonly Contact[];
}

const keptFor = cachePerHandle<string, readonly object[]>(MAX_ORGANISATIONS);

function freeze<T extends object>(list: T[]): readonly T[] {
  for (const item of list) Object.freeze(item);
  return Object.freeze(list);
}

/** The list of this kind at this version: the one kept, or read now (once, however many ask at the same time) and kept. */
export function keptList<K extends keyof Lists>(
  db: Kysely<Database>,
  organisationId: string,
  version: string,
  kind: K,
  read: () => Promise<Lists[K][number][]>,
): Promise<Lists[K]> {
  return keptFor(db).get(organisationId, version, kind, () => read().then((list) => freeze(list as object[]))) as Promise<Lists[K]>;
}
