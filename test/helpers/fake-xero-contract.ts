/**
 * Xero's official Accounting API contract (xero_accounting.yaml, OpenAPI 3.0) as checks: a request's
 * path, query parameters and headers against the operation's declared parameters, and a response
 * body against the operation's declared response schema, with ajv (draft-07, the dialect OpenAPI
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

interface Operation {
  template: string;
  pattern: RegExp;
  parameters: Parameter[];
  responses: Record<string, Json>;
  /** the operation's `security: - OAuth2: [...]` scopes (any one of them lets a token call it); empty when it names none */
  scopes: string[];
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
      if (!item.get) continue;
      const parameters = [...(item.parameters ?? []), ...(item.get.parameters ?? [])].map((p: Json) => this.resolveParameter(p));
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      const security = (item.get.security ?? this.document.security ?? []) as Json[];
      const scopes = [...new Set(security.flatMap((requirement) => (requirement.OAuth2 ?? []) as string[]))];
      this.operations.push({ template, pattern, parameters, responses: item.get.responses ?? {}, scopes, validators: new Map() });
    }
  }

  private resolveParameter(p: Json): Parameter {
    if (!p.$ref) return p as Parameter;
    const name = String(p.$ref).replace('#/components/parameters/', '');
    const found = this.document.components.parameters[name];
    if (!found) throw new Error(`unresolved parameter ${p.$ref}`);
    return found as Parameter;
  }

  private schemaFor(schema: Json): Json {
    // $refs inside the contract point at #/components/…: rebased onto the registered document
    return JSON.parse(JSON.stringify(closeObjects(schema)).replaceAll('"#/components/', '"xero#/components/'));
  }

  /** The GET operation for a path below the server URL (e.g. "/Invoices"); exact templates win over {parameters}. */
  operation(path: string): Operation | undefined {
    return this.operations.find((o) => o.template === path) ?? this.operations.find((o) => o.pattern.test(path));
  }

  /**
   * What is wrong with a GET request (empty when it is what the contract allows): an undeclared path
   * or query parameter, a missing required parameter or header, a value of the wrong type or format.
   */
  checkRequest(path: string, query: URLSearchParams, headers: Record<string, string | string[] | undefined>): string[] {
    const op = this.operation(path);
    if (!op) return [`GET ${path} is not in the contract`];
    const problems: string[] = [];
    const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of new Set(query.keys())) if (!declared.has(name)) problems.push(`query parameter ${name} is not declared for GET ${op.template}`);
    for (const p of op.parameters) {
      if (p.in === 'path') continue;
      const raw = p.in === 'query' ? query.get(p.name) : headers[p.name.toLowerCase()];
      if (raw === undefined || raw === null) {
        if (p.required) problems.push(`${p.in} ${p.name} is required for GET ${op.template}`);
        continue;
      }
      const text = Array.isArray(raw) ? raw.join(',') : raw;
      const value = coerce(text, p.schema);
      const validate = this.ajv.compile(this.schemaFor(p.schema));
      if (!validate(value)) problems.push(`${p.in} ${p.name}=${JSON.stringify(text)}: ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  /** What is wrong with a response body for GET path with this status (empty when the contract allows it). */
  checkResponse(path: string, status: number, body: unknown): string[] {
    const op = this.operation(path);
    if (!op) return [`GET ${path} is not in the contract`];
    const response = op.responses[String(status)];
    if (!response) return [`GET ${op.template} declares no ${status} response`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return body === undefined ? [] : [`GET ${op.template} ${status} declares no JSON body`];
    let validate = op.validators.get(String(status));
    if (!validate) op.validators.set(String(status), (validate = this.ajv.compile(this.schemaFor(schema))));
    return validate(body) ? [] : [`GET ${op.template} ${status}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }

  /** What is wrong with answering GET path with a file (empty when the contract declares application/octet-stream for it). */
  checkBinaryResponse(path: string, status: number): string[] {
    const op = this.operation(path);
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
  scopesFor(path: string): string[] | undefined {
    return this.operation(path)?.scopes;
  }

  /** The template of the GET operation a path is a call of ("/Invoices/{InvoiceID}/Attachments"). */
  templateOf(path: string): string | undefined {
    return this.operation(path)?.template;
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
