/**
 * Where a varied case's time goes, statement by statement: one client, in-process, on the bench's
 * cached SQLite dataset (BENCH_SCALE etc., as `npm run bench` builds it), `--calls N` draws of the case (varied-params.ts,
 * seeded), each call's total time and each statement's time (Kysely's log), then the statements
 * that took the most time in all, by SQL shape, with their count, mean and max, and the slowest calls
 * with their paths. Issue 43, item 2.
 *
 *   npx tsx scripts/bench/statement-probe.ts --case banking-varied --calls 300 [--seed 1]
 */
import { performance } from 'node:perf_hooks';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { benchConfig } from './config.js';
import { ensureDataset } from './dataset.js';
import { tracedStore } from './inprocess.js';
import { argument, numberArgument } from './single-client.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

const caseName = argument('case', 'banking-varied');
const calls = numberArgument('calls', 300, 1, 100000);
const seed = numberArgument('seed', 1, 0, 2 ** 31);
// the bench's cached dataset (built once, migrated to this code's schema), read only
const { file, meta } = await ensureDataset(benchConfig(), (m) => process.stderr.write(`${m}\n`));

const pools = readPools(file, meta);
const variedCase = variedCases(pools).find((c) => c.name === caseName);
if (!variedCase) throw new Error(`no varied case ${caseName}`);
const op = OPERATIONS.find((o) => o.name === variedCase.operation) as OrganisationOperation<any, any>;
const next = drawStream(seed, variedCase);
const store = tracedStore({ sqlitePath: file });
const shapeOf = (sqlText: string) =>
  sqlText
    .replace(/\?(, \?)+/g, '?…')
    .replace(/\s+/g, ' ')
    .slice(0, 260);

const bySql = new Map<string, { count: number; ms: number; max: number }>();
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
    const s = bySql.get(key) ?? { count: 0, ms: 0, max: 0 };
    s.count += 1;
    s.ms += q.ms;
    s.max = Math.max(s.max, q.ms);
    bySql.set(key, s);
    sqlMs += q.ms;
  }
  byCall.push({ path: draw.path, ms, sqlMs, shapes: draw.shapes });
}
await store.close();
const total = byCall.reduce((a, c) => a + c.ms, 0);
console.log(
  `${caseName}: ${calls} calls, mean ${(total / calls).toFixed(1)} ms; in statements ${((100 * [...bySql.values()].reduce((a, s) => a + s.ms, 0)) / total).toFixed(0)}%`,
);
console.log('\nstatements by total time:');
for (const [sqlText, s] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
  console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.count).padStart(5)}× mean ${(s.ms / s.count).toFixed(2)} max ${s.max.toFixed(1)}  ${sqlText}`);
console.log('\nslowest calls:');
for (const c of [...byCall].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`${c.ms.toFixed(1).padStart(7)} ms (sql ${c.sqlMs.toFixed(1)})  ${decodeURIComponent(c.path)}  [${c.shapes.join(', ')}]`);
