/**
 * The request log says who called and what went wrong (issue 37, item 4), with ids only: a REST
 * call's line has the organisation, the client and, for a person's token, the user; a refusal's line
 * its problem code; a 404's line its path (no query, an invitation link's secret hidden); an MCP
 * tools/call's line its method and tool. No token, secret, email or query string in any line.
 * Black-box: the real server on a port with a capturing logger, a standard OAuth client and the
 * person's own sign-in and consent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { createApiClient } from '../../src/auth/clients.js';
import { loggablePath } from '../../src/calls/request-log.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { clientCredentialsToken } from '../helpers/mcp.js';
import { api, connect, oidc } from '../helpers/oauth.js';
import { capturingLogger, startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const EMAIL = 'logged.person@example.test';
const REDIRECT = 'http://127.0.0.1:53682/callback';

it('a path as logged: no query or fragment, secret segments hidden, at most 200 characters', () => {
  assert.equal(loggablePath('/nothing/here?token=abc&x=1'), '/nothing/here');
  assert.equal(loggablePath('/invitations/s3cr3t-link-token'), '/invitations/[hidden]');
  assert.equal(loggablePath('/invitations/s3cr3t-link-token/accept?x=1'), '/invitations/[hidden]/accept');
  assert.equal(loggablePath('/oauth/interaction/uid123/login'), '/oauth/interaction/[hidden]/login');
  assert.equal(loggablePath(`/${'a'.repeat(500)}`), `/${'a'.repeat(199)}…`);
});

for (const dialect of DIALECTS) {
  describe(`the request log names the caller, the problem, the path and the MCP tool [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let personId: string;
    let appClientId: string;
    const secrets: string[] = [];
    const lines: Record<string, unknown>[] = [];

    /** The request line of one request, found by the id the test sent (answered in X-Request-Id). */
    const lineOf = async (requestId: string) => {
      // pino writes off the request path: the line follows the answer by a moment
      for (let i = 0; i < 50 && !lines.some((l) => l.requestId === requestId && 'status' in l); i++) await new Promise((r) => setTimeout(r, 20));
      const line = lines.find((l) => l.requestId === requestId && 'status' in l);
      assert.ok(line, `a log line for ${requestId}`);
      return line;
    };

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      const other = await provisionOrganisation(store.db, {
        name: 'Second Books Ltd',
        homeCurrency: 'GBP',
        timeZone: 'UTC',
        fyStartMonth: 1,
        accountingSystem: 'builtin',
      });
      const person = await createUser(store.db, { email: EMAIL, name: 'Logged Person', passwordHash: await hash(PASSWORD) });
      personId = person.id;
      await setMembership(store.db, books.org.id, person.id, 'admin');
      await setMembership(store.db, other.id, person.id, 'admin');
      server = await startServer(store, { today: TODAY, logger: capturingLogger((e) => lines.push(e)) });
      base = server.baseUrl;
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    it("an API client's call: its organisation and client id, no user", async () => {
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Logged client' });
      const token = await clientCredentialsToken(base, own.clientId, own.clientSecret, `${base}/v1`);
      secrets.push(own.clientSecret, token);
      const r = await api(base, '/v1/operations/accounts.list?search=rent', token, { 'x-request-id': 'log-client-call' });
      assert.equal(r.status, 200);
      const line = await lineOf('log-client-call');
      assert.deepEqual(
        {
          route: line.route,
          status: line.status,
          organisationId: line.organisationId,
          clientId: line.clientId,
          userId: line.userId,
          code: line.code,
          path: line.path,
        },
        { route: 'accounts.list', status: 200, organisationId: books.org.id, clientId: own.clientId, userId: undefined, code: undefined, path: undefined },
      );
      assert.ok(!JSON.stringify(line).includes('rent'), 'no query string');
    });

    it("a person's call: the organisation it acts for, the app's client id and the user id (never the email); a refusal's code", async () => {
      const config = await oidc.dynamicClientRegistration(
        new URL(base),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Logged Assistant',
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      appClientId = config.clientMetadata().client_id;
      const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: EMAIL, password: PASSWORD, organisations: 'all' });
      secrets.push(tokens.access_token, ...(tokens.refresh_token ? [tokens.refresh_token] : []));

      const ok = await api(base, '/v1/operations/reports.profit_and_loss', tokens.access_token, {
        'x-request-id': 'log-person-call',
        'service-organisation': books.org.id,
      });
      assert.equal(ok.status, 200);
      const line = await lineOf('log-person-call');
      assert.deepEqual(
        { route: line.route, status: line.status, organisationId: line.organisationId, clientId: line.clientId, userId: line.userId },
        { route: 'reports.profit_and_loss', status: 200, organisationId: books.org.id, clientId: appClientId, userId: personId },
      );

      const refused = await api(base, '/v1/operations/accounts.list', tokens.access_token, {
        'x-request-id': 'log-person-403',
        'service-organisation': 'org_not_approved_here',
      });
      assert.equal(refused.status, 403);
      const refusal = await lineOf('log-person-403');
      assert.deepEqual(
        { status: refusal.status, code: refusal.code, clientId: refusal.clientId, userId: refusal.userId, organisationId: refusal.organisationId },
        { status: 403, code: 'organisation_not_approved', clientId: appClientId, userId: personId, organisationId: undefined },
      );

      const unnamed = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'x-request-id': 'log-person-400' });
      assert.equal(unnamed.status, 400, 'two organisations covered: the call must name one');
      assert.equal((await lineOf('log-person-400')).code, 'organisation_required');

      const noToken = await fetch(`${base}/v1/operations/accounts.list`, { headers: { 'x-request-id': 'log-no-token' } });
      assert.equal(noToken.status, 401);
      assert.equal((await lineOf('log-no-token')).code, 'invalid_token');
    });

    it("a 404's path without its query, and an invitation link's secret hidden", async () => {
      const missing = await fetch(`${base}/nothing/here?token=query-secret-value`, { headers: { 'x-request-id': 'log-404' } });
      assert.equal(missing.status, 404);
      const line = await lineOf('log-404');
      assert.deepEqual(
        { status: line.status, route: line.route, path: line.path, code: line.code },
        { status: 404, route: 'unmatched', path: '/nothing/here', code: 'not_found' },
      );

      const invitation = await fetch(`${base}/invitations/invitation-link-secret-value`, {
        headers: { 'x-request-id': 'log-invitation-404', accept: 'text/html' },
      });
      assert.equal(invitation.status, 404);
      assert.equal((await lineOf('log-invitation-404')).path, '/invitations/[hidden]');
      secrets.push('query-secret-value', 'invitation-link-secret-value');
    });

    it("an MCP tools/call: its method and tool (not its arguments), the person's ids and the organisation the tool acted for", async () => {
      const config = await oidc.dynamicClientRegistration(
        new URL(base),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Logged MCP client',
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      const mcpClientId = config.clientMetadata().client_id;
      const { tokens } = await connect(base, {
        config,
        redirectUri: REDIRECT,
        email: EMAIL,
        password: PASSWORD,
        organisations: 'all',
        resource: `${base}/mcp`,
      });
      secrets.push(tokens.access_token);
      const answer = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'x-request-id': 'log-mcp-call',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'accounts_list', arguments: { organisation: books.org.id, search: 'argument-not-logged' } },
        }),
      });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as any;
      assert.equal(body.result?.isError, undefined, JSON.stringify(body));
      const line = await lineOf('log-mcp-call');
      assert.deepEqual(
        {
          route: line.route,
          status: line.status,
          mcpMethod: line.mcpMethod,
          tool: line.tool,
          organisationId: line.organisationId,
          clientId: line.clientId,
          userId: line.userId,
        },
        { route: '/mcp', status: 200, mcpMethod: 'tools/call', tool: 'accounts_list', organisationId: books.org.id, clientId: mcpClientId, userId: personId },
      );
      assert.ok(!JSON.stringify(lines).includes('argument-not-logged'), "a tool's arguments are not logged");
    });

    it('no token, secret, query string or email in any line of the log', () => {
      const text = JSON.stringify(lines);
      assert.ok(secrets.length >= 6);
      for (const secret of secrets) assert.ok(!text.includes(secret), 'no token or secret in the log');
      assert.ok(!text.includes('@example.test'), 'no email in the log');
    });
  });
}
