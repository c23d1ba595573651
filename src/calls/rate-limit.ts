/**
 * Fixed-window counters for rate limits. In one process by default; the interface lets a shared
 * store (Redis, for several instances) take its place without touching the callers.
 */

import type { Limit } from '../config.js';

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

export interface CounterStore {
  /** Counts one hit on key in a window of windowSeconds; answers the count so far. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }>;
  /** Takes back one hit on key, atomically, if its window is still open (never below zero). */
  giveBack(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }> {
    const now = Date.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  async giveBack(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.resetAt > Date.now() && w.count > 0) w.count--;
  }

  /** Drops expired windows now and then so the map does not grow without bound. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

export class RateLimiter {
  constructor(private readonly store: CounterStore) {}

  async check(limit: Limit, key: string): Promise<WindowResult> {
    if (limit.limit <= 0) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 };
    const { count, resetSeconds } = await this.store.hit(`${limit.name}:${key}`, limit.windowSeconds);
    return { allowed: count <= limit.limit, limit: limit.limit, remaining: Math.max(0, limit.limit - count), resetSeconds };
  }

  /**
   * Takes back a hit counted by check(), for limits on failures only: the attempt is counted before
   * it is tried (so concurrent attempts cannot all pass a look at the count) and given back when it
   * turns out not to be a failure.
   */
  async giveBack(limit: Limit, key: string): Promise<void> {
    if (limit.limit <= 0) return;
    await this.store.giveBack(`${limit.name}:${key}`);
  }
}

/** RateLimit-Policy and RateLimit header values (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(results: { limit: Limit; result: WindowResult }[]): Record<string, string> {
  const active = results.filter((r) => r.limit.limit > 0);
  if (active.length === 0) return {};
  return {
    'ratelimit-policy': active.map((r) => `"${r.limit.name}";q=${r.limit.limit};w=${r.limit.windowSeconds}`).join(', '),
    ratelimit: active.map((r) => `"${r.limit.name}";r=${r.result.remaining};t=${r.result.resetSeconds}`).join(', '),
  };
}
