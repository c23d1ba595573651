/**
 * The SQLite read pool (store/sqlite-read-pool.ts, sqlite-read-driver.ts) on a real database file:
 * reads see every committed write at once, a read-only transaction is a snapshot on a reader of its
 * own and does not hold the main connection, transactions that write keep their own reads, errors
 * and blobs come back as the main connection gives them, statements really run on the readers, and
 * answers that arrive together go back to their requests a few at a time, so the event loop turns.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { TRANSACTIONS_PER_READER } from '../../src/store/sqlite-read-pool.js';
import type { Database } from '../../src/store/schema.js';
import { busy, mostInOneTurn } from '../helpers/event-loop.js';

const ORG = 'org_read_pool';

describe('SQLite read pool', () => {
  let dir: string;
  let store: Store;
  const contacts = async (db: Kysely<Database> = store.db) =>
    Number(
      (
        await db
          .selectFrom('acct_contacts')
          .select(sql<number>`count(*)`.as('n'))
          .where('organisation_id', '=', ORG)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let next = 0;
  const addContact = (db = store.db) =>
    db
      .insertInto('acct_contacts')
      .values({ id: `ct_pool_${next++}`, organisation_id: ORG, name: `Contact ${next}`, kind: 'supplier' })
      .execute();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-read-pool-'));
    store = openStore({ sqlitePath: join(dir, 'pool.sqlite'), sqliteReadWorkers: 2 });
    await migrate(store);
    await provisionOrganisation(store.db, { id: ORG, name: 'Read Pool Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands answers that arrive together back across turns of the event loop, not all in one', async () => {
    // each answer's request does 2 ms of work of its own, as shaping and serialising an answer does;
    // they arrive while the first is handled, and handed back as they came many ran in one turn
    // (the loop held 86 ms at once); one or two a turn now. Counted, not timed: a loaded machine's
    // scheduling cannot move it.
    const most = await mostInOneTurn((mark) =>
      Promise.all(
        Array.from({ length: 80 }, async () => {
          await sql`select 1`.execute(store.db);
          mark();
          busy(2);
        }),
      ),
    );
    assert.ok(most <= 2, `${most} answers were handed back in one turn`);
  });

  it('reads run on the readers: a setting made on the main connection is not theirs', async () => {
    await sql`pragma main.cache_size = -1234`.execute(store.db);
    const seen = await sql<{ cache_size: number }>`pragma main.cache_size`.execute(store.db);
    // the pragma was set on the main connection; a reader's connection keeps its default
    assert.notEqual(Number(seen.rows[0]!.cache_size), -1234);
  });

  it("reads through a memory map on the readers' connections, where the main connection has none", async () => {
    const mapped = async (db: Kysely<Database>) => Number((await sql<{ mmap_size: number }>`pragma mmap_size`.execute(db)).rows[0]!.mmap_size);
    assert.ok((await mapped(store.db)) >= 2 ** 30, 'a single read');
    assert.ok((await store.db.transaction().setAccessMode('read only').execute(mapped)) >= 2 ** 30, 'a snapshot');
    assert.equal(await store.db.transaction().execute(mapped), 0, 'a transaction that may write stays on the main connection');
  });

  it('a read sees a write committed just before it, and many reads at once all answer', async () => {
    const before = await contacts();
    await addContact();
    assert.equal(await contacts(), before + 1);
    const counts = await Promise.all(Array.from({ length: 50 }, () => contacts()));
    assert.deepEqual(new Set(counts), new Set([before + 1]));
  });

  it('a read-only transaction is a snapshot of its own and leaves the main connection free', async () => {
    const start = await contacts();
    const inside = await store.db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        const first = await contacts(trx);
        // on the single connection this write would wait for the transaction: a deadlock
        const write = addContact();
        const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('the write waited for the read-only transaction')), 3000).unref());
        await Promise.race([write, timeout]);
        const second = await contacts(trx);
        return { first, second, outside: await contacts() };
      });
    assert.equal(inside.first, start);
    assert.equal(inside.second, start, 'the snapshot does not see a write committed after its first read');
    assert.equal(inside.outside, start + 1, 'a read outside the transaction does');
    assert.equal(await contacts(), start + 1);
  });

  it('holds at most TRANSACTIONS_PER_READER snapshots a reader at once: the next waits for one to end, leaving the main connection free', async () => {
    // 2 readers; every snapshot reads, then holds its transaction until the gate opens
    const held = 2 * TRANSACTIONS_PER_READER;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let begun = 0;
    const snapshots = Array.from({ length: held + 1 }, () =>
      store.db
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx) => {
          const seen = await contacts(trx);
          begun++;
          await gate;
          return seen;
        }),
    );
    for (let waited = 0; begun < held && waited < 5_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(begun, held, 'one snapshot waits for a connection');
    // the main connection is not taken by the one waiting: a write goes through meanwhile
    await addContact();
    open();
    const seen = await Promise.all(snapshots);
    assert.equal(begun, held + 1);
    // the last began when a connection was handed back, after the write
    assert.equal(seen[held], seen[0]! + 1);
  });

  it('a transaction that writes reads its own writes on the main connection, and a rollback undoes them', async () => {
    const start = await contacts();
    await store.db.transaction().execute(async (trx) => {
      await addContact(trx);
      assert.equal(await contacts(trx), start + 1);
    });
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await addContact(trx);
        throw new Error('undo');
      }),
      /undo/,
    );
    assert.equal(await contacts(), start + 1);
  });

  it('an insert returning rows goes to the main connection', async () => {
    const rows = await store.db
      .insertInto('acct_contacts')
      .values({ id: 'ct_pool_returning', organisation_id: ORG, name: 'Returning', kind: 'customer' })
      .returning(['id'])
      .execute();
    assert.deepEqual(rows, [{ id: 'ct_pool_returning' }]);
  });

  it('errors come back with their message and code; blobs as Buffers', async () => {
    await assert.rejects(sql`select no_such_column from acct_contacts`.execute(store.db), (error: Error & { code?: string }) => {
      assert.match(error.message, /no such column: no_such_column/);
      assert.equal(error.code, 'SQLITE_ERROR');
      return true;
    });
    const data = Buffer.from([0, 1, 2, 250, 255]);
    const blob = await sql<{ data: Buffer }>`select ${data} as data`.execute(store.db);
    assert.ok(Buffer.isBuffer(blob.rows[0]!.data));
    assert.deepEqual([...blob.rows[0]!.data], [...data]);
  });
});
