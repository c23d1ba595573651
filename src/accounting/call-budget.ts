/**
 * The calls one connection may make to a vendor's API, shared by every instance, counted as the
 * vendor counts them: Xero allows 60 calls in a rolling 60 seconds, 5 at once and 5,000 in a rolling
 * 24 hours per organisation (developer.xero.com, "API rate limits"); QuickBooks 500 a minute and 10
 * at once per company (Intuit: "500 requests per minute per realmId", "no more than 10 concurrent
 * requests"), counted here in a rolling minute too, which never admits more than a fixed one would.
 * A call is admitted only within all of them; one that would exceed them is refused at once with 503
 * accounting_rate_limited and the seconds until the budget has room (never queued, so a burst of
 * callers cannot pile up behind a vendor), rather than being sent and answered 429 by the vendor.
 *
 * The windows are sliding logs: each admitted call's time, and a call admitted only while fewer
 * than the limit fall within the window before it. The first version counted fixed one-minute
 * windows, so a burst across a window's end sent up to twice the limit within Xero's rolling minute
 * and drew 429s (issue 38, item 5). Each window is a second longer than the vendor's, so calls sent
 * a minute apart that reach the vendor a little unevenly are still a minute apart there. Counts live
 * in Redis when it is configured (sorted sets of call times on Redis's own clock, one atomic script
 * per call, so every instance counts the same calls in the same window), else in this instance's
 * memory. A call in flight holds its place for at most SLOT_LEASE_MS, should its instance die.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AccountingSystemError } from './types.js';

export interface VendorLimits {
  vendor: string;
  perMinute: number;
  concurrent: number;
  /** 0: none */
  perDay: number;
}

export const XERO_LIMITS: VendorLimits = { vendor: 'Xero', perMinute: 60, concurrent: 5, perDay: 5_000 };
export const QUICKBOOKS_LIMITS: VendorLimits = { vendor: 'QuickBooks', perMinute: 500, concurrent: 10, perDay: 0 };

/** the vendors' windows, each with a second's margin for calls that reach the vendor a little unevenly */
export const MINUTE_WINDOW_MS = 61_000;
export const DAY_WINDOW_MS = 86_401_000;

/** A call slot, given back when the call ends (however it ends). */
export interface CallSlot {
  release(): Promise<void>;
}

export interface CallBudget {
  /** Takes a slot for one call on this connection, or throws accounting_rate_limited. */
  acquire(connection: string, limits: VendorLimits): Promise<CallSlot>;
}

/** How long a slot counts as in flight at most, should its instance die before giving it back. */
const SLOT_LEASE_MS = 120_000;

type Limit = 'minute' | 'day' | 'concurrent';

/** A call the budget has no room for, and which limit said so. */
export class BudgetRefusal extends AccountingSystemError {
  constructor(
    readonly limit: Limit,
    limits: VendorLimits,
    retryAfter: number,
  ) {
    const which = { minute: `${limits.perMinute} calls a minute`, day: `${limits.perDay} calls a day`, concurrent: `${limits.concurrent} calls at once` }[
      limit
    ];
    super(`${limits.vendor} allows this organisation ${which}; the budget has room again in ${retryAfter} s.`, 'accounting_rate_limited', retryAfter);
  }
}

// KEYS: the minute's calls, the day's calls, the calls in flight (sorted sets, scored by time in ms
// on Redis's clock; in flight: by when the slot lapses). ARGV: per minute, per day (0 none),
// concurrent, lease ms, this call's id, minute window ms, day window ms.
// Answers {1, 0, ''} when admitted, else {0, ms until room, which}.
const ACQUIRE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local perMinute, perDay, concurrent = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local lease, id, minuteMs, dayMs = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - minuteMs)
if redis.call('ZCARD', KEYS[1]) >= perMinute then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + minuteMs - now, 'minute'}
end
if perDay > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - dayMs)
  if redis.call('ZCARD', KEYS[2]) >= perDay then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return {0, tonumber(oldest[2]) + dayMs - now, 'day'}
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= concurrent then return {0, 1000, 'concurrent'} end
redis.call('ZADD', KEYS[1], now, id)
redis.call('PEXPIRE', KEYS[1], minuteMs)
if perDay > 0 then
  redis.call('ZADD', KEYS[2], now, id)
  redis.call('PEXPIRE', KEYS[2], dayMs)
end
redis.call('ZADD', KEYS[3], now + lease, id)
redis.call('PEXPIRE', KEYS[3], lease)
return {1, 0, ''}`;

export class RedisCallBudget implements CallBudget {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ledgerline:vendor:',
  ) {}

  async acquire(connection: string, limits: VendorLimits): Promise<CallSlot> {
    const base = `${this.prefix}${connection}:`;
    // a key of its own (the first version kept counters under :m, :d and :c)
    const keys = [`${base}minute`, `${base}day`, `${base}inflight`];
    const id = randomBytes(9).toString('base64url');
    const [admitted, ms, which] = (await this.redis.eval(
      ACQUIRE,
      3,
      ...keys,
      limits.perMinute,
      limits.perDay,
      limits.concurrent,
      SLOT_LEASE_MS,
      id,
      MINUTE_WINDOW_MS,
      DAY_WINDOW_MS,
    )) as [number, number, string];
    if (admitted !== 1) throw new BudgetRefusal(which as Limit, limits, Math.max(1, Math.ceil(ms / 1000)));
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.redis.zrem(keys[2]!, id);
      },
    };
  }
}

/** The same budget in one instance's memory (no Redis configured, and tests). */
export class MemoryCallBudget implements CallBudget {
  /** per connection: the times of the calls admitted within the windows, oldest first, and the calls in flight */
  private readonly state = new Map<string, { minute: number[]; day: number[]; inFlight: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(connection: string, limits: VendorLimits): Promise<CallSlot> {
    const t = this.now();
    let s = this.state.get(connection);
    if (!s) this.state.set(connection, (s = { minute: [], day: [], inFlight: 0 }));
    while (s.minute.length && s.minute[0]! <= t - MINUTE_WINDOW_MS) s.minute.shift();
    while (s.day.length && s.day[0]! <= t - DAY_WINDOW_MS) s.day.shift();
    const wait = (at: number) => Math.max(1, Math.ceil((at - t) / 1000));
    if (s.minute.length >= limits.perMinute) throw new BudgetRefusal('minute', limits, wait(s.minute[0]! + MINUTE_WINDOW_MS));
    if (limits.perDay > 0 && s.day.length >= limits.perDay) throw new BudgetRefusal('day', limits, wait(s.day[0]! + DAY_WINDOW_MS));
    if (s.inFlight >= limits.concurrent) throw new BudgetRefusal('concurrent', limits, 1);
    s.minute.push(t);
    if (limits.perDay > 0) s.day.push(t);
    s.inFlight++;
    const state = s;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        state.inFlight--;
      },
    };
  }
}

/**
 * Redis while it answers, this instance's memory while it does not: a vendor call is never failed
 * because the shared counter is away (the budget then holds per instance, as the API rate limits do).
 */
export class FallbackCallBudget implements CallBudget {
  private readonly local = new MemoryCallBudget();

  constructor(private readonly shared: CallBudget) {}

  async acquire(connection: string, limits: VendorLimits): Promise<CallSlot> {
    try {
      return await this.shared.acquire(connection, limits);
    } catch (error) {
      if (error instanceof AccountingSystemError) throw error;
      return this.local.acquire(connection, limits);
    }
  }
}

let current: CallBudget = new MemoryCallBudget();

/** The budget every vendor connector uses: set once at start-up (shared in Redis when configured). */
export function useCallBudget(budget: CallBudget): void {
  current = budget;
}

/** A fetch whose every call to the vendor takes a slot of the connection's budget first. */
export function budgetedFetch(inner: typeof fetch, connection: string, limits: VendorLimits): typeof fetch {
  return ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
    withinBudget(current, connection, limits, () => inner(input, init))) as typeof fetch;
}

/** No limit at all: for tests of a connector's own logic against a fake vendor. */
export const NO_BUDGET: CallBudget = { acquire: async () => ({ release: async () => {} }) };

/** How long a call waits for one of the connection's at-once slots (a connector asks several things in parallel). */
const CONCURRENT_WAIT_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one vendor call within the budget, giving its slot back when it ends. A call waits a little
 * for an at-once slot (the calls ahead of it end in moments); a minute or day budget that is spent
 * refuses at once, since waiting for it would hold the caller for up to a day.
 */
export async function withinBudget<T>(budget: CallBudget | undefined, connection: string, limits: VendorLimits, call: () => Promise<T>): Promise<T> {
  if (!budget) return call();
  let slot: CallSlot | undefined;
  for (const started = Date.now(); !slot;) {
    try {
      slot = await budget.acquire(connection, limits);
    } catch (error) {
      if (!(error instanceof BudgetRefusal) || error.limit !== 'concurrent' || Date.now() - started >= CONCURRENT_WAIT_MS) throw error;
      await sleep(25);
    }
  }
  try {
    return await call();
  } finally {
    await slot.release();
  }
}
