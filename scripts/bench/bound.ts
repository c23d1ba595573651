/**
 * What this machine allows at most: the share of the bare route that a server doing only what every
 * authenticated call must do can reach, and, for a computed answer, that work plus compressing the
 * answer. The targets of issue 17 are shares of the same bare route (organisations: 40% of it), so
 * where the least required work alone stays under a target, no implementation meets it here.
 *
 *   npm run bench:bound            (after a bench run, which stores the answers' bodies)
 *   BOUND_CASES=organisations,ledger-default  BOUND_ROUNDS=3  BOUND_SECONDS=5
 *
 * Routes, each on a fresh server (bound-server.ts), 50 connections, rounds alternating so the
 * machine's drift falls on all alike:
 *   bare           the stored body, nothing else (the bench's bare route)
 *   required       SHA-256 of the bearer token, the token check's one indexed read (token, client,
 *                  organisation) on the main thread, its payload parsed and its expiry checked, one
 *                  request-log line through the service's logger; then the stored body
 *   required-gzip  the same, then the answer's JSON compressed at the fastest level on every call, as
 *                  a computed answer is (only for bodies the bench stored gzipped)
 *   required-json-gzip  the same, the answer serialised from its object on every call first
 * Then, against the last run's targets (bench-output/results.json): the share of the bare route the
 * required work reaches (organisations), and for a computed answer the CPU a request may still use
 * at its target rate beside SQLite's own work for its statements (sqliteOwnMs): where the
 * statements alone need more, no implementation reaches the target on this machine.
 * Load on 127.0.0.1 only; each measurement ends by itself.
 */
import { availableParallelism } from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { boundDatabase, routeRate } from './bound-setup.js';
import { benchCases } from './cases.js';
import { numberFrom } from './config.js';
import type { DatasetMeta } from './dataset.js';
import { sqliteOwnMs, tracedStore } from './inprocess.js';

const output = path.resolve(process.env.BENCH_OUTPUT ?? 'bench-output');
const cacheDir = path.join(output, 'cache');
const bodiesDir = path.join(output, 'bodies', 'sqlite');
const datasetName = existsSync(cacheDir) ? readdirSync(cacheDir).find((f) => f.endsWith('.sqlite')) : undefined;
if (!datasetName || !existsSync(bodiesDir)) throw new Error('no bench dataset or stored bodies: run `npm run bench` (BENCH_BACKENDS=sqlite is enough) first');
const meta = JSON.parse(readFileSync(path.join(cacheDir, datasetName.replace(/\.sqlite$/, '.json')), 'utf8')) as DatasetMeta;
const cases = (process.env.BOUND_CASES ?? 'organisations,ledger-default').split(',');
const rounds = numberFrom('BOUND_ROUNDS', 3, 1, 20, true);
const seconds = numberFrom('BOUND_SECONDS', 5, 1, 60, true);

// a copy of the dataset holding one live client-credentials token of the bench's organisation
const bound = await boundDatabase(path.join(cacheDir, datasetName), path.join(output, 'bound', 'bound.sqlite'), meta.organisationId);

// the last bench run's floor on SQLite (its cheapest authenticated call), which the computed targets are shares of
const resultsFile = path.join(output, 'results.json');
type LastRun = { backends: { backend: string; cases: { name: string; requestsPerSecond: number; bare: { requestsPerSecond: number } }[] }[] };
const lastRun = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as LastRun) : undefined;
const cheapest = lastRun?.backends.find((b) => b.backend === 'sqlite')?.cases.find((c) => c.name === 'organisations');
// as the bench defines it: the lower of the cheapest call and its bare route
const floor = cheapest && Math.min(cheapest.requestsPerSecond, cheapest.bare.requestsPerSecond);
const cores = availableParallelism();
const traced = tracedStore({ sqlitePath: bound.dbPath });

const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const us = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
for (const name of cases) {
  const file = [`${name}.json.gz`, `${name}.json`].map((f) => path.join(bodiesDir, f)).find((f) => existsSync(f));
  if (!file) throw new Error(`no stored body for ${name} in ${bodiesDir}: run the bench with that case`);
  const routes = file.endsWith('.gz') ? ['bare', 'required', 'required-gzip', 'required-json-gzip'] : ['bare', 'required'];
  const seen: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++)
    for (const route of routes) (seen[route] ??= []).push(await routeRate(bound, { BOUND_BODY: file }, route, seconds));
  console.log(`\n${name} (${path.basename(file)}), 50 connections, ${seconds} s, ${rounds} rounds, requests/s:`);
  for (const route of routes) {
    console.log(
      `  ${route.padEnd(18)} ${seen[route]!.map((r) => Math.round(r).toLocaleString('en-GB').padStart(7)).join(' ')}   of bare: ${shares(seen, route)}`,
    );
  }
  if (name === 'organisations') {
    console.log(`  target 40% of bare: the required work alone reaches ${shares(seen, 'required')}`);
    continue;
  }
  const benchCase = benchCases(meta).find((c) => c.name === name);
  if (!floor || !benchCase || !seen['required-json-gzip']) continue;
  // the CPU a request may use besides authenticating, logging, serialising and compressing, at the target rate
  const target = 0.25 * floor;
  const left = seen['required-json-gzip'].map((rate) => cores * (1 / target - 1 / rate));
  const own = (await sqliteOwnMs(traced, bound.dbPath, meta.organisationId, meta.params.date, benchCase, 200)) / 1000;
  console.log(
    `  target 25% of the last run's floor (${Math.round(floor).toLocaleString('en-GB')}): ${Math.round(target).toLocaleString('en-GB')} requests/s; ` +
      `CPU left per request there (${cores} cores): ${left.map((l) => (l > 0 ? us(l) : 'none')).join(' ')}; SQLite's own work for its ` +
      `statements: ${us(own)}: ` +
      (left.every((l) => l < own) ? 'out of reach here' : 'within reach in principle'),
  );
}
await traced.close();

function shares(seen: Record<string, number[]>, route: string): string {
  return seen[route]!.map((r, i) => pct(r, seen['bare']![i]!)).join(' ');
}
