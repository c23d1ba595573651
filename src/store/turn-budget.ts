/**
 * Results that come back to the event loop in bursts (a SQLite reader's answers, PostgreSQL's
 * replies on several connections) are handed to their requests within a time budget per turn of
 * the loop (issue 17). Each goes on into its request's JavaScript (shaping an answer, serialising
 * it); handed back all in one turn, a burst held the loop for tens of milliseconds while timers,
 * new requests and cheap calls waited. Each result is handed back in an immediate of its own (its
 * request's code runs before the next), and once a turn has spent TURN_BUDGET_MS on them the rest
 * wait for the next turn. One budget for the whole process: it is one event loop.
 */

/** Milliseconds of one turn of the event loop spent handing results back before the rest wait for the next. */
const TURN_BUDGET_MS = 2;

let turnBegan: number | null = null;

function handBack(deliver: () => void): void {
  const now = performance.now();
  if (turnBegan === null) {
    turnBegan = now;
    // queued now, it runs first among the next turn's immediates: a new budget there
    setImmediate(() => (turnBegan = null));
  } else if (now - turnBegan > TURN_BUDGET_MS) {
    setImmediate(handBack, deliver);
    return;
  }
  deliver();
}

/** Runs `deliver` in an immediate of its own, in this turn while its budget lasts, else in a later one. */
export function inTurn(deliver: () => void): void {
  setImmediate(handBack, deliver);
}

/** Settles as `promise` does, handed back within the turn budget. */
export function settledInTurn<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    promise.then(
      (value) => inTurn(() => resolve(value)),
      (error: unknown) => inTurn(() => reject(error)),
    ),
  );
}
