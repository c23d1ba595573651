/**
 * The local mirror of a vendor's books (issue 16): what a Xero or QuickBooks organisation's
 * operations read, kept up to date by passes that ask the vendor only for what changed (Xero:
 * If-Modified-Since and the journals after the last one; QuickBooks: Change Data Capture).
 *
 * A call first makes sure the mirror is at most `maxAgeMs` old: when it is older, the call runs a
 * pass, or, when another call (in any instance) holds the pass's lease, reads the mirror as it
 * stands; a pass failing fails its call with the vendor's problem, as a live read would (but a pass
 * refused by the call budget leaves a whole copy to answer: docs/decisions.md). Until the
 * first full copy is done nothing is answered from it: calls wait for the pass, and a pass cut short
 * (the call's time limit, the vendor's call budget) has saved its cursors, so the next call resumes.
 * The connector's changeToken is the mirror's version, which every pass that changed something
 * moves, so answers kept by the service stay right.
 *
 * A pass that fails (not for the budget, the time limit or a lease taken over) is recorded on the
 * mirror's row: failures in a row, the problem, and when the warm-up may try again (store.ts
 * backoffMs: 30 s doubling to an hour), so an organisation whose books cannot be read is not asked
 * every 30 s across every instance. A call still runs its own pass, which costs one refused request
 * at most (a connection known to need reconnecting costs none); a pass that goes through ends the
 * backoff.
 */
import { randomBytes } from 'node:crypto';
import { VENDOR_NAMES, type Vendor } from '../../domain/accounting-vendors.js';
import type { Kysely } from 'kysely';
import { CAPABILITIES, type DialectCapabilities } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import { AccountingSystemError, type Contact, type LedgerLine } from '../types.js';
import { clearMirroredLedger, putContacts, replaceTransactions } from './ledger.js';
import {
  claimPass,
  deleteMirror,
  deleteRecords,
  endPass,
  getMirror,
  putRecords,
  readRecords,
  readRecordsByRef,
  recordPassFailure,
  restartMirror,
  savePassState,
  storedBodies,
  type MirrorRecord,
} from './store.js';

/** the smaller parameter limit of the two databases, so the mirror's writes fit both */
const PORTABLE: DialectCapabilities = CAPABILITIES.sqlite;

/**
 * Forgets the organisation's mirror (its copy of the vendor's books): when it is disconnected,
 * nothing read from the vendor stays behind.
 */
export async function forgetMirror(db: Kysely<Database>, organisationId: string): Promise<void> {
  await clearMirroredLedger(db, organisationId);
  await deleteMirror(db, organisationId);
}

/** What a vendor's pass writes through and reads back, for one organisation. */
export class MirrorWriter {
  changed = false;

  constructor(
    readonly db: Kysely<Database>,
    readonly organisationId: string,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /**
   * Writes the records that differ from the stored copies and answers those: a pass that asks
   * with a margin gets some records again, and they neither move the version nor are written twice.
   */
  async putRecords<R extends MirrorRecord>(list: string, records: R[]): Promise<R[]> {
    if (records.length === 0) return [];
    const stored = await storedBodies(
      this.db,
      this.organisationId,
      list,
      records.map((r) => r.id),
    );
    const changed = records.filter((r) => stored.get(r.id) !== JSON.stringify(r.body));
    if (changed.length === 0) return [];
    this.changed = true;
    await putRecords(this.db, PORTABLE, this.organisationId, list, changed);
    return changed;
  }

  async deleteRecords(list: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    this.changed = true;
    await deleteRecords(this.db, this.organisationId, list, ids);
  }

  records<T>(list: string): Promise<T[]> {
    return readRecords<T>(this.db, this.organisationId, list);
  }

  recordsByRef<T>(list: string, refs: string[]): Promise<T[]> {
    return readRecordsByRef<T>(this.db, this.organisationId, list, refs);
  }

  async putContacts(contacts: Contact[]): Promise<void> {
    if (contacts.length === 0) return;
    this.changed = true;
    await putContacts(this.db, PORTABLE, this.organisationId, contacts);
  }

  /** The transactions with these ids become the given lines (grouped by transactionId); ids without lines are deleted. */
  async replaceTransactions(ids: readonly string[], lines: readonly LedgerLine[]): Promise<void> {
    if (ids.length === 0 && lines.length === 0) return;
    this.changed = true;
    await replaceTransactions(this.db, PORTABLE, this.organisationId, ids, lines);
  }

  /** Saves the cursors reached so far (a pass cut short resumes from here) and renews the pass's lease. */
  async save(state: unknown): Promise<void> {
    if (!(await savePassState(this.db, this.organisationId, this.owner, state, this.leaseMs))) throw new LeaseLost();
  }
}

/** A pass that held its lease too long and lost it to another call: not a failure of the books. */
class LeaseLost extends AccountingSystemError {
  constructor() {
    super('another call took over copying the books (this pass held its lease too long); try again');
  }
}

/**
 * Whether a pass's error is the books failing (counted towards the backoff): not the call budget
 * being spent, the call's time limit cutting a pass short (its cursors are kept: it resumes), or
 * another call taking the pass over.
 */
function isFailure(error: unknown): boolean {
  if (error instanceof LeaseLost) return false;
  return !(error instanceof AccountingSystemError) || (error.code !== 'accounting_rate_limited' && error.code !== 'accounting_timeout');
}

/** A vendor's way of bringing the mirror up to date. */
export interface MirrorSource<S> {
  readonly vendor: string;
  /** the company mirrored, `<vendor>:<tenant or realm id>`: a mirror of another one is cleared and made again */
  readonly company: string;
  /** One pass from the saved state ({} the first time): reads what changed since and writes it. Resolves to the new state. */
  pass(state: Partial<S>, writer: MirrorWriter): Promise<S>;
}

export interface MirrorOptions {
  /** how old the mirror may be before a call brings it up to date (ms) */
  maxAgeMs: number;
  /** how long a pass may hold its lease before another instance may take over (ms) */
  leaseMs?: number;
}

/** Where an organisation's mirror is kept, and how old it may be before a call brings it up to date. */
export interface MirrorPlace {
  db: Kysely<Database>;
  organisationId: string;
  maxAgeMs: number;
}

export const DEFAULT_MIRROR_MAX_AGE_MS = 60_000;
const DEFAULT_LEASE_MS = 120_000;
const POLL_MS = 100;
/** how long a call waits for a first copy another call is making, before it says so */
const FIRST_COPY_WAIT_MS = 8_000;

export class Mirror<S> {
  private readiness: Promise<number> | undefined;

  constructor(
    readonly db: Kysely<Database>,
    readonly organisationId: string,
    private readonly source: MirrorSource<S>,
    private readonly options: MirrorOptions,
  ) {}

  /** Resolves, with the mirror's version, once it can be read (at most once per instance: one operation). */
  ready(): Promise<number> {
    if (!this.readiness) {
      this.readiness = this.bringUpToDate();
      // a failed pass is not kept: the next call tries again
      this.readiness.catch(() => (this.readiness = undefined));
    }
    return this.readiness;
  }

  async changeToken(): Promise<string> {
    return `${this.source.vendor}-mirror:${await this.ready()}`;
  }

  private async bringUpToDate(): Promise<number> {
    const leaseMs = this.options.leaseMs ?? DEFAULT_LEASE_MS;
    const owner = randomBytes(9).toString('base64url');
    const waitUntil = Date.now() + FIRST_COPY_WAIT_MS;
    const isFresh = (row: Awaited<ReturnType<typeof getMirror>>) =>
      row?.vendor === this.source.company && row.complete === 1 && row.synced_at !== null && Date.now() - Date.parse(row.synced_at) < this.options.maxAgeMs;
    for (;;) {
      const row = await getMirror(this.db, this.organisationId);
      const ours = row?.vendor === this.source.company;
      if (row && isFresh(row)) return Number(row.version);
      if (await claimPass(this.db, this.organisationId, this.source.company, owner, leaseMs)) {
        const held = (await getMirror(this.db, this.organisationId))!;
        // another call's pass may have ended between the read above and the claim: its copy stands
        if (isFresh(held)) {
          await endPass(this.db, this.organisationId, owner, { changed: false, complete: false });
          return Number(held.version);
        }
        if (held.vendor !== this.source.company) {
          await clearMirroredLedger(this.db, this.organisationId);
          await restartMirror(this.db, this.organisationId, owner, this.source.company);
        }
        try {
          await this.runPass(owner, leaseMs);
        } catch (error) {
          // a pass that failed backs the organisation off in the background (warm-up.ts), persisted
          if (isFailure(error)) await recordPassFailure(this.db, this.organisationId, (error as Error).message);
          // the vendor's call budget is spent: a whole copy is read as it stands (a little older than
          // its age) rather than refused, and brought up to date once the budget allows
          const after = await getMirror(this.db, this.organisationId);
          const whole = after?.complete === 1 && after.vendor === this.source.company;
          if (whole && error instanceof AccountingSystemError && error.code === 'accounting_rate_limited') return Number(after.version);
          throw error;
        }
        return Number((await getMirror(this.db, this.organisationId))!.version);
      }
      // another call holds the pass: a complete mirror of this company is read as it stands, a first copy waited for
      if (ours && row?.complete === 1) return Number(row.version);
      if (Date.now() > waitUntil) {
        throw new AccountingSystemError(
          `Ledgerline is still making its first copy of the organisation's books ` +
            `from ${VENDOR_NAMES[this.source.vendor as Vendor] ?? this.source.vendor}; calls answer once it is whole: try again in a minute`,
          'accounting_timeout',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async runPass(owner: string, leaseMs: number): Promise<void> {
    const row = await getMirror(this.db, this.organisationId);
    const state = JSON.parse(row?.state ?? '{}') as Partial<S>;
    const writer = new MirrorWriter(this.db, this.organisationId, owner, leaseMs);
    let next: S;
    try {
      next = await this.source.pass(state, writer);
    } catch (error) {
      // the cursors saved so far stay; the lease is given back so the next call resumes
      await endPass(this.db, this.organisationId, owner, { changed: writer.changed, complete: false });
      throw error;
    }
    await endPass(this.db, this.organisationId, owner, { state: next, changed: writer.changed, complete: true });
  }
}
