/**
 * /openapi.json, and /docs/reference: the reference as a plain page that needs no JavaScript, with the
 * errors catalogue every problem `type` links to. Operations and parameters come from the OpenAPI
 * document (so descriptions, types and allowed values are the ones it publishes); errors from the
 * problem catalogue. /docs renders the same document with Scalar (scalar.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PROBLEM_CODES, PROBLEMS, problemAnchor } from '../domain/problems.js';
import { OPERATIONS } from '../operations/index.js';
import { effectOf, HTTP_METHOD, restPathOf } from '../operations/operation.js';
import { html, type SafeHtml } from '../web/html.js';
import { page } from '../web/layout.js';
import { sendPage } from '../web/respond.js';
import { openApiDocument, TAGS } from '../http/openapi.js';
import { quickstartSteps } from '../http/quickstart.js';
import type { ServiceContext } from '../calls/service.js';

export function registerDocs(app: FastifyInstance, service: ServiceContext): void {
  const document = openApiDocument(service.baseUrl);
  app.get('/openapi.json', async (_req, reply) => reply.header('access-control-allow-origin', '*').send(document));
  const body = html`<div class="card">
  <h1>Ledgerline API reference</h1>
  <p>Every read is a <code>GET</code> with query parameters and needs an OAuth access token with scope <code>service.read</code>
  (<code>Authorization: Bearer …</code>); a change is a <code>POST</code> (create) or <code>PATCH</code> (update) with a JSON body, or a
  <code>DELETE</code> with query parameters, and needs <code>service.write</code>. A create sent with an <code>Idempotency-Key</code> header
  is made once however often it is retried. Every call acts for one organisation, taken from the token. When a token covers several
  organisations, name one with the <code>Service-Organisation</code> header. Amounts are numbers in major units; dates are
  <code>yyyy-MM-dd</code>. The machine-readable description is <a href="/openapi.json">/openapi.json</a>.</p>
  <p>OAuth: authorization <code>${service.baseUrl}/oauth/authorize</code>, token <code>${service.baseUrl}/oauth/token</code>,
  revocation <code>${service.baseUrl}/oauth/revoke</code>, registration <code>${service.baseUrl}/oauth/register</code>,
  metadata <code>${service.baseUrl}/.well-known/oauth-authorization-server</code>.</p>
</div>
<section class="card" id="quickstart">
  <h2>Quickstart</h2>
  ${quickstartSteps(service.baseUrl).map(
    (step) => html`<h3>${step.title}</h3>
  <p>${inlineCode(step.text)}</p>
  ${step.code ? html`<pre><code>${step.code}</code></pre>` : ''}
  ${step.after ? html`<pre><code>${step.after}</code></pre>` : ''}`,
  )}
</section>
${TAGS.map(
  (tag) => html`<h2 id="${tagAnchor(tag.name)}">${tag.name}</h2>
<p class="muted">${inlineCode(tag.description)}</p>
${OPERATIONS.filter((op) => tag.operations.includes(op.name)).map((op) => operationSection(document, op))}`,
)}
<section class="card" id="errors">
  <h2>Errors</h2>
  <p>Errors are <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>,
  <code>detail</code>, a stable <code>code</code>, and <code>errors[]</code> (parameter, message) for invalid input.</p>
  <div class="scroll"><table><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>
  ${PROBLEM_CODES.map(
    (code) => html`<tr id="${problemAnchor(code)}"><td><code>${code}</code></td><td>${PROBLEMS[code].status}</td>
      <td>${PROBLEMS[code].meaning}</td></tr>`,
  )}
  </tbody></table></div>
</section>`;
  const rendered = page('API reference', body, { wide: true });
  app.get('/docs/reference', async (_req, reply) => sendPage(reply, rendered));
}

/** An anchor for a group heading: its name in lower case, words joined by dashes. */
function tagAnchor(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** One operation: its name, method and path, what it does, its parameters, and its example. */
function operationSection(document: ReturnType<typeof openApiDocument>, op: (typeof OPERATIONS)[number]): SafeHtml {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const path = restPathOf(op);
  const method = HTTP_METHOD[effectOf(op)];
  const inBody = method === 'POST' || method === 'PATCH';
  const example = exampleOf(document, path);
  return html`<section class="card" id="${op.name}">
  <h3>${op.name}</h3>
  <p><code>${method} ${path}</code></p>
  <p><strong>${op.title}.</strong> ${inlineCode(op.summary)} ${inlineCode(op.description)}</p>
  <p class="muted">Scope <code>${op.scope}</code>. ${op.tool ? html`MCP tool: <code>${op.tool}</code>. ` : ''}Default roles:
    ${op.kind === 'organisation' ? op.defaultRoles.join(', ') : 'any'}.</p>
  ${
    Object.keys(shape).length
      ? html`<div class="scroll"><table><thead><tr><th scope="col">${
          inBody ? 'Body field' : 'Parameter'
        }</th><th scope="col">Required</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>
    ${Object.entries(shape).map(([name, field]) => {
      const published = parameterOf(document, path, name);
      const required = field.safeParse(undefined).success ? 'no' : 'yes';
      const description = inlineCode(published?.description ?? field.description ?? '');
      return html`<tr><td><code>${name}</code></td><td>${required}</td><td>${typeText(published?.schema)}</td><td>${description}</td></tr>`;
    })}
  </tbody></table></div>`
      : html`<p class="muted">No parameters.</p>`
  }
  ${
    example
      ? html`<details><summary>Example</summary>
  ${example.request ? html`<p>${inBody ? 'Body' : 'Parameters'}:</p><pre><code>${example.request}</code></pre>` : ''}
  <p>Answer:</p><pre><code>${example.answer}</code></pre></details>`
      : ''
  }
</section>`;
}

/** The example request and answer the OpenAPI document publishes for an operation, as JSON text. */
function exampleOf(document: ReturnType<typeof openApiDocument>, path: string): { request: string | null; answer: string } | undefined {
  const item = (document.paths as Record<string, Record<string, any>>)[path];
  const operation = item && Object.values(item)[0];
  const success = operation?.responses?.['200'] ?? operation?.responses?.['201'];
  const answer = success?.content?.['application/json']?.example;
  if (answer === undefined) return undefined;
  const body = operation.requestBody?.content?.['application/json']?.example;
  const query = Object.fromEntries(
    ((operation.parameters ?? []) as { name: string; in: string; example?: unknown }[])
      .filter((p) => p.in === 'query' && p.example !== undefined)
      .map((p) => [p.name, p.example]),
  );
  const request =
    body !== undefined
      ? JSON.stringify(body, null, 2)
      : Object.keys(query).length
        ? new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
        : null;
  return { request, answer: JSON.stringify(answer, null, 2) };
}

interface PublishedParameter {
  name: string;
  description?: string;
  schema?: { type?: string; enum?: unknown[]; minimum?: number; maximum?: number; format?: string; pattern?: string };
}

type PublishedOperation = {
  parameters?: PublishedParameter[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, PublishedParameter['schema'] & { description?: string }> } } } };
};

/** A parameter (or a field of the JSON body) as the OpenAPI document publishes it. */
function parameterOf(document: ReturnType<typeof openApiDocument>, path: string, name: string): PublishedParameter | undefined {
  const item = (document.paths as Record<string, Record<string, PublishedOperation>>)[path];
  const operation = item && Object.values(item)[0];
  const field = operation?.requestBody?.content['application/json'].schema.properties?.[name];
  if (field) return { name, ...(field.description !== undefined ? { description: field.description } : {}), schema: field };
  return operation?.parameters?.find((p) => p.name === name);
}

/** `integer 1–500`, `one of: none, supplier, month`, `date`: what a value may be. */
function typeText(schema: PublishedParameter['schema']): string {
  if (!schema) return '';
  // a nullable field (zod's nullable): its type, and that null is allowed
  const branches = (schema as { anyOf?: PublishedParameter['schema'][] }).anyOf;
  if (branches) return branches.map((b) => (b?.type === 'null' ? 'null' : typeText(b))).join(' or ');
  if (schema.enum) return `one of: ${schema.enum.join(', ')}`;
  const range = schema.minimum !== undefined && schema.maximum !== undefined ? ` ${schema.minimum}–${schema.maximum}` : '';
  return `${schema.format === 'date' ? 'date' : (schema.type ?? '')}${range}`;
}

/** Text whose `backticks` mark code, as the descriptions are written: code elements, everything else escaped. */
function inlineCode(text: string): SafeHtml {
  const parts = text.split('`');
  return html`${parts.map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}`;
}
