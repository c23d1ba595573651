/** One bounded load measurement with autocannon, after a warm-up, with the server's memory sampled meanwhile. */
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** the server's peak resident memory during the load, bytes (0 when not sampled) */
  peakRss: number;
  /** when the measured part ran (after the warm-up), epoch milliseconds */
  startedAt: number;
  finishedAt: number;
}

export async function measure(
  url: string,
  options: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    headers?: Record<string, string>;
    rss?: () => Promise<number>;
    /** runs after the warm-up, just before the measured part (the server's counters are reset here) */
    beforeMeasure?: () => Promise<unknown>;
  },
): Promise<LoadResult> {
  // the first second of a route is compiling code and filling caches: load it, then measure
  if (options.warmupSeconds > 0) {
    await autocannon({ url, connections: options.connections, duration: options.warmupSeconds, headers: options.headers ?? {}, timeout: 30 });
  }
  await options.beforeMeasure?.();
  let peakRss = 0;
  let sampling = true;
  const startedAt = Date.now();
  const sampler = (async () => {
    while (sampling && options.rss) {
      peakRss = Math.max(peakRss, await options.rss());
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers ?? {},
    // a request that takes this long is a failure worth seeing, not a latency
    timeout: 30,
  });
  const finishedAt = Date.now();
  sampling = false;
  await sampler;
  const requests = result.requests.total;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests,
    non2xx: result.non2xx,
    errors: result.errors,
    peakRss,
    startedAt,
    finishedAt,
  };
}
