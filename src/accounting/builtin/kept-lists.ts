/**
 * The builtin ledger's chart of accounts and contacts, kept per organisation while its data version
 * stands. Every write to acct_accounts or acct_contacts moves organisations.data_version in the
 * writer's own transaction (migration 006), and every call reads that version live with the
 * organisation's row (getCallAccess; an API client's call, with its token: token-check.ts), so a
 * list kept under the version a call read is exactly what the tables hold at that version: a
 * change is seen by the next call. A call that cannot vouch for
 * its version (a change, or a read from a replica that may lag the primary's version) passes none
 * and reads the tables.
 *
 * Kept per database handle (a test's in-memory store is never another's), one entry per
 * organisation, at most MAX_ORGANISATIONS (the oldest dropped first). The lists are frozen: they
 * are shared by every call at that version.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { ChartAccount, Contact } from '../types.js';

const MAX_ORGANISATIONS = 1000;

interface Kept {
  version: string;
  chart?: Promise<readonly ChartAccount[]>;
  contacts?: Promise<readonly Contact[]>;
}

const keptByDb = new WeakMap<Kysely<Database>, Map<string, Kept>>();

function freeze<T extends object>(list: T[]): readonly T[] {
  for (const item of list) Object.freeze(item);
  return Object.freeze(list);
}

/** The list of this kind at this version: the one kept, or read now (once, however many ask at the same time) and kept. */
export function keptList<K extends 'chart' | 'contacts'>(
  db: Kysely<Database>,
  organisationId: string,
  version: string,
  kind: K,
  read: () => Promise<NonNullable<Awaited<Kept[K]>>[number][]>,
): NonNullable<Kept[K]> {
  let byOrganisation = keptByDb.get(db);
  if (!byOrganisation) keptByDb.set(db, (byOrganisation = new Map()));
  let entry = byOrganisation.get(organisationId);
  if (!entry || entry.version !== version) {
    entry = { version };
    byOrganisation.delete(organisationId);
    byOrganisation.set(organisationId, entry);
    if (byOrganisation.size > MAX_ORGANISATIONS) byOrganisation.delete(byOrganisation.keys().next().value!);
  }
  const kept = entry[kind];
  if (kept) return kept as NonNullable<Kept[K]>;
  const reading = read().then((list) => freeze(list as object[]) as never);
  entry[kind] = reading;
  const forgetOnFailure = entry;
  // a failed read is not kept: the next call reads again
  reading.catch(() => {
    if (forgetOnFailure[kind] === reading) delete forgetOnFailure[kind];
  });
  return reading as NonNullable<Kept[K]>;
}
