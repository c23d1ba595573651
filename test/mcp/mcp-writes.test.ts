/**
 * The changes as MCP tools, through the official SDK client: a token with service.write sees them
 * with hints that say what they do and creates, changes and deletes a document and a saved filter;
 * a read-only token is not shown them, and calling one anyway is answered 403 with the scope to ask
 * for (MCP authorization: step-up), with nothing written.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { clientCredentialsToken, connectWithToken } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const WRITE_TOOLS = [
  'documents_create',
  'documents_update',
  'documents_delete',
  'bills_create_saved_filter',
  'bills_update_saved_filter',
  'bills_delete_saved_filter',
];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

for (const dialect of DIALECTS) {
  describe(`MCP tools that change records [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let writer: Awaited<ReturnType<typeof connectWithToken>>;
    let readToken: string;
    let orgId: string;
    const documents = async () =>
      Number(
        (
          await store.db
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', orgId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      store = await openTestStore(dialect);
      const books = await buildBooks(store);
      orgId = books.org.id;
      server = await startServer(store, { today: TODAY });
      const mcp = `${server.baseUrl}/mcp`;
      const own = await createApiClient(store.db, { organisationId: orgId, name: 'Assistant', scopes: ['service.read', 'service.write'] });
      writer = await connectWithToken(mcp, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp, 'service.read service.write'));
      readToken = await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp, 'service.read');
    });
    after(async () => {
      await writer?.client.close();
      await server?.close();
      await store?.close();
    });

    it('lists the changes with hints for a write token: create is not idempotent, update and delete are destructive', async () => {
      const { tools } = await writer.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of WRITE_TOOLS) assert.ok(byName.has(name), name);
      assert.deepEqual(byName.get('documents_create')!.annotations, {
        title: 'Create a document',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      assert.deepEqual(byName.get('documents_delete')!.annotations, {
        title: 'Delete a document',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.equal(byName.get('documents_update')!.annotations?.destructiveHint, true);
      assert.equal(byName.get('accounts_list')!.annotations?.readOnlyHint, true);
    });

    it('creates a document with its file, shown as a resource link; changes and deletes it', async () => {
      const created = await writer.client.callTool({
        name: 'documents_create',
        arguments: {
          type: 'bill',
          number: 'MCP-1',
          supplier: 'Paper Co',
          date: '2026-11-10',
          currency: 'GBP',
          subtotal: 10,
          tax: 2,
          total: 12,
          file: { name: 'mcp-1.pdf', data: PDF.toString('base64') },
        },
      });
      assert.notEqual(created.isError, true, JSON.stringify(created.content));
      const doc = (created.structuredContent as any).document;
      assert.equal(doc.number, 'MCP-1');
      assert.ok(
        (created.content as any[]).some((c) => c.type === 'resource_link' && c.uri.includes(doc.id)),
        'the file as a resource link',
      );
      const changed = await writer.client.callTool({ name: 'documents_update', arguments: { id: doc.id, note: 'from the assistant' } });
      assert.equal((changed.structuredContent as any).bill.note, 'from the assistant');
      const bad = await writer.client.callTool({ name: 'documents_update', arguments: { id: doc.id, total: 99 } });
      assert.equal(bad.isError, true);
      assert.match(JSON.stringify(bad.content), /invalid_request.*total/);
      const deleted = await writer.client.callTool({ name: 'documents_delete', arguments: { id: doc.id } });
      assert.deepEqual(deleted.structuredContent, { deleted: doc.id });
      const filter = await writer.client.callTool({ name: 'bills_create_saved_filter', arguments: { name: 'Overdue', criteria: { overdue: true } } });
      assert.equal((filter.structuredContent as any).filter.name, 'Overdue');
    });

    it('does not show a read-only token the changes, and answers a call to one 403 with the scope to ask for', async () => {
      const reader = await connectWithToken(`${server.baseUrl}/mcp`, readToken);
      try {
        const { tools } = await reader.client.listTools();
        assert.deepEqual(
          tools.filter((t) => WRITE_TOOLS.includes(t.name)),
          [],
        );
      } finally {
        await reader.client.close();
      }
      const before = await documents();
      const response = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${readToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'documents_create',
            arguments: { type: 'bill', number: 'RO', supplier: 'x', date: '2026-11-10', currency: 'GBP', subtotal: 1, total: 1 },
          },
        }),
      });
      assert.equal(response.status, 403);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="service\.read service\.write offline_access"/);
      assert.equal(await documents(), before);
    });
  });
}
