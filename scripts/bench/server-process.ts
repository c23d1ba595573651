/**
 * The Ledgerline server under test, in a process of its own so the load generator does not share
 * its event loop. Started by run.ts with fork(); settings come in BENCH_SERVER (JSON). It is the
 * production server but for the rate limits (set far above the load) and logs a line per request
 * as `ledgerline serve` does; run.ts starts one with the answer cache as shipped and one without. It listens on 127.0.0.1 only, answers { rss } when
 *  asked, and stops
 * when told to, when its parent goes away, or after maxSeconds at the latest.
 */
import { writeFileSync } from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import { createServer } from 'node:net';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { KyselyPlugin } from 'kysely';

/** a module of the server: the compiled one in dist/ (processes.ts builds it), or its source under tsx with BENCH_FROM_SOURCE=1 */
const serverModule = <T>(module: string): Promise<T> =>
  import(new URL(`../../${process.env.BENCH_FROM_SOURCE === '1' ? 'src' : 'dist'}/${module}`, import.meta.url).href) as Promise<T>;
const { createLogger } = await serverModule<typeof import('../../src/calls/logger.js')>('calls/logger.js');
const { buildApp } = await serverModule<typeof import('../../src/app/app.js')>('app/app.js');
const { defaultRateLimits, defaultSqliteReadWorkers } = await serverModule<typeof import('../../src/config.js')>('config.js');
const { openStore } = await serverModule<typeof import('../../src/store/db.js')>('store/db.js');

export interface ServerSettings {
  sqlitePath?: string;
  pgUrl?: string;
  pgSchema?: string;
  /** the organisations' local date (the demo date) */
  today: string;
  maxSeconds: number;
  /** the answer cache's budget; 0 runs without it (every call computed) */
  resultCacheMb: number;
}

const settings = JSON.parse(process.env.BENCH_SERVER ?? '{}') as ServerSettings;
const opened = settings.pgUrl
  ? openStore({ databaseUrl: settings.pgUrl, pgSchema: settings.pgSchema!, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10) })
  : // the readers `ledgerline serve` starts (src/config.ts), SQLITE_READ_WORKERS as there
    openStore({ sqlitePath: settings.sqlitePath!, sqliteReadWorkers: Number(process.env.SQLITE_READ_WORKERS ?? defaultSqliteReadWorkers()) });

// every SQL statement the server sends is counted (a Kysely plugin sees raw sql`` too, and statements
// compiled once, store/prepared.ts, at each run), so the bench can print statements per call, and
// the queries built per call beside them; run.ts reads and resets the counts around each measurement
let statements = 0;
let compiled = 0;
const counter: KyselyPlugin = {
  transformQuery: (args) => {
    compiled += 1;
    return args.node;
  },
  transformResult: async (args) => {
    statements += 1;
    return args.result;
  },
};
const store = { ...opened, db: opened.db.withPlugin(counter) };

// how long the event loop was kept from turning, sampled every 10 ms, reset with the count
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

// garbage collection's pauses of the main thread, since the last reset: under load the young
// generation's scavenges are what the event-loop delay is mostly made of (docs/performance.md)
let gcPauses: number[] = [];
let gcSince = performance.now();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push(entry.duration);
}).observe({ entryTypes: ['gc'] });
function gcStats(): { gcPauseP99: number; gcShare: number } {
  const sorted = [...gcPauses].sort((a, b) => a - b);
  const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! : 0;
  const total = sorted.reduce((a, b) => a + b, 0);
  return { gcPauseP99: p99, gcShare: total / Math.max(1, performance.now() - gcSince) };
}

// the issuer and audience carry the port, so it is chosen before the app is built
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as { port: number };
    probe.close(() => resolve(free));
  });
});

// rate limits would measure the limiter, not the service: far above what the load can reach
const unlimited = 1_000_000_000;
const { app } = await buildApp({
  store,
  baseUrl: `http://127.0.0.1:${port}`,
  today: settings.today,
  resultCacheBytes: settings.resultCacheMb * 1024 * 1024,
  rateLimits: defaultRateLimits({ perToken: unlimited, perOrganisation: unlimited, tokenEndpointPerAddress: unlimited }),
  // one JSON line per request to stdout, as `ledgerline serve` logs; run.ts sends it to a file
  logger: createLogger(),
});
await app.listen({ host: '127.0.0.1', port });

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await app.close().catch(() => {});
    await opened.close().catch(() => {});
  }
  process.exit(code);
}

// BENCH_HEAP_SAMPLE=file: what the main thread allocates between stats-reset and stats, sampled
// (the inspector's sampling heap profiler, counting what the collector has freed too), written to
// the file before the stats are sent
const heapSampler = process.env.BENCH_HEAP_SAMPLE ? new InspectorSession() : undefined;
heapSampler?.connect();
const HEAP_SAMPLING = { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };

process.on('message', async (message: { type: string }) => {
  if (message.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
  if (message.type === 'stop') void stop(0);
  if (message.type === 'stats') {
    // nanoseconds; the histogram's floor is the sampling resolution (10 ms), so report the excess over it
    const ms = (ns: number) => Math.max(0, ns / 1e6 - 10);
    if (heapSampler) writeFileSync(process.env.BENCH_HEAP_SAMPLE!, JSON.stringify((await heapSampler.post('HeapProfiler.stopSampling')).profile));
    process.send?.({ type: 'stats', statements, compiled, loopDelayP99: ms(loopDelay.percentile(99)), loopDelayMax: ms(loopDelay.max), ...gcStats() });
  }
  if (message.type === 'stats-reset') {
    statements = 0;
    compiled = 0;
    loopDelay.reset();
    gcPauses = [];
    gcSince = performance.now();
    await heapSampler?.post('HeapProfiler.startSampling', HEAP_SAMPLING);
    process.send?.({ type: 'stats-reset' });
  }
});
process.on('disconnect', () => void stop(0));
setTimeout(() => void stop(2), settings.maxSeconds * 1000).unref();
process.send?.({ type: 'ready', port });
