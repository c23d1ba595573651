/**
 * /openapi.json as a reader or a code generator takes it (issue 37, item 5): every operation under
 * its name, with a description and one group (tag) that is described; a request example that the
 * operation accepts and an answer example that fits the published schema; error responses that are
 * problems, with examples that fit the Problem schema; no integer without honest bounds (nothing
 * for a tool to show as −9007199254740991); the introduction with its quickstart and the errors
 * catalogue, every code with its status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PROBLEM_CODES, PROBLEMS } from '../../src/domain/problems.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { effectOf, HTTP_METHOD, parseInput, restPathOf, type AnyOperation } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

type Json = Record<string, any>;

/** Every schema in the document with where it is, nested ones included. */
function schemasIn(node: unknown, path: string, out: { path: string; schema: Json }[] = []): { path: string; schema: Json }[] {
  if (Array.isArray(node)) node.forEach((n, i) => schemasIn(n, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    const o = node as Json;
    if (typeof o.type === 'string' || Array.isArray(o.type)) out.push({ path, schema: o });
    for (const [k, v] of Object.entries(o)) if (k !== 'example' && k !== 'examples') schemasIn(v, `${path}.${k}`, out);
  }
  return out;
}

describe('/openapi.json', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let doc: Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const operationOf = (op: AnyOperation): Json => doc.paths[restPathOf(op)][HTTP_METHOD[effectOf(op)].toLowerCase()];

  before(async () => {
    store = await openTestStore('sqlite');
    server = await startServer(store);
    const r = await fetch(`${server.baseUrl}/openapi.json`);
    assert.equal(r.status, 200);
    doc = (await r.json()) as Json;
    ajv.addSchema(doc.components.schemas.Problem, '#/components/schemas/Problem');
  });
  after(async () => {
    await server?.close();
    await store?.close();
  });

  it('every operation has its name as summary, a description, and one described group', () => {
    const tags = new Map<string, string>((doc.tags as Json[]).map((t) => [t.name, t.description]));
    assert.ok(tags.size >= 3, 'the operations are grouped');
    for (const [name, description] of tags) assert.ok(description && description.length > 40, `group ${name} is described`);
    const used = new Set<string>();
    for (const op of OPERATIONS) {
      const o = operationOf(op);
      assert.equal(o.summary, op.name, `${op.name}: the summary is its name`);
      assert.equal(o.operationId, op.name);
      assert.ok(o.description.includes(op.summary) && o.description.includes(op.description), `${op.name}: described`);
      assert.equal(o.tags?.length, 1, `${op.name}: one group`);
      assert.ok(tags.has(o.tags[0]), `${op.name}: its group ${o.tags[0]} is declared`);
      used.add(o.tags[0]);
    }
    assert.deepEqual(
      [...tags.keys()].filter((t) => !used.has(t)),
      [],
      'no empty group',
    );
    const changes = OPERATIONS.filter((op) => effectOf(op) !== 'read').map((op) => operationOf(op).tags[0]);
    assert.ok(
      changes.every((t) => t === 'Changes'),
      'the calls that write are together',
    );
  });

  it('every operation has a request example it accepts and an answer example that fits its schema', () => {
    for (const op of OPERATIONS) {
      const o = operationOf(op);
      const status = effectOf(op) === 'create' ? '201' : '200';
      const answer = o.responses[status].content['application/json'];
      assert.ok(answer.example !== undefined, `${op.name}: an example answer`);
      const check = ajv.compile(answer.schema);
      assert.ok(check(answer.example), `${op.name}: the example answer fits: ${ajv.errorsText(check.errors)}`);
      if (o.requestBody) {
        const body = o.requestBody.content['application/json'];
        assert.ok(body.example !== undefined, `${op.name}: an example body`);
        const checkBody = ajv.compile(body.schema);
        assert.ok(checkBody(body.example), `${op.name}: the example body fits: ${ajv.errorsText(checkBody.errors)}`);
        assert.doesNotThrow(() => parseInput(op.input, body.example), `${op.name}: the operation takes the example body`);
      } else {
        const query = Object.fromEntries((o.parameters as Json[]).filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, p.example]));
        assert.doesNotThrow(() => parseInput(op.input, query), `${op.name}: the operation takes the example parameters`);
        for (const p of o.parameters as Json[]) if (p.required) assert.ok(p.example !== undefined, `${op.name}: required ${p.name} has an example`);
      }
      // links in the examples point at this server
      const text = JSON.stringify(answer.example);
      for (const [url] of text.matchAll(/https?:\/\/[^/"]+/g)) assert.equal(url, server.baseUrl, `${op.name}: ${url}`);
    }
  });

  it('no integer without bounds, and none down to −(2^53 − 1)', () => {
    const integers = schemasIn(doc, '$').filter(({ schema }) => schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer')));
    assert.ok(integers.length > 40, `the integers were found (${integers.length})`);
    const unbounded = integers.filter(({ schema }) => typeof schema.minimum !== 'number' || typeof schema.maximum !== 'number').map((i) => i.path);
    assert.deepEqual(unbounded, [], 'every integer has a minimum and a maximum');
    const negative = integers.filter(({ schema }) => schema.minimum < 0).map((i) => `${i.path}: ${i.schema.minimum}`);
    assert.deepEqual(negative, [], 'nothing the service counts, pages or compares can be negative');
    // the one that showed as -9007199254740991
    const pl = operationOf(OPERATIONS.find((op) => op.name === 'reports.profit_and_loss')!);
    assert.deepEqual(
      [
        pl.responses['200'].content['application/json'].schema.properties.comparePeriods.minimum,
        pl.responses['200'].content['application/json'].schema.properties.comparePeriods.maximum,
      ],
      [0, 12],
    );
  });

  it('every error response is a problem with its codes named and an example of one', () => {
    for (const op of OPERATIONS) {
      const o = operationOf(op);
      const errors = Object.entries<Json>(o.responses).filter(([status]) => Number(status) >= 400);
      assert.ok(errors.length >= 5, `${op.name}: its errors`);
      for (const status of ['400', '401', '403', '429', '500']) assert.ok(o.responses[status], `${op.name}: ${status}`);
      for (const [status, response] of errors) {
        const problem = response.content['application/problem+json'];
        assert.deepEqual(problem.schema, { $ref: '#/components/schemas/Problem' }, `${op.name} ${status}`);
        const check = ajv.getSchema('#/components/schemas/Problem')!;
        assert.ok(check(problem.example), `${op.name} ${status}: ${ajv.errorsText(check.errors)}`);
        assert.equal(problem.example.status, Number(status));
        assert.equal(problem.example.type, `${server.baseUrl}/docs/reference#error-${problem.example.code}`);
        const named = [...response.description.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
        assert.ok(
          named.length > 0 && named.every((code: string) => PROBLEMS[code as keyof typeof PROBLEMS]?.status === Number(status)),
          `${op.name} ${status}: ${named}`,
        );
      }
    }
    const writes = OPERATIONS.filter((op) => effectOf(op) === 'create').map((op) => operationOf(op));
    assert.ok(
      writes.every((o) => o.responses['422'] && o.responses['409']),
      'a create names its Idempotency-Key problems',
    );
  });

  it('the introduction starts with the quickstart and ends with the errors catalogue, every code with its status', () => {
    const text: string = doc.info.description;
    const at = (s: string) => text.indexOf(s);
    assert.ok(at('## Quickstart') > 0 && at('## Quickstart') < at('## Errors'), 'quickstart first');
    assert.match(text, /ledgerline clients create --org "[^"]+"/, 'an API client from the command line');
    assert.match(text, /\/orgs\/<organisation id>\/api-clients/, 'or from the page');
    assert.ok(text.includes(`curl -s -X POST ${server.baseUrl}/oauth/token`) && text.includes('-d grant_type=client_credentials'), 'a token with curl');
    assert.ok(text.includes(`curl -s "${server.baseUrl}/v1/operations/`), 'a first call with curl');
    for (const code of PROBLEM_CODES)
      assert.ok(
        text.includes(`- **${PROBLEMS[code].status}** \`${code}\`: ${PROBLEMS[code].meaning}\n`) || text.endsWith(`\`${code}\`: ${PROBLEMS[code].meaning}`),
        `${code} in the catalogue`,
      );
    assert.deepEqual(doc.components.schemas.Problem.properties.code.enum, PROBLEM_CODES, 'the Problem schema lists every code');
  });
});
