/**
 * What a request's log line says beyond its id, method, route, status and time (app.ts's onResponse
 * hook writes the line): who called — `organisationId`, `clientId`, `userId` — the problem `code` of
 * an error answer, the `path` of a 404, and an MCP request's `mcpMethod` and `tool`.
 *
 * Ids only: never a token, secret, email, name, body or query string. A 404's path drops its query
 * and hides the secret segment of the links that carry one (`/invitations/<secret>`, and the
 * authorization server's interaction ids), and is cut at 200 characters.
 *
 * The parts are noted on the request as they are learned, each by the step that learns them: the
 * token check (service.ts authenticateCaller, given the request), the call's organisation step
 * (call-sequence.ts, which has the caller and not the request: the caller is linked to its
 * request's notes), a web page's session (web-context.ts), and the problem sent (problem.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../auth/verify.js';

export interface RequestLogFields {
  organisationId?: string;
  clientId?: string;
  userId?: string;
  /** the problem code of an error answer (problem.ts) */
  code?: string;
}

// keyed by Node's request, which both Fastify's request (.raw) and a raw response (.req) lead to
const notes = new WeakMap<IncomingMessage, RequestLogFields>();
const callers = new WeakMap<Caller, RequestLogFields>();

const rawOf = (request: FastifyRequest | IncomingMessage): IncomingMessage => ('raw' in request ? request.raw : request);

function notesOf(request: FastifyRequest | IncomingMessage): RequestLogFields {
  const raw = rawOf(request);
  let fields = notes.get(raw);
  if (!fields) notes.set(raw, (fields = {}));
  return fields;
}

/** Notes parts of the request's log line. */
export function noteForLog(request: FastifyRequest | IncomingMessage, fields: RequestLogFields): void {
  Object.assign(notesOf(request), fields);
}

/**
 * Notes who called: the client, the person for a person's token, and an API client's organisation
 * (its only one). The caller is linked to the request, so the organisation a person's call acts for
 * is noted by the step that chooses it (noteOrganisation).
 */
export function noteCaller(request: FastifyRequest | IncomingMessage, caller: Caller): void {
  const fields = notesOf(request);
  fields.clientId = caller.clientId;
  if (caller.principal.kind === 'user') fields.userId = caller.principal.userId;
  else if (caller.coverage.organisations.length === 1) fields.organisationId = caller.coverage.organisations[0]!.id;
  callers.set(caller, fields);
}

/** The organisation a call acts for, on the log line of the request its caller came with (if any). */
export function noteOrganisation(caller: Caller, organisationId: string): void {
  const fields = callers.get(caller);
  if (fields) fields.organisationId = organisationId;
}

const MAX_PATH = 200;
// the links whose segment after the prefix is a secret (an invitation's token) or as good as one
const SECRET_SEGMENT = /(\/(?:invitations|interaction)\/)[^/]+/gi;

/** A path as it may be logged: no query, secret segments hidden, at most 200 characters. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0]!.split('#')[0]!.replace(SECRET_SEGMENT, '$1[hidden]');
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/** An MCP request's JSON-RPC method, and the tool a tools/call names (never its arguments). */
function mcpFields(body: unknown): { mcpMethod?: string; tool?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (typeof method !== 'string') return {};
  const name = method === 'tools/call' && typeof params === 'object' && params !== null ? params.name : undefined;
  return { mcpMethod: method.slice(0, 100), ...(typeof name === 'string' ? { tool: name.slice(0, 100) } : {}) };
}

const MCP_ROUTES = new Set(['/mcp', '/mcp/']);

/** The fields this module adds to a request's log line. */
export function requestLogFields(request: FastifyRequest, status: number): Record<string, string> {
  const fields: Record<string, string> = {};
  const noted = notes.get(request.raw);
  if (noted) for (const [key, value] of Object.entries(noted)) if (value !== undefined) fields[key] = value;
  const pattern = request.routeOptions.url;
  // the pages of one organisation name it in their path
  if (!fields.organisationId && pattern?.startsWith('/orgs/:orgId')) {
    const orgId = (request.params as { orgId?: unknown } | undefined)?.orgId;
    if (typeof orgId === 'string') fields.organisationId = orgId.slice(0, 100);
  }
  if (pattern && MCP_ROUTES.has(pattern) && request.method === 'POST') Object.assign(fields, mcpFields(request.body));
  if (status === 404) fields.path = loggablePath(request.url);
  return fields;
}
