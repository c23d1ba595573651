/**
 * What a fake vendor API saw of the load on it, counted at the fake itself: when each request
 * arrived, and the most requests it held at once. With `latencyMs` every answer waits that long
 * first, as a vendor across the internet does, so requests sent together are in flight together
 * (the fakes answer at once otherwise, and nothing would ever overlap).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface VendorLoad {
  /** epoch milliseconds of every request's arrival, in order */
  arrivals: number[];
  /** the most requests held at once */
  maxInFlight: number;
  /** the most requests that arrived within any 60 seconds */
  maxPerMinute(): number;
}

export function countedHandler(handle: (req: IncomingMessage, res: ServerResponse) => void, latencyMs = 0): { handler: (req: IncomingMessage, res: ServerResponse) => void; load: VendorLoad } {
  let inFlight = 0;
  const load: VendorLoad = {
    arrivals: [],
    maxInFlight: 0,
    maxPerMinute() {
      let most = 0;
      for (let first = 0, last = 0; last < this.arrivals.length; last++) {
        while (this.arrivals[last]! - this.arrivals[first]! >= 60_000) first++;
        most = Math.max(most, last - first + 1);
      }
      return most;
    },
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    load.arrivals.push(Date.now());
    inFlight += 1;
    load.maxInFlight = Math.max(load.maxInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    if (latencyMs > 0) setTimeout(() => handle(req, res), latencyMs);
    else handle(req, res);
  };
  return { handler, load };
}
