/**
 * `npm run bench:varied -- --seed 1 --seconds 5`: the computed operations with parameters as clients
 * send them (varied-params.ts: a new draw on every request), beside the bench's fixed cases
 * (cases.ts), in one run, on one server without the answer cache (RESULT_CACHE_MB=0, every call
 * computed), on SQLite, PostgreSQL or both, on 127.0.0.1 only. Issue 43, item 1.
 *
 *   --database D     sqlite (default), postgres, or both: the same cases and draws on each, one after
 *                    the other, then each case's PostgreSQL/SQLite rate ratio. PostgreSQL (BENCH_PG_URL,
 *                    default postgres://postgres@127.0.0.1:5432/test) gets the dataset loaded into a
 *                    schema of its own as `npm run bench` does (a few minutes), dropped at the end
 *   --pg-schema S    PostgreSQL: that schema instead, loaded before (statement-probe.ts --keep), migrated, kept
 *   --seed N         the parameters' seed (default 1); printed with every figure
 *   --seconds S      seconds measured per case (default 5), after --warmup W not counted (default 1)
 *   --connections C  concurrent connections (default 50)
 *   --fixed all|none the bench's fixed cases of the same operations beside the varied ones (default all)
 *   --only TEXT      only the cases whose name contains TEXT (organisations, the floor, always runs)
 *   --probe N        a single client's calls per varied case, split by shape (default 150; 0 skips)
 *   --rate-of-bound F after each varied case's run flat out, the same draws offered at F times its
 *                    bound (bench:bound-varied's last figures for this seed, bench-output/bound/
 *                    varied-seed<N>.json) as a Poisson stream over the same connections (paced.ts):
 *                    the rate answered, p50/p99 from each request's arrival, the event loop's p99.
 *                    The issue's criterion at F = 0.5: the rate kept up with, p99 < 100 ms, loop < 10 ms
 *   the dataset as `npm run bench` builds it: BENCH_SCALE, BENCH_BANK_SCALE, BENCH_SEED, BENCH_DATE
 *
 * Per case: requests/s, p50/p99 as the client sees them, the server's event-loop delay p99 over the
 * measured seconds, statements per call, requests failed or timed out, and how long the server then
 * took to answer the cheapest call promptly again (each case starts on a drained server); before, per varied case, a single client's p50 by shape
 * (busy or quiet account, period band, page 1 or later, grouping...), which shows where varied calls
 * lose. Writes bench-output/varied/results-seed<N>[-postgres|-both].json (every figure and the first draws).
 * Bounded: each measurement ends by itself and the server stops after its time limit.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createApiClient } from '../../src/auth/clients.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchCases } from './cases.js';
import { benchConfig } from './config.js';
import { ensureDataset, freshCopy } from './dataset.js';
import { canReach, loadPostgres } from './postgres.js';
import { pacedLoad, type PacedResult } from './paced.js';
import { startServer, type Child } from './processes.js';
import { performance } from 'node:perf_hooks';
import { ACCEPT, argument, benchClient, clientToken, numberArgument, p50, sequential, timedGet } from './single-client.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

const log = (m: string) => process.stderr.write(`${m}\n`);
const seed = numberArgument('seed', 1, 0, 2 ** 31);
const seconds = numberArgument('seconds', 5, 1, 120);
const warmup = numberArgument('warmup', 1, 0, 30);
const connections = numberArgument('connections', Number(process.env.BENCH_CONNECTIONS ?? 50), 1, 1000);
const withFixed = argument('fixed', 'all') !== 'none';
const only = argument('only', '');
const probe = numberArgument('probe', 150, 0, 5000);
const databaseArg = argument('database', 'sqlite');
if (!['sqlite', 'postgres', 'both'].includes(databaseArg)) throw new Error(`--database must be sqlite, postgres or both, not "${databaseArg}"`);
const databases: Database[] = databaseArg === 'both' ? ['sqlite', 'postgres'] : [databaseArg as Database];
const pgSchemaGiven = argument('pg-schema', '');
const rateOfBound = numberArgument('rate-of-bound', 0, 0, 2);

type Database = 'sqlite' | 'postgres';
const LABEL: Record<Database, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Row {
  database: Database;
  name: string;
  kind: 'floor' | 'fixed' | 'varied';
  operation: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  loopP99: number;
  statementsPerCall: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** requests still unanswered after 30 s */
  timeouts: number;
  /** seconds the server took afterwards to answer the cheapest call promptly again (work left queued by the load) */
  drainSeconds: number;
  /**
   * --rate-of-bound: the same case offered at a rate below its bound; gcP99: the 99th percentile of the main
   * thread's collection pauses (ms), gcShare: their share of the time
   */
  paced?: PacedResult & { bound: number; loopP99: number; gcP99: number; gcShare: number };
}

/** bench:bound-varied's bound for each varied case of this seed (empty when it has not run). */
function variedBounds(output: string): Map<string, number> {
  const file = path.join(output, 'bound', `varied-seed${seed}.json`);
  if (!existsSync(file)) return new Map();
  const rows = (JSON.parse(readFileSync(file, 'utf8')) as { rows: { name: string; bound: number }[] }).rows;
  return new Map(rows.map((r) => [r.name, r.bound]));
}

/**
 * The issue's criterion at an offered rate: every arrival answered at the rate offered (2% slack
 * for the stream's own randomness), p99 < 100 ms, loop p99 < 10 ms.
 */
const meets = (p: NonNullable<Row['paced']>) => p.achieved >= 0.98 * p.offered && p.failed + p.timedOut === 0 && p.p99 < 100 && p.loopP99 < 10;

/** One bounded autocannon run at `connections`; `next` gives each request's path (a new draw for a varied case). */
async function load(server: Child, token: string, next: () => string): Promise<Omit<Row, 'database' | 'name' | 'kind' | 'operation' | 'drainSeconds'>> {
  const headers = { authorization: `Bearer ${token}`, ...ACCEPT };
  const first = next();
  const options = (duration: number) => ({
    url: `http://127.0.0.1:${server.port}${first}`,
    connections,
    duration,
    headers,
    timeout: 30,
    // autocannon asks for every request's path here: each one draws anew
    requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: next() }) }],
  });
  if (warmup > 0) await autocannon(options(warmup) as unknown as Parameters<typeof autocannon>[0]);
  await server.ask('stats-reset');
  const result = await autocannon(options(seconds) as unknown as Parameters<typeof autocannon>[0]);
  const stats = await server.ask<{ statements: number; loopDelayP99: number }>('stats');
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    loopP99: stats?.loopDelayP99 ?? NaN,
    statementsPerCall: stats && result.requests.total ? stats.statements / result.requests.total : NaN,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Requests autocannon stopped waiting for are still computed by the server: where a case's calls
 * take longer than the load lasts, the next case would be measured behind them. Waits (at most
 * 180 s) until the cheapest call is answered within 50 ms three times running.
 */
async function drain(server: Child, token: string): Promise<number> {
  const began = performance.now();
  let prompt = 0;
  while (prompt < 3 && performance.now() - began < 180_000) {
    const t = await timedGet(server.port, '/v1/organisations', token);
    prompt = t.ms < 50 ? prompt + 1 : 0;
    if (prompt === 0) await new Promise((r) => setTimeout(r, 250));
  }
  return (performance.now() - began) / 1000;
}

interface Setup {
  config: ReturnType<typeof benchConfig>;
  meta: Awaited<ReturnType<typeof ensureDataset>>['meta'];
  out: string;
  varied: ReturnType<typeof variedCases>;
  fixed: ReturnType<typeof benchCases>;
  organisations: ReturnType<typeof benchCases>[number];
  /** bench:bound-varied's bound per varied case (--rate-of-bound) */
  bounds: Map<string, number>;
}

interface Measured {
  rows: Row[];
  shapes: Record<string, { shape: string; calls: number; p50: number; mean: number; shareOfTime: number }[]>;
  samples: Record<string, string[]>;
  probes: Record<string, { p50: number; mean: number; failed: number }>;
}

/** Where the server of one database reads: a fresh copy of the SQLite file, or a PostgreSQL schema (loaded here and dropped by `done`, or given). */
async function prepare(
  database: Database,
  file: string,
  setup: Setup,
): Promise<{ where: object; client: { clientId: string; clientSecret: string }; done(): Promise<void> }> {
  const { config, meta, out } = setup;
  if (database === 'sqlite') {
    const db = path.join(out, 'varied.sqlite');
    freshCopy(file, db);
    return { where: { sqlitePath: db }, client: await benchClient(db, meta.organisationId), done: async () => {} };
  }
  if (!(await canReach(config.pgUrl))) throw new Error(`postgres: ${config.pgUrl} cannot be reached`);
  let schema = pgSchemaGiven;
  let done = async () => {};
  if (!schema) {
    log('postgres: loading the dataset into a schema of its own');
    const loaded = await loadPostgres(config.pgUrl, file, log);
    schema = loaded.schema;
    done = loaded.drop;
  }
  const store = openStore({ databaseUrl: config.pgUrl, pgSchema: schema, poolSize: 1 });
  try {
    // a schema loaded earlier gets this code's migrations (a new index) first
    if (pgSchemaGiven) await migrate(store);
    const client = await createApiClient(store.db, { organisationId: meta.organisationId, name: 'Benchmark (varied)' });
    return { where: { pgUrl: config.pgUrl, pgSchema: schema }, client, done };
  } catch (error) {
    await done();
    throw error;
  } finally {
    await store.close();
  }
}

/** Every case on one database's server: a single client's probe by shape first, then the load. */
async function measureOn(database: Database, file: string, setup: Setup): Promise<Measured> {
  const { config, out, varied, fixed, organisations } = setup;
  const { where, client, done } = await prepare(database, file, setup);
  const maxSeconds = (1 + varied.length + fixed.length) * (seconds + warmup + 190) + varied.length * 120 + 300;
  const rows: Row[] = [];
  const shapes: Measured['shapes'] = {};
  const samples: Record<string, string[]> = {};
  const probes: Measured['probes'] = {};
  const suffix = database === 'sqlite' ? '' : `-${database}`;
  const server = await startServer({ ...where, today: config.date, maxSeconds, resultCacheMb: 0 }, path.join(out, `server-seed${seed}${suffix}.log`));
  try {
    const token = await clientToken(server.port, client);
    const uptime = () =>
      os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
    const run = async (name: string, kind: Row['kind'], operation: string, next: () => string) => {
      const r = { database, name, kind, operation, ...(await load(server, token, next)), drainSeconds: 0 };
      r.drainSeconds = await drain(server, token);
      rows.push(r);
      log(
        `  ${database.padEnd(8)} ${name.padEnd(22)} ${kind.padEnd(6)} ${Math.round(r.requestsPerSecond).toString().padStart(6)} req/s  ` +
          `p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
          `loop p99 ${r.loopP99.toFixed(1)} ms  ${r.statementsPerCall.toFixed(1)} SQL/call  ${r.non2xx} non-2xx  ${r.timeouts} timed out  drained ` +
          `in ${r.drainSeconds.toFixed(1)} s  (load ${uptime()})`,
      );
      return r;
    };
    const offer = async (name: string, next: () => string, bound: number): Promise<NonNullable<Row['paced']>> => {
      await server.ask('stats-reset');
      const result = await pacedLoad({ port: server.port, token, next, rate: rateOfBound * bound, connections, seconds, seed: `${seed}/${name}` });
      const stats = await server.ask<{ loopDelayP99: number; gcPauseP99: number; gcShare: number }>('stats');
      await drain(server, token);
      const paced = { ...result, bound, loopP99: stats?.loopDelayP99 ?? NaN, gcP99: stats?.gcPauseP99 ?? NaN, gcShare: stats?.gcShare ?? NaN };
      log(
        `  ${database.padEnd(8)} ${name.padEnd(22)} offered ${paced.offered.toFixed(0)}/s (${rateOfBound} × bound ${bound}): answered ` +
          `${paced.achieved.toFixed(0)}/s  p50 ${paced.p50} ms  p99 ${paced.p99} ms  loop p99 ${paced.loopP99.toFixed(1)} ms  ` +
          `gc pause p99 ${paced.gcP99.toFixed(1)} ms (${(100 * paced.gcShare).toFixed(0)}% of the time)  ` +
          `${paced.failed + paced.timedOut} failed  at most ${paced.mostWaiting} waiting  ${meets(paced) ? 'meets' : 'does not meet'} (load ${uptime()})`,
      );
      return paced;
    };

    // a single client first, while the server is quiet: every varied case's draws must be answered, and their time by shape
    if (probe > 0) {
      for (const c of varied) {
        const draws: { path: string; shapes: string[] }[] = [];
        const stream = drawStream(seed + 1_000_000, c);
        const { times, failed } = await sequential(
          server.port,
          token,
          () => {
            const d = stream();
            draws.push(d);
            return d.path;
          },
          probe,
        );
        if (failed.length)
          log(`  ${database} ${c.name}: ${failed.length} of ${probe} calls failed, e.g. ${failed[0]!.status} ${failed[0]!.path} ${failed[0]!.body ?? ''}`);
        // the warm-up draws (3) come first and are not timed
        const timedDraws = draws.slice(3).filter((d) => !failed.some((f) => f.path === d.path));
        const byShape = new Map<string, number[]>();
        timedDraws.forEach((d, i) => {
          for (const s of d.shapes) byShape.set(s, [...(byShape.get(s) ?? []), times[i]!]);
        });
        // a rate under load follows the mean cost of a call, not its median: a few slow shapes can halve it
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        const total = sum(times);
        probes[c.name] = { p50: p50(times), mean: total / Math.max(1, times.length), failed: failed.length };
        shapes[c.name] = [...byShape.entries()]
          .map(([shape, xs]) => ({ shape, calls: xs.length, p50: p50(xs), mean: sum(xs) / xs.length, shareOfTime: sum(xs) / total }))
          .sort((a, b) => b.mean - a.mean);
        log(`  ${database} ${c.name}: single client p50 ${p50(times).toFixed(1)} ms, mean ${probes[c.name]!.mean.toFixed(1)} ms over ${times.length} calls`);
      }
    }

    await run('organisations', 'floor', 'organisations', () => organisations.path);
    for (const v of varied) {
      for (const f of fixed.filter((f) => f.operation === v.operation)) await run(f.name, 'fixed', f.operation, () => f.path);
      const stream = drawStream(seed, v);
      const first: string[] = [];
      const row = await run(v.name, 'varied', v.operation, () => {
        const { path: p } = stream();
        if (first.length < 20) first.push(p);
        return p;
      });
      samples[v.name] = first;
      const bound = setup.bounds.get(v.name);
      if (rateOfBound > 0 && bound) {
        const again = drawStream(seed, v);
        row.paced = await offer(v.name, () => again().path, bound);
      }
    }
  } finally {
    await server.stop();
    await done().catch((e) => log(`postgres: could not drop the schema: ${(e as Error).message}`));
  }
  return { rows, shapes, samples, probes };
}

async function main(): Promise<void> {
  const config = benchConfig();
  const began = Date.now();
  const { file, meta } = await ensureDataset(config, log);
  const counts = meta.summary.organisations[0]!.counts;
  const out = path.join(config.output, 'varied');
  mkdirSync(out, { recursive: true });
  const pools = readPools(file, meta);
  const varied = variedCases(pools).filter((c) => !only || c.name.includes(only));
  const fixed = withFixed ? benchCases(meta).filter((c) => varied.some((v) => v.operation === c.operation) && (!only || c.name.includes(only))) : [];
  const organisations = benchCases(meta).find((c) => c.name === 'organisations')!;
  const bounds = variedBounds(config.output);
  const unbounded = rateOfBound > 0 ? varied.filter((v) => !bounds.has(v.name)).map((v) => v.name) : [];
  if (unbounded.length) throw new Error(`--rate-of-bound: no bound for ${unbounded.join(', ')}: run npm run bench:bound-varied -- --seed ${seed} first`);
  const setup: Setup = { config, meta, out, varied, fixed, organisations, bounds };
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}`;
  log(
    `varied: seed ${seed}, ${seconds} s per case after ${warmup} s, ${connections} connections, answer cache ` +
      `off, ${databases.map((d) => LABEL[d]).join(' then ')}; ${counts.lines.toLocaleString('en-GB')} ledger lines, ` +
      `${counts.bankTransactions.toLocaleString('en-GB')} bank transactions`,
  );
  log(
    `varied: ${pools.accounts.length} accounts with lines, ${pools.bankAccounts.length} bank accounts, ${pools.searchWords.length} search ` +
      `words, ${pools.documentIds.length} documents, ${pools.filters.length} saved filters`,
  );
  const measured: Partial<Record<Database, Measured>> = {};
  for (const database of databases) measured[database] = await measureOn(database, file, setup);

  const loadNow = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const table = (head: string[], cells: string[][], left: number) => {
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
    const line = (c: string[]) => c.map((x, i) => (i < left ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
  };
  for (const database of databases) {
    const { rows, probes, shapes } = measured[database]!;
    const head = ['case', 'kind', 'operation', 'req/s', 'p50 ms', 'p99 ms', 'loop p99 ms', 'SQL/call', 'failed', 'drain s', '1 client p50/mean ms', 'seed'];
    const cells = rows.map((r) => [
      r.name,
      r.kind,
      r.operation,
      Math.round(r.requestsPerSecond).toLocaleString('en-GB'),
      String(r.p50),
      String(r.p99),
      r.loopP99.toFixed(1),
      r.statementsPerCall.toFixed(1),
      String(r.non2xx + r.errors + r.timeouts),
      r.drainSeconds.toFixed(1),
      probes[r.name] ? `${probes[r.name]!.p50.toFixed(1)}/${probes[r.name]!.mean.toFixed(1)}` : '',
      r.kind === 'varied' ? String(seed) : '-',
    ]);
    console.log(
      `\nvaried parameters (seed ${seed}) beside the fixed cases: ${LABEL[database]}, answer cache off, ${connections} connections, ` +
        `${seconds} s each after ${warmup} s;`,
    );
    console.log(
      `${counts.lines.toLocaleString('en-GB')} ledger lines (scale ${meta.params.scale}, bank scale ${meta.params.bankScale}); ${machine}; load average ` +
        `at the end ${loadNow()}`,
    );
    console.log(table(head, cells, 3));
    const paced = rows.filter((r) => r.paced);
    if (paced.length) {
      console.log(
        `\n${LABEL[database]}, each varied case offered at ${rateOfBound} × its bound (a Poisson stream over ${connections} connections, ` +
          `${seconds} s; latency from each request's arrival); the criterion: answered at the rate offered, p99 < 100 ms, loop p99 < 10 ms:`,
      );
      const pacedCells = paced.map(({ name, paced: p }) => [
        name,
        String(p!.bound),
        p!.offered.toFixed(0),
        p!.achieved.toFixed(0),
        String(p!.p50),
        String(p!.p99),
        p!.loopP99.toFixed(1),
        p!.gcP99.toFixed(1),
        (100 * p!.gcShare).toFixed(0),
        String(p!.failed + p!.timedOut),
        String(p!.mostWaiting),
        meets(p!) ? 'yes' : 'no',
      ]);
      console.log(
        table(
          ['case', 'bound', 'offered/s', 'answered/s', 'p50 ms', 'p99 ms', 'loop p99 ms', 'gc p99 ms', 'gc %', 'failed', 'most waiting', 'meets'],
          pacedCells,
          1,
        ),
      );
    }
    for (const [name, list] of Object.entries(shapes)) {
      console.log(
        `\n${name} on ${LABEL[database]}, a single client by shape (mean ms, p50 ms, calls, share of the client's time; ` +
          `a call counts under each of its shapes):`,
      );
      console.log(`  ${list.map((s) => `${s.shape} ${s.mean.toFixed(1)}/${s.p50.toFixed(1)} (${s.calls}, ${Math.round(100 * s.shareOfTime)}%)`).join('; ')}`);
    }
  }
  if (measured.sqlite && measured.postgres) {
    // the issue's aim: PostgreSQL within 1.5× of SQLite's rate, i.e. a ratio of at least 0.67
    const pg = new Map(measured.postgres.rows.map((r) => [r.name, r]));
    const cells = measured.sqlite.rows.flatMap((s) => {
      const p = pg.get(s.name);
      if (!p) return [];
      return [
        [
          s.name,
          s.kind,
          Math.round(s.requestsPerSecond).toLocaleString('en-GB'),
          Math.round(p.requestsPerSecond).toLocaleString('en-GB'),
          s.requestsPerSecond ? (p.requestsPerSecond / s.requestsPerSecond).toFixed(2) : '-',
          `${s.p50}/${p.p50}`,
          `${s.p99}/${p.p99}`,
          `${s.loopP99.toFixed(1)}/${p.loopP99.toFixed(1)}`,
        ],
      ];
    });
    console.log(`\nPostgreSQL beside SQLite (seed ${seed}; the aim: a rate ratio of at least 0.67, within 1.5× of SQLite's):`);
    console.log(table(['case', 'kind', 'SQLite req/s', 'PostgreSQL req/s', 'PG/SQLite', 'p50 ms S/PG', 'p99 ms S/PG', 'loop p99 ms S/PG'], cells, 2));
  }
  const resultsFile = path.join(out, `results-seed${seed}${databaseArg === 'sqlite' ? '' : `-${databaseArg}`}.json`);
  writeFileSync(
    resultsFile,
    JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        seconds: (Date.now() - began) / 1000,
        machine,
        loadAverage: os.loadavg(),
        seed,
        connections,
        durationSeconds: seconds,
        warmupSeconds: warmup,
        databases,
        dataset: { params: meta.params, counts },
        rows: databases.flatMap((d) => measured[d]!.rows),
        probes: Object.fromEntries(databases.map((d) => [d, measured[d]!.probes])),
        shapes: Object.fromEntries(databases.map((d) => [d, measured[d]!.shapes])),
        firstDraws: measured[databases[0]!]!.samples,
      },
      null,
      2,
    ),
  );
  log(`varied: done in ${((Date.now() - began) / 1000).toFixed(0)} s; ${path.relative(process.cwd(), resultsFile)}`);
  process.exit(0);
}

main().catch((error) => {
  log(`bench:varied failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
