/**
 * The MCP endpoint, Streamable HTTP at /mcp (and /mcp/), stateless: every POST carries its bearer
 * token, is authenticated like a REST call (audience: the MCP resource), and is answered by a
 * server built for that caller. No sessions and no server-initiated stream, so any instance can
 * answer any request; GET and DELETE answer 405 as the transport specification allows.
 *
 * It is an OAuth protected resource (MCP authorization): without a valid token, 401 with a
 * WWW-Authenticate challenge pointing at the RFC 9728 metadata, from which a client that knows
 * only this URL finds the authorization server, registers and signs the user in.
 */
import { bearerChallenge } from '../calls/bearer-challenge.js';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import { refuseInvalidParams } from './invalid-params.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationError, requireScope, type Caller } from '../auth/verify.js';
import { authenticateCaller, type ServiceContext } from '../calls/service.js';
import { OperationError } from '../domain/problems.js';
import type { Scope } from '../operations/operation.js';
import { createMcpServer } from './server.js';
import { scopeOfToolCall } from './tools.js';
import { isLoopbackHost } from '../domain/loopback.js';
import { isRefusedBatch } from './batches.js';
import { DEFAULT_ALLOWED_ORIGINS, originPolicy } from '../domain/origins.js';

const MCP_PATHS = ['/mcp', '/mcp/'] as const;

/** The scope every tool needs, so the one a client is told to ask for. */
const REQUIRED_SCOPE: Scope = 'service.read';
/**
 * The scope a client is told to ask for. Clients on the official SDK ask for exactly the challenge's
 * scope, so offline_access is named here: without it they get no refresh token and their users sign
 * in again every hour; with it they stay connected for the 30 rolling days (docs/decisions.md).
 */
const CHALLENGE_SCOPE = `${REQUIRED_SCOPE} offline_access`;

// browser-based clients (MCP Inspector) call from an allowed origin (origins.ts) with a bearer token,
// never cookies; the allowed origin is echoed, so Vary says the answer depends on it
const CORS: Record<string, string> = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID',
  'access-control-expose-headers': 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id',
  'access-control-max-age': '86400',
};

/** A JSON-RPC error about the HTTP request as a whole, so answered with no id (MCP transports). */
function transportError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export interface McpOptions {
  /** browser origins allowed besides BASE_URL's: parseAllowedOrigins(MCP_ALLOWED_ORIGINS); default loopback */
  allowedOrigins?: readonly string[];
}

/** The Fastify request as the web-standard Request the SDK's handler takes (the body already parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
  return new Request(url, { method: request.method, headers, body: request.method === 'POST' ? JSON.stringify(request.body ?? null) : undefined });
}

/**
 * A 2026-07-28 request (its version in the per-request _meta envelope) through the SDK's handler,
 * which also answers server/discover and checks the Mcp-Method/Mcp-Name headers against the body.
 * 'auto' answers JSON unless a related message comes first, which these tools never send.
 */
async function serveModern(server: Server, request: Request, body: unknown, onerror: (error: Error) => void): Promise<Response> {
  const handler = createMcpHandler(() => server, { legacy: 'reject', responseMode: 'auto', onerror });
  try {
    return await handler.fetch(request, { parsedBody: body });
  } finally {
    void handler.close();
  }
}

/**
 * A 2025-era request (initialize handshake, then MCP-Protocol-Version header) through a stateless
 * transport answering JSON: every tool answers once, and headers set while a call runs (rate
 * limits) are still unsent when the answer is written.
 */
async function serveLegacy(server: Server, request: Request, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  refuseInvalidParams(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

export function registerMcp(app: FastifyInstance, service: ServiceContext, options: McpOptions = {}): void {
  const metadataUrl = `${service.baseUrl}/.well-known/oauth-protected-resource/mcp`;

  // A server on a loopback address answers only loopback host names: a page whose own name was
  // rebound to 127.0.0.1 (DNS rebinding) is refused before anything else, as the SDK's
  // localhostHostValidation does. Elsewhere the bearer token is the protection, and proxies decide Host.
  const loopbackOnly = isLoopbackHost(new URL(service.baseUrl).hostname);
  const checkHost = (request: FastifyRequest) => {
    if (!loopbackOnly) return;
    const host = request.headers.host;
    const hostname = host ? URL.parse(`http://${host}`)?.hostname : undefined;
    if (!hostname || !isLoopbackHost(hostname))
      throw new OperationError('invalid_host', `this server answers only on its loopback address, not on "${host ?? ''}"`);
  };

  /**
   * The Host check, then the Origin check (origins.ts), before authentication as the transport
   * specification wants: a refused origin gets 403 with a JSON-RPC error and no CORS headers, so its
   * page reads nothing. Headers go on the raw response so they survive hijacking; Node merges them
   * into whatever is written later. Returns false when the request was answered.
   */
  const originAllowed = originPolicy(service.baseUrl, options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS);
  const admit = (request: FastifyRequest, reply: FastifyReply): boolean => {
    checkHost(request);
    const res = reply.raw;
    res.setHeader('vary', 'Origin');
    const origin = request.headers.origin;
    if (!originAllowed(origin)) {
      void reply.code(403).type('application/json').send(transportError(-32000, 'Forbidden: this Origin may not call the MCP endpoint (MCP_ALLOWED_ORIGINS)'));
      return false;
    }
    if (origin !== undefined) {
      res.setHeader('access-control-allow-origin', origin);
      for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
    }
    return true;
  };

  const challenge = (error?: { code: string; description: string }, scope: string = CHALLENGE_SCOPE) =>
    bearerChallenge({ metadataUrl, scope, ...(error ? { error } : {}) });

  async function caller(request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
    const authorization = request.headers.authorization?.trim() || undefined;
    try {
      const c = await authenticateCaller(service, authorization, service.resources.mcp, request);
      requireScope(c, REQUIRED_SCOPE);
      return c;
    } catch (error) {
      // RFC 6750: a request with no credentials at all gets the challenge without an error code
      if (error instanceof AuthenticationError)
        reply.header('www-authenticate', challenge(authorization ? { code: error.bearerError, description: error.message } : undefined));
      else if (error instanceof OperationError && error.code === 'insufficient_scope')
        reply.header('www-authenticate', challenge({ code: 'insufficient_scope', description: error.message }));
      throw error;
    }
  }

  async function post(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!admit(request, reply)) return;
    const c = await caller(request, reply);
    if (isRefusedBatch(request.body, request.headers['mcp-protocol-version'])) {
      return void reply
        .code(400)
        .type('application/json')
        .send(
          transportError(
            -32600,
            'Invalid Request: JSON-RPC batches are not part of this protocol version (removed in 2025-06-18); send one message per request',
          ),
        );
    }
    // MCP authorization, step-up: a tool that changes records needs service.write; a token without it
    // gets 403 with the scopes to ask for, so the client can authorise again with them
    const needed = scopeOfToolCall(request.body);
    if (needed && !c.scopes.has(needed)) {
      const scope = [...new Set([...[...c.scopes].filter((s) => s.startsWith('service.')), needed, 'offline_access'])].join(' ');
      reply.header('www-authenticate', challenge({ code: 'insufficient_scope', description: `this tool needs the ${needed} scope` }, scope));
      return void reply
        .code(403)
        .type('application/json')
        .send(transportError(-32000, `Forbidden: this tool changes records and needs the ${needed} scope; authorise again with it`));
    }
    reply.hijack();
    const res = reply.raw;
    res.setHeader('x-request-id', request.id);
    res.setHeader('x-content-type-options', 'nosniff');
    const server = await createMcpServer({
      service,
      caller: c,
      headers: { header: (name, value) => (res.headersSent ? undefined : res.setHeader(name, value)) },
      requestId: request.id,
      logger: request.log,
    });
    try {
      const web = webRequest(request);
      const answer = (await isLegacyRequest(web, request.body))
        ? await serveLegacy(server, web, request.body)
        : await serveModern(server, web, request.body, (error) => request.log.warn(error.message));
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      request.log.error({ stack: (error as Error).stack }, (error as Error).message);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify(transportError(-32603, `Internal error (request id ${request.id})`)));
      }
    } finally {
      void server.close();
    }
  }

  async function methodNotAllowed(request: FastifyRequest, reply: FastifyReply) {
    if (!admit(request, reply)) return reply;
    await caller(request, reply);
    return reply
      .code(405)
      .header('allow', 'POST, OPTIONS')
      .send(transportError(-32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST'));
  }

  for (const path of MCP_PATHS) {
    app.options(path, async (request, reply) => {
      if (!admit(request, reply)) return reply;
      return reply.code(204).send();
    });
    // the server's 64 KB body limit holds here too: a tool call's file is small (docs/decisions.md)
    app.post(path, post);
    app.get(path, methodNotAllowed);
    app.delete(path, methodNotAllowed);
  }
}
