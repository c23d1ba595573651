/**
 * An operation is defined once: its names, schemas, scope, default roles and run(). Transports
 * (CLI, REST, MCP, OpenAPI) are generated from the list in index.ts and hold no business logic.
 */
import { z } from 'zod';
import type { CallerContext, OperationContext, Principal, Role } from './context.js';
import { invalidRequest, type ParameterError } from './errors.js';

export type Scope = 'service.read' | 'service.write';

/**
 * What a call does to the organisation's records. A read is a GET with its input in the query; a
 * change is POST (create, with a JSON body), PATCH (update, JSON body) or DELETE (input in the
 * query), needs service.write, and is shown to MCP clients with the matching hints.
 */
export type Effect = 'read' | 'create' | 'update' | 'delete';

export const HTTP_METHOD: Record<Effect, 'GET' | 'POST' | 'PATCH' | 'DELETE'> = { read: 'GET', create: 'POST', update: 'PATCH', delete: 'DELETE' };

interface OperationBase<I extends z.ZodObject, O extends z.ZodType> {
  /** e.g. reports.profit_and_loss; the REST path is /v1/operations/<name> unless restPath says otherwise */
  name: string;
  /** the REST path where the spec gives the operation its own (GET /v1/organisations) */
  restPath?: string;
  /** MCP tool name, or null where the spec has none */
  tool: string | null;
  title: string;
  /** one line */
  summary: string;
  /** for people and for models that have never seen the API: what it returns, parameters and defaults */
  description: string;
  input: I;
  output: O;
  scope: Scope;
  /** 'read' when absent */
  effect?: Effect;
}

/** An operation that acts for exactly one organisation, governed by that organisation's role policy. */
export interface OrganisationOperation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> extends OperationBase<I, O> {
  kind: 'organisation';
  /** the spec's default role policy (Endpoints, "Default roles"): new organisations are seeded with it */
  defaultRoles: readonly Role[];
  /**
   * How the MCP tool shows the answer beside structuredContent (mcp/results.ts): as its JSON text
   * (the default), or 'file' for a { contentType, data } answer shown as an image or embedded resource.
   */
  toolContent?: 'json' | 'file';
  /**
   * Defaults the MCP tool uses instead of the operation's own, for answers sized for a model (a
   * page of about 25 bank lines rather than 100); the tool's input schema shows them.
   */
  toolDefaults?: Partial<Record<keyof z.infer<I> & string, string | number | boolean>>;
  /**
   * Largest values the MCP tool takes (a page of at most 100 bank lines, about 20 KB of answer,
   * where REST takes 500): a model's context is not a script's buffer. Shown in the tool's schema;
   * a call past them is refused naming the parameter and the largest value.
   */
  toolMaximums?: Partial<Record<keyof z.infer<I> & string, number>>;
  /**
   * Whether an answer may be served again while the organisation's data stands still
   * (result-cache.ts): 'organisation' when it depends only on the organisation's data, its
   * settings, today and the input; a function naming the part of the caller it also depends on
   * (the same text for callers who see the same answer); 'never' for answers not worth keeping.
   */
  reuse: 'organisation' | 'never' | ((principal: Principal) => string);
  run(ctx: OperationContext, input: z.infer<I>): Promise<z.infer<O>>;
}

/** An operation about the caller rather than one organisation (the organisation list). */
export interface CallerOperation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> extends OperationBase<I, O> {
  kind: 'caller';
  run(ctx: CallerContext, input: z.infer<I>): Promise<z.infer<O>>;
}

export type AnyOperation = OrganisationOperation<any, any> | CallerOperation<any, any>;

export function effectOf(op: AnyOperation): Effect {
  return op.effect ?? 'read';
}

/** Where REST serves the operation. */
export function restPathOf(op: AnyOperation): string {
  return op.restPath ?? `/v1/operations/${op.name}`;
}

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(op: OrganisationOperation<I, O>): OrganisationOperation<I, O> {
  // a change is never served from kept answers and never runs on a read scope
  if ((op.effect ?? 'read') !== 'read' && (op.scope !== 'service.write' || op.reuse !== 'never'))
    throw new Error(`${op.name}: an operation that changes records needs scope service.write and reuse 'never'`);
  return op;
}

/**
 * What every change declares alike (the rule defineOperation checks): the write scope, never served
 * from kept answers; with its effect and the roles that may make it by default.
 */
export function changeOf(effect: Exclude<Effect, 'read'>, defaultRoles: readonly Role[]) {
  return { scope: 'service.write', effect, defaultRoles, reuse: 'never' } as const;
}

export function defineCallerOperation<I extends z.ZodObject, O extends z.ZodType>(op: CallerOperation<I, O>): CallerOperation<I, O> {
  return op;
}

type Kind = 'string' | 'number' | 'boolean' | 'other';

/**
 * The scalar kind under optional/default/nullable wrappers, so text inputs can be converted. Read
 * through zod's public schema classes; z.coerce is not used because it would read '' as 0 and
 * 'abc' as NaN, where the service treats an empty text as absent and names a bad value as it was sent.
 */
export function scalarKind(schema: z.ZodType): Kind {
  let s: z.ZodType = schema;
  for (let i = 0; i < 10; i++) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodPrefault) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else if (s instanceof z.ZodNumber) return 'number';
    else if (s instanceof z.ZodBoolean) return 'boolean';
    else if (s instanceof z.ZodString || s instanceof z.ZodEnum || s instanceof z.ZodLiteral) return 'string';
    else return 'other';
  }
  return 'other';
}

/**
 * Converts text inputs (query strings, CLI name=value) to the types the schema declares. A value
 * that does not convert is passed on as text so validation names it; an empty text means absent.
 */
export function coerceTextInput(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const converted = Object.entries(raw).flatMap(([key, value]): [string, unknown][] => {
    // own keys only: ?__proto__=1 or ?constructor=1 name no parameter (validation calls them unknown)
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field || typeof value !== 'string') return [[key, value]];
    if (value === '') return [];
    const kind = scalarKind(field);
    if (kind === 'number' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value.trim())) return [[key, Number(value)]];
    if (kind === 'boolean' && /^(true|false|1|0)$/i.test(value)) return [[key, /^(true|1)$/i.test(value)]];
    return [[key, value]];
  });
  // fromEntries defines each key as the object's own, so a key named __proto__ stays a key
  return Object.fromEntries(converted);
}

/** The value at a parameter's path in the input as given (undefined when it, or a parent, is absent). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function issueToErrors(issue: z.core.$ZodIssue, raw: unknown): ParameterError[] {
  if (issue.code === 'unrecognized_keys') {
    // a nested object's unknown key is named by its path (criteria.dueWithin), as every other issue is
    return issue.keys.map((key) => ({ parameter: [...issue.path, key].join('.'), message: issue.path.length ? 'unknown field' : 'unknown parameter' }));
  }
  const parameter = issue.path.length ? issue.path.join('.') : '(input)';
  // a required parameter left out is missing, not of the wrong type ("must be text" misleads): said so,
  // unless the schema's own message already says it is required (with what to give)
  if (issue.code === 'invalid_type' && issue.path.length && valueAt(raw, issue.path) === undefined && !issue.message.startsWith('is required'))
    return [{ parameter, message: 'is required' }];
  return [{ parameter, message: issue.message }];
}

/** Validates an input, answering every bad parameter at once as a typed 400 error. */
export function parseInput<I extends z.ZodObject>(schema: I, raw: unknown): z.infer<I> {
  const withNul = parametersWithNul(raw);
  if (withNul.length) throw invalidRequest(withNul.map((parameter) => ({ parameter, message: 'must not contain the NUL character' })));
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  throw invalidRequest(result.error.issues.flatMap((issue) => issueToErrors(issue, raw)));
}

/**
 * Parameters whose text holds U+0000: no name, id or search means it, and PostgreSQL cannot take it
 * in a statement, so every operation refuses it here, once, whatever the transport.
 */
function parametersWithNul(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const hasNul = (v: unknown): boolean => (typeof v === 'string' ? v.includes('\u0000') : Array.isArray(v) ? v.some(hasNul) : false);
  return Object.entries(raw)
    .filter(([, v]) => hasNul(v))
    .map(([k]) => k);
}
