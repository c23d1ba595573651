/**
 * The REST transport: GET /v1/organisations, GET /v1/operations/<name> for every read and
 * POST/PATCH/DELETE for every change (operation.ts, Effect), generated from the list. It turns a request into (caller, organisation, input), runs the operation through the
 * one shared path, and serialises the result or the problem. No business logic lives here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationError, type Caller } from '../auth/verify.js';
import { OPERATIONS } from '../operations/index.js';
import { OperationError } from '../operations/errors.js';
import { MAX_DOCUMENT_BODY_BYTES } from '../operations/documents/file-type.js';
import { effectOf, HTTP_METHOD, restPathOf, type AnyOperation } from '../operations/operation.js';
import { sendAnswer } from './answer.js';
import { callOperation } from './call-sequence.js';
import { authenticateCaller, type ServiceContext } from './service.js';

export const ORGANISATION_HEADER = 'service-organisation';

export function registerRest(app: FastifyInstance, service: ServiceContext): void {
  const audience = service.resources.api;
  const metadataUrl = `${service.baseUrl}/.well-known/oauth-protected-resource/v1`;

  async function caller(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    try {
      return await authenticateCaller(service, request.headers.authorization, audience);
    } catch (error) {
      if (error instanceof AuthenticationError) {
        reply.header(
          'www-authenticate',
          `Bearer realm="ledgerline", error="${error.bearerError}", error_description="${error.message.replace(/"/g, "'")}", resource_metadata="${metadataUrl}"`,
        );
      }
      throw error;
    }
  }

  for (const op of OPERATIONS) {
    const method = HTTP_METHOD[effectOf(op)];
    // a body is read for POST and PATCH only; a document's file comes in it as base64
    const bodyLimit = 'file' in op.input.shape ? MAX_DOCUMENT_BODY_BYTES : undefined;
    app.route({
      method,
      url: restPathOf(op),
      ...(bodyLimit ? { bodyLimit } : {}),
      handler: async (request, reply) => {
        const c = await caller(request, reply);
        const organisation = firstHeader(request.headers[ORGANISATION_HEADER]);
        const fromBody = method === 'POST' || method === 'PATCH';
        const input = fromBody ? bodyObject(request.body) : (request.query as Record<string, unknown>);
        const idempotencyKey = method === 'POST' ? firstHeader(request.headers['idempotency-key']) : undefined;
        const arrival = { organisation, input, textInput: !fromBody, headers: reply, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) };
        let answer: unknown;
        try {
          answer = await callOperation(service, c, op, arrival);
        } catch (error) {
          // RFC 6750 §3.1: name the scope the token lacks, so a client can ask for it
          if (error instanceof OperationError && error.code === 'insufficient_scope')
            reply.header('www-authenticate', `Bearer realm="ledgerline", error="insufficient_scope", error_description="${error.message}", scope="${op.scope}", resource_metadata="${metadataUrl}"`);
          throw error;
        }
        if (method === 'POST') reply.code(201);
        // the organisation list goes as Fastify serialises it; an organisation's data by sendAnswer (gzip, kept JSON)
        return op.kind === 'caller' ? answer : sendAnswer(request, reply, answer);
      },
    });
    const others = (['GET', 'POST', 'PATCH', 'DELETE', 'PUT'] as const).filter((m) => m !== method);
    app.route({
      method: [...others],
      url: restPathOf(op),
      handler: async (request, reply) => {
        reply.header('allow', method === 'GET' ? 'GET, HEAD' : method);
        throw new OperationError('method_not_allowed', `${op.name} is called with ${method} ${restPathOf(op)}, not ${request.method}`);
      },
    });
  }

  app.get('/v1/operations/:name', async (request) => {
    const { name } = request.params as { name: string };
    throw new OperationError('unknown_operation', `no operation "${name}"; see ${service.baseUrl}/openapi.json`, [], {
      operations: OPERATIONS.filter((o) => o.kind === 'organisation').map((o) => o.name),
    });
  });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A change's JSON body: one object of named fields. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new OperationError('invalid_request', 'the body must be a JSON object of the operation\'s fields', [{ parameter: '(body)', message: 'must be a JSON object' }]);
  return body as Record<string, unknown>;
}

export type { AnyOperation };
