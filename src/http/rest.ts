/**
 * The REST transport: GET /v1/organisations and GET /v1/operations/<name> for every operation in
 * the list. It turns a request into (caller, organisation, input), runs the operation through the
 * one shared path, and serialises the result or the problem. No business logic lives here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireScope, resolveOrganisation, AuthenticationError, type Caller } from '../auth/verify.js';
import { runCallerOperation, runOrganisationOperation } from '../operations/execute.js';
import { OPERATIONS } from '../operations/index.js';
import { OperationError } from '../operations/errors.js';
import type { AnyOperation } from '../operations/operation.js';
import { sendAnswer } from './answer.js';
import { applyRateLimits } from './call-limits.js';
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
    const path = op.kind === 'caller' ? '/v1/organisations' : `/v1/operations/${op.name}`;
    app.get(path, async (request, reply) => {
      const c = await caller(request, reply);
      requireScope(c, op.scope);
      const input = request.query as Record<string, unknown>;
      if (op.kind === 'caller') {
        await applyRateLimits(service, reply, c, null);
        return runCallerOperation(service.env, op, c.principal, c.coverage, { input, textInput: true });
      }
      const header = request.headers[ORGANISATION_HEADER];
      const organisationId = resolveOrganisation(c, Array.isArray(header) ? header[0] : header);
      await applyRateLimits(service, reply, c, organisationId);
      const answer = await runOrganisationOperation(service.env, op, c.principal, organisationId, { input, textInput: true });
      return sendAnswer(request, reply, answer);
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
