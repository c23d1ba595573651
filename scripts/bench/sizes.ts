/**
 * `npm run bench:sizes -- --scales 40,400 --calls 40`: what one call costs as the books grow (issue
 * 43, item 4). For each demo scale (src/demo/generate.ts: the first organisation's activity times
 * `scale`; 40 gives about 100,000 ledger lines, 400 about 1,000,000, 4000 about 10,000,000) the
 * dataset is built once and cached as `npm run bench` caches it, a server without the answer
 * cache is started on 127.0.0.1 for each, and a single client calls each computed case one request at
 * a time, at each size in turn (main):
 * the bench's fixed cases (cases.ts) and the varied draws (varied-params.ts, the same seed at every
 * size). Prints each case's p50 (and p90) per size and the ratio of the largest size to the smallest
 * (the issue's target: within 1.5x from 100,000 to 10,000,000 lines).
 *
 *   --scales 40,400[,4000]   demo scales (default 40,400); BENCH_BANK_SCALE, BENCH_SEED, BENCH_DATE as the bench
 *   --calls N                timed calls per case and size (default 40), after 3 not counted
 *   --seed N                 the varied draws' seed (default 1)
 *   --only TEXT              only the cases whose name contains TEXT
 *   --cold                   measure without first reading each size's copy into the page cache (warm())
 *
 * The scale the bench itself uses (BENCH_SCALE, default 400) shares the bench's cache
 * (bench-output/cache); the others are cached in bench-output/sizes/cache, so `npm run bench:bound`
 * still finds the one dataset it expects. Writes bench-output/sizes/results.json.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './stats.js';
import { benchCases } from './cases.js';
import { benchConfig } from './config.js';
import { ensureDataset, freshCopy } from './dataset.js';
import { startServer } from './processes.js';
import { argument, benchClient, clientToken, numberArgument, p50, timedGet } from './single-client.js';
import { drawStream, readPools, variedCases } from './varied-params.js';

const log = (m: string) => process.stderr.write(`${m}\n`);
const scales = argument('scales', '40,400').split(',').map(Number);
for (const s of scales) if (!Number.isFinite(s) || s <= 0 || s > 10_000) throw new Error(`--scales: ${s} is not a demo scale (above 0, at most 10000)`);
const calls = numberArgument('calls', 40, 5, 10_000);
const seed = numberArgument('seed', 1, 0, 2 ** 31);
const only = argument('only', '');
const cold = process.argv.includes('--cold');
/** the computed cases: organisations is the floor, documents.file and the lists barely read the books */
const SKIP = new Set(['organisations', 'documents-file']);

interface SizeResult {
  scale: number;
  lines: number;
  bankTransactions: number;
  buildSeconds: number;
  loadAverage: number[];
  /** per case: p50 and p90 ms, and kb, the answers' mean JSON size (KiB): what grows with the books besides the work */
  cases: Record<string, { p50: number; p90: number; calls: number; failed: number; kb: number }>;
}

/**
 * Reads a file once from start to end, so the OS holds it in its page cache as a server that has run
 * a while holds its database; seconds taken. Without it the largest dataset is measured partly
 * cold: its 11 GB copy and the 11 GB cache it came from may not both stay in the page cache of a
 * 24 GB machine, and cold pages made a first pass over the 10M draws four times slower (the
 * ledger's varied draws in-process, statement-probe.ts: 9.0 ms a call cold, 2.2 ms warm).
 */
function warm(file: string): number {
  const started = performance.now();
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  try {
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    closeSync(fd);
  }
  return (performance.now() - started) / 1000;
}

/** One size ready to be called: its server on a warm copy of its dataset, a token, its cases' draws. */
interface Size {
  result: SizeResult;
  port: number;
  token: string;
  /** per case, its next path at this size (a varied case draws from this size's own pools, seeded alike) */
  next: Map<string, () => string>;
  stop: () => Promise<void>;
}

async function prepare(scale: number, out: string): Promise<Size> {
  const base = benchConfig();
  const config = { ...base, scale, output: scale === base.scale ? base.output : out };
  const { file, meta } = await ensureDataset(config, log);
  const counts = meta.summary.organisations[0]!.counts;
  const db = path.join(out, `sizes-s${scale}.sqlite`);
  freshCopy(file, db);
  if (!cold) log(`sizes: scale ${scale}: the copy read once into the page cache in ${warm(db).toFixed(1)} s`);
  const client = await benchClient(db, meta.organisationId);
  const fixed = benchCases(meta).filter((c) => !SKIP.has(c.name) && (!only || c.name.includes(only)));
  const varied = variedCases(readPools(db, meta)).filter((c) => !only || c.name.includes(only));
  const server = await startServer(
    { sqlitePath: db, today: config.date, maxSeconds: (fixed.length + varied.length) * 120 * scales.length + 300, resultCacheMb: 0 },
    path.join(out, `server-s${scale}.log`),
  );
  log(
    `sizes: scale ${scale}: ${counts.lines.toLocaleString('en-GB')} ledger lines, ${counts.bankTransactions.toLocaleString('en-GB')} bank ` +
      `transactions (built in ${meta.buildSeconds.toFixed(0)} s)`,
  );
  const next = new Map<string, () => string>([
    ...fixed.map((c): [string, () => string] => [c.name, () => c.path]),
    ...varied.map((v): [string, () => string] => {
      const stream = drawStream(seed, v);
      return [v.name, () => stream().path];
    }),
  ]);
  return {
    result: { scale, lines: counts.lines, bankTransactions: counts.bankTransactions, buildSeconds: meta.buildSeconds, loadAverage: [], cases: {} },
    port: server.port,
    token: await clientToken(server.port, client),
    next,
    stop: async () => {
      await server.stop();
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    },
  };
}

/**
 * Every size's server runs at once and each case's calls go to the sizes in turn, the first size
 * rotating from call to call: a machine whose speed drifts (this kind moves by half between runs a
 * minute apart) then slows every size alike, where one size after another measured the drift as
 * growth. The first 3 calls of each case at each size are not counted.
 */
async function main(): Promise<void> {
  const out = path.join(benchConfig().output, 'sizes');
  mkdirSync(out, { recursive: true });
  const sizes: Size[] = [];
  try {
    for (const scale of scales) sizes.push(await prepare(scale, out));
    for (const name of sizes[0]!.next.keys()) {
      const times = sizes.map((): number[] => []);
      const lengths = sizes.map((): number[] => []);
      const failed = sizes.map((): { path: string; status: number; body?: string }[] => []);
      for (let i = 0; i < calls + 3; i++) {
        for (let k = 0; k < sizes.length; k++) {
          const at = (i + k) % sizes.length;
          const size = sizes[at]!;
          const call = size.next.get(name)!();
          const t = await timedGet(size.port, call, size.token);
          if (i < 3) continue;
          if (t.status === 200) {
            times[at]!.push(t.ms);
            lengths[at]!.push(t.jsonLength);
          } else failed[at]!.push({ path: call, status: t.status, ...(t.body ? { body: t.body } : {}) });
        }
      }
      sizes.forEach((size, at) => {
        const ts = times[at]!;
        const kb = lengths[at]!.reduce((all, n) => all + n, 0) / Math.max(1, lengths[at]!.length) / 1024;
        const bad = failed[at]!;
        if (bad.length) log(`  ${name} at scale ${size.result.scale}: ${bad.length} failed, e.g. ${bad[0]!.status} ${bad[0]!.path} ${bad[0]!.body ?? ''}`);
        size.result.cases[name] = { p50: p50(ts), p90: ts.length ? percentile(ts, 0.9) : NaN, calls: ts.length, failed: bad.length, kb };
      });
      log(`  ${name.padEnd(22)} p50 ${sizes.map((s) => s.result.cases[name]!.p50.toFixed(1)).join(' / ')} ms  (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
    for (const size of sizes) size.result.loadAverage = os.loadavg();
  } finally {
    for (const size of sizes) await size.stop();
  }
  const results = sizes.map((s) => s.result);

  const names = [...new Set(results.flatMap((r) => Object.keys(r.cases)))];
  // the answers' size beside the time: a page over a period of the larger books holds more rows (up to its limit)
  const head = ['case (p50 ms, one client)', ...results.map((r) => `${(r.lines / 1e6).toFixed(2)}M lines`), `largest/smallest`, 'answer KiB, largest/smallest'];
  const cells = names.map((n) => {
    const xs = results.map((r) => r.cases[n]?.p50 ?? NaN);
    const kbs = results.map((r) => r.cases[n]?.kb ?? NaN);
    const sizes = `${kbs[0]!.toFixed(1)} / ${kbs[kbs.length - 1]!.toFixed(1)}`;
    return [n, ...xs.map((x) => x.toFixed(1)), (xs[xs.length - 1]! / xs[0]!).toFixed(2), sizes];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  console.log(
    `\ncost with size: a single client, SQLite, answer cache off, ${calls} calls per case after 3, varied seed ${seed}; ${os.cpus().length} ` +
      `× ${os.cpus()[0]?.model ?? '?'}`,
  );
  console.log(`load average after each size: ${results.map((r) => `${r.scale}: ${r.loadAverage.map((l) => l.toFixed(2)).join(' ')}`).join('; ')}`);
  console.log([line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n'));
  writeFileSync(
    path.join(out, 'results.json'),
    JSON.stringify({ generatedAt: new Date().toISOString(), calls, seed, machine: { cpus: os.cpus().length, node: process.version }, results }, null, 2),
  );
  process.exit(0);
}

main().catch((error) => {
  log(`bench:sizes failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
