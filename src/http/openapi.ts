/**
 * The OpenAPI 3.1 document, generated from the operation list and its zod schemas: each operation
 * under its name, in a group (tag), with its description, scope and roles, bounded parameters,
 * a request and an answer made from the demo's books (openapi-examples.json, kept true by
 * test/openapi-examples.test.ts), and its error responses as problems; the introduction holds a
 * quickstart, the conventions and the errors catalogue.
 */
import { z } from 'zod';
import { SERVICE_SCOPES } from '../auth/clients.js';
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from '../domain/problems.js';
import { MAX_DOCUMENT_FILE_BYTES } from '../operations/documents/file-type.js';
import { OPERATIONS } from '../operations/index.js';
import { effectOf, HTTP_METHOD, restPathOf, type AnyOperation } from '../operations/operation.js';
import EXAMPLES from './openapi-examples.json' with { type: 'json' };
import { problemType, type Problem } from '../calls/problem.js';
import { quickstartMarkdown } from './quickstart.js';
import { operationJsonSchema } from '../operations/json-schema.js';

/** The groups of the reference's sidebar, in order, each operation in exactly one. */
export const TAGS: readonly { name: string; description: string; operations: readonly string[] }[] = [
  {
    name: 'Organisations',
    description: 'Which organisations a token can act for. Call it first when a token comes from a person who may have several.',
    operations: ['organisations'],
  },
  {
    name: 'Reports',
    description:
      'The statements an accountant reads, as the books stand: profit and loss and balance sheet (with comparisons), trial balance, cash summary, and ' +
      'who owes and is owed by age.',
    operations: [
      'reports.profit_and_loss',
      'reports.balance_sheet',
      'reports.trial_balance',
      'reports.cash_summary',
      'reports.aged_receivables',
      'reports.aged_payables',
    ],
  },
  {
    name: 'Accounts, ledger and bank',
    description: 'The chart of accounts, what was coded to an account line by line, and the bank and card accounts with their imported transactions.',
    operations: ['accounts.list', 'ledger.account_transactions', 'banking.accounts', 'banking.transactions'],
  },
  {
    name: 'Bills and documents',
    description:
      'What is to be paid (Bills to Pay and its saved filters) and the documents behind it: bills, receipts, expense claims and supplier credits with ' +
      'their original files.',
    operations: ['bills.list_to_pay', 'bills.list_saved_filters', 'documents.get', 'documents.file'],
  },
  {
    name: 'Sales and contacts',
    description:
      'Customer invoices and credit notes with what is still owed, and suppliers, customers and employees with what was spent with and sold to each.',
    operations: ['sales.list_invoices', 'contacts.search'],
  },
  {
    name: 'Changes',
    description:
      'The calls that write, with scope `service.write`: documents (create, change, delete while unpublished, publish to the books), bank lines ' +
      'matched to them, and saved Bills to Pay filters. A create sent with an `Idempotency-Key` is made once however often it is retried.',
    operations: [
      'documents.create',
      'documents.update',
      'documents.delete',
      'documents.publish',
      'banking.match',
      'banking.unmatch',
      'banking.mark_reconciled',
      'bills.create_saved_filter',
      'bills.update_saved_filter',
      'bills.delete_saved_filter',
    ],
  },
];

/** Operations that never read the connected accounting system, so never answer its 502, 503 or 504. */
const OWN_DATA_ONLY = new Set([
  'organisations',
  'banking.transactions',
  'documents.delete',
  'bills.create_saved_filter',
  'bills.update_saved_filter',
  'bills.delete_saved_filter',
]);

/** Problems particular to an operation, beside those every call of its kind may answer. */
const OWN_PROBLEMS: Record<string, readonly ProblemCode[]> = {
  'ledger.account_transactions': ['account_not_found', 'supplier_not_found'],
  'banking.transactions': ['account_not_found'],
  'documents.file': ['not_found', 'file_too_large'],
  'documents.update': ['not_document_owner', 'not_found', 'document_published'],
  'documents.delete': ['not_document_owner', 'not_found', 'document_published'],
  'bills.create_saved_filter': ['already_exists'],
  'bills.update_saved_filter': ['not_found', 'already_exists'],
  'bills.delete_saved_filter': ['not_found'],
};

/** Every problem an operation may answer, in status order. */
export function problemsOf(op: AnyOperation): ProblemCode[] {
  const effect = effectOf(op);
  const organisation = op.kind === 'organisation';
  const body = effect === 'create' || effect === 'update';
  const codes: ProblemCode[] = [
    'invalid_request',
    ...(body ? (['bad_request'] as const) : []),
    ...(organisation ? (['organisation_required'] as const) : []),
    'invalid_token',
    'insufficient_scope',
    ...(organisation
      ? ([
          'role_not_allowed',
          'organisation_not_approved',
          'not_a_member',
          'app_blocked',
          'organisation_not_allowed',
          'no_organisation',
          'organisation_not_found',
        ] as const)
      : []),
    ...(effect === 'create' ? (['idempotency_key_in_use', 'idempotency_key_reused'] as const) : []),
    ...(body ? (['payload_too_large', 'unsupported_media_type'] as const) : []),
    ...(OWN_PROBLEMS[op.name] ?? []),
    'rate_limited',
    'internal_error',
    ...(organisation && !OWN_DATA_ONLY.has(op.name) ? (['accounting_unavailable', 'accounting_rate_limited', 'accounting_timeout'] as const) : []),
    'database_unavailable',
  ];
  return [...new Set(codes)].sort((a, b) => PROBLEMS[a].status - PROBLEMS[b].status);
}

interface Examples {
  demo: { date: string; seed: number; organisation: string; baseUrl: string; listItems: number };
  operations: Record<string, { input: Record<string, unknown>; output: unknown }>;
  problems: Record<string, Problem>;
}

/** The examples with links to this server instead of the example one. */
function examplesFor(baseUrl: string): Examples {
  return JSON.parse(JSON.stringify(EXAMPLES).replaceAll(EXAMPLES.demo.baseUrl, baseUrl)) as Examples;
}

/** A problem of this code as the service answers it: the one an example call got, or the catalogue's words. */
function problemExample(examples: Examples, baseUrl: string, code: ProblemCode): Problem {
  return (
    examples.problems[code] ?? {
      type: problemType(baseUrl, code),
      title: PROBLEMS[code].title,
      status: PROBLEMS[code].status,
      detail: PROBLEMS[code].meaning,
      code,
    }
  );
}

const problemSchema = {
  type: 'object',
  description: 'An error, as RFC 9457 problem details (application/problem+json).',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', description: "a link to the code's row in the errors catalogue" },
    title: { type: 'string', description: 'the same for every problem of the code' },
    status: { type: 'integer', minimum: 400, maximum: 599, description: 'the HTTP status' },
    detail: { type: 'string', description: 'what happened, for a person' },
    code: { type: 'string', enum: PROBLEM_CODES, description: 'stable, machine-readable error code (the errors catalogue lists them)' },
    errors: {
      type: 'array',
      description: 'with invalid_request: every bad parameter, each with what is wrong with it',
      items: { type: 'object', required: ['parameter', 'message'], properties: { parameter: { type: 'string' }, message: { type: 'string' } } },
    },
    candidates: { type: 'array', description: 'with account_not_found and supplier_not_found: the closest matches', items: { type: 'object' } },
    retryAfter: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'with rate_limited and accounting_rate_limited: seconds to wait, as the Retry-After header says',
    },
  },
};

/**
 * Output integers have honest bounds where zod's .int() gives ±(2^53 − 1): counts and sizes are
 * never negative, a page is from 1 and as long as the input allows, a comparison at most 12 periods.
 * test/openapi-examples.test.ts fails on an integer that is left with −(2^53 − 1).
 */
function boundOutputIntegers(schema: unknown, input: Record<string, { minimum?: number; maximum?: number }>): void {
  const bounds = (name: string): { minimum: number; maximum: number } => {
    switch (name) {
      case 'page':
        return { minimum: 1, maximum: input.page?.maximum ?? Number.MAX_SAFE_INTEGER };
      case 'pageSize':
        return { minimum: 1, maximum: input.limit?.maximum ?? Number.MAX_SAFE_INTEGER };
      case 'comparePeriods':
        return { minimum: 0, maximum: input.comparePeriods?.maximum ?? 12 };
      case 'size':
        return { minimum: 0, maximum: MAX_DOCUMENT_FILE_BYTES };
      default:
        // counts (count, total, transactions, toReconcile, reconciled, entriesCount) and daysPastDue
        return { minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
    }
  };
  const visit = (node: unknown, name: string): void => {
    if (!node || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    if (s.type === 'integer' && (s.minimum === undefined || s.minimum === Number.MIN_SAFE_INTEGER)) Object.assign(s, bounds(name));
    for (const [key, child] of Object.entries((s.properties as Record<string, unknown>) ?? {})) visit(child, key);
    for (const branch of [...((s.anyOf as unknown[]) ?? []), ...((s.oneOf as unknown[]) ?? [])]) visit(branch, name);
    if (s.items) visit(s.items, name);
  };
  visit(schema, '');
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  return operationJsonSchema(schema, io);
}

/** The operation's description: its title and line, what it does, and who may call it where. */
function describe(op: AnyOperation): string {
  const roles = op.kind === 'organisation' ? `default roles: ${op.defaultRoles.join(', ')}` : 'any token';
  const where = [`scope \`${op.scope}\``, roles, op.tool ? `MCP tool \`${op.tool}\`` : 'not an MCP tool', `CLI \`ledgerline call ${op.name}\``];
  return `**${op.title}.** ${op.summary}\n\n${op.description}\n\n${where.join(' · ')}`;
}

function introduction(baseUrl: string, examples: Examples): string {
  // a list rather than a table: it reads in the introduction's narrow column and on a phone
  const catalogue = [...PROBLEM_CODES]
    .sort((a, b) => PROBLEMS[a].status - PROBLEMS[b].status)
    .map((code) => `- **${PROBLEMS[code].status}** \`${code}\`: ${PROBLEMS[code].meaning}`);
  return [
    "Read an organisation's accounting data, and add its documents and saved Bills to Pay filters. Every call acts for exactly one organisation, taken " +
      'from the token.',
    '## Quickstart',
    quickstartMarkdown(baseUrl),
    '## Conventions',
    [
      '- A read is a `GET` with its parameters in the query and needs scope `service.read`; a change is a `POST` (create) or `PATCH` (update) with a ' +
        'JSON body, or a `DELETE` with query parameters, and needs `service.write`.',
      '- A token from a person who chose several organisations must name one per call with the `Service-Organisation` header (`GET /v1/organisations` ' +
        'lists them); an API client acts for its own organisation.',
      "- Amounts are numbers in major units (120.50) of the currency the answer names; dates are `yyyy-MM-dd` in the organisation's time zone; periods " +
        'such as `last_month` follow its financial year.',
      `- An app that acts for people uses the authorization code flow with PKCE at \`${baseUrl}/oauth/authorize\` (metadata at ` +
        `\`${baseUrl}/.well-known/oauth-authorization-server\`); scope \`offline_access\` adds a refresh token.`,
      `- The examples are real answers from the demo organisation ${examples.demo.organisation} (\`ledgerline demo\`, books up ` +
        `to ${examples.demo.date}), with long lists cut to their first ${examples.demo.listItems} items.`,
      `- This description as OpenAPI 3.1: [/openapi.json](${baseUrl}/openapi.json); the same reference without JavaScript: ` +
        `[/docs/reference](${baseUrl}/docs/reference).`,
    ].join('\n'),
    '## Errors',
    `Every error is \`application/problem+json\` (RFC 9457): \`type\` (a link to the code in the catalogue of ` +
      `[/docs/reference](${baseUrl}/docs/reference#errors)), \`title\`, \`status\`, \`detail\`, a stable \`code\`, and for invalid input \`errors[]\` ` +
      `naming each bad parameter. A \`429\` or \`503\` says in \`Retry-After\` when to try again. The codes, by status:`,
    catalogue.join('\n'),
  ].join('\n\n');
}

export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const examples = examplesFor(baseUrl);
  const paths: Record<string, unknown> = {};
  const tagOf = new Map(TAGS.flatMap((t) => t.operations.map((name) => [name, t.name] as const)));
  const ordered = [...OPERATIONS].sort((a, b) => order(a) - order(b));
  function order(op: AnyOperation): number {
    const names = TAGS.flatMap((t) => t.operations);
    return names.indexOf(op.name) < 0 ? names.length : names.indexOf(op.name);
  }
  for (const op of ordered) {
    const effect = effectOf(op);
    const method = HTTP_METHOD[effect];
    const shape = op.input.shape as Record<string, z.ZodType>;
    const example = examples.operations[op.name];
    // a read or a delete takes its input in the query; a create or an update as one JSON body
    const inBody = method === 'POST' || method === 'PATCH';
    const inputSchema = jsonSchema(op.input, 'input');
    const parameters: unknown[] = inBody
      ? []
      : Object.entries(shape).map(([name, field]) => {
          const schema = jsonSchema(field);
          return {
            name,
            in: 'query',
            required: !field.safeParse(undefined).success,
            description: field.description ?? (schema.description as string | undefined) ?? '',
            schema,
            ...(example && example.input[name] !== undefined ? { example: example.input[name] } : {}),
          };
        });
    if (op.kind === 'organisation') {
      parameters.push({
        name: 'Service-Organisation',
        in: 'header',
        required: false,
        description: 'The organisation id (or its exact name), required only when the token covers several organisations (see GET /v1/organisations).',
        // no example: Scalar would put it in every code sample, and an API client never sends it
        schema: { type: 'string', maxLength: 200 },
      });
    }
    if (effect === 'create') {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Any unique text (a UUID): the same request sent again with the same key within 24 hours answers the first result instead of creating again.',
        schema: { type: 'string', maxLength: 255 },
        example: '5b0f6a52-8d1e-4c9b-9a57-2f3c1d7e4a10',
      });
    }
    const output = jsonSchema(op.output);
    boundOutputIntegers(output, (inputSchema.properties ?? {}) as Record<string, { maximum?: number }>);
    const byStatus = new Map<number, ProblemCode[]>();
    for (const code of problemsOf(op)) byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
    const errors = Object.fromEntries(
      [...byStatus].map(([status, codes]) => [
        String(status),
        {
          description: codes.map((c) => `\`${c}\`: ${PROBLEMS[c].meaning}`).join('\n\n'),
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(examples, baseUrl, codes[0]!) } },
        },
      ]),
    );
    const path = restPathOf(op);
    paths[path] = {
      [method.toLowerCase()]: {
        operationId: op.name,
        summary: op.name,
        description: describe(op),
        tags: [tagOf.get(op.name) ?? 'Other'],
        ...(op.tool ? { 'x-mcp-tool': op.tool } : {}),
        ...(op.kind === 'organisation' ? { 'x-default-roles': op.defaultRoles } : {}),
        // either an OAuth flow, or an access token already in hand (the reference's try-it console takes one)
        security: [{ oauth2: [op.scope] }, { bearerAuth: [] }],
        parameters,
        ...(inBody
          ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema, ...(example ? { example: example.input } : {}) } } } }
          : {}),
        responses: {
          [effect === 'create' ? '201' : '200']: {
            description: effect === 'create' ? 'Created' : 'OK',
            content: { 'application/json': { schema: output, ...(example ? { example: example.output } : {}) } },
          },
          ...errors,
        },
      },
    };
  }
  const scopes = Object.fromEntries(
    [...SERVICE_SCOPES, 'offline_access'].map((s) => [
      s,
      s === 'service.read' ? 'read accounting data' : s === 'service.write' ? 'create or change records' : 'a refresh token',
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Ledgerline API', version: '1', description: introduction(baseUrl, examples) },
    servers: [{ url: baseUrl }],
    tags: TAGS.map((t) => ({ name: t.name, description: t.description })),
    paths,
    components: {
      schemas: { Problem: problemSchema },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            `An access token from ${baseUrl}/oauth/token (client credentials or authorization code), sent as Authorization: Bearer. Its ` +
            `scope must include the operation's.`,
        },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/authorize`,
              tokenUrl: `${baseUrl}/oauth/token`,
              refreshUrl: `${baseUrl}/oauth/token`,
              scopes,
            },
            clientCredentials: { tokenUrl: `${baseUrl}/oauth/token`, scopes },
          },
        },
      },
    },
  };
}
