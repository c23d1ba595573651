/**
 * MCP tool definitions, generated from the operation list: the spec's tool names, the operation's
 * input schema plus the `organisation` argument, its output schema, and descriptions for a model
 * that has never seen the API. The organisation part depends on the token, so the list is built
 * per request from the caller's coverage; everything else is built once.
 */
import { invalidParameter } from '../operations/errors.js';
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Caller } from '../auth/verify.js';
import { organisationRequired } from '../operations/context.js';
import { isOrganisationOperation } from '../operations/execute.js';
import { OPERATIONS } from '../operations/index.js';
import { effectOf, type Effect, type OrganisationOperation, type Scope } from '../operations/operation.js';
import { TOOL_CONTENT_NOTES } from './results.js';
import { operationJsonSchema } from '../operations/json-schema.js';

type JsonSchema = Record<string, unknown>;

/**
 * What a client may tell its user before a call (MCP ToolAnnotations), from the operation's effect.
 * No tool reaches outside the service's own data. A create makes a new record each time (REST's
 * Idempotency-Key is not a tool argument); an update or delete done twice leaves what once does,
 * and both overwrite or remove what was there.
 */
const TOOL_ANNOTATIONS: Record<Effect, { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false }> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

/** The argument that names the organisation (REST: the Service-Organisation header). */
export const ORGANISATION_ARGUMENT = 'organisation';

const TOOL_OPERATIONS = OPERATIONS.filter(isOrganisationOperation).filter((op) => op.tool !== null);

// descriptions name other operations by their REST names; a model sees the tools by their tool names
const renames = TOOL_OPERATIONS.map((op) => ({
  pattern: new RegExp(`(?<![\\w./])${op.name.replace(/\./g, '\\.')}(?![\\w])`, 'g'),
  tool: op.tool!,
}));

function withToolNames(text: string): string {
  return renames.reduce((t, r) => t.replace(r.pattern, r.tool), text);
}

function renameDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(renameDescriptions);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === 'description' && typeof v === 'string' ? withToolNames(v) : renameDescriptions(v)]),
  );
}

/**
 * `type: ["string", "null"]` (zod's nullable) as anyOf branches of one type each: the same schema,
 * in the spelling that clients mapping tool schemas onto single-type dialects accept.
 */
function singleTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(singleTypes);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'enum' || k === 'const' || k === 'default' ? v : singleTypes(v)]));
  const { type, description, ...rest } = entries as { type?: unknown; description?: unknown };
  if (!Array.isArray(type) || type.length < 2) return entries;
  return { ...(description !== undefined ? { description } : {}), anyOf: type.map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t })) };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return singleTypes(renameDescriptions(operationJsonSchema(schema, io))) as JsonSchema;
}

interface ToolBase {
  op: OrganisationOperation<any, any>;
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { properties: Record<string, JsonSchema>; required?: string[] };
  outputSchema: JsonSchema;
}

const TOOLS: ReadonlyMap<string, ToolBase> = new Map(
  TOOL_OPERATIONS.map((op) => {
    if (ORGANISATION_ARGUMENT in op.input.shape) throw new Error(`${op.name}: "${ORGANISATION_ARGUMENT}" is the MCP transport's own argument`);
    const input = withToolDefaults(jsonSchema(op.input, 'input') as ToolBase['inputSchema'], op);
    return [
      op.tool!,
      {
        op,
        name: op.tool!,
        title: op.title,
        description: withToolNames(op.description) + TOOL_CONTENT_NOTES[op.toolContent ?? 'json'],
        inputSchema: { ...input, properties: input.properties ?? {} },
        outputSchema: jsonSchema(op.output, 'output'),
      },
    ];
  }),
);

/** The operation's tool defaults and maximums, shown in the tool's schema where the REST ones would be. */
function withToolDefaults(schema: ToolBase['inputSchema'], op: OrganisationOperation<any, any>): ToolBase['inputSchema'] {
  const defaults = Object.entries(op.toolDefaults ?? {});
  const maximums = Object.entries(op.toolMaximums ?? {});
  if (!defaults.length && !maximums.length) return schema;
  const properties = { ...schema.properties };
  const known = (name: string) => {
    if (!properties[name]) throw new Error(`${op.name}: tool default or maximum for unknown parameter ${name}`);
    return properties[name] as Record<string, unknown>;
  };
  for (const [name, value] of defaults) properties[name] = { ...known(name), default: value };
  // the operation's own description says both ranges, so one text reads right on REST and here
  for (const [name, value] of maximums) properties[name] = { ...known(name), maximum: value };
  return { ...schema, properties };
}

/**
 * The arguments a tool call runs with: the operation's tool defaults where the caller gave none;
 * a value past the tool's maximum is refused (invalid_request naming it), never quietly cut.
 */
export function withToolArguments(op: OrganisationOperation<any, any>, input: Record<string, unknown>): Record<string, unknown> {
  for (const [name, most] of Object.entries(op.toolMaximums ?? {})) {
    const value = Number(input[name]);
    if (input[name] !== undefined && Number.isFinite(value) && value > (most as number))
      throw invalidParameter(name, `at most ${most} through this tool (answers sized for a model's context); ask for the next page`);
  }
  return { ...op.toolDefaults, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
}

export function findToolOperation(name: string): OrganisationOperation<any, any> | undefined {
  return TOOLS.get(name)?.op;
}

/** The scope a JSON-RPC message needs beyond reading: a tools/call of a tool that changes records. */
export function scopeOfToolCall(message: unknown): Scope | null {
  if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') return null;
  const name = (message as { params?: { name?: unknown } }).params?.name;
  const op = typeof name === 'string' ? findToolOperation(name) : undefined;
  return op && op.scope !== 'service.read' ? op.scope : null;
}

function organisationList(caller: Caller): string {
  return caller.coverage.organisations.map((o) => `${o.id} (${o.name})`).join(', ');
}

/** The tools as this caller sees them: those its scopes allow; `organisation` required and enumerated when it covers several. */
export function toolsFor(caller: Caller): Tool[] {
  const several = organisationRequired(caller.principal, caller.coverage);
  const only = caller.coverage.organisations.length === 1 ? caller.coverage.organisations[0] : undefined;
  // only the tools this token may call: a read-only connection is not shown changes it cannot make
  // (a client that calls one anyway is answered 403 with the scope to ask for, routes.ts)
  return [...TOOLS.values()]
    .filter((t) => caller.scopes.has(t.op.scope))
    .map((t) => {
      const inputSchema = several
        ? {
            ...t.inputSchema,
            properties: {
              [ORGANISATION_ARGUMENT]: {
                type: 'string',
                enum: caller.coverage.organisations.map((o) => o.id),
                description:
                  `The organisation to act for, by id or exact name. This connection covers several, so every call must name ` +
                  `one: ${organisationList(caller)}.`,
              },
              ...t.inputSchema.properties,
            },
            required: [ORGANISATION_ARGUMENT, ...(t.inputSchema.required ?? [])],
          }
        : t.inputSchema;
      const acting = several
        ? ' Acts for the organisation named by the organisation argument.'
        : only
          ? ` Acts for ${only.name}${only.name.endsWith('.') ? '' : '.'}`
          : '';
      return {
        name: t.name,
        title: t.title,
        description: `${t.description}${acting}`,
        inputSchema: inputSchema as Tool['inputSchema'],
        outputSchema: t.outputSchema as Tool['outputSchema'],
        annotations: { title: t.title, ...TOOL_ANNOTATIONS[effectOf(t.op)] },
      };
    });
}
