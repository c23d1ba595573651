/**
 * Test stores on both dialects. SQLite is an in-memory database; PostgreSQL gets a fresh schema on
 * the machine's server (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), dropped
 * afterwards. LEDGERLINE_TEST_DIALECTS=sqlite narrows the loop for quick local runs; CI runs both.
 */
import { randomBytes } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { openStore, type Store } from '../../src/store/db.js';
import type { DialectName } from '../../src/store/dialect.js';
import { migrate } from '../../src/store/migrate.js';
import type { BankAccountRow, Database } from '../../src/store/schema.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const DIALECTS: DialectName[] = (process.env.LEDGERLINE_TEST_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];

export async function openTestStore(dialect: DialectName): Promise<Store> {
  if (dialect === 'sqlite') {
    const store = openStore({ sqlitePath: ':memory:' });
    await migrate(store);
    return store;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = openStore({ databaseUrl: TEST_DATABASE_URL, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const store = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 4 });
  await migrate(store);
  return {
    ...store,
    async close() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
      await store.close();
    },
  };
}

/** Runs a suite once per dialect with a fresh, migrated store; `setup` fills it before the tests. */
export function describeEachDialect(name: string, body: (store: () => Store) => void, setup?: (store: Store) => Promise<void>): void {
  for (const dialect of DIALECTS) {
    describe(`${name} [${dialect}]`, () => {
      let store: Store | undefined;
      before(async () => {
        store = await openTestStore(dialect);
        if (setup) await setup(store);
      });
      after(async () => {
        await store?.close();
      });
      body(() => {
        if (!store) throw new Error('store not open yet');
        return store;
      });
    });
  }
}

/**
 * The same database, counting the statements run through it (`count`, each execution) and the
 * queries compiled for it (`compiled`: built with the query builder or a sql template). A statement
 * compiled once (store/prepared.ts) counts once in `compiled` and at every run in `count`.
 */
export function countingQueries(db: Kysely<Database>): { db: Kysely<Database>; count: () => number; compiled: () => number } {
  let n = 0;
  let compiled = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      compiled += 1;
      return args.node;
    },
    transformResult: async (args) => {
      n += 1;
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), count: () => n, compiled: () => compiled };
}

/** A bank account row for a test's organisation: a current account in GBP at a test bank, unless `fields` say otherwise. */
export function testBankAccount(id: string, organisationId: string, fields: Partial<BankAccountRow> = {}): BankAccountRow {
  return {
    id,
    organisation_id: organisationId,
    name: id,
    number: '1234',
    type: 'current',
    bank: 'Test Bank',
    currency: 'GBP',
    is_default: 0,
    ledger_account_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}
