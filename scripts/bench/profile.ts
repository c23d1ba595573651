/**
 * A CPU profile of one bench case under load, computed on every call: the bench's server child
 * (server-process.ts, RESULT_CACHE_MB=0) started with --cpu-prof on a copy of the bench's cached
 * SQLite dataset, autocannon at 50 connections on the case's path (default `organisations`, the
 * cheapest authenticated call) with an API client's token, then the samples of the measured window
 * only, summarised by self time.
 *
 *   npx tsx scripts/bench/profile.ts [dataset.sqlite] [seconds]
 *   BENCH_PROFILE_CASE=ledger-default npx tsx scripts/bench/profile.ts   (a case of cases.ts by name, or a
 *                            varied one of varied-params.ts, e.g. banking-varied: its seed-1 draws in turn)
 *   BENCH_PROFILE=0 npx tsx scripts/bench/profile.ts   (no profiler: only the CPU time per request)
 *   BENCH_CONNECTIONS=4 ...   (the load's connections; default 50)
 *   BENCH_PROFILE_KEPT=1 ...   (the server as shipped, answers kept while the data stands still)
 *   BENCH_HEAP_SAMPLE=/tmp/heap.json ...   (also what the main thread allocates a request, sampled, and where)
 *   BENCH_PROFILE_PG_SCHEMA=bench_x ...   (on PostgreSQL: a schema scripts/bench/postgres.ts filled and a run left, at BENCH_PG_URL)
 *
 * Besides the profile it prints the server's own CPU time (user + system, from /proc) per request
 * answered in the window (unlike requests per second, it hardly moves when other processes share
 * the cores), its event-loop delay p99 and the statements it sent per request; on PostgreSQL, the
 * database's own CPU time per request too (its processes on this machine).
 *
 * The dataset defaults to the first cached one under bench-output/cache (run `BENCH_QUICK=1 npm run
 * bench` once to build the small one). Output: bench-output/profile/*.cpuprofile and the summary on
 * standard output.
 */
import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createApiClient } from '../../src/auth/clients.js';
import { openStore } from '../../src/store/db.js';
import { benchCases } from './cases.js';
import { compileServer, fromSource } from './processes.js';
import { freshCopy, type DatasetMeta } from './dataset.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

/** BENCH_CONNECTIONS: the load's connections (default 50, as the bench's) */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = path.dirname(fileURLToPath(import.meta.url));
const output = path.resolve(process.env.BENCH_OUTPUT ?? 'bench-output');
const cacheDir = path.join(output, 'cache');
const dataset =
  process.argv[2] ||
  path.join(
    cacheDir,
    readdirSync(cacheDir).find((f) => f.endsWith('.sqlite'))!,
  );
const seconds = Number(process.argv[3] ?? 8);
const meta = JSON.parse(readFileSync(dataset.replace(/\.sqlite$/, '.json'), 'utf8')) as DatasetMeta;
const caseName = process.env.BENCH_PROFILE_CASE || 'organisations';
// a fixed case's one path, or a varied case's seeded draws (varied-params.ts, seed 1), one per request
const fixedCase = benchCases(meta).find((c) => c.name === caseName);
const variedCase = fixedCase ? undefined : variedCases(readPools(dataset, meta)).find((c) => c.name === caseName);
if (!fixedCase && !variedCase)
  throw new Error(
    `BENCH_PROFILE_CASE: no case "${caseName}" (cases: ${[...benchCases(meta), ...variedCases(readPools(dataset, meta))].map((c) => c.name).join(', ')})`,
  );
const casePath = fixedCase?.path ?? `${variedCase!.name} (seed 1)`;
const draws = variedCase ? drawStream(1, variedCase) : null;
const nextPath = () => draws?.().path ?? fixedCase!.path;

const profiling = process.env.BENCH_PROFILE !== '0';
const profileDir = path.join(output, 'profile');
rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });
const working = path.join(profileDir, 'run.sqlite');
// BENCH_PROFILE_PG_SCHEMA: a schema a bench run filled (scripts/bench/postgres.ts) at BENCH_PG_URL, kept, instead of the SQLite copy
const pgSchema = process.env.BENCH_PROFILE_PG_SCHEMA;
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
if (!pgSchema) freshCopy(dataset, working);

const store = pgSchema ? openStore({ databaseUrl: pgUrl, pgSchema, poolSize: 1 }) : openStore({ sqlitePath: working });
const client = await createApiClient(store.db, { organisationId: meta.organisationId, name: 'Profile' });
await store.close();

compileServer();
const child = fork(path.join(here, 'server-process.ts'), [], {
  execArgv: ['--import', 'tsx', ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    BENCH_FROM_SOURCE: fromSource ? '1' : '0',
    BENCH_SERVER: JSON.stringify({
      ...(pgSchema ? { pgUrl, pgSchema } : { sqlitePath: working }),
      today: meta.params.date,
      maxSeconds: 300,
      resultCacheMb: process.env.BENCH_PROFILE_KEPT ? 64 : 0,
    }),
  },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) => child.on('message', (m: { type: string; port?: number }) => m.type === 'ready' && resolve(m.port!)));
const tokenAnswer = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'service.read' }),
});
const token = ((await tokenAnswer.json()) as { access_token: string }).access_token;
const load = {
  url: `http://127.0.0.1:${port}`,
  requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: nextPath() }) }],
  connections: CONNECTIONS,
  headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip' },
  timeout: 30,
};
await autocannon({ ...load, duration: 2 });
// V8's profile clock is the monotonic clock process.hrtime reads, in microseconds
/** a process's CPU time so far from its /proc stat line, user + system, in milliseconds (Linux clock ticks of 10 ms) */
const statCpuMs = (stat: string) => {
  const fields = stat.split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** the child's CPU time so far */
const cpuMs = () => statCpuMs(readFileSync(`/proc/${child.pid}/stat`, 'utf8'));
/**
 * PostgreSQL's CPU time so far, every process named postgres on this machine (the bench's database
 * is local), in milliseconds: what a computed call costs the database, which requests per second
 * hide once PostgreSQL is the core the load waits for. null on SQLite.
 */
const databaseCpuMs = () => {
  if (!pgSchema) return null;
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) ms += statCpuMs(stat);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return ms;
};
const ask = <T>(type: string) =>
  new Promise<T>((resolve) => {
    const on = (m: { type: string }) => m.type === type && (child.off('message', on), resolve(m as T));
    child.on('message', on);
    child.send({ type });
  });
await ask('stats-reset');
const cpuBefore = cpuMs();
const databaseBefore = databaseCpuMs();
const from = Number(process.hrtime.bigint() / 1000n);
const result = await autocannon({ ...load, duration: seconds });
const to = Number(process.hrtime.bigint() / 1000n);
const cpuPerRequest = ((cpuMs() - cpuBefore) * 1000) / result.requests.total;
const databaseAfter = databaseCpuMs();
const databasePerRequest =
  databaseBefore === null ? '' : `; PostgreSQL CPU ${(((databaseAfter! - databaseBefore) * 1000) / result.requests.total).toFixed(0)} µs per request`;
const stats = await ask<{ statements: number; loopDelayP99: number; gcPauseP99: number; gcShare: number }>('stats');
child.send({ type: 'stop' });
await new Promise((resolve) => child.once('exit', resolve));
console.log(
  `GET ${casePath}, ${CONNECTIONS} connections, ${seconds} s: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
    `non-2xx ${result.non2xx}; server CPU ${cpuPerRequest.toFixed(0)} µs per request${profiling ? ' (under the profiler)' : ''}${databasePerRequest}; ` +
    `event-loop delay p99 ${stats.loopDelayP99.toFixed(1)} ms; collection pauses p99 ${stats.gcPauseP99.toFixed(1)} ms, ` +
    `${(100 * stats.gcShare).toFixed(0)}% of the time; ${(stats.statements / result.requests.total).toFixed(1)} statements a call`,
);
if (process.env.BENCH_HEAP_SAMPLE) printAllocation(process.env.BENCH_HEAP_SAMPLE, result.requests.total);
if (!profiling) process.exit(0);

/** a frame of a CPU or heap profile */
interface Frame {
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** where a frame's code lives: a package, our source, or V8's own entries */
function place(n: Frame): string {
  const url = n.callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]}`;
  if (url.includes('/dist/')) return `src/${url.split('/dist/')[1]!.replace(/\.js$/, '.ts')}`;
  if (url.startsWith('node:')) return url;
  return n.callFrame.functionName ? `(${n.callFrame.functionName})` : '(native)';
}

/** a frame's function and where it lives, as both profiles' lists name it */
function label(n: Frame): string {
  return `${n.callFrame.functionName || '(anonymous)'} ${place(n)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
}

interface HeapNode extends Frame {
  selfSize: number;
  children: HeapNode[];
}

/** The sampled bytes the main thread allocated in the window (server-process.ts, BENCH_HEAP_SAMPLE): a request's share, and where most were made. */
function printAllocation(file: string, requests: number): void {
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode) => {
    const name = label(n);
    byFunction.set(name, (byFunction.get(name) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk((JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head);
  console.log(`allocated (sampled, freed or not): ${(total / requests / 1024).toFixed(0)} KB a request; the most by function:`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${name}`);
}

interface Node extends Frame {
  id: number;
  children?: number[];
}
const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<number, number>();
let t = profile.startTime;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (t < from || t > to) continue;
  self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + 1);
  total++;
}

const share = (x: number) => `${((x / total) * 100).toFixed(1)}%`;
const top = <K>(m: Map<K, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const [id, count] of self) {
  const n = byId.get(id)!;
  byFunction.set(label(n), (byFunction.get(label(n)) ?? 0) + count);
  const p = place(n).replace(/^src\/([^/]+\/[^/]+).*$/, 'src/$1');
  byPlace.set(p, (byPlace.get(p) ?? 0) + count);
}
// inclusive: samples with the function anywhere on their stack
const inclusive = (name: string) => {
  let n = 0;
  for (const [id, count] of self) {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)!.callFrame.functionName === name) {
        n += count;
        break;
      }
    }
  }
  return n;
};

// inclusive by package: samples with a frame of that package anywhere on their stack
const inclusivePlace = (name: string) => {
  let n = 0;
  for (const [id, count] of self) {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (place(byId.get(at)!) === name) {
        n += count;
        break;
      }
    }
  }
  return n;
};

console.log(`${total} samples in the window (${file})`);
console.log('\nself time by place:');
for (const [p, c] of top(byPlace, 20)) console.log(`  ${share(c).padStart(6)}  ${p}`);
console.log('\nself time by function:');
for (const [f, c] of top(byFunction, 30)) console.log(`  ${share(c).padStart(6)}  ${f}`);
console.log('\ninclusive:');
for (const name of [
  'authenticate',
  'findBearerToken',
  'runCallSequence',
  'applyRateLimits',
  'executeQuery',
  'compile',
  'writev',
  'observeRequest',
  'serialize',
])
  console.log(`  ${share(inclusive(name)).padStart(6)}  ${name}`);
// every place with a frame on the stack, counted once per sample: where the time goes, callees included
const inclusiveByPlace = new Map<string, number>();
for (const [id, count] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(place(byId.get(at)!));
  for (const p of seen) inclusiveByPlace.set(p, (inclusiveByPlace.get(p) ?? 0) + count);
}
// the service's own functions, callees included, each counted once per sample: which step of a call costs what
const inclusiveOwn = new Map<string, number>();
for (const [id, count] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (place(byId.get(at)!).startsWith('src/')) seen.add(label(byId.get(at)!));
  for (const f of seen) inclusiveOwn.set(f, (inclusiveOwn.get(f) ?? 0) + count);
}
console.log("\nthe service's functions, callees included:");
for (const [f, c] of top(inclusiveOwn, 30)) console.log(`  ${share(c).padStart(6)}  ${f}`);
console.log('\ninclusive by place (callees included):');
for (const [p, c] of top(inclusiveByPlace, 25)) console.log(`  ${share(c).padStart(6)}  ${p}`);
for (const name of [
  'kysely',
  'pino',
  'sonic-boom',
  'prom-client',
  '@fastify/middie',
  'fastify',
  'src/auth/token-check.ts',
  'src/store/prepared.ts',
  'src/app/app.ts',
])
  console.log(`  ${share(inclusivePlace(name)).padStart(6)}  ${name} (any frame)`);

// the other threads (the SQLite readers, the logger's): how busy each was over the same window
for (const other of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile') && f !== file)) {
  const p = JSON.parse(readFileSync(path.join(profileDir, other), 'utf8')) as typeof profile;
  const idleNodes = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let at = p.startTime;
  let all = 0;
  let idle = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i]!;
    if (at < from || at > to) continue;
    all++;
    if (idleNodes.has(p.samples[i]!)) idle++;
  }
  if (all) console.log(`\nthread ${other}: ${(((all - idle) / all) * 100).toFixed(0)}% busy in the window`);
}
