/**
 * A long write transaction (an import) that queues for the database's writer instead of failing
 * when another one holds it (issue 36 item 7). Within one process the writes already queue: on
 * SQLite they share the one main connection behind Kysely's mutex, and on PostgreSQL the `lock`
 * step (an organisation's row lock) orders two imports of one organisation while imports of
 * different organisations run side by side. Across processes on SQLite (`ledgerline import ledger`
 * beside the server, or two of them) a writer's statement gives up after a few seconds
 * (sqlite-writer.ts); here the `lock` step, the transaction's first write, is tried once per
 * attempt, and the attempt again after a pause of the event loop's own (the main connection free
 * meanwhile), until `waitMs` has passed; then it is refused (WriterBusy) with nothing written. Only a
 * refused `lock` step is tried again: `work` runs once, holding the lock.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import { isLockedByAnotherWriter, withLockWait } from './sqlite-writer.js';

/** How long an import waits for another process's write by default: a page's upload, answered within a proxy's minute. */
export const WRITER_WAIT_MS = 45_000;
/** ... and from the command line, which can wait for a large file to load. */
export const COMMAND_LINE_WRITER_WAIT_MS = 15 * 60_000;

export class WriterBusy extends Error {
  override name = 'WriterBusy';
  constructor(readonly waitedMs: number) {
    super(`another process has been writing to the database for over ${Math.round(waitedMs / 1000)} s (another import?): try again when it has finished`);
  }
}

export interface WriteTurnOptions {
  /** how long to wait, in all, for another process's write before refusing */
  waitMs: number;
  /** called once, when the transaction first has to wait */
  onWait?: () => void;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function inWriteTurn<T>(
  db: Kysely<Database>,
  lock: (trx: Transaction<Database>) => Promise<unknown>,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: WriteTurnOptions,
): Promise<T> {
  const began = performance.now();
  for (let waited = false; ;) {
    let locked = false;
    try {
      return await db.transaction().execute(async (trx) => {
        // tried once: between tries the main connection is free for this process's other writes
        await withLockWait(0, () => lock(trx));
        locked = true;
        return work(trx);
      });
    } catch (error) {
      if (locked || !isLockedByAnotherWriter(error)) throw error;
      if (performance.now() - began >= options.waitMs) throw new WriterBusy(performance.now() - began);
      if (!waited) options.onWait?.();
      waited = true;
      await pause(100);
    }
  }
}
