/**
 * The benchmark's settings, from the environment so `npm run bench` needs no arguments:
 *
 *   BENCH_QUICK=1            a smoke run: a small demo (scale 10), 2 s per measurement
 *   BENCH_SCALE, BENCH_BANK_SCALE, BENCH_SEED, BENCH_DATE   the demo (default 400, 3.15, 1, 2026-11-21:
 *                            about 1,000,000 ledger lines, 500,000 bank transactions, 50,000 documents)
 *   BENCH_DURATION           seconds of load per measurement (default 10), after BENCH_WARMUP seconds not counted (default 3)
 *   BENCH_CONNECTIONS        concurrent connections (default 50)
 *   BENCH_BACKENDS           sqlite,postgres (default both; postgres is skipped when it cannot be reached)
 *   BENCH_PG_URL             default postgres://postgres@127.0.0.1:5432/test (a schema of its own is created and dropped)
 *   BENCH_ONLY               run only the cases whose name contains this text
 *   BENCH_OUTPUT             default bench-output
 */
import path from 'node:path';

export interface BenchConfig {
  quick: boolean;
  scale: number;
  bankScale: number;
  seed: number;
  date: string;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  backends: ('sqlite' | 'postgres')[];
  pgUrl: string;
  only: string | null;
  output: string;
}

/** A setting from the environment, checked: a number from min to max (a whole one when `whole`), or the fallback when unset. */
export function numberFrom(name: string, fallback: number, min: number, max: number, whole = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const fits = (whole ? Number.isInteger(value) : Number.isFinite(value)) && value >= min && value <= max;
  if (!fits) throw new Error(`${name} must be a ${whole ? 'whole ' : ''}number from ${min} to ${max}, not "${raw}"`);
  return value;
}

export function benchConfig(): BenchConfig {
  const quick = process.env.BENCH_QUICK === '1';
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const b of backends) if (b !== 'sqlite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend "${b}"`);
  const date = process.env.BENCH_DATE ?? '2026-11-21';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`BENCH_DATE must be yyyy-MM-dd, not "${date}"`);
  return {
    quick,
    scale: numberFrom('BENCH_SCALE', quick ? 10 : 400, 1, 10_000),
    bankScale: numberFrom('BENCH_BANK_SCALE', 3.15, 1, 100),
    seed: numberFrom('BENCH_SEED', 1, 0, 2 ** 31, true),
    date,
    durationSeconds: numberFrom('BENCH_DURATION', quick ? 2 : 10, 1, 600),
    warmupSeconds: numberFrom('BENCH_WARMUP', quick ? 1 : 3, 0, 60),
    connections: numberFrom('BENCH_CONNECTIONS', 50, 1, 1000, true),
    backends: backends as BenchConfig['backends'],
    pgUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    only: process.env.BENCH_ONLY || null,
    output: path.resolve(process.env.BENCH_OUTPUT ?? 'bench-output'),
  };
}
