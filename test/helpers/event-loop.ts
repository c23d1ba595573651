/** Watching the event loop from a test: how long it went without a turn. */

/** The longest the event loop went without a turn while `work` ran, in milliseconds. */
export async function longestHold(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  ticking = false;
  return longest;
}

/** Keeps the thread busy for `ms` milliseconds, as a request's own work does. */
export function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
