/**
 * A property-based fuzz of the HTTP surface, kept in the suite as a guard: every operation's query
 * parameters over REST and every tool's arguments over raw JSON-RPC POSTs to /mcp (both derived
 * from the schemas, so new ones are covered without editing this file), and the headers the
 * service reads, with wrong types, huge and odd text, repeated and unknown parameters. Whatever is
 * sent: no 5xx, no error logged, errors in the documented shape (problem+json, JSON-RPC), and no
 * internal detail or another organisation's data in any body. Bounded: FUZZ_RUNS runs per property
 * and a time budget per dialect; the seed is fixed (FUZZ_SEED), and fast-check prints it with the
 * counterexample on a failure.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import fc from 'fast-check';
import { z } from 'zod';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { createApiClient, registerApp } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import { OPERATIONS as ALL_OPERATIONS } from '../../src/operations/index.js';
import { effectOf } from '../../src/operations/operation.js';

// the reads, over query strings and tool arguments with read-only tokens; documents-write.test.ts fuzzes the changes' bodies
const OPERATIONS = ALL_OPERATIONS.filter((op) => effectOf(op) === 'read');
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { TODAY } from '../helpers/books.js';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  HUGE_BODY_BYTES,
  leaksIn,
  oddAccept,
  oddAcceptEncoding,
  oddHeaderValue,
  oddRequestId,
  restQuery,
  toolArguments,
  type ObjectSchema,
  type Sent,
} from '../helpers/fuzz.js';
import { buildMcpBooks, PNG } from '../helpers/mcp-books.js';
import { connect, discover, oidc } from '../helpers/oauth.js';
import { capturingLogger, startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
/** Wall-clock budget of all the properties of one dialect (setup apart), on a shared 2-core machine. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 30_000);

const TOOL_OPERATIONS = OPERATIONS.filter((op) => op.kind === 'organisation' && op.tool !== null);
const PROPERTIES = OPERATIONS.length + TOOL_OPERATIONS.length + 2;

function runParameters(): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, includeErrorInReport: true, plugins: [fc.interruptAfterTimeLimit(Math.floor(BUDGET_MS / PROPERTIES))] };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

describe('the fuzz checks', () => {
  it('leaksIn finds internal detail and foreign markers, and forgives what the caller sent', () => {
    const foreign = ['Quillfeather Foreign Holdings'];
    assert.deepEqual(leaksIn('{"detail":"no account named Office"}', [], foreign), []);
    for (const body of [
      '{"detail":"boom\\n    at run (x.js:1:1)"}',
      '{"detail":"cannot open /app/src/store/db.ts"}',
      '{"detail":"cannot find module node_modules/pg"}',
      '{"detail":"SQLITE_ERROR: near \\"x\\": syntax error"}',
      '{"detail":"select id from documents where id = $1"}',
      '{"detail":"must be at most undefined characters"}',
      '{"total":"NaN"}',
      '{"detail":"[object Object]"}',
      '{"supplier":"Quillfeather Foreign Holdings"}',
    ])
      assert.equal(leaksIn(body, [], foreign).length, 1, body);
    assert.deepEqual(leaksIn('{"detail":"no account named NaN"}', ['NaN'], foreign), [], 'an echo of what was sent is no leak');
    assert.deepEqual(leaksIn('{"notFound":["a\\"select x from y"]}', ['a"select x from y'], foreign), [], 'nor is it when JSON-escaped');
    assert.equal(leaksIn('{"detail":"NaN and undefined"}', ['NaN'], foreign).length, 1, 'what was not sent still counts');
  });
});

for (const dialect of DIALECTS) {
  describe(`HTTP fuzz [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    /** every id the caller may name: its own, plus another organisation's (which must find nothing) */
    let known: string[];
    /** never sent, so never in an answer: the other organisation's name and what is in its books */
    let foreign: string[];
    let orgIds: string[];
    let otherId: string;
    let restTokens: string[];
    let mcpTokens: string[];
    /** each MCP token's tools, as tools/list gives them */
    const toolSchemas = new Map<string, Map<string, ObjectSchema>>();
    const errorsLogged: Record<string, unknown>[] = [];

    before(async () => {
      store = await openTestStore(dialect);
      const books = await buildMcpBooks(store);
      const second = await provisionOrganisation(store.db, { name: 'Second Org', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
      const other = await provisionOrganisation(store.db, { name: 'Quillfeather Foreign Holdings', homeCurrency: 'USD', timeZone: 'UTC', fyStartMonth: 1 });
      const writer = new LedgerWriter(store.db, store.dialect, other.id, 'USD');
      const secret = await writer.createAccount({ name: 'Zanzibar Secret Account', number: '6999', type: 'Expense', parentId: null, active: true });
      await store.db
        .insertInto('documents')
        .values({
          id: 'doc_foreign',
          organisation_id: other.id,
          number: 'FX-1',
          type: 'bill',
          supplier: 'Foreign Secret Supplier',
          date: '2026-11-01',
          due_date: '2026-12-01',
          currency: 'USD',
          subtotal: 4_242,
          tax: 0,
          total: 4_242,
          accounting_transaction_id: null,
          published_at: null,
          created_at: '2026-11-01T00:00:00.000Z',
        })
        .execute();
      await store.db
        .insertInto('document_files')
        .values({
          document_id: 'doc_foreign',
          organisation_id: other.id,
          file_name: 'foreign-secret.png',
          content_type: 'image/png',
          size: PNG.length,
          data: PNG,
        })
        .execute();
      const alice = await createUser(store.db, { email: 'alice@example.test', name: 'Alice', passwordHash: await hash(PASSWORD) });
      for (const org of [books.org.id, second.id]) await setMembership(store.db, org, alice.id, 'admin');

      orgIds = [books.org.id, second.id];
      otherId = other.id;
      known = [
        books.org.id,
        second.id,
        other.id,
        'Office',
        'Office:Software',
        'office',
        'Rent',
        'Old Expenses',
        'Business Current',
        'bac_mcp',
        'Overdue',
        'bfl_overdue',
        'doc_acme',
        'doc_pdf',
        'doc_acme,doc_pdf',
        'doc_foreign',
        'doc_acme,doc_foreign',
        'btx_1',
        'Acme Software',
        secret.id,
        TODAY,
      ];
      foreign = [other.name, 'Zanzibar Secret Account', 'Foreign Secret Supplier', 'foreign-secret.png', 'FX-1'];

      server = await startServer(store, {
        today: TODAY,
        // the fuzz is one caller sending hundreds of requests a minute; the limits have their own tests
        rateLimits: defaultRateLimits({ perToken: 1_000_000, perOrganisation: 1_000_000 }),
        // errors with what went wrong (the access line of a 5xx, written after the answer, repeats only its status)
        logger: capturingLogger((entry) => {
          if (entry.level === 'error' && 'message' in entry) errorsLogged.push(entry);
        }),
      });
      base = server.baseUrl;

      // a client of one organisation and a user of two, for each resource
      const client = await createApiClient(store.db, { organisationId: books.org.id, name: 'fuzz' });
      const clientToken = async (resource: string) =>
        (await oidc.clientCredentialsGrant(await discover(base, client.clientId, client.clientSecret), { scope: 'service.read', resource })).access_token;
      const app = await registerApp(store.db, { name: 'Fuzz', redirectUris: [REDIRECT] });
      const config = await discover(base, app.clientId);
      const userToken = async (resource: string) =>
        (await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: orgIds, resource })).tokens.access_token;
      restTokens = [await clientToken(`${base}/v1`), await userToken(`${base}/v1`)];
      mcpTokens = [await clientToken(`${base}/mcp`), await userToken(`${base}/mcp`)];
      for (const token of mcpTokens) {
        const listed = await postMcp(token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
        assert.equal(listed.status, 200, listed.text);
        const tools = JSON.parse(listed.text).result.tools as { name: string; inputSchema: ObjectSchema }[];
        toolSchemas.set(token, new Map(tools.map((t) => [t.name, t.inputSchema])));
      }
      errorsLogged.length = 0;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    // what a test left logged (a failing test stops at its first assertion) is not the next test's
    beforeEach(() => {
      errorsLogged.length = 0;
    });

    async function send(path: string, init: RequestInit): Promise<Answer> {
      const response = await fetch(`${base}${path}`, init);
      return { status: response.status, headers: response.headers, text: await response.text() };
    }

    function postMcp(token: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
      return send('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, ...headers },
        body,
      });
    }

    const describeRequest = (what: string, a: Answer) => `${what}\n→ ${a.status} ${a.text.slice(0, 600)}`;

    /** What holds for every answer, on either transport. */
    function checkCommon(what: string, a: Answer, sent: readonly string[]): void {
      // taken first, so what this request logged is never blamed on the next one
      const logged = errorsLogged.splice(0);
      assert.ok(a.status < 500, describeRequest(what, a));
      assert.deepEqual(logged, [], `the server logged an error for ${describeRequest(what, a)}`);
      assert.deepEqual(leaksIn(a.text, sent, foreign), [], describeRequest(what, a));
      assert.match(a.headers.get('x-request-id') ?? '', /^[\w.:-]{1,100}$/, 'the request id echoed is always a plain one');
    }

    function checkProblem(what: string, a: Answer): void {
      assert.match(a.headers.get('content-type') ?? '', /^application\/problem\+json/, describeRequest(what, a));
      const problem = JSON.parse(a.text);
      assert.equal(problem.status, a.status, describeRequest(what, a));
      for (const field of ['type', 'title', 'detail', 'code']) assert.equal(typeof problem[field], 'string', `${field}: ${describeRequest(what, a)}`);
    }

    function checkRest(what: string, a: Answer, sent: readonly string[]): void {
      checkCommon(what, a, sent);
      if (a.status >= 400) checkProblem(what, a);
      else if (a.status === 200) assert.doesNotThrow(() => JSON.parse(a.text), describeRequest(what, a));
    }

    /** A JSON-RPC answer to a request with this id; tool errors carry a problem that is not a 5xx. */
    function checkMcp(what: string, a: Answer, sent: readonly string[], id: unknown): void {
      let message: any;
      try {
        message = JSON.parse(a.text);
      } catch {
        assert.fail(`not JSON: ${describeRequest(what, a)}`);
      }
      checkCommon(what, a, sent);
      // refused before JSON-RPC is reached (token, body size): a problem, as on REST
      if (!('jsonrpc' in message)) return checkProblem(what, a);
      assert.equal(message.jsonrpc, '2.0', describeRequest(what, a));
      assert.ok(message.id === id || message.id === null, describeRequest(what, a));
      assert.notEqual('result' in message, 'error' in message, `exactly one of result and error: ${describeRequest(what, a)}`);
      if (message.error) {
        assert.ok(Number.isInteger(message.error.code) && typeof message.error.message === 'string', describeRequest(what, a));
        assert.notEqual(message.error.code, -32603, `an internal error: ${describeRequest(what, a)}`);
        return;
      }
      if (!message.result.isError) return;
      const problem = JSON.parse(message.result.content[0].text);
      assert.ok(problem.status < 500 && typeof problem.code === 'string' && typeof problem.detail === 'string', describeRequest(what, a));
    }

    const headerSet = (token: string, extra: Record<string, string>) => ({ authorization: `Bearer ${token}`, ...extra });
    /** Service-Organisation: one of the user's, the other organisation's, or odd; sometimes absent */
    const organisationHeader = () => fc.option(fc.oneof(fc.constantFrom(...orgIds, otherId), oddHeaderValue(known)), { freq: 3, nil: undefined });

    for (const op of OPERATIONS) {
      it(`REST ${op.name}: odd parameters`, async () => {
        const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as ObjectSchema;
        const path = op.kind === 'caller' ? '/v1/organisations' : `/v1/operations/${op.name}`;
        await fc.assert(
          // the user's token covers two organisations, so it mostly names one (without, the answer is organisation_required)
          fc.asyncProperty(restQuery(schema, known), fc.nat(restTokens.length - 1), fc.nat(7), async (query: Sent, t, dice) => {
            const named = t === 0 ? dice === 0 : dice !== 0;
            const headers = headerSet(restTokens[t]!, named ? { 'service-organisation': orgIds[0]! } : {});
            const a = await send(`${path}?${query.wire}`, { headers });
            checkRest(`GET ${path}?${query.wire.slice(0, 300)} (token ${t})`, a, query.texts);
          }),
          runParameters(),
        );
      });
    }

    it('REST: odd headers (Service-Organisation, Accept, Accept-Encoding, X-Request-Id) and operation names', async () => {
      const path = fc.oneof(
        fc.constantFrom(...OPERATIONS.map((op) => (op.kind === 'caller' ? '/v1/organisations' : `/v1/operations/${op.name}`))),
        fc.constantFrom(
          '/v1/operations/',
          '/v1/operations/%00',
          '/v1/operations/..%2F..%2Fpackage.json',
          '/v1/operations/%E2%80%AE',
          '/v1/operations/%ED%A0%80',
          '/v1/operations/__proto__',
          '/v1/operations/accounts.list/',
          '/v1/operations/ACCOUNTS.LIST',
          '/v1//operations/accounts.list',
          '/v1/operations/accounts.list;x=1',
        ),
      );
      const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 2, nil: undefined });
      await fc.assert(
        fc.asyncProperty(
          path,
          fc.nat(restTokens.length - 1),
          organisationHeader(),
          optional(oddAccept),
          optional(oddAcceptEncoding),
          optional(oddRequestId),
          async (p, t, org, accept, encoding, requestId) => {
            const extra: Record<string, string> = {};
            if (org !== undefined) extra['service-organisation'] = org;
            if (accept !== undefined) extra.accept = accept;
            if (encoding !== undefined) extra['accept-encoding'] = encoding;
            if (requestId !== undefined) extra['x-request-id'] = requestId;
            const query = p.includes('documents') ? '?ids=doc_acme&id=doc_acme' : '';
            const a = await send(`${p}${query}`, { headers: headerSet(restTokens[t]!, extra) });
            checkRest(`GET ${p} ${JSON.stringify(extra).slice(0, 400)}`, a, [p, org ?? '']);
          },
        ),
        runParameters(),
      );
    });

    it('MCP: tools/list names a tool for every operation that has one', () => {
      for (const tools of toolSchemas.values()) assert.deepEqual([...tools.keys()].sort(), TOOL_OPERATIONS.map((op) => op.tool!).sort());
    });

    for (const op of TOOL_OPERATIONS) {
      it(`MCP ${op.tool}: odd arguments`, async () => {
        const perToken = mcpTokens.map((token) => ({ token, schema: toolSchemas.get(token)!.get(op.tool!)! }));
        const call = fc.nat(perToken.length - 1).chain((t) => toolArguments(perToken[t]!.schema, known).map((args) => ({ t, args })));
        await fc.assert(
          fc.asyncProperty(call, fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), async ({ t, args }, id) => {
            const body =
              `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(op.tool)},"arguments"` + `:${args.wire}}}`;
            const a = await postMcp(perToken[t]!.token, body);
            checkMcp(`tools/call ${op.tool} ${args.wire.slice(0, 400)} (token ${t})`, a, args.texts, id);
          }),
          runParameters(),
        );
      });
    }

    it('MCP: odd envelopes and headers (tool names, params, ids, Accept, Mcp-Protocol-Version, X-Request-Id)', async () => {
      const envelope = fc.oneof(
        fc
          .constantFrom('accounts_list', 'no_such_tool', '', 'accounts.list', '__proto__', 'ACCOUNTS_LIST', 'accounts_list\u0000')
          .map((name) => JSON.stringify({ name, arguments: {} })),
        fc.constantFrom(
          'null',
          '[]',
          '{}',
          '"x"',
          '{"name":1}',
          '{"name":null}',
          '{"name":["accounts_list"]}',
          '{"name":"accounts_list","arguments":{"__proto__":{"x":1}}}',
          '{"name":"accounts_list","_meta":"x"}',
        ),
      );
      const method = fc.constantFrom('tools/call', 'tools/list', 'resources/list', 'prompts/get', 'initialize', 'ping', '', 'rpc.discover', '__proto__');
      const id = fc.oneof(fc.integer(), fc.constantFrom('1', 'x'.repeat(1000), null, true, [1], { a: 1 }, 1.5, -0, 1e308));
      const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 2, nil: undefined });
      const version = fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '1999-01-01', 'latest', '', 'x'.repeat(300));
      await fc.assert(
        fc.asyncProperty(
          method,
          envelope,
          id,
          fc.nat(mcpTokens.length - 1),
          optional(oddAccept),
          optional(version),
          optional(oddRequestId),
          async (m, params, i, t, accept, v, requestId) => {
            const body = `{"jsonrpc":"2.0","id":${JSON.stringify(i)},"method":${JSON.stringify(m)},"params":${params}}`;
            const extra: Record<string, string> = {};
            if (accept !== undefined) extra.accept = accept;
            if (v !== undefined) extra['mcp-protocol-version'] = v;
            if (requestId !== undefined) extra['x-request-id'] = requestId;
            const a = await postMcp(mcpTokens[t]!, body, extra);
            // an answer carries the request's id, or null where the id could not be used
            checkMcp(`${body.slice(0, 300)} ${JSON.stringify(extra).slice(0, 300)}`, a, [m, params], i);
          },
        ),
        runParameters(),
      );
    });

    // what the fuzz found once (issue 13), each kept exactly as a regression test
    it('a query key named like an Object.prototype member is an unknown parameter', async () => {
      for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
        const a = await send(`/v1/operations/accounts.list?${key}=1`, { headers: headerSet(restTokens[0]!, {}) });
        assert.equal(a.status, 400, describeRequest(key, a));
        checkRest(key, a, [key]);
        assert.deepEqual(JSON.parse(a.text).errors, [{ parameter: key, message: 'unknown parameter' }]);
      }
    });

    it('tools/call with params the protocol does not allow: -32602 invalid params', async () => {
      for (const params of ['{"name":"accounts_list","arguments":null}', '{"name":"accounts_list","arguments":[]}', '{}', '{"name":1}']) {
        const a = await postMcp(mcpTokens[0]!, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":${params}}`);
        assert.equal(JSON.parse(a.text).error?.code, -32602, describeRequest(params, a));
      }
    });

    it('a path that is not valid UTF-8 is answered with a problem', async () => {
      const a = await send('/v1/operations/%ED%A0%80', { headers: headerSet(restTokens[0]!, {}) });
      assert.equal(a.status, 400);
      checkRest('GET /v1/operations/%ED%A0%80', a, []);
    });

    it('a custom period at the end of year 9999 is answered, or refused with a 400', async () => {
      for (const query of ['from=9999-12-31&to=9999-12-31', 'from=9999-11-01&to=9999-12-31']) {
        const a = await send(`/v1/operations/reports.profit_and_loss?${query}`, { headers: headerSet(restTokens[0]!, {}) });
        assert.ok(a.status < 500, describeRequest(query, a));
        checkRest(query, a, []);
      }
    });

    it('a NUL in text parameters is answered, or refused with a 400', async () => {
      for (const query of [
        'banking.transactions?search=%00',
        'documents.get?ids=%00',
        'documents.file?id=a%00b',
        'accounts.list?search=%00',
        'bills.list_to_pay?filter=%00',
      ]) {
        const a = await send(`/v1/operations/${query}`, { headers: headerSet(restTokens[0]!, {}) });
        assert.ok(a.status < 500, describeRequest(query, a));
        checkRest(query, a, ['\u0000']);
      }
    });

    it('over the size limits: refused with a 4xx, never a 5xx', async () => {
      const longQuery = await send(`/v1/operations/accounts.list?search=${'a'.repeat(20_000)}`, { headers: headerSet(restTokens[0]!, {}) });
      assert.ok(longQuery.status >= 400 && longQuery.status < 500, describeRequest('a 20 KB query', longQuery));
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'accounts_list', arguments: { search: 'a'.repeat(HUGE_BODY_BYTES * 2) } },
      });
      const a = await postMcp(mcpTokens[0]!, big);
      assert.equal(a.status, 413, describeRequest('a 112 KB tools/call', a));
      checkMcp('a 112 KB tools/call', a, [], 1);
    });
  });
}
