/**
 * The same dataset in PostgreSQL: a schema of the benchmark's own in the given database, migrated,
 * filled from the SQLite cache table by table (in foreign-key order, many rows per statement, the
 * secondary indexes built after the load), vacuumed and analysed, and dropped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';

/**
 * The tables the demo fills, parents before children; OAuth state is made fresh per run. A table
 * missing here is empty in PostgreSQL: the reports' floor check (inprocess.ts) catches that.
 */
const TABLES = [
  'organisations',
  'users',
  'memberships',
  'operation_roles',
  'acct_accounts',
  'acct_contacts',
  'acct_transactions',
  'acct_lines',
  'acct_month_totals',
  'acct_day_totals',
  'acct_month_line_totals',
  'acct_day_line_totals',
  'documents',
  'document_coded_lines',
  'document_invoice_lines',
  'document_files',
  'bank_accounts',
  'bank_account_holders',
  'bank_transactions',
  'bank_daily_totals',
  'bank_month_totals',
  'bills',
  'bill_filters',
] as const;

export interface PgDataset {
  url: string;
  schema: string;
  drop(): Promise<void>;
}

export async function canReach(url: string): Promise<boolean> {
  const probe = openStore({ databaseUrl: url, poolSize: 1 });
  try {
    await sql`select 1`.execute(probe.db);
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => {});
  }
}

export async function loadPostgres(url: string, sqliteFile: string, log: (m: string) => void): Promise<PgDataset> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = openStore({ databaseUrl: url, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const drop = async () => {
    const a = openStore({ databaseUrl: url, poolSize: 1 });
    try {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(a.db);
    } finally {
      await a.close();
    }
  };
  const began = Date.now();
  const store = openStore({ databaseUrl: url, pgSchema: schema, poolSize: 2 });
  try {
    await migrate(store);
    // loading into bare tables and indexing once afterwards is several times faster than keeping
    // every index up to date row by row; the definitions come back exactly as the migrations made them
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes i
      where schemaname = ${schema} and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(store.db);
    for (const i of indexes.rows) await sql`drop index ${sql.id(schema, i.indexname)}`.execute(store.db);
    const source = new SqliteDatabase(sqliteFile, { readonly: true });
    try {
      for (const table of TABLES) {
        const count = await copyTable(source, store, table);
        log(`  postgres: ${table} ${count.toLocaleString('en-US')} rows`);
      }
    } finally {
      source.close();
    }
    for (const i of indexes.rows) await sql.raw(i.indexdef).execute(store.db);
    log(`  postgres: ${indexes.rows.length} indexes rebuilt`);
    // vacuumed as well as analysed: a database at rest has been through autovacuum, whose visibility
    // map lets an index-only scan skip the table; straight after a bulk load nothing is marked yet
    for (const table of TABLES) await sql`vacuum (analyze) ${sql.id(schema, table)}`.execute(store.db);
    await sql`analyze`.execute(store.db);
  } catch (error) {
    await store.close();
    await drop();
    throw error;
  }
  await store.close();
  log(`postgres: schema ${schema} filled in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  return { url, schema, drop };
}

async function copyTable(source: SqliteDatabase.Database, store: Store, table: string): Promise<number> {
  const db = store.db as unknown as Kysely<any>;
  const columns = (source.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
  // rows per statement: under the parameter limit, and smaller for the large binary files
  const perStatement = table === 'document_files' ? 200 : Math.floor(store.dialect.maxParameters / columns.length);
  let batch: Record<string, unknown>[] = [];
  let count = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await pending;
    pending = db.insertInto(table).values(rows).execute();
  };
  for (const row of source.prepare(`select * from "${table}"`).iterate() as Iterable<Record<string, unknown>>) {
    batch.push(row);
    count += 1;
    if (batch.length >= perStatement) await flush();
  }
  await flush();
  await pending;
  return count;
}
