/**
 * The REST transport: GET /v1/organisations and GET /v1/operations/<name> for every operation in
 * the list. It turns a request into (caller, organisation, input), runs the operation through the
 * one shared path, and serialises the result or the problem. No business logic lives here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationError, type Caller } from '../auth/verify.js';
import { OPERATIONS } from '../operations/index.js';
import { OperationError } from '../operations/errors.js';
import { restPathOf, type AnyOperation } from '../operations/operation.js';
import { sendAnswer } from './answer.js';
import { callOperation } from './call-sequence.js';
import { authenticateCaller, type ServiceContext } from './service.js';

export const ORGANISATION_HEADER = 'service-organisation';

export function registerRest(app: FastifyInstance, service: ServiceContext): void {
  const audience = service.resources.api;

  async function caller(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    try {
      return await authenticateCaller(service, request.headers.authorization, audience);
    } catch (error) {
      if (error instanceof AuthenticationError) {
        reply.header(
          'www-authenticate',
          `Bearer realm="ledgerline", error="${error.bearerError}", error_description="${error.message.replace(/"/g, "'")}", resource_metadata="${service.baseUrl}/.well-known/oauth-protected-resource/v1"`,
        );
      }
      throw error;
    }
  }

  for (const op of OPERATIONS) {
    app.get(restPathOf(op), async (request, reply) => {
      const c = await caller(request, reply);
      const header = request.headers[ORGANISATION_HEADER];
      const input = request.query as Record<string, unknown>;
      const organisation = Array.isArray(header) ? header[0] : header;
      const answer = await callOperation(service, c, op, { organisation, input, textInput: true, headers: reply });
      // the organisation list goes as Fastify serialises it; an organisation's data by sendAnswer (gzip, kept JSON)
      return op.kind === 'caller' ? answer : sendAnswer(request, reply, answer);
    });
  }

  app.get('/v1/operations/:name', async (request) => {
    const { name } = request.params as { name: string };
    throw new OperationError('unknown_operation', `no operation "${name}"; see ${service.baseUrl}/openapi.json`, [], {
      operations: OPERATIONS.filter((o) => o.kind === 'organisation').map((o) => o.name),
    });
  });
}

export type { AnyOperation };
