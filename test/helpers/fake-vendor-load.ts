/**
 * What a fake vendor API saw of the load on it, counted at the fake itself, and the vendor's rate
 * limits as the vendor documents them, enforced on its API's requests (not on its identity
 * endpoints): at most `perMinute` requests admitted in any rolling 60 seconds, `perDay` in any
 * rolling 24 hours, and `concurrent` held at once (from arrival to the end of the answer). A request
 * beyond them is answered as the vendor answers it (`refuse`: Xero's and Intuit's 429) and counted
 * in `refused`; it does not count towards the windows. With `latencyMs` every answer waits that long
 * first, as a vendor across the internet does, so requests sent together are in flight together
 * (the fakes answer at once otherwise, and nothing would ever overlap).
 *
 *   Xero (developer.xero.com, "API rate limits"): 60 calls in a rolling 60 second window, 5,000 in a
 *   rolling 24 hour window, 5 in progress at once, per organisation.
 *   QuickBooks Online (Intuit): 500 requests a minute and 10 at once per realm.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface VendorLoad {
  /** epoch milliseconds of every API request's arrival (admitted or not), in order */
  arrivals: number[];
  /** the most API requests held at once */
  maxInFlight: number;
  /** the API requests answered 429 for a limit, with which */
  refused: { at: number; limit: 'minute' | 'day' | 'concurrent' }[];
  /** the most API requests admitted within any 60 seconds */
  maxPerMinute(): number;
}

export interface FakeRateLimits {
  perMinute: number;
  /** 0: none */
  perDay: number;
  concurrent: number;
}

export const XERO_DOCUMENTED_LIMITS: FakeRateLimits = { perMinute: 60, perDay: 5_000, concurrent: 5 };
export const QUICKBOOKS_DOCUMENTED_LIMITS: FakeRateLimits = { perMinute: 500, perDay: 0, concurrent: 10 };

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface CountedOptions {
  latencyMs?: number | undefined;
  /** the vendor's limits; false: none enforced (tests that keep Ledgerline's own budget out of the way on purpose) */
  limits?: FakeRateLimits | false | undefined;
  /** which requests are the API's (the rest, the identity endpoints, are neither counted nor limited) */
  isApi(req: IncomingMessage): boolean;
  /** answers a request beyond a limit, as the vendor does; `retryAfter` in seconds */
  refuse(req: IncomingMessage, res: ServerResponse, limit: 'minute' | 'day' | 'concurrent', retryAfter: number): void;
}

export function countedHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  options: CountedOptions,
): { handler: (req: IncomingMessage, res: ServerResponse) => void; load: VendorLoad } {
  let inFlight = 0;
  const admitted: number[] = [];
  const load: VendorLoad = {
    arrivals: [],
    maxInFlight: 0,
    refused: [],
    maxPerMinute() {
      let most = 0;
      for (let first = 0, last = 0; last < admitted.length; last++) {
        while (admitted[last]! - admitted[first]! >= MINUTE) first++;
        most = Math.max(most, last - first + 1);
      }
      return most;
    },
  };
  const limits = options.limits === false ? undefined : options.limits;
  /** the limit a request arriving now would exceed, and the seconds until there is room */
  const exceeded = (now: number): ['minute' | 'day' | 'concurrent', number] | undefined => {
    if (!limits) return undefined;
    const within = (span: number) => admitted.filter((t) => t > now - span);
    const minute = within(MINUTE);
    if (minute.length >= limits.perMinute) return ['minute', Math.max(1, Math.ceil((minute[0]! + MINUTE - now) / 1000))];
    if (limits.perDay > 0) {
      const day = within(DAY);
      if (day.length >= limits.perDay) return ['day', Math.max(1, Math.ceil((day[0]! + DAY - now) / 1000))];
    }
    if (inFlight >= limits.concurrent) return ['concurrent', 1];
    return undefined;
  };
  const later = (fn: () => void) => (options.latencyMs ? setTimeout(fn, options.latencyMs) : fn());
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!options.isApi(req)) return later(() => handle(req, res));
    const now = Date.now();
    load.arrivals.push(now);
    const over = exceeded(now);
    if (over) {
      load.refused.push({ at: now, limit: over[0] });
      return later(() => options.refuse(req, res, over[0], over[1]));
    }
    admitted.push(now);
    // the day's window is all that is needed to be kept
    while (admitted.length && admitted[0]! <= now - DAY) admitted.shift();
    inFlight += 1;
    load.maxInFlight = Math.max(load.maxInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    later(() => handle(req, res));
  };
  return { handler, load };
}
