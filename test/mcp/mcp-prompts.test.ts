/**
 * What the MCP server offers besides tools: instructions dated for the organisation (its local
 * today and financial year) with a guide to the tools, prompts for an owner's usual questions,
 * completion of their arguments from the books, the logging level, and an icon.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { TODAY } from '../helpers/books.js';
import { buildMcpBooks, PNG } from '../helpers/mcp-books.js';
import { clientCredentialsToken, connectWithToken } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

for (const dialect of DIALECTS) {
  describe(`MCP instructions, prompts, completions [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let connected: Awaited<ReturnType<typeof connectWithToken>>;
    let orgId: string;

    before(async () => {
      store = await openTestStore(dialect);
      const books = await buildMcpBooks(store);
      orgId = books.org.id;
      server = await startServer(store, { today: TODAY });
      const mcp = `${server.baseUrl}/mcp`;
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Prompt client' });
      connected = await connectWithToken(mcp, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp));
    });
    after(async () => {
      await connected.client.close();
      await server.close();
      await store.close();
    });

    it("instructions give the organisation's today, time zone and financial year, and which tool answers what; the server has an icon", () => {
      const instructions = connected.client.getInstructions() ?? '';
      assert.match(
        instructions,
        new RegExp(
          `For Test Books Ltd \\(${orgId}\\) today is ${TODAY} \\(Europe/London\\); its financial year is FY 2026/27, 2026-04-01 to 2027-03-31; ` +
            `amounts are in GBP\\.`,
        ),
      );
      assert.match(instructions, /overdue → bills_list_saved_filters, then bills_list_to_pay/);
      const info = connected.client.getServerVersion() as { icons?: { src: string; mimeType?: string }[] };
      assert.equal(info.icons?.[0]?.mimeType, 'image/svg+xml');
      assert.match(info.icons![0]!.src, /^data:image\/svg\+xml;base64,/);
    });

    it('lists prompts and renders one with its arguments; a missing required argument is invalid params', async () => {
      const { prompts } = await connected.client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['month_end_review', 'explain_variance', 'bills_due_this_week'],
      );
      for (const p of prompts) assert.ok(p.description && p.title, p.name);
      const got = await connected.client.getPrompt({ name: 'explain_variance', arguments: { account: 'Office:Software', period: 'last_quarter' } });
      const text = (got.messages[0]!.content as { text: string }).text;
      assert.match(text, /"Office:Software" in last_quarter/);
      assert.match(text, /ledger_account_transactions/);
      await assert.rejects(connected.client.getPrompt({ name: 'explain_variance', arguments: {} }), (e: any) => e.code === -32602 && /account/.test(e.message));
      await assert.rejects(connected.client.getPrompt({ name: 'no_such_prompt' }), (e: any) => e.code === -32602);
    });

    it('completes organisation, account, supplier and filter arguments from the books', async () => {
      const values = async (prompt: string, name: string, value: string) =>
        (await connected.client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name, value } })).completion.values;
      assert.deepEqual(await values('month_end_review', 'organisation', orgId.slice(0, 3)), [orgId]);
      const accounts = await values('explain_variance', 'account', 'softw');
      assert.ok(accounts.includes('Office:Software'), JSON.stringify(accounts));
      assert.ok(
        accounts.every((a) => /softw/i.test(a)),
        JSON.stringify(accounts),
      );
      const suppliers = await values('bills_due_this_week', 'supplier', 'ac');
      assert.deepEqual(suppliers, ['Acme Software']);
      assert.deepEqual(await values('bills_due_this_week', 'supplier', 'LTD'), ['Landlord Ltd'], 'case-insensitive, anywhere in the name');
      assert.deepEqual(await values('bills_due_this_week', 'filter', 'ov'), ['Overdue']);
      assert.deepEqual(await values('explain_variance', 'period', 'la'), [], 'an argument with no source offers nothing');
      await assert.rejects(
        connected.client.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'x', value: '' } }),
        (e: any) => e.code === -32602,
      );
    });

    it("documents_get links each document's file as a resource the caller reads over the same connection", async () => {
      const got = (await connected.client.callTool({ name: 'documents_get', arguments: { ids: 'doc_acme' } })) as { content: any[] };
      const link = got.content.find((c) => c.type === 'resource_link');
      assert.ok(link, JSON.stringify(got.content));
      assert.equal(link.uri, `ledgerline://organisations/${orgId}/documents/doc_acme/file`);
      const read = await connected.client.readResource({ uri: link.uri });
      const content = read.contents[0] as { uri: string; mimeType: string; blob: string };
      assert.deepEqual([content.uri, content.mimeType], [link.uri, 'image/png']);
      assert.deepEqual(Buffer.from(content.blob, 'base64'), PNG);
      await assert.rejects(
        connected.client.readResource({ uri: `ledgerline://organisations/${orgId}/documents/doc_nope/file` }),
        (e: any) => e.code === -32602 && e.data?.uri !== undefined,
      );
      await assert.rejects(connected.client.readResource({ uri: 'https://example.com/x' }), (e: any) => e.code === -32602 && e.data?.uri !== undefined);
      const { resourceTemplates } = await connected.client.listResourceTemplates();
      assert.deepEqual(
        resourceTemplates.map((t) => t.uriTemplate),
        ['ledgerline://organisations/{organisation}/documents/{id}', 'ledgerline://organisations/{organisation}/documents/{id}/file'],
      );
      assert.deepEqual((await connected.client.listResources()).resources, []);
    });

    it('ledger results link each document as a resource: reading it answers the document as documents_get does', async () => {
      const ledger = (await connected.client.callTool({
        name: 'ledger_account_transactions',
        arguments: { account: 'Office:Software', period: 'custom', from: '2026-01-01', to: '2026-11-30' },
      })) as any;
      const linked = ledger.structuredContent.transactions.find((t: any) => t.document?.id === 'doc_acme');
      assert.equal(linked.link, `ledgerline://organisations/${orgId}/documents/doc_acme`, 'a link this connection can follow, not a REST URL');
      const read = await connected.client.readResource({ uri: linked.link });
      const content = read.contents[0] as { mimeType: string; text: string };
      assert.equal(content.mimeType, 'application/json');
      const document = JSON.parse(content.text);
      const viaTool = ((await connected.client.callTool({ name: 'documents_get', arguments: { ids: 'doc_acme' } })) as any).structuredContent.documents[0];
      assert.deepEqual(document, viaTool);
      assert.equal(document.link, `ledgerline://organisations/${orgId}/documents/doc_acme/file`);
      await assert.rejects(connected.client.readResource({ uri: `ledgerline://organisations/${orgId}/documents/doc_nope` }), (e: any) => e.code === -32602);
    });

    it('accepts a logging level', async () => {
      assert.deepEqual(await connected.client.setLoggingLevel('info'), {});
    });
  });
}
