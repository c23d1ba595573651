/** Watching the event loop from a test: what runs in one turn of it. */

/** Keeps the thread busy for `ms` milliseconds, as a request's own work does. */
export function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * While `work` runs, the most calls of `mark` (which the work makes, one per result it handles)
 * that fell in one turn of the event loop. Unlike the time the loop was held, a count that a
 * loaded machine's scheduling does not move.
 */
export async function mostInOneTurn(work: (mark: () => void) => Promise<unknown>): Promise<number> {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const counts = new Map<number, number>();
  await work(() => counts.set(turn, (counts.get(turn) ?? 0) + 1));
  ticking = false;
  return Math.max(0, ...counts.values());
}
