/**
 * `npm run bench:bound-varied -- --seed 1 --draws 40`: the bound of each varied case (issue 43: "every
 * computed operation answers at least half of its own bound's rate (required work + serialising +
 * its SQL, from bench:bound)"), beside the rate `npm run bench:varied` last measured for it.
 *
 * Per varied case (varied-params.ts, the same seeded draws as bench:varied's): `--draws N` requests
 * drawn and answered in-process on a copy of the bench's dataset, each answer kept as the JSON text
 * REST sends (links rendered); then bound-server.ts answers those bodies in turn, 50 connections,
 * `--seconds S` after a warm-up, `--rounds R`:
 *   bare                the stored bodies, compressed beforehand: what the machine serves at most
 *   required-json-gzip  the token check's read and the request log every call must do, then the
 *                       answer serialised from its object and compressed, as a computed answer is
 * and SQLite's own work for each draw's statements (inprocess.ts sqliteOwnMs: each read statement
 * alone, its rows stepped, median of --runs). The bound is the rate at which the required work,
 * serialising and compressing (1 / required-json-gzip's rate of the machine) plus the statements'
 * own time spread over the cores use the machine up:
 *
 *   bound = 1 / (1 / required-json-gzip + sqlOwn / cores)
 *
 * Loopback only; every measurement ends by itself. Writes bench-output/bound/varied-seed<N>.json.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { restLinks } from '../../src/http/answer-body.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { stringifyWithLinks } from '../../src/operations/links.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { boundDatabase, routeRate } from './bound-setup.js';
import { benchConfig } from './config.js';
import { ensureDataset } from './dataset.js';
import { sqliteOwnMs, tracedStore } from './inprocess.js';
import { argument, numberArgument } from './single-client.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

const log = (m: string) => process.stderr.write(`${m}\n`);
const seed = numberArgument('seed', 1, 0, 2 ** 31);
const draws = numberArgument('draws', 40, 1, 1000);
const seconds = numberArgument('seconds', 5, 1, 60);
const rounds = numberArgument('rounds', 2, 1, 10);
const runs = numberArgument('runs', 5, 1, 200);
const only = argument('only', '');
const output = path.resolve(process.env.BENCH_OUTPUT ?? 'bench-output');

const { file, meta } = await ensureDataset(benchConfig(), log);
const setup = await boundDatabase(file, path.join(output, 'bound', 'varied.sqlite'), meta.organisationId);
const traced = tracedStore({ sqlitePath: setup.dbPath });
const cores = availableParallelism();
const cases = variedCases(readPools(file, meta)).filter((c) => c.name.includes(only));

/** The last bench:varied run's rate for each case, where it ran with this seed. */
const measuredFile = path.join(output, 'varied', `results-seed${seed}.json`);
const measured = new Map<string, number>(
  existsSync(measuredFile)
    ? (JSON.parse(readFileSync(measuredFile, 'utf8')) as { rows: { name: string; requestsPerSecond: number; database?: string }[] }).rows
        // the bound is SQLite's: a run on both databases lists each case twice
        .filter((r) => (r.database ?? 'sqlite') === 'sqlite')
        .map((r) => [r.name, r.requestsPerSecond])
    : [],
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, unknown>[] = [];
for (const c of cases) {
  const op = OPERATIONS.find((o) => o.name === c.operation) as OrganisationOperation<any, any>;
  const next = drawStream(seed, c);
  const folder = path.join(output, 'bound', 'varied', c.name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const own: number[] = [];
  let bytes = 0;
  for (let i = 0; i < draws; i++) {
    const draw = next();
    const value = await runOrganisationOperation(
      { db: traced.db, baseUrl: 'http://127.0.0.1', today: meta.params.date },
      op,
      { kind: 'client', clientId: 'bench' },
      meta.organisationId,
      { input: Object.fromEntries(new URL(draw.path, 'http://x').searchParams), textInput: true },
    );
    const json = stringifyWithLinks(value, restLinks('http://127.0.0.1'));
    bytes += json.length;
    writeFileSync(path.join(folder, `${String(i).padStart(4, '0')}.json`), json);
    own.push(
      await sqliteOwnMs(traced, setup.dbPath, meta.organisationId, meta.params.date, { name: c.name, operation: c.operation, path: draw.path, note: '' }, runs),
    );
  }
  const seen: Record<string, number[]> = { bare: [], 'required-json-gzip': [] };
  for (let round = 0; round < rounds; round++)
    for (const route of Object.keys(seen)) seen[route]!.push(await routeRate(setup, { BOUND_BODIES: folder }, route, seconds));
  const required = median(seen['required-json-gzip']!);
  const sqlMs = own.reduce((a, b) => a + b, 0) / own.length;
  const bound = 1 / (1 / required + sqlMs / 1000 / cores);
  const last = measured.get(c.name);
  const row = {
    name: c.name,
    draws,
    meanBodyBytes: Math.round(bytes / draws),
    bare: Math.round(median(seen.bare!)),
    requiredJsonGzip: Math.round(required),
    sqlOwnMs: Number(sqlMs.toFixed(2)),
    bound: Math.round(bound),
    measured: last === undefined ? null : Math.round(last),
    shareOfBound: last === undefined ? null : Number((last / bound).toFixed(2)),
  };
  rows.push(row);
  log(`  ${c.name}: ${JSON.stringify(row)}`);
}
await traced.close();

console.log(`\nbounds of the varied cases (seed ${seed}, ${draws} draws each; ${cores} cores; 50 connections, ${seconds} s × ${rounds} rounds, median):`);
console.log('case                  body KB   bare  req+json+gzip  SQL own ms   bound  measured  share of bound');
const WIDTHS = [-20, 8, 6, 14, 11, 7, 9, 15];
for (const r of rows as { [k: string]: number | string | null }[]) {
  const cells = [r.name, Math.round(Number(r.meanBodyBytes) / 1024), r.bare, r.requiredJsonGzip, r.sqlOwnMs, r.bound, r.measured ?? '-', r.shareOfBound ?? '-'];
  console.log(cells.map((cell, i) => (WIDTHS[i]! < 0 ? String(cell).padEnd(-WIDTHS[i]!) : String(cell).padStart(WIDTHS[i]!))).join(' '));
}
mkdirSync(path.join(output, 'bound'), { recursive: true });
writeFileSync(path.join(output, 'bound', `varied-seed${seed}.json`), JSON.stringify({ seed, draws, cores, seconds, rounds, rows }, null, 2));
