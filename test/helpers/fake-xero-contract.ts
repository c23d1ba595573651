/**
 * Xero's official Accounting API contract (xero_accounting.yaml, OpenAPI 3.0) as checks: a request's
 * path, query parameters and headers against the operation's declared parameters, a write's body
 * (PUT, POST) against the operation's declared requestBody, and a response body against the
 * operation's declared response schema, with ajv (draft-07, the dialect OpenAPI
 * 3.0 schemas follow). Every object schema that lists its properties is closed
 * (additionalProperties: false) before compiling, so a body may carry only fields the contract
 * names: the fake can say nothing the contract does not allow.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/** Xero's contract files, copied into the repository with their licence (source in its README). */
export const XERO_REFERENCE = fileURLToPath(new URL('../fixtures/vendor-contracts/xero', import.meta.url));
export const XERO_ACCOUNTING_YAML = fileURLToPath(new URL('../fixtures/vendor-contracts/xero/xero_accounting.yaml', import.meta.url));

type Json = Record<string, any>;

interface Parameter {
  in: 'query' | 'header' | 'path';
  name: string;
  required?: boolean;
  schema: Json;
}

export type Method = 'GET' | 'PUT' | 'POST';

interface Operation {
  method: Method;
  template: string;
  pattern: RegExp;
  parameters: Parameter[];
  responses: Record<string, Json>;
  /** the operation's `security: - OAuth2: [...]` scopes (any one of them lets a token call it); empty when it names none */
  scopes: string[];
  /** the declared request body by content type (PUT, POST) */
  requestBody: Record<string, Json>;
  validators: Map<string, ValidateFunction>;
}

/** Closes every object schema that names its properties; OpenAPI extensions stay (strict: false ignores them). */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : closeObjects(v);
  if (out.properties && typeof out.properties === 'object' && out.additionalProperties === undefined && !out.$ref) out.additionalProperties = false;
  return out;
}

export class XeroContract {
  readonly document: Json;
  private readonly ajv: Ajv;
  private readonly operations: Operation[] = [];

  constructor(path = XERO_ACCOUNTING_YAML) {
    this.document = parse(readFileSync(path, 'utf8')) as Json;
    if (!String(this.document.openapi).startsWith('3.0')) throw new Error(`expected OpenAPI 3.0, got ${this.document.openapi}`);
    this.ajv = new Ajv({ strict: false, allErrors: true });
    // formats the contract uses (checked here rather than through another dependency)
    this.ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    this.ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    this.ajv.addFormat('date-time', (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(s) && !Number.isNaN(Date.parse(s)));
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    this.ajv.addSchema({ $id: 'xero', components: { schemas: closeObjects(this.document.components.schemas) } });
    for (const [template, item] of Object.entries<Json>(this.document.paths)) {
      for (const method of ['GET', 'PUT', 'POST'] as const) {
        const op = item[method.toLowerCase()] as Json | undefined;
        if (!op) continue;
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => this.resolveParameter(p));
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        const security = (op.security ?? this.document.security ?? []) as Json[];
        const scopes = [...new Set(security.flatMap((requirement) => (requirement.OAuth2 ?? []) as string[]))];
        const responses = Object.fromEntries(Object.entries<Json>(op.responses ?? {}).map(([status, r]) => [status, this.resolveResponse(r)]));
        this.operations.push({ method, template, pattern, parameters, responses, scopes, requestBody: op.requestBody?.content ?? {}, validators: new Map() });
      }
    }
  }

  private resolveParameter(p: Json): Parameter {
    if (!p.$ref) return p as Parameter;
    const name = String(p.$ref).replace('#/components/parameters/', '');
    const found = this.document.components.parameters[name];
    if (!found) throw new Error(`unresolved parameter ${p.$ref}`);
    return found as Parameter;
  }

  private resolveResponse(r: Json): Json {
    if (!r.$ref) return r;
    const found = this.document.components.responses?.[String(r.$ref).replace('#/components/responses/', '')];
    if (!found) throw new Error(`unresolved response ${r.$ref}`);
    return found as Json;
  }

  private schemaFor(schema: Json): Json {
    // $refs inside the contract point at #/components/…: rebased onto the registered document
    return JSON.parse(JSON.stringify(closeObjects(schema)).replaceAll('"#/components/', '"xero#/components/'));
  }

  /** The operation for a method and a path below the server URL (e.g. GET "/Invoices"); exact templates win over {parameters}. */
  operation(path: string, method: Method = 'GET'): Operation | undefined {
    return this.operations.find((o) => o.method === method && o.template === path) ?? this.operations.find((o) => o.method === method && o.pattern.test(path));
  }

  /**
   * What is wrong with a GET request (empty when it is what the contract allows): an undeclared path
   * or query parameter, a missing required parameter or header, a value of the wrong type or format.
   */
  checkRequest(path: string, query: URLSearchParams, headers: Record<string, string | string[] | undefined>, method: Method = 'GET'): string[] {
    const op = this.operation(path, method);
    if (!op) return [`${method} ${path} is not in the contract`];
    const problems: string[] = [];
    const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of new Set(query.keys())) if (!declared.has(name)) problems.push(`query parameter ${name} is not declared for ${method} ${op.template}`);
    for (const p of op.parameters) {
      if (p.in === 'path') continue;
      const raw = p.in === 'query' ? query.get(p.name) : headers[p.name.toLowerCase()];
      if (raw === undefined || raw === null) {
        if (p.required) problems.push(`${p.in} ${p.name} is required for ${method} ${op.template}`);
        continue;
      }
      const text = Array.isArray(raw) ? raw.join(',') : raw;
      const value = coerce(text, p.schema);
      const validate = this.ajv.compile(this.schemaFor(p.schema));
      if (!validate(value)) problems.push(`${p.in} ${p.name}=${JSON.stringify(text)}: ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  /** What is wrong with a response body for a call of path with this status (empty when the contract allows it). */
  checkResponse(path: string, status: number, body: unknown, method: Method = 'GET'): string[] {
    const op = this.operation(path, method);
    if (!op) return [`${method} ${path} is not in the contract`];
    const response = op.responses[String(status)];
    if (!response) return [`${method} ${op.template} declares no ${status} response`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return body === undefined ? [] : [`${method} ${op.template} ${status} declares no JSON body`];
    let validate = op.validators.get(String(status));
    if (!validate) op.validators.set(String(status), (validate = this.ajv.compile(this.schemaFor(schema))));
    return validate(body) ? [] : [`${method} ${op.template} ${status}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }

  /**
   * What is wrong with a write's body (empty when the contract allows it): a content type the
   * operation does not declare, a missing body it requires, a JSON body off its schema (every object
   * closed: a field the contract does not name is refused), an empty file.
   */
  checkRequestBody(path: string, method: Method, contentType: string | undefined, body: Buffer): string[] {
    const op = this.operation(path, method);
    if (!op) return [`${method} ${path} is not in the contract`];
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const declared = Object.keys(op.requestBody);
    if (declared.length === 0) return body.length ? [`${method} ${op.template} declares no request body`] : [];
    if (body.length === 0) return [`${method} ${op.template} requires a body (${declared.join(', ')})`];
    if (type === 'application/octet-stream' || !op.requestBody['application/json']) {
      // a file: the contract declares application/octet-stream; Xero takes the file's own type as Content-Type
      return op.requestBody['application/octet-stream'] ? [] : [`${method} ${op.template} does not take ${type || 'a body without a type'}`];
    }
    if (type !== 'application/json') return [`${method} ${op.template} takes application/json, not ${type || 'a body without a type'}`];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return [`${method} ${op.template}: the body is not JSON`];
    }
    let validate = op.validators.get('request');
    if (!validate) op.validators.set('request', (validate = this.ajv.compile(this.schemaFor(op.requestBody['application/json'].schema))));
    return validate(parsed) ? [] : [`${method} ${op.template} request body: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }

  /** What is wrong with answering GET path with a file (empty when the contract declares application/octet-stream for it). */
  checkBinaryResponse(path: string, status: number): string[] {
    const op = this.operation(path, 'GET');
    if (!op) return [`GET ${path} is not in the contract`];
    const content = op.responses[String(status)]?.content ?? {};
    return content['application/octet-stream'] ? [] : [`GET ${op.template} ${status} declares no application/octet-stream body`];
  }

  /**
   * The scopes the contract names for GET path (its operation's `security`), any one of which lets
   * a token call it: Xero lists the read-write scope with its read-only one (accounting.transactions,
   * accounting.transactions.read), and a token holding either may read. Undefined when the path is
   * not in the contract.
   */
  scopesFor(path: string, method: Method = 'GET'): string[] | undefined {
    return this.operation(path, method)?.scopes;
  }

  /** The template of the operation a path is a call of ("/Invoices/{InvoiceID}/Attachments"). */
  templateOf(path: string, method: Method = 'GET'): string | undefined {
    return this.operation(path, method)?.template;
  }

  /** Every scope the contract's OAuth2 security scheme defines. */
  oauthScopes(): string[] {
    return Object.keys(this.document.components.securitySchemes.OAuth2.flows.authorizationCode.scopes);
  }

  /** The inline example of a GET operation's 200 response (Xero's own sample data). */
  example(path: string): unknown {
    return this.operation(path)?.responses['200']?.content?.['application/json']?.example;
  }
}

/** A query or header text as the parameter's schema type, so ajv checks the value rather than the text. */
function coerce(text: string, schema: Json): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array':
      return text.split(',').map((item) => coerce(item, schema.items ?? {}));
    default:
      return text;
  }
}
