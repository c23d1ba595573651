/**
 * `npm run bench`: every operation under load, at scale, against the machine's own floor.
 *
 * Builds (once, cached) the scaled demo, then for each backend (SQLite, PostgreSQL): measures the
 * reports against their SQL floor, the query plans and the token check in-process; starts the
 * server in a child process on 127.0.0.1; runs autocannon for a bounded time on every case and, in
 * the same run, on the floors (the server's cheapest authenticated route, and a bare Fastify route
 * answering the same bytes); times the first byte of a 10 MB documents.file; samples the server's
 * memory. Prints a table per backend, writes bench-output/results.json, results.svg and plans-*.md.
 * Settings: see config.ts. Everything stops itself: children are killed when this process exits.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '../../src/auth/clients.js';
import { DEFAULT_RESULT_CACHE_MB } from '../../src/config.js';
import { benchCases, type BenchCase } from './cases.js';
import { resultsChart } from './chart.js';
import { benchConfig, type BenchConfig } from './config.js';
import { ensureDataset, workingCopy, type DatasetMeta } from './dataset.js';
import { capturePlans, reportTimings, tokenCheckTiming, tracedStore, type CasePlans, type ReportTiming, type TokenCheckTiming } from './inprocess.js';
import { measure, type LoadResult } from './load.js';
import { canReach, loadPostgres } from './postgres.js';
import { ACCEPT, clientToken } from './single-client.js';
import { percentile } from './stats.js';
import { startChild, startServer, type Child } from './processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

/** Targets of the issue, on SQLite at full scale. */
const TARGET_P99_MS = 100;
const TARGET_SHARE_OF_FLOOR = 0.25;
/** the cheapest authenticated call against a bare route answering the same bytes */
const TARGET_ORGANISATIONS_OF_BARE = 0.4;
/** the server's event loop kept from turning, p99 over a measurement */
const TARGET_LOOP_DELAY_P99_MS = 20;

/** What the server itself saw during a measurement: SQL statements sent and how long its event loop was held up. */
interface ServerStats {
  /** statements the server sent per request answered (the token check, the call's checks and the operation's own reads) */
  statementsPerCall: number;
  /** queries the server compiled (built with the query builder or a sql template) per request answered; 0 when every statement was compiled once */
  compiledPerCall: number;
  /** event-loop delay beyond the 10 ms sampling interval, ms */
  loopDelayP99: number;
  loopDelayMax: number;
}
type Measured = LoadResult & ServerStats;

/** A load measurement against one of our servers, with its statement count and event-loop delay over the measured part only. */
async function measureServer(
  child: Child,
  url: string,
  load: { connections: number; durationSeconds: number; warmupSeconds: number },
  headers: Record<string, string>,
): Promise<Measured> {
  const result = await measure(url, { ...load, headers, rss: child.rss, beforeMeasure: () => child.ask('stats-reset') });
  const stats = await child.ask<{ statements: number; compiled: number; loopDelayP99: number; loopDelayMax: number }>('stats');
  return {
    ...result,
    statementsPerCall: stats && result.requests ? stats.statements / result.requests : NaN,
    compiledPerCall: stats && result.requests ? stats.compiled / result.requests : NaN,
    loopDelayP99: stats?.loopDelayP99 ?? NaN,
    loopDelayMax: stats?.loopDelayMax ?? NaN,
  };
}

interface CaseResult extends Measured {
  name: string;
  operation: string;
  note: string;
  path: string;
  /** the answer's JSON */
  bytes: number;
  /** what was sent: the JSON, or gzipped when it was worth it */
  wireBytes: number;
  bare: LoadResult;
  /** time inside the server (its request log: request received to answer sent), ms */
  server: { p50: number; p99: number; requests: number };
  /** the same case on a server without the answer cache: every call computed */
  computed: Measured & { server: { p50: number; p99: number; requests: number }; ratioToFloor: number; meetsTarget: boolean };
  /** one call's statements alone, ms (CasePlans.sqlMs); 0 for the cheapest call, not planned */
  sqlMs: number;
  /** requests/s against the floor: the lower of the server's cheapest authenticated route and the bare route of the same size */
  ratioToFloor: number;
  ratioToBare: number;
  meetsTarget: boolean;
}

interface BackendResult {
  backend: 'sqlite' | 'postgres';
  tokenCheck: TokenCheckTiming;
  reports: ReportTiming[];
  firstByte: { bytes: number; firstByteMs: number; totalMs: number; runs: number };
  idleRss: number;
  cases: CaseResult[];
  plansFile: string;
}

/** One call as the load generator makes it (gzip accepted, as HTTP clients do): the bytes on the wire and their encoding. */
function fetchBody(port: number, pathName: string, token: string): Promise<{ wire: Buffer; gzip: boolean; jsonBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathName, headers: { authorization: `Bearer ${token}`, ...ACCEPT } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const gzip = res.headers['content-encoding'] === 'gzip';
        const json = gzip ? gunzipSync(wire) : wire;
        if (res.statusCode !== 200) reject(new Error(`${pathName}: ${res.statusCode} ${json.toString('utf8').slice(0, 300)}`));
        else resolve({ wire, gzip, jsonBytes: json.length });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Time to the first byte of the body, and to the last, of one GET. */
function firstByte(port: number, pathName: string, token: string): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    let first = 0;
    let bytes = 0;
    const req = request({ host: '127.0.0.1', port, path: pathName, headers: { authorization: `Bearer ${token}`, ...ACCEPT } }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (first === 0) first = performance.now() - began;
        bytes += chunk.length;
      });
      res.on('end', () =>
        res.statusCode === 200 ? resolve({ firstByteMs: first, totalMs: performance.now() - began, bytes }) : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function runBackend(
  config: BenchConfig,
  backend: 'sqlite' | 'postgres',
  cacheFile: string,
  meta: DatasetMeta,
  cases: BenchCase[],
): Promise<BackendResult | null> {
  let dropPostgres: (() => Promise<void>) | null = null;
  let where: { sqlitePath: string } | { pgUrl: string; pgSchema: string };
  if (backend === 'sqlite') {
    where = { sqlitePath: workingCopy(cacheFile, config.output) };
  } else {
    if (!(await canReach(config.pgUrl))) {
      log(`postgres: ${config.pgUrl} cannot be reached; skipped`);
      return null;
    }
    log('postgres: loading the dataset into a schema of its own');
    const pgData = await loadPostgres(config.pgUrl, cacheFile, log);
    dropPostgres = pgData.drop;
    where = { pgUrl: config.pgUrl, pgSchema: pgData.schema };
  }
  const children: Child[] = [];
  try {
    const runs = config.quick ? 5 : 21;
    // in-process first, while nothing else runs
    const store = tracedStore(where);
    let tokenCheck: TokenCheckTiming;
    let reports: ReportTiming[];
    let plans: CasePlans[];
    let client: { clientId: string; clientSecret: string };
    try {
      tokenCheck = await tokenCheckTiming(store, meta.organisationId, config.date, config.quick ? 200 : 2000);
      log(`${backend}: token check ${tokenCheck.microseconds.toFixed(0)} µs, ${tokenCheck.queries} queries`);
      reports = await reportTimings(store, meta.organisationId, config.date, runs);
      for (const r of reports) log(`${backend}: ${r.name}: ${r.operationMs.toFixed(1)} ms, floor ${r.floorMs.toFixed(1)} ms (${r.ratio.toFixed(2)}x)`);
      plans = await capturePlans(store, meta.organisationId, config.date, cases, runs);
      client = await createApiClient(store.db, { organisationId: meta.organisationId, name: `Benchmark ${backend}` });
    } finally {
      await store.close();
    }
    const plansFile = path.join(config.output, `plans-${backend}.md`);
    writeFileSync(plansFile, plansMarkdown(backend, plans));

    const maxSeconds = String(Math.ceil(cases.length * 3 * (config.durationSeconds + config.warmupSeconds + 15) + 600));
    const serverLog = path.join(config.output, `server-${backend}.log`);
    const computingLog = path.join(config.output, `server-${backend}-no-cache.log`);
    const serverWith = (resultCacheMb: number, logFile: string) =>
      startServer({ ...where, today: config.date, maxSeconds: Number(maxSeconds), resultCacheMb }, logFile);
    // as shipped (RESULT_CACHE_MB's default), and without the cache: what a call costs when computed
    const server = await serverWith(DEFAULT_RESULT_CACHE_MB, serverLog);
    children.push(server);
    const computing = await serverWith(0, computingLog);
    children.push(computing);
    const computingHeaders = { authorization: `Bearer ${await clientToken(computing.port, client)}`, ...ACCEPT };
    const token = await clientToken(server.port, client);
    const headers = { authorization: `Bearer ${token}`, ...ACCEPT };

    // one call of each case: it must succeed, and its bytes become the bare floor's body
    const bodies = path.join(config.output, 'bodies', backend);
    rmSync(bodies, { recursive: true, force: true });
    mkdirSync(bodies, { recursive: true });
    const sizes = new Map<string, { json: number; wire: number }>();
    for (const c of cases) {
      const body = await fetchBody(server.port, c.path, token);
      sizes.set(c.name, { json: body.jsonBytes, wire: body.wire.length });
      writeFileSync(path.join(bodies, `${c.name}.json${body.gzip ? '.gz' : ''}`), body.wire);
    }
    const floorServer = await startChild(path.join(here, 'floor-server.ts'), { BENCH_FLOOR_DIR: bodies, BENCH_SERVER_MAX_SECONDS: maxSeconds });
    children.push(floorServer);

    const idleRss = await server.rss();

    const load = { connections: config.connections, durationSeconds: config.durationSeconds, warmupSeconds: config.warmupSeconds };
    const results: CaseResult[] = [];
    let floorRps = 0;
    for (const c of cases) {
      const measured = await measureServer(server, `http://127.0.0.1:${server.port}${c.path}`, load, headers);
      const bare = await measure(`http://127.0.0.1:${floorServer.port}/floor/${c.name}`, load);
      const computed = await measureServer(computing, `http://127.0.0.1:${computing.port}${c.path}`, load, computingHeaders);
      if (c.name === 'organisations') floorRps = measured.requestsPerSecond;
      // no answer can beat either floor: the cheapest authenticated call, or the bare route sending the same bytes
      const floor = Math.min(floorRps || Infinity, bare.requestsPerSecond || Infinity);
      const ratioToFloor = Number.isFinite(floor) ? measured.requestsPerSecond / floor : 0;
      const computedRatio = Number.isFinite(floor) ? computed.requestsPerSecond / floor : 0;
      const ratioToBare = bare.requestsPerSecond ? measured.requestsPerSecond / bare.requestsPerSecond : 0;
      const clean = (m: Measured) => m.non2xx === 0 && m.errors === 0 && m.loopDelayP99 < TARGET_LOOP_DELAY_P99_MS;
      // the cheapest call's own target is its share of the bare route; the others', their share of the floor
      const meets = (m: Measured, share: number) =>
        clean(m) &&
        m.p99 < TARGET_P99_MS &&
        (c.name === 'organisations'
          ? (bare.requestsPerSecond ? m.requestsPerSecond / bare.requestsPerSecond : 0) >= TARGET_ORGANISATIONS_OF_BARE
          : share >= TARGET_SHARE_OF_FLOOR);
      const result: CaseResult = {
        name: c.name,
        operation: c.operation,
        note: c.note,
        path: c.path,
        bytes: sizes.get(c.name)!.json,
        wireBytes: sizes.get(c.name)!.wire,
        ...measured,
        bare,
        server: { p50: 0, p99: 0, requests: 0 },
        computed: { ...computed, server: { p50: 0, p99: 0, requests: 0 }, ratioToFloor: computedRatio, meetsTarget: meets(computed, computedRatio) },
        sqlMs: plans.find((p) => p.name === c.name)?.sqlMs ?? 0,
        ratioToFloor,
        ratioToBare,
        meetsTarget: meets(measured, ratioToFloor),
      };
      results.push(result);
      log(
        `${backend}: ${c.name.padEnd(20)} ${fmt(result.requestsPerSecond, 0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms ` +
          ` ${(result.ratioToFloor * 100).toFixed(0)}% of floor  ${fmt(measured.statementsPerCall)} SQL/call (${fmt(measured.compiledPerCall)} built)  ` +
          `loop p99 ${fmt(measured.loopDelayP99)} ms;` +
          `  computed every call: ${fmt(computed.requestsPerSecond, 0)} req/s  p50 ${computed.p50} ms  p99 ${computed.p99} ms ` +
          ` ${(computedRatio * 100).toFixed(0)}% of floor  ${fmt(computed.statementsPerCall)} SQL/call (${fmt(computed.compiledPerCall)} built)  loop ` +
          `p99 ${fmt(computed.loopDelayP99)} ms`,
      );
    }
    // the 10 MB file is timed after the cases, so the floor (the first case) is not measured on a
    // server still collecting the garbage of sending it
    const bigPath = `/v1/operations/documents.file?id=${encodeURIComponent(meta.bigDocumentId)}`;
    const fb: { firstByteMs: number; totalMs: number; bytes: number }[] = [];
    for (let i = 0; i < (config.quick ? 3 : 7); i++) fb.push(await firstByte(server.port, bigPath, token));
    const median = (key: (x: (typeof fb)[number]) => number) => percentile(fb.map(key), 0.5);
    const firstByteResult = { bytes: fb[0]!.bytes, firstByteMs: median((x) => x.firstByteMs), totalMs: median((x) => x.totalMs), runs: fb.length };
    log(`${backend}: documents.file 10 MB: first byte ${firstByteResult.firstByteMs.toFixed(0)} ms, all ${firstByteResult.totalMs.toFixed(0)} ms`);
    await server.stop();
    await computing.stop();
    // each server's request log, read once
    const logged = new Map([serverLog, computingLog].map((file) => [file, serverTimes(file)]));
    const inServer = (file: string, route: string, window: LoadResult) => {
      const xs = logged
        .get(file)!
        .filter((t) => t.route === route && t.at >= window.startedAt && t.at <= window.finishedAt)
        .map((t) => t.ms);
      return { p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), requests: xs.length };
    };
    for (const r of results) {
      r.server = inServer(serverLog, r.operation, r);
      r.computed.server = inServer(computingLog, r.operation, r.computed);
    }
    return { backend, tokenCheck, reports, firstByte: firstByteResult, idleRss, cases: results, plansFile: path.relative(process.cwd(), plansFile) };
  } finally {
    for (const child of children) await child.stop();
    if (dropPostgres) await dropPostgres().catch((e) => log(`postgres: could not drop the schema: ${(e as Error).message}`));
  }
}

/** The server's own log: one line per request with its route and the time it took inside the server. */
function serverTimes(file: string): { route: string; at: number; ms: number }[] {
  const out: { route: string; at: number; ms: number }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as { time?: string; route?: string; ms?: number };
      if (e.route && typeof e.ms === 'number' && e.time) out.push({ route: e.route, at: Date.parse(e.time), ms: e.ms });
    } catch {
      // a line cut short when the server stopped
    }
  }
  return out;
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function plansMarkdown(backend: string, plans: CasePlans[]): string {
  const lines = [
    `# Query plans, ${backend}`,
    '',
    'Every statement one call of each case sends (identical SQL listed once; "×n" when sent n times), with its time in that call and its plan.',
    '',
  ];
  for (const c of plans) {
    lines.push(`## ${c.name} (${c.queries.reduce((n, q) => n + q.repeated, 0)} statements)`, '');
    for (const q of c.queries) {
      lines.push(
        `- ${q.ms.toFixed(2)} ms${q.repeated > 1 ? ` ×${q.repeated}` : ''}: \`${q.sql.replace(/\s+/g, ' ').slice(0, 400)}\``,
        '',
        '```',
        q.plan,
        '```',
        '',
      );
    }
  }
  return lines.join('\n');
}

function table(result: BackendResult, connections: number, durationSeconds: number): string {
  const head = [
    'case',
    'req/s',
    'p50 ms',
    'p99 ms',
    'in server p50/p99',
    'of floor',
    'bare req/s',
    'of bare',
    'JSON bytes',
    'sent',
    'peak RSS',
    'SQL/call',
    'loop p99',
    'target',
    'computed: req/s',
    'p50',
    'p99',
    'in server p50/p99',
    'of floor',
    'SQL/call',
    'SQL ms',
    'SQL cap',
    'loop p99',
    'target',
  ];
  const target = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows = result.cases.map((c) => [
    c.name,
    fmt(c.requestsPerSecond, 0),
    String(c.p50),
    String(c.p99),
    `${c.server.p50}/${c.server.p99}`,
    c.name === 'organisations' ? 'floor' : `${(c.ratioToFloor * 100).toFixed(0)}%`,
    fmt(c.bare.requestsPerSecond, 0),
    `${(c.ratioToBare * 100).toFixed(0)}%`,
    fmt(c.bytes, 0),
    fmt(c.wireBytes, 0),
    mb(c.peakRss),
    fmt(c.statementsPerCall),
    fmt(c.loopDelayP99),
    target(c.meetsTarget),
    fmt(c.computed.requestsPerSecond, 0),
    String(c.computed.p50),
    String(c.computed.p99),
    `${c.computed.server.p50}/${c.computed.server.p99}`,
    `${(c.computed.ratioToFloor * 100).toFixed(0)}%`,
    fmt(c.computed.statementsPerCall),
    c.sqlMs ? c.sqlMs.toFixed(2) : '-',
    c.sqlMs ? fmt(1000 / c.sqlMs, 0) : '-',
    fmt(c.computed.loopDelayP99),
    target(c.computed.meetsTarget),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const out = [
    `${result.backend}: ${connections} connections, ${durationSeconds} s each after a warm-up, gzip accepted (answers over 1 KB are sent gzipped). ` +
      `bare = a bare Fastify route answering the same bytes;`,
    `floor = the lower of GET /v1/organisations (the cheapest authenticated call) and bare; target: p99 < ${TARGET_P99_MS} ms, ` +
      `>= ${TARGET_SHARE_OF_FLOOR * 100}% of floor`,
    `(organisations: >= ${TARGET_ORGANISATIONS_OF_BARE * 100}% of bare), server event-loop delay p99 < ${TARGET_LOOP_DELAY_P99_MS} ms, no errors. ` +
      `SQL/call = statements the server sent per request answered;`,
    `loop p99 = the server's event-loop delay (monitorEventLoopDelay, 10 ms sampling, the excess over it) during the measurement, ms.`,
    `SQL ms = one call's statements, each run alone in-process (median), summed; SQL cap = 1000 / SQL ms: requests/s one core could answer if it did ` +
      `nothing but that SQL.`,
    `The server as shipped keeps answers while the data stands still (RESULT_CACHE_MB=${DEFAULT_RESULT_CACHE_MB}); "computed" is a second server with ` +
      `RESULT_CACHE_MB=0, every call computed.`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `token check (in-process): ${result.tokenCheck.microseconds.toFixed(0)} µs, ${result.tokenCheck.queries} queries   idle RSS ${mb(result.idleRss)}`,
    `documents.file, 10 MB file (${fmt(result.firstByte.bytes, 0)} bytes of JSON): first byte ${result.firstByte.firstByteMs.toFixed(0)} ms, last ` +
      `byte ${result.firstByte.totalMs.toFixed(0)} ms (median of ${result.firstByte.runs})`,
    ...result.reports.map(
      (r) =>
        `${r.name}: ${r.operationMs.toFixed(1)} ms; SQL floor ${r.floorMs.toFixed(1)} ms (${r.ratio.toFixed(2)}x); one aggregate over the ` +
        `lines ${r.linesFloorMs.toFixed(0)} ms; ${r.statements} ranges${r.checked ? '' : '  FLOOR DISAGREES'}`,
    ),
  ];
  return out.join('\n');
}

async function main(): Promise<void> {
  const config = benchConfig();
  const began = Date.now();
  mkdirSync(config.output, { recursive: true });
  log(
    `bench: ${config.quick ? 'quick, ' : ''}scale ${config.scale}, bank scale ${config.bankScale}, ${config.connections} ` +
      `connections, ${config.durationSeconds} s per measurement, backends ${config.backends.join(', ')}`,
  );
  const { file, meta } = await ensureDataset(config, log);
  const counts = meta.summary.organisations[0]!.counts;
  log(`dataset: ${fmt(counts.lines, 0)} ledger lines, ${fmt(counts.bankTransactions, 0)} bank transactions, ${fmt(counts.documents, 0)} documents`);
  const cases = benchCases(meta).filter((c) => !config.only || c.name === 'organisations' || c.name.includes(config.only));

  const backends: BackendResult[] = [];
  for (const backend of config.backends) {
    const result = await runBackend(config, backend, file, meta, cases);
    if (result) {
      backends.push(result);
      console.log(`\n${table(result, config.connections, config.durationSeconds)}\n`);
    }
  }
  const sqlite = backends.find((b) => b.backend === 'sqlite');
  const missed = sqlite?.cases.filter((c) => !c.meetsTarget).map((c) => c.name) ?? [];
  const missedComputed = sqlite?.cases.filter((c) => !c.computed.meetsTarget).map((c) => c.name) ?? [];
  const plTarget = sqlite?.reports.filter((r) => r.name.startsWith('P&L')).every((r) => r.ratio <= 3) ?? false;
  const summary = {
    generatedAt: new Date().toISOString(),
    seconds: (Date.now() - began) / 1000,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      memoryGb: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    config: { ...config, output: path.relative(process.cwd(), config.output) || '.' },
    dataset: { params: meta.params, counts, buildSeconds: meta.buildSeconds },
    targets: {
      p99Ms: TARGET_P99_MS,
      shareOfFloor: TARGET_SHARE_OF_FLOOR,
      organisationsOfBare: TARGET_ORGANISATIONS_OF_BARE,
      loopDelayP99Ms: TARGET_LOOP_DELAY_P99_MS,
      plWithinFloorFactor: 3,
      sqliteCasesMissed: missed,
      sqliteComputedCasesMissed: missedComputed,
      sqlitePlWithin3x: plTarget,
    },
    backends,
  };
  writeFileSync(path.join(config.output, 'results.json'), JSON.stringify(summary, null, 2));
  const chartRows = backends.flatMap((b) =>
    b.cases.flatMap((c) => [
      { name: c.name, backend: b.backend, requestsPerSecond: c.requestsPerSecond, floorRequestsPerSecond: c.bare.requestsPerSecond, p99: c.p99 },
      {
        name: c.name,
        backend: `${b.backend}, computed`,
        requestsPerSecond: c.computed.requestsPerSecond,
        floorRequestsPerSecond: c.bare.requestsPerSecond,
        p99: c.computed.p99,
      },
    ]),
  );
  writeFileSync(
    path.join(config.output, 'results.svg'),
    resultsChart(
      chartRows,
      `Ledgerline under load: ${fmt(counts.lines, 0)} ledger lines, ${fmt(counts.bankTransactions, 0)} bank transactions, ${config.connections} connections`,
    ),
  );
  log(`bench: done in ${((Date.now() - began) / 1000).toFixed(0)} s; ${path.relative(process.cwd(), config.output)}/results.json, results.svg, plans-*.md`);
  if (sqlite) {
    log(missed.length ? `SQLite targets missed by: ${missed.join(', ')}` : 'SQLite: every case met its target (answers kept)');
    log(
      missedComputed.length
        ? `SQLite targets missed computed on every call by: ${missedComputed.join(', ')}`
        : 'SQLite: every case met its target computed on every call',
    );
  }
  process.exit(0);
}

main().catch((error) => {
  log(`bench failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
