/**
 * Every answer is what its operation declares (op.output), on every transport: REST, MCP and the
 * CLI run this check, the last step of the call sequence. MCP clients validate structuredContent
 * against the tool's outputSchema, and REST clients are generated from the same schema (OpenAPI), so
 * an answer that does not match it is our bug: it is thrown as a plain error (logged, answered as an
 * internal error with nothing of it said), never sent.
 *
 * An answer is checked once: a kept answer (operations/result-cache.ts), served again while the data
 * stands still, is not checked again (the check costs about as much as serialising it).
 */
import type { Call } from '../operations/execute.js';
import type { AnyOperation } from '../operations/operation.js';

// the answers already checked, found from the answer itself
const checked = new WeakSet<object>();

/** The answer, when it matches the operation's declared output schema; else a plain error naming each field that does not. */
export function checkedAnswer<T>(op: AnyOperation, answer: T): T {
  const memo = typeof answer === 'object' && answer !== null;
  if (memo && checked.has(answer)) return answer;
  const result = op.output.safeParse(answer);
  if (!result.success) {
    const issues = result.error.issues
      .map((i: { path: PropertyKey[]; message: string }) => `${i.path.map(String).join('.') || '(answer)'}: ${i.message}`)
      .join('; ');
    throw new Error(`${op.name} (${op.tool ?? 'no tool'}): the answer does not match its declared output schema: ${issues}`);
  }
  if (memo) checked.add(answer);
  return answer;
}

/** The call's last step: its answer is what the operation declares. */
export function checkOutput(call: Call): void {
  checkedAnswer(call.op, call.answer);
}
