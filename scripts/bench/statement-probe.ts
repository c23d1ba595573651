/**
 * Where a varied case's time goes, statement by statement: one client, in-process, on the bench's
 * cached dataset (BENCH_SCALE etc., as `npm run bench` builds it; SQLite, or the same rows in a PostgreSQL
 * schema), `--calls N` draws of the case (varied-params.ts,
 * seeded), each call's total time and each statement's time (Kysely's log), then the statements
 * that took the most time in all, by SQL shape, with their count, mean and max, and the slowest calls
 * with their paths. Issue 43, item 2.
 *
 *   npx tsx scripts/bench/statement-probe.ts --case banking-varied --calls 300 [--seed 1]
 *
 * On PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/test):
 *
 *   --database postgres            loads the dataset into a schema of its own (a few minutes) and drops it at the end
 *   --database postgres --keep     loads it and keeps it: prints `--pg-schema bench_…` to pass next time
 *   --pg-schema bench_…            probes that schema (loaded before, with --keep) without reloading; it is
 *                                  migrated first, so a new migration's index is there to be measured
 *   --path '/v1/operations/…?…'    the same call every time (a fixed case of cases.ts) instead of --case's draws
 *   --explain N                    also EXPLAIN (ANALYZE, BUFFERS) the N statements that took the most time
 *                                  in all, each with the parameters of its slowest run (PostgreSQL only)
 *
 * Drop a kept schema when done: psql -h 127.0.0.1 -U postgres test -c 'drop schema bench_… cascade'.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { benchConfig } from './config.js';
import { ensureDataset } from './dataset.js';
import { tracedStore } from './inprocess.js';
import { loadPostgres } from './postgres.js';
import { argument, numberArgument } from './single-client.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

const caseName = argument('case', 'banking-varied');
const calls = numberArgument('calls', 300, 1, 100000);
const seed = numberArgument('seed', 1, 0, 2 ** 31);
const pgSchemaGiven = argument('pg-schema', '');
const database = pgSchemaGiven ? 'postgres' : argument('database', 'sqlite');
if (database !== 'sqlite' && database !== 'postgres') throw new Error(`--database must be sqlite or postgres, not "${database}"`);
const keep = process.argv.includes('--keep');
const explainTop = numberArgument('explain', 0, 0, 50);
const log = (m: string) => process.stderr.write(`${m}\n`);
const config = benchConfig();
// the bench's cached dataset (built once, migrated to this code's schema), read only
const { file, meta } = await ensureDataset(config, log);
let pgSchema = pgSchemaGiven;
let dropSchema: (() => Promise<void>) | null = null;
if (database === 'postgres' && !pgSchema) {
  const loaded = await loadPostgres(config.pgUrl, file, log);
  pgSchema = loaded.schema;
  if (keep) log(`statement-probe: schema kept; next time pass --pg-schema ${pgSchema}`);
  else dropSchema = loaded.drop;
} else if (pgSchema) {
  // a schema loaded by an earlier run: this code's migrations (a new index) applied to it first
  const s = openStore({ databaseUrl: config.pgUrl, pgSchema, poolSize: 1 });
  try {
    await migrate(s);
  } finally {
    await s.close();
  }
}

const pools = readPools(file, meta);
// --path: one call, the same every time (a fixed case of cases.ts), instead of a varied case's draws
const fixedPath = argument('path', '');
const variedCase = fixedPath
  ? { name: fixedPath, operation: new URL(fixedPath, 'http://x').pathname.split('/').pop()!, draw: () => ({ path: fixedPath, shapes: ['fixed'] }) }
  : variedCases(pools).find((c) => c.name === caseName);
if (!variedCase) throw new Error(`no varied case ${caseName}`);
const op = OPERATIONS.find((o) => o.name === variedCase.operation) as OrganisationOperation<any, any>;
const next = drawStream(seed, variedCase);
const store = tracedStore(database === 'postgres' ? { pgUrl: config.pgUrl, pgSchema } : { sqlitePath: file });
const shapeOf = (sqlText: string) =>
  sqlText
    .replace(/\?(, \?)+/g, '?…')
    .replace(/\s+/g, ' ')
    .slice(0, 260);

const bySql = new Map<string, { count: number; ms: number; max: number; slowest: { sql: string; parameters: readonly unknown[] } | null }>();
const byCall: { path: string; ms: number; sqlMs: number; shapes: string[] }[] = [];
const call = (p: string) =>
  runOrganisationOperation(
    { db: store.db, baseUrl: 'http://127.0.0.1', today: meta.params.date },
    op,
    { kind: 'client', clientId: 'bench' },
    meta.organisationId,
    {
      input: Object.fromEntries(new URL(p, 'http://x').searchParams),
      textInput: true,
    },
  );
for (let i = 0; i < 5; i++) await call(next().path);
for (let i = 0; i < calls; i++) {
  const draw = next();
  const started = performance.now();
  const { queries } = await store.capture(() => call(draw.path));
  const ms = performance.now() - started;
  let sqlMs = 0;
  for (const q of queries) {
    const key = shapeOf(q.sql);
    const s = bySql.get(key) ?? { count: 0, ms: 0, max: 0, slowest: null };
    s.count += 1;
    s.ms += q.ms;
    if (q.ms >= s.max) s.slowest = { sql: q.sql, parameters: q.parameters };
    s.max = Math.max(s.max, q.ms);
    bySql.set(key, s);
    sqlMs += q.ms;
  }
  byCall.push({ path: draw.path, ms, sqlMs, shapes: draw.shapes });
}
const total = byCall.reduce((a, c) => a + c.ms, 0);
console.log(
  `${fixedPath || caseName} on ${database}${pgSchema ? ` (schema ${pgSchema})` : ''}: ${calls} calls, mean ${(total / calls).toFixed(1)} ms; ` +
    `in statements ${((100 * [...bySql.values()].reduce((a, s) => a + s.ms, 0)) / total).toFixed(0)}%`,
);
console.log('\nstatements by total time:');
for (const [sqlText, s] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
  console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.count).padStart(5)}× mean ${(s.ms / s.count).toFixed(2)} max ${s.max.toFixed(1)}  ${sqlText}`);
console.log('\nslowest calls:');
for (const c of [...byCall].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`${c.ms.toFixed(1).padStart(7)} ms (sql ${c.sqlMs.toFixed(1)})  ${decodeURIComponent(c.path)}  [${c.shapes.join(', ')}]`);
// where the time goes by what the draws ask (a search, page > 1, one account…): each shape's calls, mean and share of all the time
console.log('\ntime by shape of the draw:');
const byShape = new Map<string, { count: number; ms: number }>();
for (const c of byCall)
  for (const shape of c.shapes) {
    const s = byShape.get(shape) ?? { count: 0, ms: 0 };
    s.count += 1;
    s.ms += c.ms;
    byShape.set(shape, s);
  }
for (const [shape, s] of [...byShape].sort((a, b) => b[1].ms - a[1].ms))
  console.log(
    `${shape.padEnd(28)} ${String(s.count).padStart(5)} calls  mean ${(s.ms / s.count).toFixed(2).padStart(6)} ms  ` +
      `${((100 * s.ms) / total).toFixed(0).padStart(3)}% of the time`,
  );
if (explainTop > 0 && database === 'postgres') {
  // each of the costliest shapes once more, with its slowest run's parameters, as PostgreSQL plans and runs it
  for (const [sqlText, s] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, explainTop)) {
    if (!s.slowest || !/^\s*(select|with)/i.test(s.slowest.sql)) continue;
    const { rows } = await sql<{
      'QUERY PLAN': string;
    }>`${sql.raw('explain (analyze, buffers) ')}${sql.raw(inline(s.slowest.sql, s.slowest.parameters))}`.execute(store.db);
    console.log(`\n${sqlText}\n  parameters ${JSON.stringify(s.slowest.parameters).slice(0, 300)}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  }
}
await store.close();
if (dropSchema) await dropSchema();

/** The statement with its parameters written in as literals (EXPLAIN ANALYZE of a statement that takes $n needs them bound). */
function inline(text: string, parameters: readonly unknown[]): string {
  const literal = (v: unknown): string =>
    v === null || v === undefined
      ? 'null'
      : typeof v === 'number' || typeof v === 'bigint'
        ? String(v)
        : typeof v === 'boolean'
          ? String(v)
          : `'${String(v).replace(/'/g, "''")}'`;
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(parameters[Number(n) - 1]));
}
