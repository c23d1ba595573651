/**
 * "Last used" stamps written after the request rather than during it (issue 36 item 7): a bearer
 * token's client (last_used_at) and a web session (last_seen_at). A read must never wait for a
 * write: on SQLite a write waits for whoever holds the write lock (an import loading a journal in
 * one transaction, in this process or another), and on PostgreSQL for row locks and a free pooled
 * connection. So a request only notes its stamp here, in memory; a timer writes what was noted in
 * one transaction a moment later, best effort: a write that fails (the database busy or away) is
 * tried again later, and given up after a few tries. Nothing here ever throws into a request.
 * A session ended on a read is deleted the same way; until then this process remembers it ended.
 *
 * The callers read the stamp they noted (`stamped`) beside the stored one, so a stamp not written
 * yet still counts (the session's idle time, the client's once-a-minute stamp). Per process: another
 * instance sees the stamp once it is written, seconds later.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface StampedColumn {
  table: string;
  /** the table's key column */
  key: string;
  /** the ISO instant column written */
  column: string;
}

export const CLIENT_LAST_USED: StampedColumn = { table: 'oauth_clients', key: 'client_id', column: 'last_used_at' };
export const SESSION_LAST_SEEN: StampedColumn = { table: 'web_sessions', key: 'id_hash', column: 'last_seen_at' };

/** How soon after the first stamp noted the write is made. */
const WRITE_AFTER_MS = 2000;
/** After a failed write, the next try; and how many failed writes in a row drop what was noted. */
const RETRY_AFTER_MS = 15_000;
const TRIES = 5;

class Stamps {
  private noted = new Map<string, string>();
  private ended = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private failures = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly target: StampedColumn,
  ) {}

  stamp(key: string, at: string): void {
    const before = this.noted.get(key);
    if (!before || before < at) this.noted.set(key, at);
    this.schedule(WRITE_AFTER_MS);
  }

  stamped(key: string): string | undefined {
    return this.noted.get(key);
  }

  end(key: string): void {
    this.noted.delete(key);
    this.ended.add(key);
    this.schedule(WRITE_AFTER_MS);
  }

  hasEnded(key: string): boolean {
    return this.ended.has(key);
  }

  private schedule(ms: number): void {
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, ms);
    // a process with nothing else to do does not stay up for its stamps (serve writes them at exit)
    this.timer.unref();
  }

  /** Writes what was noted so far; resolves when done or failed, never rejects. */
  write(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing ??= this.writeOnce().finally(() => {
      this.writing = undefined;
      if (this.noted.size || this.ended.size) this.schedule(this.failures ? RETRY_AFTER_MS : WRITE_AFTER_MS);
    });
    return this.writing;
  }

  private async writeOnce(): Promise<void> {
    const stamps = [...this.noted];
    const ended = [...this.ended];
    if (!stamps.length && !ended.length) return;
    const { table, key, column } = this.target;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [k, at] of stamps) {
          // never back in time: another instance may have written a later stamp
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${at} where ${sql.ref(key)} = ${k} and (${sql.ref(column)} is null or
            ${sql.ref(column)} < ${at})`.execute(trx);
        }
        for (const k of ended) await sql`delete from ${sql.table(table)} where ${sql.ref(key)} = ${k}`.execute(trx);
      });
      this.failures = 0;
    } catch {
      // best effort: kept for the next try, dropped after a few
      if (++this.failures < TRIES) return;
      this.failures = 0;
    }
    // what is written (or given up) goes, unless a later stamp was noted meanwhile
    for (const [k, at] of stamps) if (this.noted.get(k) === at) this.noted.delete(k);
    for (const k of ended) this.ended.delete(k);
  }
}

const byDatabase = new WeakMap<Kysely<Database>, Map<string, Stamps>>();

/** The stamps noted for this column of this database (one set per Kysely instance and table). */
export function stampsOf(db: Kysely<Database>, target: StampedColumn): Stamps {
  let tables = byDatabase.get(db);
  if (!tables) byDatabase.set(db, (tables = new Map()));
  let stamps = tables.get(target.table);
  if (!stamps) tables.set(target.table, (stamps = new Stamps(db, target)));
  return stamps;
}

/** Writes every stamp noted for this database now (at shutdown, and in tests); never rejects. */
export async function writeStamps(db: Kysely<Database>): Promise<void> {
  // twice: a write already under way has not got what was noted after it began
  for (let round = 0; round < 2; round++) await Promise.all([...(byDatabase.get(db)?.values() ?? [])].map((s) => s.write()));
}

/** The later of two ISO instants, either possibly missing. */
export function later(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}
