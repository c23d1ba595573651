/**
 * What each MCP tool's answer costs a model at its defaults, on the demo's first organisation (a
 * fresh in-memory SQLite database, the demo generated for 2026-11-24): bytes of the structured JSON
 * and of the text rendering beside it, per tool. Run: npm run bench:mcp-sizes
 */
import { buildApp } from '../../src/app/app.js';
import { createApiClient } from '../../src/auth/clients.js';
import { generateDemo } from '../../src/demo/generate.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { listOrganisations } from '../../src/store/organisations.js';

const BASE = 'http://127.0.0.1:3999';
const store = openStore({ sqlitePath: ':memory:' });
await migrate(store);
await generateDemo(store, { date: '2026-11-24', seed: 1, scale: 1 });
const [org] = await listOrganisations(store.db).then((all) => all.filter((o) => o.name === 'Northwind Studio Ltd'));
const { app } = await buildApp({ store, baseUrl: BASE, today: '2026-11-24' });
try {
  const client = await createApiClient(store.db, { organisationId: org!.id, name: 'sizes' });
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'service.read',
      resource: `${BASE}/mcp`,
    }).toString(),
  });
  const accessToken = (JSON.parse(token.body) as { access_token: string }).access_token;
  let id = 0;
  const rpc = async (method: string, params: unknown) => {
    const answer = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        host: '127.0.0.1:3999',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return JSON.parse(answer.body) as { result?: any; error?: any };
  };
  // the required arguments a model would give: an account, and a document it has seen
  const ledger = await rpc('tools/call', { name: 'ledger_account_transactions', arguments: { account: 'Rent' } });
  const someDocument = JSON.stringify(ledger.result?.structuredContent ?? {}).match(/"id":"(doc_[^"]+)"/)?.[1];
  const required: Record<string, Record<string, unknown>> = {
    ledger_account_transactions: { account: 'Rent' },
    documents_get: { ids: someDocument ?? 'doc_none' },
    documents_file: { id: someDocument ?? 'doc_none' },
  };
  const listed = (await rpc('tools/list', {})).result;
  const tools = listed.tools as { name: string }[];
  console.log(`tools/list: ${tools.length} tools, ${Buffer.byteLength(JSON.stringify(listed)).toLocaleString('en-US')} bytes`);
  const rows = [['tool', 'arguments', 'structured JSON', 'text', 'whole result']];
  // each tool at its defaults, and the largest lists at their largest page
  const calls: [string, Record<string, unknown>][] = tools.map((t) => [t.name, required[t.name] ?? {}]);
  calls.push(
    ['banking_transactions', { limit: 100 }],
    ['banking_transactions', { limit: 500 }],
    ['ledger_account_transactions', { account: 'Rent', limit: 1000 }],
    ['bills_list_to_pay', { limit: 100 }],
  );
  for (const [name, args] of calls) {
    const tool = { name };
    const answer = await rpc('tools/call', { name: tool.name, arguments: args });
    const result = answer.result ?? answer.error;
    const structured = result?.structuredContent ? Buffer.byteLength(JSON.stringify(result.structuredContent)) : 0;
    const text = (result?.content ?? []).filter((c: any) => c.type === 'text').reduce((n: number, c: any) => n + Buffer.byteLength(c.text), 0);
    rows.push([
      tool.name,
      JSON.stringify(args),
      structured.toLocaleString('en-US'),
      text.toLocaleString('en-US'),
      Buffer.byteLength(JSON.stringify(result)).toLocaleString('en-US'),
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log(r.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '));
} finally {
  await app.close();
  await store.close();
}
