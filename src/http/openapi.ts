/** The OpenAPI 3.1 document, generated from the operation list and its zod schemas. */
import { z } from 'zod';
import { SERVICE_SCOPES } from '../auth/clients.js';
import { OPERATIONS } from '../operations/index.js';
import { effectOf, HTTP_METHOD, restPathOf } from '../operations/operation.js';

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'stable, machine-readable error code' },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['parameter', 'message'], properties: { parameter: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
  for (const op of OPERATIONS) {
    const effect = effectOf(op);
    const method = HTTP_METHOD[effect];
    const shape = op.input.shape as Record<string, z.ZodType>;
    // a read or a delete takes its input in the query; a create or an update as one JSON body
    const inBody = method === 'POST' || method === 'PATCH';
    const parameters: unknown[] = inBody
      ? []
      : Object.entries(shape).map(([name, field]) => {
          const schema = jsonSchema(field);
          return {
            name,
            in: 'query',
            required: !field.safeParse(undefined).success,
            description: field.description ?? (schema.description as string | undefined) ?? '',
            schema,
          };
        });
    if (op.kind === 'organisation') {
      parameters.push({
        name: 'Service-Organisation',
        in: 'header',
        required: false,
        description: 'The organisation id, required only when the token covers several organisations (see GET /v1/organisations).',
        schema: { type: 'string' },
      });
    }
    if (effect === 'create') {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Any unique text (a UUID): the same request sent again with the same key within 24 hours answers the first result instead of creating again.',
        schema: { type: 'string', maxLength: 255 },
      });
    }
    const path = restPathOf(op);
    const changes = effect !== 'read';
    paths[path] = {
      [method.toLowerCase()]: {
        operationId: op.name,
        summary: op.summary,
        description: op.description,
        ...(op.tool ? { 'x-mcp-tool': op.tool } : {}),
        ...(op.kind === 'organisation' ? { 'x-default-roles': op.defaultRoles } : {}),
        // either an OAuth flow, or an access token already in hand (the reference's try-it console takes one)
        security: [{ oauth2: [op.scope] }, { bearerAuth: [] }],
        parameters,
        ...(inBody ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.input, 'input') } } } } : {}),
        responses: {
          [effect === 'create' ? '201' : '200']: { description: effect === 'create' ? 'Created' : 'OK', content: { 'application/json': { schema: jsonSchema(op.output) } } },
          '400': problem('Invalid parameters (invalid_request, every bad parameter listed), or organisation_required'),
          '401': problem('No valid access token (invalid_token)'),
          '403': problem(changes ? 'Scope (insufficient_scope: service.write), role (role_not_allowed), organisation, or a submitter changing another\'s document' : 'Scope, role (role_not_allowed) or organisation does not allow the call'),
          '404': problem('Something named in the parameters does not exist'),
          ...(changes ? { '409': problem('The record cannot change in its state (document_published), the name is taken (already_exists), or the Idempotency-Key is in use') } : {}),
          ...(effect === 'create' ? { '422': problem('The Idempotency-Key was used for a different request (idempotency_key_reused)') } : {}),
          '429': problem('Rate limited (rate_limited); see Retry-After'),
        },
      },
    };
  }
  const scopes = Object.fromEntries(
    [...SERVICE_SCOPES, 'offline_access'].map((s) => [
      s,
      s === 'service.read' ? 'read accounting data' : s === 'service.write' ? 'create or change records' : 'a refresh token',
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledgerline API',
      version: '1',
      description:
        "Read an organisation's accounting data, and add its documents and saved filters (service.write). Every call acts for exactly one organisation, taken from the token.",
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: { Problem: problemSchema },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `An access token from ${baseUrl}/oauth/token (client credentials or authorization code), sent as Authorization: Bearer. Its scope must include the operation's.`,
        },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/authorize`,
              tokenUrl: `${baseUrl}/oauth/token`,
              refreshUrl: `${baseUrl}/oauth/token`,
              scopes,
            },
            clientCredentials: { tokenUrl: `${baseUrl}/oauth/token`, scopes },
          },
        },
      },
    },
  };
}
