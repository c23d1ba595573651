/**
 * The 2026-07-28 MCP revision beside the 2025 ones: server/discover, stateless requests carrying
 * their version in _meta, and the Mcp-Method/Mcp-Name headers checked against the body. Raw
 * JSON-RPC over HTTP, and the official v2 client (@modelcontextprotocol/client) negotiating it;
 * the 1.x client keeps working through the 2025 handshake (test/mcp/mcp.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { clientCredentialsToken } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

for (const dialect of DIALECTS) {
  describe(`MCP ${MODERN} beside the 2025 revisions [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let mcp: string;
    let token: string;

    before(async () => {
      store = await openTestStore(dialect);
      const books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      mcp = `${server.baseUrl}/mcp`;
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Modern client' });
      token = await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp);
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    const headers = (method: string, name?: string) => ({
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });

    it('server/discover names the modern revision, the server and its instructions; stateless calls carry the version in _meta', async () => {
      const discover = await post(mcp, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }, headers('server/discover'));
      assert.equal(discover.status, 200, JSON.stringify(discover.body));
      const result = discover.body.result;
      // the modern revisions only: 2025 ones are negotiated by initialize (test/mcp/mcp.test.ts, below)
      assert.deepEqual(result.supportedVersions, [MODERN]);
      assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'ledgerline');
      assert.ok(result.capabilities.tools, JSON.stringify(result.capabilities));
      assert.match(result.instructions, /accounts_list/);

      const list = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } }, headers('tools/list'));
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(list.body.result.tools.length, 16);

      const call = await post(
        mcp,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: META, name: 'accounts_list', arguments: { search: 'rent' } } },
        headers('tools/call', 'accounts_list'),
      );
      assert.equal(call.status, 200, JSON.stringify(call.body));
      assert.equal(call.body.result.isError, undefined, JSON.stringify(call.body));
      assert.ok(Array.isArray(call.body.result.structuredContent.accounts), JSON.stringify(call.body.result.structuredContent));
    });

    it(
      'Mcp-Method and Mcp-Name must agree with the body; a modern request without its _meta version is invalid params; no token is still the 401 ' +
        'challenge',
      async () => {
        const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { _meta: META, name: 'accounts_list', arguments: {} } };
        const wrongMethod = await post(mcp, body, headers('tools/list', 'accounts_list'));
        assert.ok(wrongMethod.body.error, JSON.stringify(wrongMethod.body));
        const wrongName = await post(mcp, body, headers('tools/call', 'banking_accounts'));
        assert.ok(wrongName.body.error, JSON.stringify(wrongName.body));
        const missingName = await post(mcp, body, headers('tools/call'));
        assert.ok(missingName.body.error, JSON.stringify(missingName.body));

        const noMeta = await post(mcp, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, headers('tools/list'));
        assert.equal(noMeta.body.error?.code, -32602, JSON.stringify(noMeta.body));

        // a browser client (an allowed origin) may send the revision's headers
        const preflight = await fetch(mcp, {
          method: 'OPTIONS',
          headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-method, mcp-name' },
        });
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Mcp-Method, Mcp-Name/);

        const anonymous = await post(
          mcp,
          { jsonrpc: '2.0', id: 6, method: 'server/discover', params: { _meta: META } },
          { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
        );
        assert.equal(anonymous.status, 401);
        assert.match(anonymous.headers.get('www-authenticate') ?? '', /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
      },
    );

    it('the official v2 client negotiates 2026-07-28 and calls tools; left to its default it still connects with the 2025 handshake', async () => {
      for (const mode of ['auto', 'legacy'] as const) {
        const client = new Client({ name: 'v2-client', version: '1' }, { versionNegotiation: { mode } });
        const transport = new StreamableHTTPClientTransport(new URL(mcp), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
        await client.connect(transport);
        try {
          assert.equal(client.getNegotiatedProtocolVersion(), mode === 'auto' ? MODERN : '2025-11-25', mode);
          const { tools } = await client.listTools();
          assert.equal(tools.length, 16, mode);
          const answer = await client.callTool({ name: 'accounts_list', arguments: { search: 'rent' } });
          assert.equal(answer.isError, undefined, `${mode}: ${JSON.stringify(answer)}`);
          assert.ok((answer.structuredContent as { accounts: unknown[] }).accounts.length > 0, mode);
        } finally {
          await client.close();
        }
      }
    });
  });
}
