/** /openapi.json and a readable reference page at /docs, both from the operation list. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { OPERATIONS } from '../operations/index.js';
import { restPathOf } from '../operations/operation.js';
import { html } from '../web/html.js';
import { page } from '../web/layout.js';
import { openApiDocument } from './openapi.js';
import type { ServiceContext } from './service.js';

/** Every problem code the service answers, with its status and meaning: the anchors problem `type` links point at. */
export const ERRORS: [string, number, string][] = [
  ['invalid_request', 400, 'A parameter is missing, unknown or invalid; errors[] names each one.'],
  ['bad_request', 400, 'The request itself could not be read: malformed JSON, an invalid URL, or broken HTTP.'],
  ['organisation_required', 400, 'The token covers several organisations: send the Service-Organisation header (REST) or the organisation argument (MCP).'],
  ['invalid_token', 401, 'No access token, or it is expired, revoked, or for another resource.'],
  ['insufficient_scope', 403, 'The token lacks the scope the operation needs.'],
  ['role_not_allowed', 403, "Your role in this organisation may not call this operation (the organisation's role policy)."],
  ['organisation_not_approved', 403, 'The connection was not approved for that organisation.'],
  ['not_a_member', 403, 'You are no longer a member of that organisation.'],
  ['organisation_not_allowed', 403, "An organisation's own API client named another organisation."],
  ['no_organisation', 403, 'The connection covers no organisation you are still a member of.'],
  ['invalid_host', 403, 'The MCP endpoint of a loopback server answers loopback host names only (DNS rebinding).'],
  ['accounting_unavailable', 502, "The organisation's accounting system could not be read."],
  ['accounting_timeout', 504, "The organisation's accounting system did not answer in time."],
  ['account_not_found', 404, 'No such account; candidates lists close matches.'],
  ['supplier_not_found', 404, 'No such supplier; candidates lists close matches.'],
  ['organisation_not_found', 404, 'The organisation the call acts for no longer exists.'],
  ['not_found', 404, 'No such document or file, or nothing at that path.'],
  ['unknown_operation', 404, 'No operation of that name.'],
  ['request_timeout', 408, 'The request did not arrive in time.'],
  ['file_too_large', 413, 'The stored file is over the 10 MB limit.'],
  ['payload_too_large', 413, 'The request body is over the limit for its endpoint.'],
  ['unsupported_media_type', 415, 'The request body is of a type this endpoint does not read.'],
  ['request_header_fields_too_large', 431, 'The request headers are over the limit (16 KB in all).'],
  ['rate_limited', 429, 'Too many requests; wait for Retry-After seconds.'],
  ['internal_error', 500, 'Something failed on our side; quote the request id.'],
  ['database_unavailable', 503, 'The database is unavailable for a moment; retry after Retry-After seconds.'],
];

export function registerDocs(app: FastifyInstance, service: ServiceContext): void {
  const document = openApiDocument(service.baseUrl);
  app.get('/openapi.json', async (_req, reply) => reply.header('access-control-allow-origin', '*').send(document));
  const body = html`<div class="card">
  <h1>Ledgerline API reference</h1>
  <p>Every operation is a <code>GET</code> with query parameters, needs an OAuth access token with scope <code>service.read</code>
  (<code>Authorization: Bearer …</code>) and acts for one organisation, taken from the token. When a token covers several
  organisations, name one with the <code>Service-Organisation</code> header. Amounts are numbers in major units; dates are
  <code>yyyy-MM-dd</code>. The machine-readable description is <a href="/openapi.json">/openapi.json</a>.</p>
  <p>OAuth: authorization <code>${service.baseUrl}/oauth/authorize</code>, token <code>${service.baseUrl}/oauth/token</code>,
  revocation <code>${service.baseUrl}/oauth/revoke</code>, registration <code>${service.baseUrl}/oauth/register</code>,
  metadata <code>${service.baseUrl}/.well-known/oauth-authorization-server</code>.</p>
</div>
${OPERATIONS.map((op) => {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const path = restPathOf(op);
  return html`<section class="card" id="${op.name}">
  <h2><code>GET ${path}</code></h2>
  <p><strong>${op.title}.</strong> ${op.description}</p>
  ${op.tool ? html`<p class="muted">MCP tool: <code>${op.tool}</code>. Default roles: ${op.kind === 'organisation' ? op.defaultRoles.join(', ') : 'any'}.</p>` : ''}
  ${
    Object.keys(shape).length
      ? html`<table><thead><tr><th scope="col">Parameter</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>
    ${Object.entries(shape).map(
      ([name, field]) => html`<tr><td><code>${name}</code></td><td>${field.safeParse(undefined).success ? 'no' : 'yes'}</td><td>${field.description ?? ''}</td></tr>`,
    )}
  </tbody></table>`
      : html`<p class="muted">No parameters.</p>`
  }
</section>`;
})}
<section class="card" id="errors">
  <h2>Errors</h2>
  <p>Errors are <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>,
  <code>detail</code>, a stable <code>code</code>, and <code>errors[]</code> (parameter, message) for invalid input.</p>
  <table><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>
  ${ERRORS.map(([code, status, meaning]) => html`<tr id="error-${code}"><td><code>${code}</code></td><td>${status}</td><td>${meaning}</td></tr>`)}
  </tbody></table>
</section>`;
  const rendered = page('API reference', body, { wide: true });
  app.get('/docs', async (_req, reply) => reply.header('content-type', 'text/html; charset=utf-8').send(rendered));
}
