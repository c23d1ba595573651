/**
 * The calls one connection may make to a vendor's API, shared by every instance: Xero allows 60 a
 * minute, 5 at once and 5,000 a day per organisation; QuickBooks 500 a minute and 10 at once per
 * company. A call is admitted only within all of them; one that would exceed them is refused at once
 * with 503 accounting_rate_limited and the seconds until the budget has room (never queued, so a
 * burst of callers cannot pile up behind a vendor), rather than being sent and answered 429 by the
 * vendor. Counts live in Redis when it is configured (fixed windows, one atomic script per call),
 * else in this instance's memory.
 */
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
    const which = { minute: `${limits.perMinute} calls a minute`, day: `${limits.perDay} calls a day`, concurrent: `${limits.concurrent} calls at once` }[limit];
    super(`${limits.vendor} allows this organisation ${which}; the budget has room again in ${retryAfter} s.`, 'accounting_rate_limited', retryAfter);
  }
}

// KEYS: minute, day, in flight; ARGV: per minute, per day (0 none), concurrent, lease ms.
// Answers {1, 0} when admitted, else {0, ms until room, which}.
const ACQUIRE = `local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local c = tonumber(redis.call('GET', KEYS[3]) or '0')
if m >= tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1]), 'minute'} end
if tonumber(ARGV[2]) > 0 and d >= tonumber(ARGV[2]) then return {0, redis.call('PTTL', KEYS[2]), 'day'} end
if c >= tonumber(ARGV[3]) then return {0, 1000, 'concurrent'} end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], 60000) end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], 86400000) end
redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return {1, 0, ''}`;

const RELEASE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCallBudget implements CallBudget {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ledgerline:vendor:',
  ) {}

  async acquire(connection: string, limits: VendorLimits): Promise<CallSlot> {
    const base = `${this.prefix}${connection}:`;
    const keys = [`${base}m`, `${base}d`, `${base}c`];
    const [admitted, ms, which] = (await this.redis.eval(ACQUIRE, 3, ...keys, limits.perMinute, limits.perDay, limits.concurrent, SLOT_LEASE_MS)) as [number, number, string];
    if (admitted !== 1) throw new BudgetRefusal(which as Limit, limits, Math.max(1, Math.ceil(ms / 1000)));
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.redis.eval(RELEASE, 1, keys[2]!);
      },
    };
  }
}

/** The same budget in one instance's memory (no Redis configured, and tests). */
export class MemoryCallBudget implements CallBudget {
  private readonly state = new Map<string, { minute: { count: number; resetAt: number }; day: { count: number; resetAt: number }; inFlight: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(connection: string, limits: VendorLimits): Promise<CallSlot> {
    const t = this.now();
    let s = this.state.get(connection);
    if (!s) this.state.set(connection, (s = { minute: { count: 0, resetAt: t + 60_000 }, day: { count: 0, resetAt: t + 86_400_000 }, inFlight: 0 }));
    if (t >= s.minute.resetAt) s.minute = { count: 0, resetAt: t + 60_000 };
    if (t >= s.day.resetAt) s.day = { count: 0, resetAt: t + 86_400_000 };
    const wait = (at: number) => Math.max(1, Math.ceil((at - t) / 1000));
    if (s.minute.count >= limits.perMinute) throw new BudgetRefusal('minute', limits, wait(s.minute.resetAt));
    if (limits.perDay > 0 && s.day.count >= limits.perDay) throw new BudgetRefusal('day', limits, wait(s.day.resetAt));
    if (s.inFlight >= limits.concurrent) throw new BudgetRefusal('concurrent', limits, 1);
    s.minute.count++;
    s.day.count++;
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
  return ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => withinBudget(current, connection, limits, () => inner(input, init))) as typeof fetch;
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
  for (const started = Date.now(); !slot; ) {
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
