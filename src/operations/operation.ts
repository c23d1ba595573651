/**
 * An operation is defined once: its names, schemas, scope, default roles and run(). Transports
 * (CLI, REST, MCP, OpenAPI) are generated from the list in index.ts and hold no business logic.
 */
import { z } from 'zod';
import type { CallerContext, OperationContext, Principal, Role } from './context.js';
import { invalidRequest, type ParameterError } from './errors.js';

export type Scope = 'service.read' | 'service.write';

interface OperationBase<I extends z.ZodObject, O extends z.ZodType> {
  /** e.g. reports.profit_and_loss; the REST path is /v1/operations/<name> */
  name: string;
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
}

/** An operation that acts for exactly one organisation, governed by that organisation's role policy. */
export interface OrganisationOperation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> extends OperationBase<I, O> {
  kind: 'organisation';
  defaultRoles: readonly Role[];
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

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(op: OrganisationOperation<I, O>): OrganisationOperation<I, O> {
  return op;
}

export function defineCallerOperation<I extends z.ZodObject, O extends z.ZodType>(op: CallerOperation<I, O>): CallerOperation<I, O> {
  return op;
}

type Kind = 'string' | 'number' | 'boolean' | 'other';

/** The scalar kind under optional/default/nullable wrappers, so text inputs can be converted. */
export function scalarKind(schema: z.ZodType): Kind {
  let s: any = schema;
  for (let i = 0; i < 10 && s; i++) {
    const t = s._zod.def.type as string;
    if (t === 'optional' || t === 'default' || t === 'nullable' || t === 'prefault') s = s._zod.def.innerType;
    else if (t === 'pipe') s = s._zod.def.in;
    else if (t === 'number' || t === 'int') return 'number';
    else if (t === 'boolean') return 'boolean';
    else if (t === 'string' || t === 'enum' || t === 'literal') return 'string';
    else return 'other';
  }
  return 'other';
}

/**
 * Converts text inputs (query strings, CLI name=value) to the types the schema declares. A value
 * that does not convert is passed on as text so validation names it; an empty text means absent.
 */
export function coerceTextInput(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const [key, value] of Object.entries(raw)) {
    const field = shape[key];
    if (!field || typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    if (value === '') continue;
    const kind = scalarKind(field);
    if (kind === 'number' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value.trim())) out[key] = Number(value);
    else if (kind === 'boolean' && /^(true|false|1|0)$/i.test(value)) out[key] = /^(true|1)$/i.test(value);
    else out[key] = value;
  }
  return out;
}

function issueToErrors(issue: z.core.$ZodIssue): ParameterError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ parameter: key, message: 'unknown parameter' }));
  }
  const parameter = issue.path.length ? issue.path.join('.') : '(input)';
  return [{ parameter, message: issue.message }];
}

/** Validates an input, answering every bad parameter at once as a typed 400 error. */
export function parseInput<I extends z.ZodObject>(schema: I, raw: unknown): z.infer<I> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  throw invalidRequest(result.error.issues.flatMap(issueToErrors));
}
