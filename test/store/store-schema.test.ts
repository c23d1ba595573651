/**
 * One schema for every handle (issue 39, item 4): the side tables (the ledger's aggregates, the bank
 * totals, the accounting connections and mirror, the web pages' tables) are joined into
 * store/schema.ts's Database, so no source reaches them by casting a handle to another schema, and
 * a query over them is checked against the same row types as every other. Read from the sources,
 * so a new file is checked without listing it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { Database } from '../../src/store/schema.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

it('no source casts a database handle to another schema: the side tables are part of Database', () => {
  const all = sources(SRC);
  assert.ok(all.length > 150, 'the sources were found');
  const casts = all.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (/as\s+unknown\s+as\s+(Kysely|Transaction)\s*</.test(line) ? [`${relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(casts, []);
});

it('Database names every side table, so a handle reaches them as it is', () => {
  // a compile-time check as much as a run-time one: each table is a key of Database
  const tables: (keyof Database)[] = [
    'acct_day_totals',
    'acct_month_line_totals',
    'acct_day_line_totals',
    'bank_daily_totals',
    'bank_month_totals',
    'accounting_connections',
    'accounting_connection_requests',
    'accounting_mirrors',
    'accounting_mirror_records',
    'web_sessions',
    'audit_log',
  ];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  assert.deepEqual(
    tables.map((t) => db.selectFrom(t).selectAll().compile().sql),
    tables.map((t) => `select * from "${t}"`),
  );
});

it('operations write no SQL: their queries are in store/ (or the accounting readers), named by what they answer', () => {
  const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bprepared(Query|Shapes)\(|\bsql(<[^>]*>)?`/;
  const writing = sources(join(SRC, 'operations'))
    .filter((file) => QUERY.test(readFileSync(file, 'utf8')))
    .map((file) => relative(SRC, file));
  assert.deepEqual(writing, []);
});
