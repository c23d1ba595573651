/** Prometheus metrics, one registry per server (so tests can run several in one process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'ledgerline_http_requests_total',
    help: 'HTTP requests by route (the operation for API calls), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'ledgerline_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'ledgerline_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly rateLimitDegraded = new Gauge({
    name: 'ledgerline_rate_limit_degraded',
    help: '1 while Redis is unreachable and rate limits hold per instance only',
    registers: [this.registry],
  });
  readonly dependencyUp = new Gauge({
    name: 'ledgerline_dependency_up',
    help: 'What the last /readyz found: 1 when the dependency answered (database, readReplica, redis, accounting), 0 when not',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });
  readonly tokenChecks = new Counter({
    name: 'ledgerline_token_checks_total',
    help: 'Bearer token checks by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  /** One request answered: counted, and its time observed, by route and status. */
  observeRequest(route: string, method: string, status: string, seconds: number): void {
    this.requests.inc({ route, method, status });
    this.latency.observe({ route, status }, seconds);
  }

  /** Reports the answer cache's hits, misses, entries and bytes (result-cache.ts). */
  watchResultCache(cache: { hits: number; misses: number; size: number; usedBytes: number }): void {
    const counted = { hit: 0, miss: 0 };
    new Counter({
      name: 'ledgerline_result_cache_lookups_total',
      help: 'Answers looked for in the answer cache, by result (hit, miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        this.inc({ result: 'hit' }, cache.hits - counted.hit);
        this.inc({ result: 'miss' }, cache.misses - counted.miss);
        counted.hit = cache.hits;
        counted.miss = cache.misses;
      },
    });
    new Gauge({
      name: 'ledgerline_result_cache_entries',
      help: 'Answers kept',
      registers: [this.registry],
      collect() {
        this.set(cache.size);
      },
    });
    new Gauge({
      name: 'ledgerline_result_cache_bytes',
      help: 'Bytes of JSON kept',
      registers: [this.registry],
      collect() {
        this.set(cache.usedBytes);
      },
    });
  }

  constructor(pool?: () => PoolStats | undefined) {
    collectDefaultMetrics({ register: this.registry, prefix: 'ledgerline_' });
    if (pool) {
      const gauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers: [this.registry],
          collect() {
            const stats = pool();
            if (stats) this.set(pick(stats));
          },
        });
      gauge('ledgerline_db_pool_connections', 'Database connections open', (s) => s.total);
      gauge('ledgerline_db_pool_idle', 'Database connections idle', (s) => s.idle);
      gauge('ledgerline_db_pool_waiting', 'Requests waiting for a database connection', (s) => s.waiting);
    }
  }
}
