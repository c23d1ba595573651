/**
 * Rate-limit counters in Redis, so several instances share one budget. When Redis cannot be
 * reached, counting falls back to this instance's memory (limits then hold per instance), says so
 * once in the log and in a metric, and returns to Redis by itself when it answers again.
 */
import { Redis } from 'ioredis';
import { MemoryCounterStore, type CounterStore } from './rate-limit.js';

// INCR and set the window's expiry on its first hit, atomically; answers [count, ms to reset]
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {c, t}`;

// DECR only a live window with a count above zero, so a give-back never creates or negates a key
const GIVE_BACK = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ledgerline:rl:',
  ) {}

  async hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.prefix + key, String(windowSeconds * 1000))) as [number, number];
    return { count, resetSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  async giveBack(key: string): Promise<void> {
    await this.redis.eval(GIVE_BACK, 1, this.prefix + key);
  }
}

export interface DegradationEvents {
  degraded(error: Error): void;
  recovered(): void;
}

export class FallbackCounterStore implements CounterStore {
  private readonly local = new MemoryCounterStore();
  private down = false;

  constructor(
    private readonly shared: CounterStore,
    private readonly events: DegradationEvents,
  ) {}

  get degraded(): boolean {
    return this.down;
  }

  private async attempt<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    try {
      const result = await shared();
      if (this.down) {
        this.down = false;
        this.events.recovered();
      }
      return result;
    } catch (error) {
      if (!this.down) {
        this.down = true;
        this.events.degraded(error as Error);
      }
      return local();
    }
  }

  hit(key: string, windowSeconds: number) {
    return this.attempt(
      () => this.shared.hit(key, windowSeconds),
      () => this.local.hit(key, windowSeconds),
    );
  }

  giveBack(key: string) {
    return this.attempt(
      () => this.shared.giveBack(key),
      () => this.local.giveBack(key),
    );
  }
}

/** A client that fails fast while Redis is away (no queueing) and keeps reconnecting. */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 250,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

/**
 * Resolves true once the client is connected, or false after timeoutMs. Commands are not queued
 * while connecting (so a call never waits on Redis), which means a call made before the first
 * connection would count locally and report a degradation that never was: the server waits for
 * this before it listens, and goes on without Redis if it does not come.
 */
export function whenReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}
