/**
 * The mirror's own rows (migration 011): the pass state of each mirrored organisation with its
 * lease, and the vendor's records as sent. Their row types are in store/schema-accounting.ts, part of
 * store/schema.ts's Database.
 */
import type { Kysely, Transaction } from 'kysely';
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import { nowIso } from '../../store/ids.js';
import type { AccountingMirrorRow, Database } from '../../store/schema.js';

export type { AccountingMirrorRecordRow, AccountingMirrorRow, MirrorTables } from '../../store/schema-accounting.js';

type Db = Kysely<Database> | Transaction<Database>;

export function getMirror(db: Db, organisationId: string): Promise<AccountingMirrorRow | undefined> {
  return db.selectFrom('accounting_mirrors').selectAll().where('organisation_id', '=', organisationId).executeTakeFirst();
}

/** A random start, below 2^30: PostgreSQL's integer column holds 2^31, leaving a billion passes to count up. */
const firstVersion = () => randomInt(0, 2 ** 30);

/**
 * Claims the organisation's pass for leaseMs: true when this caller holds it. Creates the row on
 * the first pass. A lease outlives a crashed holder by at most leaseMs.
 */
export async function claimPass(db: Db, organisationId: string, vendor: string, owner: string, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  await db
    .insertInto('accounting_mirrors')
    // a new mirror starts at a version of its own, never one an earlier mirror of the organisation
    // had (it was forgotten, or another company connected): answers kept at that version are not its
    .values({
      organisation_id: organisationId,
      vendor,
      state: '{}',
      version: firstVersion(),
      complete: 0,
      synced_at: null,
      lease_owner: null,
      lease_until: null,
      failures: 0,
      retry_at: null,
      problem: null,
    })
    .onConflict((oc) => oc.column('organisation_id').doNothing())
    .execute();
  const claimed = await db
    .updateTable('accounting_mirrors')
    .set({ lease_owner: owner, lease_until: until })
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** A pass of a lease holder finding the mirror of another company: start again from nothing, for this one. */
export async function restartMirror(db: Db, organisationId: string, owner: string, company: string): Promise<void> {
  await db.deleteFrom('accounting_mirror_records').where('organisation_id', '=', organisationId).execute();
  await db
    .updateTable('accounting_mirrors')
    .set({ vendor: company, state: '{}', complete: 0, synced_at: null, version: sql<number>`version + 1` })
    .where('organisation_id', '=', organisationId)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Deletes the organisation's mirror: its records and its row (the mirrored ledger: ledger.ts clearMirroredLedger). */
export async function deleteMirror(db: Db, organisationId: string): Promise<void> {
  await db.deleteFrom('accounting_mirror_records').where('organisation_id', '=', organisationId).execute();
  await db.deleteFrom('accounting_mirrors').where('organisation_id', '=', organisationId).execute();
}

/**
 * Saves a pass's progress (its cursors), so a pass cut short resumes where it was, and renews its
 * lease: a first copy of a large book may take longer than one lease. False when the lease was lost
 * (held past its time and claimed by another call): the pass must stop writing.
 */
export async function savePassState(db: Db, organisationId: string, owner: string, state: unknown, leaseMs: number): Promise<boolean> {
  const saved = await db
    .updateTable('accounting_mirrors')
    .set({ state: JSON.stringify(state), lease_until: new Date(Date.now() + leaseMs).toISOString() })
    .where('organisation_id', '=', organisationId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(saved.numUpdatedRows) === 1;
}

/** Ends a pass: its state, the version moved when it changed anything, the lease given back. */
export async function endPass(db: Db, organisationId: string, owner: string, end: { state?: unknown; changed: boolean; complete: boolean }): Promise<void> {
  await db
    .updateTable('accounting_mirrors')
    .set({
      ...(end.state === undefined ? {} : { state: JSON.stringify(end.state) }),
      ...(end.changed ? { version: sql<number>`version + 1` } : {}),
      // a pass that went through ends any backoff
      ...(end.complete ? { complete: 1, synced_at: nowIso(), failures: 0, retry_at: null, problem: null } : {}),
      lease_owner: null,
      lease_until: null,
    })
    .where('organisation_id', '=', organisationId)
    .where('lease_owner', '=', owner)
    .execute();
}

/** How long the warm-up leaves a mirror after `failures` failed passes in a row: 30 s, doubling, at most an hour. */
export function backoffMs(failures: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, failures - 1), 3_600_000);
}

/** Records a failed pass: one more failure, the next background try after the backoff, and why. */
export async function recordPassFailure(db: Db, organisationId: string, problem: string, now = Date.now()): Promise<void> {
  const row = await db.selectFrom('accounting_mirrors').select('failures').where('organisation_id', '=', organisationId).executeTakeFirst();
  if (!row) return;
  const failures = Number(row.failures) + 1;
  await db
    .updateTable('accounting_mirrors')
    .set({ failures, retry_at: new Date(now + backoffMs(failures)).toISOString(), problem: problem.slice(0, 1000) })
    .where('organisation_id', '=', organisationId)
    .execute();
}

/** Ends a backoff (the organisation was connected again: what failed may work now). */
export async function clearBackoff(db: Db, organisationId: string): Promise<void> {
  await db.updateTable('accounting_mirrors').set({ failures: 0, retry_at: null, problem: null }).where('organisation_id', '=', organisationId).execute();
}

export interface MirrorRecord {
  id: string;
  ref?: string | null;
  body: unknown;
}

/** Writes records as the vendor sent them, replacing earlier copies of the same ids. */
export async function putRecords(db: Db, dialect: DialectCapabilities, organisationId: string, list: string, records: MirrorRecord[]): Promise<void> {
  const rows = records.map((r) => ({ organisation_id: organisationId, list, id: r.id, ref: r.ref ?? null, body: JSON.stringify(r.body) }));
  for (const chunk of chunks(rows, Math.floor(dialect.maxParameters / 5))) {
    await db
      .insertInto('accounting_mirror_records')
      .values(chunk)
      .onConflict((oc) => oc.columns(['organisation_id', 'list', 'id']).doUpdateSet({ ref: sql`excluded.ref`, body: sql`excluded.body` }))
      .execute();
  }
}

export async function deleteRecords(db: Db, organisationId: string, list: string, ids: string[]): Promise<void> {
  for (const chunk of chunks(ids, 500)) {
    await db.deleteFrom('accounting_mirror_records').where('organisation_id', '=', organisationId).where('list', '=', list).where('id', 'in', chunk).execute();
  }
}

/** The stored bodies (JSON text) of these ids of a list. */
export async function storedBodies(db: Db, organisationId: string, list: string, ids: string[]): Promise<Map<string, string>> {
  return new Map((await recordsWhere(db, organisationId, list, 'id', ids)).map((r) => [r.id, r.body]));
}

/** Every record of a list, parsed. */
export async function readRecords<T>(db: Db, organisationId: string, list: string): Promise<T[]> {
  const rows = await db.selectFrom('accounting_mirror_records').select('body').where('organisation_id', '=', organisationId).where('list', '=', list).execute();
  return rows.map((r) => JSON.parse(r.body) as T);
}

/** The records of a list that belong to these refs, parsed. */
export async function readRecordsByRef<T>(db: Db, organisationId: string, list: string, refs: string[]): Promise<T[]> {
  return (await recordsWhere(db, organisationId, list, 'ref', refs)).map((r) => JSON.parse(r.body) as T);
}

/** The id and body of a list's records whose id or ref is one of `values`, read 500 values at a time. */
async function recordsWhere(db: Db, organisationId: string, list: string, by: 'id' | 'ref', values: string[]): Promise<{ id: string; body: string }[]> {
  const out: { id: string; body: string }[] = [];
  for (const chunk of chunks(values, 500)) {
    const rows = await db
      .selectFrom('accounting_mirror_records')
      .select(['id', 'body'])
      .where('organisation_id', '=', organisationId)
      .where('list', '=', list)
      .where(by, 'in', chunk)
      .execute();
    out.push(...rows);
  }
  return out;
}
