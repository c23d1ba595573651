/**
 * The REST transport: GET /v1/organisations, GET /v1/operations/<name> for every read and
 * POST/PATCH/DELETE for every change (operation.ts, Effect), generated from the list. It turns a request into (caller, organisation, input), runs the
 *  operation through the
 * one shared path, and serialises the result or the problem. No business logic lives here.
 *
 * Who calls and whether they may (token, scope, organisation, rate limits, membership, role) is
 * judged from the headers in the route's onRequest hook, before the body is read: a refusal closes
 * the connection with the body unread (before-body.ts), so a call without a valid token costs its
 * headers, not the 15 MB a document's body may declare.
 */
import { bearerChallenge } from '../calls/bearer-challenge.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationError, type Caller } from '../auth/verify.js';
import { OPERATIONS } from '../operations/index.js';
import { OperationError } from '../operations/errors.js';
import { MAX_DOCUMENT_BODY_BYTES } from '../operations/documents/file-type.js';
import { effectOf, HTTP_METHOD, restPathOf, type AnyOperation } from '../operations/operation.js';
import { sendAnswer } from './answer.js';
import { restLinks } from './answer-body.js';
import { admitCall, type WithInput } from '../calls/call-sequence.js';
import { checkBeforeBody } from '../calls/before-body.js';
import { authenticateCaller, type ServiceContext } from '../calls/service.js';

export const ORGANISATION_HEADER = 'service-organisation';

export function registerRest(app: FastifyInstance, service: ServiceContext): void {
  const audience = service.resources.api;
  const metadataUrl = `${service.baseUrl}/.well-known/oauth-protected-resource/v1`;
  const links = restLinks(service.baseUrl);

  async function caller(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    try {
      return await authenticateCaller(service, request.headers.authorization, audience, request);
    } catch (error) {
      if (error instanceof AuthenticationError) {
        reply.header('www-authenticate', bearerChallenge({ metadataUrl, realm: 'ledgerline', error: { code: error.bearerError, description: error.message } }));
      }
      throw error;
    }
  }

  /** The token, then every step of the call that needs no input; answers the rest of the call. */
  async function admit(op: AnyOperation, method: string, request: FastifyRequest, reply: FastifyReply): Promise<WithInput> {
    const c = await caller(request, reply);
    const organisation = firstHeader(request.headers[ORGANISATION_HEADER]);
    const idempotencyKey = method === 'POST' ? firstHeader(request.headers['idempotency-key']) : undefined;
    try {
      return await admitCall(service, c, op, { organisation, headers: reply, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) });
    } catch (error) {
      // RFC 6750 §3.1: name the scope the token lacks, so a client can ask for it
      if (error instanceof OperationError && error.code === 'insufficient_scope')
        reply.header(
          'www-authenticate',
          bearerChallenge({ metadataUrl, realm: 'ledgerline', error: { code: 'insufficient_scope', description: error.message }, scope: op.scope }),
        );
      throw error;
    }
  }

  // each admitted request's call, from its onRequest hook to its handler
  const admitted = new WeakMap<FastifyRequest, WithInput>();

  for (const op of OPERATIONS) {
    const method = HTTP_METHOD[effectOf(op)];
    // a body is read for POST and PATCH only; a document's file comes in it as base64
    const bodyLimit = 'file' in op.input.shape ? MAX_DOCUMENT_BODY_BYTES : undefined;
    app.route({
      method,
      url: restPathOf(op),
      ...(bodyLimit ? { bodyLimit } : {}),
      // before Fastify reads the body: a refusal is sent with the body unread, and closes the connection
      onRequest: async (request, reply) => {
        const rest = await checkBeforeBody(reply, () => admit(op, method, request, reply));
        if (rest) admitted.set(request, rest);
      },
      handler: async (request, reply) => {
        const rest = admitted.get(request);
        if (!rest) throw new Error(`${op.name}: the handler ran without the call's admission (onRequest)`);
        const fromBody = method === 'POST' || method === 'PATCH';
        const input = fromBody ? bodyObject(request.body) : (request.query as Record<string, unknown>);
        const answer = await rest(input, !fromBody);
        if (method === 'POST') reply.code(201);
        // the organisation list goes as Fastify serialises it; an organisation's data by sendAnswer (its links as REST URLs, gzip, kept JSON)
        return op.kind === 'caller' ? answer : sendAnswer(request, reply, answer, links);
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
    throw new OperationError('invalid_request', "the body must be a JSON object of the operation's fields", [
      { parameter: '(body)', message: 'must be a JSON object' },
    ]);
  return body as Record<string, unknown>;
}

export type { AnyOperation };
