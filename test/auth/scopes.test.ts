/**
 * Scopes as a standard client meets them (issue 37, items 6 and 7): the token endpoint refuses a
 * scope it does not know and gives a client that names none its own scopes; an MCP client that
 * registered itself asking to read steps up to changes through the 403 insufficient_scope
 * challenge and the consent screen (the official SDK client, the real pages), and the person
 * decides: unticked, it stays read-only. Black-box over a port.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { BrowserAuth } from '../helpers/mcp.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

/**
 * The split v2 client (@modelcontextprotocol/client), as an assistant built on it connects: 401,
 * discovery, registration, the person signs in on the real pages, the code is exchanged. (The v1
 * SDK cannot step up once it holds a refresh token: it refreshes with the old scope and gives up.)
 */
async function connect(mcp: string, auth: BrowserAuth) {
  const authProvider = auth as unknown as OAuthClientProvider;
  const probe = new StreamableHTTPClientTransport(new URL(mcp), { authProvider });
  const refused = await new Client({ name: 'ledgerline-test', version: '1.0.0' }).connect(probe).catch((e: unknown) => e);
  assert.ok(refused instanceof UnauthorizedError, String(refused));
  await probe.finishAuth(auth.code!, auth.iss);
  const transport = new StreamableHTTPClientTransport(new URL(mcp), { authProvider });
  const client = new Client({ name: 'ledgerline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

for (const dialect of DIALECTS) {
  describe(`scopes at the token endpoint and the MCP step-up [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .where('id', '=', books.users.admin.id)
        .execute();
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    const token = async (body: Record<string, string>) => {
      const response = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    };

    it('client credentials: an unknown scope is invalid_scope; no scope gets the client its own scopes', async () => {
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Nightly', scopes: ['service.read', 'service.write'] });
      const creds = { grant_type: 'client_credentials', client_id: own.clientId, client_secret: own.clientSecret };
      for (const scope of ['read', 'service.read admin', 'offline_access']) {
        const refused = await token({ ...creds, scope });
        assert.equal(refused.status, 400, scope);
        assert.equal(refused.body.error, 'invalid_scope', scope);
        assert.match(refused.body.error_description!, /service\.read and service\.write/);
      }
      const none = await token(creds);
      assert.equal(none.status, 200);
      assert.equal(none.body.scope, 'service.read service.write', 'the client’s own scopes');
      const read = await token({ ...creds, scope: 'service.read' });
      assert.equal(read.body.scope, 'service.read');
      const narrow = await createApiClient(store.db, { organisationId: books.org.id, name: 'Reader' });
      const notAllowed = await token({
        grant_type: 'client_credentials',
        client_id: narrow.clientId,
        client_secret: narrow.clientSecret,
        scope: 'service.write',
      });
      assert.equal(notAllowed.body.error, 'invalid_scope', 'a scope the client was not given');
    });

    it('an MCP client that registered to read steps up to changes through the challenge and the consent screen', async () => {
      const mcp = `${base}/mcp`;
      const auth = new BrowserAuth(base, REDIRECT, { email: books.users.admin.email, password: PASSWORD });
      const connected = await connect(mcp, auth);
      assert.doesNotMatch(auth.savedTokens!.scope ?? '', /service\.write/, 'read-only at first');
      const create = () =>
        connected.client.callTool({
          name: 'documents_create',
          arguments: { type: 'bill', number: 'UP-1', supplier: 'Paper Co', date: '2026-11-10', currency: 'GBP', subtotal: 10, total: 10 },
        });

      // the person ticks "make changes" on the consent screen the challenge leads to: the call goes through
      auth.user.write = true;
      const first = await create().catch((e: unknown) => e);
      assert.ok(first instanceof UnauthorizedError, `the SDK was sent to authorise again: ${String(first)}`);
      const upscope = auth.authorizationUrls.at(-1)!;
      assert.equal(upscope.searchParams.get('scope'), 'service.read service.write offline_access');
      await connected.transport.finishAuth(auth.code!, auth.iss);
      assert.match(auth.savedTokens!.scope ?? '', /service\.write/);
      const created = await create();
      assert.notEqual(created.isError, true, JSON.stringify(created.content));
      assert.equal((created.structuredContent as { document: { number: string } }).document.number, 'UP-1');
      const registered = await store.db.selectFrom('oauth_clients').select('metadata').where('kind', '=', 'dynamic').executeTakeFirstOrThrow();
      assert.match(JSON.parse(registered.metadata).scope, /service\.write/, 'registered able to ask for changes, whatever it named');
      await connected.client.close();
    });

    it('a person who leaves "make changes" unticked keeps the connection read-only, and nothing is written', async () => {
      const count = async () =>
        Number(
          (
            await store.db
              .selectFrom('documents')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const auth = new BrowserAuth(base, REDIRECT, { email: books.users.admin.email, password: PASSWORD });
      const connected = await connect(`${base}/mcp`, auth);
      const create = () =>
        connected.client.callTool({
          name: 'documents_create',
          arguments: { type: 'bill', number: 'NO-1', supplier: 'Paper Co', date: '2026-11-10', currency: 'GBP', subtotal: 10, total: 10 },
        });
      assert.ok((await create().catch((e: unknown) => e)) instanceof UnauthorizedError);
      await connected.transport.finishAuth(auth.code!, auth.iss);
      assert.doesNotMatch(auth.savedTokens!.scope ?? '', /service\.write/);
      // asked and refused: the client does not loop, the call fails with the 403
      await assert.rejects(create(), /403|insufficient_scope|UnauthorizedError|Unauthorized/);
      assert.equal(await count(), before);
      await connected.client.close();
    });
  });
}
