/**
 * An operation's input or output as JSON Schema, the one projection every transport publishes
 * (OpenAPI, MCP tools, the CLI's help): zod's, for the side a caller sends (`input`: defaults
 * optional) or receives (`output`), without `$schema` (MCP takes 2020-12 as its default and some
 * clients' validators refuse the URI; OpenAPI 3.1 documents state their dialect once), and with
 * what JSON cannot say (a transform) left open rather than refused.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** `override`: a change made to each part as it is written (the output check's own reading, calls/output-check.ts) */
export function operationJsonSchema(schema: z.ZodType, io: 'input' | 'output', override?: JsonSchemaOverride): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', ...(override ? { override } : {}) }) as JsonSchema;
  return rest;
}

export type JsonSchemaOverride = NonNullable<NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override']>;
