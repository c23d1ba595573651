/**
 * Every answer is what its operation declares (op.output), on every transport: REST, MCP and the
 * CLI run this check, the last step of the call sequence. MCP clients validate structuredContent
 * against the tool's outputSchema, and REST clients are generated from the same schema (OpenAPI), so
 * an answer that does not match it is our bug: it is thrown as a plain error (logged, answered as an
 * internal error with nothing of it said), never sent.
 *
 * The answer is checked against the JSON Schema the operation publishes (json-schema.ts), as those
 * clients check it, with Ajv: a validator compiled once per operation that reads the answer and
 * makes nothing. zod's own parse, used here before, built a copy of every object and array of the
 * answer to throw away: a fifth of all the memory the service allocated under load (bills to pay),
 * for a collector whose pauses are most of the event loop's delay (docs/performance.md).
 * Checking the published schema is also stricter where it should be: a field the schema does not
 * name is refused (zod would have dropped it from its copy, while the answer sent still held it).
 * Two things the schema says differently from the answer in memory are said for the check alone:
 * a link is a Link until a transport writes it as text (operations/links.ts), and a number must be
 * finite (JSON has no NaN or Infinity; JSON Schema's `number` does not say so).
 *
 * An answer is checked once: a kept answer (operations/result-cache.ts), served again while the data
 * stands still, is not checked again.
 */
import { _, Ajv2020, nil, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Call } from '../operations/execute.js';
import { operationJsonSchema } from '../operations/json-schema.js';
import { Link, linkSchema } from '../operations/links.js';
import type { AnyOperation } from '../operations/operation.js';

// the answers already checked, found from the answer itself
const checked = new WeakSet<object>();

const ajv = new Ajv2020({ strict: false, allErrors: true });
// `link: true` a Link or text; `link: "or null"` null too (a nullable link, see withoutNullBranches).
// Written into the validator's code: a keyword given as a function is called with an object of
// the value's context (its path as a new string) for every link of an answer
ajv.addKeyword({
  keyword: 'link',
  schemaType: ['boolean', 'string'],
  code(cxt) {
    const link = cxt.gen.scopeValue('keyword', { ref: Link });
    const orNull = cxt.schema === 'or null' ? _` || ${cxt.data} === null` : nil;
    cxt.fail(_`!(typeof ${cxt.data} == "string" || ${cxt.data} instanceof ${link}${orNull})`);
  },
});

// a link schema and its copies (`.describe()` makes a new schema with the same check)
const linkCheck = (linkSchema as unknown as { _zod: { def: { fn: unknown } } })._zod.def.fn;
const isLink = (schema: unknown) => (schema as { _zod: { def: { fn?: unknown } } })._zod.def.fn === linkCheck;

/** The published output schema with a link as a Link or text, and numbers finite (Ajv fails NaN on a bound). */
function checkSchema(op: AnyOperation): object {
  return withoutNullBranches(
    operationJsonSchema(op.output, 'output', ({ zodSchema, jsonSchema }) => {
      const schema = jsonSchema as Record<string, unknown>;
      if (isLink(zodSchema)) {
        for (const key of Object.keys(schema)) delete schema[key];
        schema.link = true;
      } else if (schema.type === 'number' || schema.type === 'integer') {
        schema.minimum ??= -Number.MAX_VALUE;
        schema.maximum ??= Number.MAX_VALUE;
      }
    }),
  );
}

type Node = Record<string, unknown>;

/**
 * A nullable object, list or enum as one type list (`type: ["object", "null"]`) where zod writes it
 * as a choice (`anyOf: [{ type: "object", … }, { type: "null" }]`): the same test, but Ajv tries a
 * choice's branches in turn and makes an error object for each that fails, so every such null of an
 * answer allocated one (8% of a ledger page's allocation). Choices of any other form stay as they are.
 */
function withoutNullBranches(node: unknown): Node {
  if (Array.isArray(node)) return node.map(withoutNullBranches) as unknown as Node;
  if (typeof node !== 'object' || node === null) return node as Node;
  const out: Node = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutNullBranches(value)]));
  const choices = out.anyOf as Node[] | undefined;
  if (!choices || choices.length !== 2 || !isNull(choices[1]!)) return out;
  const { anyOf: _choice, ...rest } = out;
  const other = choices[0]!;
  if (other.link === true) return { ...rest, link: 'or null' };
  if (typeof other.type !== 'string' || 'anyOf' in other) return out;
  return { ...rest, ...other, type: [other.type, 'null'], ...(Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {}) };
}

const isNull = (schema: Node) => schema.type === 'null' && Object.keys(schema).length === 1;

const MAX_ISSUES = 10;

const validators = new WeakMap<AnyOperation, ValidateFunction>();

function validatorOf(op: AnyOperation): ValidateFunction {
  let validate = validators.get(op);
  if (!validate) validators.set(op, (validate = ajv.compile(checkSchema(op))));
  return validate;
}

/** The answer, when it matches the operation's declared output schema; else a plain error naming each field that does not. */
export function checkedAnswer<T>(op: AnyOperation, answer: T): T {
  const memo = typeof answer === 'object' && answer !== null;
  if (memo && checked.has(answer)) return answer;
  const validate = validatorOf(op);
  if (!validate(answer)) {
    const issues = (validate.errors ?? []).map((e) => `${e.instancePath.slice(1).replaceAll('/', '.') || '(answer)'}: ${describe(e)}`);
    // a page of bad lines says the same of each: the log line names the first few
    const said = issues.length > MAX_ISSUES ? [...issues.slice(0, MAX_ISSUES), `and ${issues.length - MAX_ISSUES} more`] : issues;
    throw new Error(`${op.name} (${op.tool ?? 'no tool'}): the answer does not match its declared output schema: ${said.join('; ')}`);
  }
  if (memo) checked.add(answer);
  return answer;
}

/** What Ajv found wrong, naming a field the schema does not know. */
function describe(error: NonNullable<ValidateFunction['errors']>[number]): string {
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  return extra !== undefined ? `has a field "${extra}" the schema does not name` : (error.message ?? error.keyword);
}

/** The call's last step: its answer is what the operation declares. */
export function checkOutput(call: Call): void {
  checkedAnswer(call.op, call.answer);
}
