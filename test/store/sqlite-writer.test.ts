/**
 * SQLite's main connection while another connection (another process, in life) holds the write
 * lock (issue 36 item 7, store/sqlite-writer.ts, write-turn.ts, deferred-stamps.ts): a write waits
 * with the event loop turning and goes through once the lock is free; a client's last use is noted
 * without waiting and written afterwards; an import waits its turn, saying so once, or past its wait
 * is refused as busy with nothing written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { createApiClient, getClient, touchClient } from '../../src/auth/clients.js';
import { importJournal } from '../../src/import/journal/load.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import { provisionOrganisation } from '../../src/provision.js';
import { writeStamps } from '../../src/store/deferred-stamps.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import type { OrganisationRow } from '../../src/store/schema.js';

/** The longest the event loop went without turning while `work` ran (a 5 ms interval's largest gap). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    return { value: await work(), stallMs };
  } finally {
    clearInterval(timer);
  }
}

const JOURNAL = Buffer.from('2026-03-01 (W1) Stationer | Paper\n    Expenses:Office  £12.50\n    Assets:Bank:Current\n');

describe('SQLite writer beside another connection that writes', () => {
  let dir: string;
  let path: string;
  let store: Store;
  let org: OrganisationRow;
  let other: SqliteDatabase.Database;
  /** another connection takes the write lock, as an import in another process does, for `ms` */
  const holdWriteLock = (ms: number) => {
    other.exec('begin immediate');
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('rollback');
        resolve();
      }, ms),
    );
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-writer-'));
    path = join(dir, 'writer.sqlite');
    store = openStore({ sqlitePath: path, sqliteReadWorkers: 1 });
    await migrate(store);
    org = await provisionOrganisation(store.db, { name: 'Writer Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    other = new SqliteDatabase(path);
  });
  after(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write waits for the lock with the event loop turning, and goes through when it is free', async () => {
    const held = holdWriteLock(600);
    const { stallMs } = await longestStall(() => store.db.updateTable('organisations').set({ name: 'Writer Ltd' }).where('id', '=', org.id).execute());
    await held;
    assert.ok(stallMs < 300, `the event loop stood still ${Math.round(stallMs)} ms while the write waited`);
  });

  it("a client's last use is noted at once, while the lock is held, and written once it is free", async () => {
    const client = await createApiClient(store.db, { organisationId: org.id, name: 'Nightly', scopes: ['service.read'] });
    const held = holdWriteLock(800);
    const t0 = performance.now();
    await touchClient(store.db, { client_id: client.clientId, last_used_at: null });
    assert.ok(performance.now() - t0 < 50, 'touchClient did not wait for the write lock');
    assert.equal((await getClient(store.db, client.clientId))!.last_used_at, null, 'not written yet');
    await held;
    await writeStamps(store.db);
    assert.ok((await getClient(store.db, client.clientId))!.last_used_at, 'written once the lock was free');
  });

  it('an import waits its turn behind another writer, saying so once', async () => {
    const held = holdWriteLock(1500);
    let waits = 0;
    const { value: report, stallMs } = await longestStall(() =>
      importJournal(store, { organisation: org, fileName: 'turn.journal', bytes: JOURNAL, allowNewAccounts: true, onWait: () => waits++ }),
    );
    await held;
    assert.equal(report.new, 1);
    assert.equal(waits, 1);
    assert.ok(stallMs < 300, `the event loop stood still ${Math.round(stallMs)} ms while the import waited`);
  });

  it('past its wait an import is refused as busy, with nothing written', async () => {
    const held = holdWriteLock(2000);
    try {
      await assert.rejects(
        importJournal(store, {
          organisation: org,
          fileName: 'busy.journal',
          bytes: Buffer.from(JOURNAL.toString().replace('W1', 'W2')),
          allowNewAccounts: true,
          waitMs: 1000,
        }),
        (error: unknown) =>
          error instanceof ImportRefusal &&
          error.code === 'busy' &&
          /^another process has been writing to the database for over \d+ s \(another import\?\): try again when it has finished$/.test(error.message),
      );
    } finally {
      await held;
    }
    const transactions = await store.db.selectFrom('acct_transactions').select('number').where('organisation_id', '=', org.id).execute();
    assert.deepEqual(
      transactions.map((t) => t.number),
      ['W1'],
    );
  });
});
