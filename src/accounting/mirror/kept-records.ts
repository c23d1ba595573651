/**
 * The mirror's record lists, parsed once per mirror version and kept in this process: a list
 * changes only with a pass that moves the version, so every call between two passes reads the same
 * lists, and parsing a few thousand JSON records on each call (banking.accounts, bills.list_to_pay,
 * documents.get) would cost more than the answer. Kept per database handle (tests open several) in
 * a VersionedCache (store/versioned-cache.ts), for the most recently used organisations only;
 * callers must not change what they are given.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { cachePerHandle } from '../../store/versioned-cache.js';
import { readRecords } from './store.js';

const MAX_ORGANISATIONS = 64;

const keptFor = cachePerHandle<number, unknown[]>(MAX_ORGANISATIONS);

export function keptRecords<T>(db: Kysely<Database>, organisationId: string, version: number, list: string): Promise<T[]> {
  return keptFor(db).get(organisationId, version, list, () => readRecords<T>(db, organisationId, list)) as Promise<T[]>;
}
