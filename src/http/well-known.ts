/** RFC 9728 protected resource metadata for the REST API and the MCP endpoint. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SERVICE_SCOPES } from '../auth/clients.js';
import { METADATA_CACHE_CONTROL } from './auth-server-handoff.js';
import type { ServiceContext } from '../calls/service.js';

export function registerProtectedResourceMetadata(app: FastifyInstance, service: ServiceContext): void {
  const metadata = (resource: string, name: string) => ({
    resource,
    resource_name: name,
    authorization_servers: [service.baseUrl],
    scopes_supported: [...SERVICE_SCOPES],
    bearer_methods_supported: ['header'],
    resource_documentation: `${service.baseUrl}/docs`,
  });
  const api = metadata(service.resources.api, 'Ledgerline REST API');
  const mcp = metadata(service.resources.mcp, 'Ledgerline MCP server');
  // every URL in it is from BASE_URL, never from the request, so it can be cached by anyone
  const serve = (document: object) => async (_req: unknown, reply: FastifyReply) =>
    reply.header('access-control-allow-origin', '*').header('cache-control', METADATA_CACHE_CONTROL).send(document);
  app.get('/.well-known/oauth-protected-resource/v1', serve(api));
  app.get('/.well-known/oauth-protected-resource/mcp', serve(mcp));
  // a client that asks the root gets the MCP endpoint's, the one that is discovered without set-up
  app.get('/.well-known/oauth-protected-resource', serve(mcp));
}
