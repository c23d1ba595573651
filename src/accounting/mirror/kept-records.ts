/**
 * The mirror's record lists, parsed once per mirror version and kept in this process: a list
 * changes only with a pass that moves the version, so every call between two passes reads the same
 * lists, and parsing a few thousand JSON records on each call (banking.accounts, bills.list_to_pay,
 * documents.get) would cost more than the answer. Kept per database handle (tests open several),
 * for the most recently used organisations only; callers must not change what they are given.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { readRecords } from './store.js';

const MAX_ORGANISATIONS = 64;

interface Kept {
  version: number;
  lists: Map<string, Promise<unknown[]>>;
}

const byDatabase = new WeakMap<Kysely<Database>, Map<string, Kept>>();

export function keptRecords<T>(db: Kysely<Database>, organisationId: string, version: number, list: string): Promise<T[]> {
  let organisations = byDatabase.get(db);
  if (!organisations) byDatabase.set(db, (organisations = new Map()));
  let kept = organisations.get(organisationId);
  if (!kept || kept.version !== version) {
    kept = { version, lists: new Map() };
    organisations.delete(organisationId);
    if (organisations.size >= MAX_ORGANISATIONS) organisations.delete(organisations.keys().next().value!);
  } else organisations.delete(organisationId);
  // most recently used last
  organisations.set(organisationId, kept);
  let records = kept.lists.get(list) as Promise<T[]> | undefined;
  if (!records) {
    records = readRecords<T>(db, organisationId, list);
    kept.lists.set(list, records);
    const lists = kept.lists;
    // a failed read is not kept
    records.catch(() => lists.delete(list));
  }
  return records;
}
