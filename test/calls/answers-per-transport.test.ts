/**
 * What an answer is on each transport (issue 39, item 2): an operation answers typed links
 * (operations/links.ts) that REST writes as its URLs and MCP as resources this connection can read,
 * a create's kept answer (Idempotency-Key) included; and every answer is checked against the
 * operation's declared output in the shared call sequence (calls/output-check.ts), so an answer that
 * does not match is our bug on REST as on MCP: logged, answered internal_error, nothing of it said.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { registerAccountingSystem } from '../../src/accounting/index.js';
import { createApiClient } from '../../src/auth/clients.js';
import { checkedAnswer } from '../../src/calls/output-check.js';
import { answerGzip, answerJson, keepAnswerJson, restLinks } from '../../src/http/answer-body.js';
import { documentFileLink, documentLink, Link, renderLinks, reviveLinks, stringifyWithLinks } from '../../src/operations/links.js';
import { defineOperation } from '../../src/operations/operation.js';
import { operationJsonSchema } from '../../src/operations/json-schema.js';
import { documentsGet } from '../../src/operations/documents-get.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { paperBill } from '../helpers/documents.js';
import { buildMcpBooks } from '../helpers/mcp-books.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { capturingLogger, startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';
import { TODAY } from '../helpers/books.js';

const BASE = 'https://ledgerline.test';

describe('links: said by the operation, written by the transport', () => {
  it('REST writes a URL of the operation that answers what the link points at; text outside a transport says what it points at', () => {
    const rest = restLinks(BASE);
    assert.equal(rest(documentLink('xero:a/b c')), `${BASE}/v1/operations/documents.get?ids=xero%3Aa%2Fb%20c`);
    assert.equal(rest(documentFileLink('doc_1')), `${BASE}/v1/operations/documents.file?id=doc_1`);
    const answer = { documents: [{ id: 'doc_1', link: documentFileLink('doc_1'), accountingLink: 'https://go.xero.com/x' }], notFound: [] };
    assert.equal(
      stringifyWithLinks(answer, rest),
      JSON.stringify({
        documents: [{ id: 'doc_1', link: `${BASE}/v1/operations/documents.file?id=doc_1`, accountingLink: 'https://go.xero.com/x' }],
        notFound: [],
      }),
    );
    // stored (the idempotency keys) and read back, a link is a link again
    const stored = JSON.parse(JSON.stringify(answer));
    assert.deepEqual(stored.documents[0].link, { $link: 'document_file', id: 'doc_1' });
    const revived = reviveLinks(stored);
    assert.ok(revived.documents[0].link instanceof Link);
    assert.deepEqual(revived, answer);
    // rendering copies only what holds a link
    const rendered = renderLinks(answer, rest);
    assert.notEqual(rendered.documents[0], answer.documents[0]);
    assert.equal(rendered.notFound, answer.notFound);
    assert.ok(answer.documents[0]!.link instanceof Link, 'the answer itself (a kept one) is not changed');
  });

  it('is published as text, as the answer is sent, and checked as a link', () => {
    const link = operationJsonSchema(documentsGet.output, 'output') as any;
    assert.deepEqual(link.properties.documents.items.properties.link, {
      type: ['string', 'null'],
      description: 'where to fetch the original file (documents.file); null when there is none',
    });
  });

  it("a kept answer's REST text and gzip are made once", async () => {
    let rendered = 0;
    const counting = (l: Link) => ((rendered += 1), restLinks(BASE)(l));
    const kept = { documents: Array.from({ length: 200 }, (_, i) => ({ id: `doc_${i}`, link: documentFileLink(`doc_${i}`) })) };
    const json = keepAnswerJson(kept, counting);
    assert.equal(rendered, 200);
    assert.equal(answerJson(kept, counting), json);
    assert.equal(keepAnswerJson(kept, counting), json);
    assert.equal(rendered, 200, 'found again, not made again');
    assert.equal(answerGzip(kept, json), answerGzip(kept, json), 'compressed once');
    const thrownAway = { ...kept };
    answerJson(thrownAway, counting);
    assert.equal(rendered, 400, 'an answer not kept is written each time');
  });
});

describe('answers checked against the declared output, once', () => {
  const op = defineOperation({
    kind: 'organisation',
    name: 'test.answer',
    tool: 'test_answer',
    title: 'Test',
    summary: 'Test',
    description: 'Test',
    input: z.object({}).strict(),
    output: z.object({ total: z.number(), currency: z.string() }),
    scope: 'service.read',
    defaultRoles: ['admin'],
    reuse: 'never',
    async run() {
      return { total: 1, currency: 'GBP' };
    },
  });

  it('an answer that does not match is a plain error (not a problem of the caller) naming the operation and each field', () => {
    const good = { total: 1, currency: 'GBP' };
    assert.equal(checkedAnswer(op, good), good);
    assert.throws(
      () => checkedAnswer(op, { total: '1', currency: 'GBP' }),
      (error: Error) => {
        assert.ok(!('status' in error), 'not an OperationError: the caller did nothing wrong');
        assert.match(error.message, /test\.answer \(test_answer\)/);
        assert.match(error.message, /total/);
        return true;
      },
    );
    assert.throws(() => checkedAnswer(op, { total: 1 }), /currency/);
  });

  it('checked against the published schema: a field it does not name is refused, as a client validating it would', () => {
    assert.throws(() => checkedAnswer(op, { total: 1, currency: 'GBP', secret: 'x' }), /test\.answer.*"secret" the schema does not name/);
  });

  it('a number must be one JSON can carry: NaN and Infinity are refused (JSON.stringify would send null)', () => {
    for (const total of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      assert.throws(() => checkedAnswer(op, { total, currency: 'GBP' }), /total/, String(total));
    assert.deepEqual(checkedAnswer(op, { total: -0.5, currency: 'GBP' }), { total: -0.5, currency: 'GBP' });
  });

  it('a nullable object, list or enum takes null or a value of its own kind, nothing else', () => {
    const nullable = defineOperation({
      ...op,
      name: 'test.nullable',
      output: z.object({ o: z.object({ a: z.number() }).nullable(), l: z.array(z.string()).nullable(), e: z.enum(['x', 'y']).nullable() }),
      async run() {
        return { o: null, l: null, e: null };
      },
    });
    assert.ok(checkedAnswer(nullable, { o: null, l: null, e: null }));
    assert.ok(checkedAnswer(nullable, { o: { a: 1 }, l: ['a'], e: 'x' }));
    assert.throws(() => checkedAnswer(nullable, { o: { a: '1' }, l: null, e: null }), /o\.a/);
    assert.throws(() => checkedAnswer(nullable, { o: null, l: [1], e: null }), /l\.0/);
    assert.throws(() => checkedAnswer(nullable, { o: null, l: null, e: 'z' }), /e: must be equal to one of the allowed values/);
    assert.throws(() => checkedAnswer(nullable, { o: null, l: null }), /must have required property 'e'/);
  });

  it("a link passes as the Link the operation answers or as a transport's text; anything else is refused", () => {
    const answer = (link: unknown) => ({ documents: [{ ...documentShape, link }], notFound: [] });
    assert.ok(checkedAnswer(documentsGet, answer(documentFileLink('doc_1'))));
    assert.ok(checkedAnswer(documentsGet, answer('https://ledgerline.test/v1/operations/documents.file?id=doc_1')));
    assert.ok(checkedAnswer(documentsGet, answer(null)));
    assert.throws(() => checkedAnswer(documentsGet, answer({ rel: 'document_file', id: 'doc_1' })), /documents\.0\.link/);
  });
});

const documentShape = {
  id: 'doc_1',
  number: 'B-1',
  type: 'bill',
  supplier: 'Acme',
  date: '2026-01-05',
  dueDate: null,
  currency: 'GBP',
  accountingId: null,
  publishedAt: null,
  accountingLink: null,
  subtotal: 10,
  tax: 2,
  total: 12,
  codedLines: [],
  invoiceLines: [],
};

// a connected system whose chart holds an account with no name: accounts.list's answer cannot match its schema
registerAccountingSystem('test-malformed', (db, org) =>
  Object.assign(Object.create(new BuiltinAccounting(db, org.id)), {
    async chartOfAccounts() {
      return [{ id: 'acc_bad', name: null, fullName: 'Unnamed', number: null, type: 'Expense', classification: 'Expense', active: true, parentId: null }];
    },
  }),
);

describeEachDialect('answers per transport, over a real server', (store: () => Store) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let orgId: string;
  let token: string;
  let mcp: Connected;
  let malformed: { id: string; token: string; mcp: Connected };
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    const books = await buildMcpBooks(store());
    orgId = books.org.id;
    server = await startServer(store(), { today: TODAY, logger: capturingLogger((entry) => logged.push(entry)) });
    token = await clientToken(store(), server.baseUrl, orgId, ['service.read', 'service.write']);
    const client = await createApiClient(store().db, { organisationId: orgId, name: 'mcp' });
    mcp = await connectWithToken(
      `${server.baseUrl}/mcp`,
      await clientCredentialsToken(server.baseUrl, client.clientId, client.clientSecret, `${server.baseUrl}/mcp`),
    );
    const bad = await provisionOrganisation(store().db, {
      name: 'Malformed Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-malformed',
    });
    const badClient = await createApiClient(store().db, { organisationId: bad.id, name: 'mcp' });
    malformed = {
      id: bad.id,
      token: await clientToken(store(), server.baseUrl, bad.id, ['service.read']),
      mcp: await connectWithToken(
        `${server.baseUrl}/mcp`,
        await clientCredentialsToken(server.baseUrl, badClient.clientId, badClient.clientSecret, `${server.baseUrl}/mcp`),
      ),
    };
  });
  after(async () => {
    await mcp?.client.close();
    await malformed?.mcp.client.close();
    await server?.close();
  });

  it('a document link: a REST URL over REST, the resource this connection reads over MCP', async () => {
    const rest = await sendJson(server.baseUrl, 'GET', '/v1/operations/documents.get?ids=doc_acme', token);
    assert.equal(rest.status, 200, rest.bytes);
    assert.equal(rest.body.documents[0].link, `${server.baseUrl}/v1/operations/documents.file?id=doc_acme`);
    const tool = (await mcp.client.callTool({ name: 'documents_get', arguments: { ids: 'doc_acme' } })) as CallToolResult;
    assert.equal(tool.isError, undefined, JSON.stringify(tool.content));
    assert.equal((tool.structuredContent as any).documents[0].link, `ledgerline://organisations/${orgId}/documents/doc_acme/file`);
    // the same call again (a kept answer) is written for each transport as it asks
    const again = await sendJson(server.baseUrl, 'GET', '/v1/operations/documents.get?ids=doc_acme', token, undefined, { 'accept-encoding': 'gzip' });
    assert.equal(again.bytes, rest.bytes);
  });

  it("a create's answer, and its retry's (the kept answer), carry the file's REST URL", async () => {
    const headers = { 'idempotency-key': `links-${Math.random()}` };
    const first = await sendJson(server.baseUrl, 'POST', '/v1/operations/documents.create', token, paperBill({ number: 'LINK-1' }), headers);
    assert.equal(first.status, 201, first.bytes);
    const again = await sendJson(server.baseUrl, 'POST', '/v1/operations/documents.create', token, paperBill({ number: 'LINK-1' }), headers);
    assert.equal(again.status, 201, again.bytes);
    const id = first.body.document.id as string;
    assert.equal(first.body.document.link, `${server.baseUrl}/v1/operations/documents.file?id=${id}`);
    assert.equal(again.bytes, first.bytes);
  });

  it('an answer that does not match its schema: logged, 500 internal_error over REST, an internal error over MCP, nothing of it said', async () => {
    const rest = await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', malformed.token);
    assert.equal(rest.status, 500, rest.bytes);
    assert.equal(rest.body.code, 'internal_error');
    assert.doesNotMatch(rest.bytes, /schema|acc_bad|name/i);
    const tool = (await malformed.mcp.client.callTool({ name: 'accounts_list', arguments: {} })) as CallToolResult;
    assert.equal(tool.isError, true);
    const text = (tool.content[0] as { text: string }).text;
    assert.equal(JSON.parse(text).code, 'internal_error');
    assert.doesNotMatch(text, /schema|acc_bad/i);
    const said = logged.filter((e) => /accounts\.list \(accounts_list\): the answer does not match its declared output schema/.test(JSON.stringify(e)));
    assert.ok(said.length >= 2, `logged on both transports: ${said.length}`);
  });
});
