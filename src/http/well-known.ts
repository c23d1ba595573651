/** RFC 9728 protected resource metadata for the REST API and the MCP endpoint. */
import type { FastifyInstance } from 'fastify';
import { SERVICE_SCOPES } from '../auth/clients.js';
import type { ServiceContext } from './service.js';

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
  app.get('/.well-known/oauth-protected-resource/v1', async (_req, reply) => reply.header('access-control-allow-origin', '*').send(api));
  app.get('/.well-known/oauth-protected-resource/mcp', async (_req, reply) => reply.header('access-control-allow-origin', '*').send(mcp));
  // a client that asks the root gets the MCP endpoint's, the one that is discovered without set-up
  app.get('/.well-known/oauth-protected-resource', async (_req, reply) => reply.header('access-control-allow-origin', '*').send(mcp));
}
