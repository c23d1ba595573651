/**
 * The MCP endpoint at the protocol level, in raw JSON-RPC over HTTP and with the SDK client:
 * malformed requests are invalid params (-32602), not internal errors; a browser Origin that is
 * not allowed is refused with 403 before anything else (DNS rebinding, MCP transports); JSON-RPC
 * batches only for the protocol versions that have them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApiClient } from '../../src/auth/clients.js';
import { originPolicy, parseAllowedOrigins } from '../../src/domain/origins.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { clientCredentialsToken, connectWithToken } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('MCP allowed origins (the policy and the setting)', () => {
  it('allows no Origin, the service origin and, by default, loopback origins on any port; nothing else', () => {
    const allowed = originPolicy('https://books.example.com', parseAllowedOrigins(undefined));
    assert.equal(allowed(undefined), true, 'non-browser clients send no Origin');
    for (const origin of [
      'https://books.example.com',
      'https://BOOKS.example.com:443',
      'http://localhost:6274',
      'http://127.0.0.1:6274',
      'http://[::1]:3000',
      'https://localhost',
    ])
      assert.equal(allowed(origin), true, origin);
    for (const origin of [
      'https://evil.example',
      'http://books.example.com',
      'https://books.example.com:8443',
      'null',
      'file://',
      'not a url',
      'http://localhost.evil.example',
      'chrome-extension://abc',
    ])
      assert.equal(allowed(origin), false, origin);
  });

  it('MCP_ALLOWED_ORIGINS lists origins, and "loopback" for the loopback default; anything else is refused at start-up', () => {
    assert.deepEqual(parseAllowedOrigins('https://inspector.example.com, loopback'), ['https://inspector.example.com', 'loopback']);
    const only = originPolicy('https://books.example.com', parseAllowedOrigins('https://Inspector.example.com:443'));
    assert.equal(only('https://inspector.example.com'), true);
    assert.equal(only('https://books.example.com'), true, 'the service itself is always allowed');
    assert.equal(only('http://localhost:6274'), false, 'a list without loopback replaces the default');
    assert.deepEqual(parseAllowedOrigins(''), []);
    for (const bad of ['*', 'inspector.example.com', 'https://inspector.example.com/path', 'ftp://x.example', 'https://user@x.example'])
      assert.throws(() => parseAllowedOrigins(bad), /MCP_ALLOWED_ORIGINS/, bad);
  });
});

for (const dialect of DIALECTS) {
  describe(`MCP protocol errors, Origin and batches [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let mcp: string;
    let token: string;
    let auth: Record<string, string>;

    before(async () => {
      store = await openTestStore(dialect);
      const books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      mcp = `${server.baseUrl}/mcp`;
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Raw client' });
      token = await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp);
      auth = { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' };
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    it('a malformed request is invalid params (-32602), an unknown tool too; bad tool arguments are an isError result the model can correct', async () => {
      const call = (id: number, params: unknown) => post(mcp, { jsonrpc: '2.0', id, method: 'tools/call', ...(params === undefined ? {} : { params }) }, auth);
      const cases: [string, unknown][] = [
        ['arguments not an object', { name: 'accounts_list', arguments: 'search=rent' }],
        ['arguments an array', { name: 'accounts_list', arguments: ['rent'] }],
        ['name not text', { name: 42, arguments: {} }],
        ['no name', { arguments: {} }],
        ['no params', undefined],
        ['unknown tool', { name: 'no_such_tool', arguments: {} }],
      ];
      for (const [i, [label, params]] of cases.entries()) {
        const answer = await call(i + 10, params);
        assert.equal(answer.status, 200, label);
        assert.equal(answer.body.id, i + 10, label);
        assert.equal(answer.body.error?.code, -32602, `${label}: ${JSON.stringify(answer.body)}`);
        assert.doesNotMatch(answer.body.error.message, /internal|stack|at \w+ \(|node_modules/i, label);
      }
      const list = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 7 } }, auth);
      assert.equal(list.body.error?.code, -32602, JSON.stringify(list.body));
      const init = await post(mcp, { jsonrpc: '2.0', id: 3, method: 'initialize', params: { capabilities: {} } }, { authorization: `Bearer ${token}` });
      assert.equal(init.body.error?.code, -32602, JSON.stringify(init.body));

      // arguments that are an object but fail the tool's input schema: a tool execution error (MCP
      // 2025-11-25, tools: input validation errors are returned as tool results so the model can correct itself)
      const wrongType = await call(4, { name: 'banking_transactions', arguments: { limit: 'many' } });
      assert.equal(wrongType.body.result?.isError, true, JSON.stringify(wrongType.body));
      const problem = JSON.parse(wrongType.body.result.content[0].text);
      assert.deepEqual(
        [problem.status, problem.code, problem.errors],
        [400, 'invalid_request', [{ parameter: 'limit', message: 'must be a whole number from 1 to 500' }]],
      );

      // a valid call in the same connection still works
      const ok = await call(5, { name: 'accounts_list', arguments: { search: 'rent' } });
      assert.equal(ok.body.result?.isError, undefined, JSON.stringify(ok.body));

      // and the SDK client sees the same codes
      const { client } = await connectWithToken(mcp, token);
      try {
        await assert.rejects(
          client.request(
            { method: 'tools/call', params: { name: 'accounts_list', arguments: 'x' } } as any,
            (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema,
          ),
          (e: any) => e.code === -32602,
        );
        const bad = (await client.callTool({ name: 'banking_transactions', arguments: { limit: 'many' } })) as CallToolResult;
        assert.equal(bad.isError, true);
      } finally {
        await client.close();
      }
    });

    it(
      'a browser Origin that is not allowed gets 403 with a JSON-RPC error, before authentication; allowed origins work, with CORS for that ' + 'origin',
      async () => {
        for (const headers of [{ ...auth, origin: 'https://evil.example' }, { origin: 'https://evil.example' }, { ...auth, origin: 'null' }]) {
          const refused = await post(mcp, INITIALIZE, headers);
          assert.equal(refused.status, 403, JSON.stringify(headers));
          assert.equal(refused.body.jsonrpc, '2.0');
          assert.equal(refused.body.id, null);
          assert.equal(typeof refused.body.error.code, 'number');
          assert.match(refused.body.error.message, /Origin/);
          assert.equal(refused.headers.get('access-control-allow-origin'), null);
        }
        const preflight = await fetch(mcp, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
        assert.equal(preflight.status, 403);
        assert.equal(preflight.headers.get('access-control-allow-origin'), null);
        for (const method of ['GET', 'DELETE']) {
          const r = await fetch(mcp, { method, headers: { ...auth, origin: 'https://evil.example' } });
          assert.equal(r.status, 403, method);
        }

        for (const origin of [server.baseUrl, 'http://localhost:6274']) {
          const ok = await post(mcp, INITIALIZE, { ...auth, origin });
          assert.equal(ok.status, 200, origin);
          assert.equal(ok.body.result.serverInfo.name, 'ledgerline');
          assert.equal(ok.headers.get('access-control-allow-origin'), origin);
          assert.match(ok.headers.get('vary') ?? '', /origin/i);
          const pre = await fetch(mcp, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
          assert.equal(pre.status, 204);
          assert.equal(pre.headers.get('access-control-allow-origin'), origin);
        }
        const none = await post(mcp, INITIALIZE, auth);
        assert.equal(none.status, 200, 'no Origin: a non-browser client');
      },
    );

    it('refuses JSON-RPC batches from 2025-06-18 on (400, -32600); 2025-03-26 keeps them', async () => {
      const batch = [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ];
      for (const version of ['2025-06-18', '2025-11-25']) {
        const refused = await post(mcp, batch, { ...auth, 'mcp-protocol-version': version });
        assert.equal(refused.status, 400, version);
        assert.deepEqual([refused.body.jsonrpc, refused.body.id, refused.body.error.code], ['2.0', null, -32600], version);
        assert.match(refused.body.error.message, /batch/i);
      }
      const initBatch = await post(mcp, [{ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } }], {
        authorization: `Bearer ${token}`,
      });
      assert.equal(initBatch.status, 400, 'an initialize for 2025-06-18 sent as a batch');
      assert.equal(initBatch.body.error.code, -32600);

      const old = await post(mcp, batch, { ...auth, 'mcp-protocol-version': '2025-03-26' });
      assert.equal(old.status, 200, JSON.stringify(old.body));
      assert.deepEqual(old.body.map((m: any) => m.id).sort(), [1, 2]);
      assert.equal(old.body.find((m: any) => m.id === 1).result.tools.length, 16);
      const noHeader = await post(mcp, batch, { authorization: `Bearer ${token}` });
      assert.equal(noHeader.status, 200, 'without the header the transport assumes 2025-03-26');
    });
  });
}
