import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { createApiClient, registerApp, revokeClient } from '../../src/auth/clients.js';
import { revokeConsent } from '../../src/auth/consents.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, removeMembership, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { api, authorizeInBrowser, connect, discover, oidc, authorizationRequest } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

for (const dialect of DIALECTS) {
  describe(`OAuth and the REST API [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let orgB: { id: string; name: string };
    let alice: { id: string; email: string };
    let sam: { id: string; email: string };
    let app: { clientId: string };

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      orgB = await provisionOrganisation(store.db, { name: 'Second Org', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
      const passwordHash = await hash(PASSWORD);
      alice = await createUser(store.db, { email: 'alice@example.test', name: 'Alice', passwordHash });
      await setMembership(store.db, books.org.id, alice.id, 'admin');
      await setMembership(store.db, orgB.id, alice.id, 'admin');
      await store.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', books.users.submitter.id).execute();
      sam = books.users.submitter;
      app = await registerApp(store.db, { name: 'Books Viewer', redirectUris: [REDIRECT] });
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    it("publishes RFC 8414 metadata at the spec's paths, PKCE S256 only", async () => {
      const meta: any = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
      assert.equal(meta.issuer, base);
      assert.equal(meta.authorization_endpoint, `${base}/oauth/authorize`);
      assert.equal(meta.token_endpoint, `${base}/oauth/token`);
      assert.equal(meta.revocation_endpoint, `${base}/oauth/revoke`);
      assert.equal(meta.registration_endpoint, `${base}/oauth/register`);
      assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(meta.scopes_supported, ['service.read', 'service.write', 'offline_access']);
      assert.deepEqual(meta.grant_types_supported.sort(), ['authorization_code', 'client_credentials', 'refresh_token']);
    });

    it("client credentials: an organisation's own client acts for it, and only it", async () => {
      const created = await createApiClient(store.db, { organisationId: books.org.id, name: 'Nightly export' });
      const config = await discover(base, created.clientId, created.clientSecret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'service.read' });
      assert.equal(tokens.expires_in, 3600);
      const orgs = await api(base, '/v1/organisations', tokens.access_token);
      assert.deepEqual(orgs.body, { organisations: [{ id: books.org.id, name: 'Test Books Ltd' }], allOrganisations: false, organisationRequired: false });
      const pl = await api(base, '/v1/operations/reports.profit_and_loss', tokens.access_token);
      assert.equal(pl.status, 200);
      assert.deepEqual(pl.body.summary.find((l: any) => l.label === 'Net Profit').amounts, [1788.25]);
      const same = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': books.org.id });
      assert.equal(same.status, 200);
      const other = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': orgB.id });
      assert.equal(other.status, 403);
      assert.equal(other.body.code, 'organisation_not_allowed');
      assert.match(other.headers.get('content-type')!, /application\/problem\+json/);
      const stored = await store.db.selectFrom('oauth_clients').select('secret_hash').where('client_id', '=', created.clientId).executeTakeFirstOrThrow();
      assert.notEqual(stored.secret_hash, created.clientSecret, 'the secret is kept hashed');
      const tokenRows = await store.db.selectFrom('oauth_store').select('id').where('model', '=', 'ClientCredentials').execute();
      assert.ok(!tokenRows.some((r) => r.id === tokens.access_token), 'token ids are kept hashed');
      const wrong = await discover(base, created.clientId, 'lls_wrong');
      await assert.rejects(oidc.clientCredentialsGrant(wrong, { scope: 'service.read' }), (e: any) => e.error === 'invalid_client');
      await revokeClient(store.db, created.clientId);
      const afterRevoke = await api(base, '/v1/organisations', tokens.access_token);
      assert.equal(afterRevoke.status, 401);
      assert.match(afterRevoke.headers.get('www-authenticate')!, /^Bearer .*resource_metadata=/);
    });

    it('dynamic registration, then authorization code with PKCE through sign-in and consent, for one organisation', async () => {
      const config = await oidc.dynamicClientRegistration(
        new URL(base),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Helpful Assistant',
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      const clientId = config.clientMetadata().client_id;
      assert.match(clientId, /^dyn_/);
      const row = await store.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
      assert.deepEqual([row.kind, row.verified, row.name], ['dynamic', 0, 'Helpful Assistant']);
      const flow = await authorizeInBrowser(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      assert.ok(flow.callback.startsWith(REDIRECT), flow.page.body.slice(0, 300));
      const tokens = await oidc.authorizationCodeGrant(config, new URL(flow.callback), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
      assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
      assert.equal(tokens.scope?.split(' ').includes('service.read'), true);
      const orgs = await api(base, '/v1/organisations', tokens.access_token);
      assert.deepEqual(orgs.body, { organisations: [{ id: books.org.id, name: 'Test Books Ltd' }], allOrganisations: false, organisationRequired: false });
      const ledger = await api(
        base,
        '/v1/operations/ledger.account_transactions?account=Office&period=custom&from=2026-08-01&to=2026-11-30',
        tokens.access_token,
      );
      assert.equal(ledger.status, 200);
      assert.equal(ledger.body.total, 111);
      const notApproved = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': orgB.id });
      assert.equal(notApproved.status, 403);
      assert.equal(notApproved.body.code, 'organisation_not_approved');
    });

    it('shows the consent screen with the app, its verification and the organisations to pick', async () => {
      const config = await discover(base, app.clientId);
      const flow = await authorizeInBrowser(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, decision: 'deny' });
      assert.ok(flow.callback.startsWith(REDIRECT));
      assert.equal(new URL(flow.callback).searchParams.get('error'), 'access_denied');
      const { browser, response } = await authorizeInBrowserUntilConsent(base, config);
      const page = browser.lastPage;
      // another site cannot frame the consent page and trick a click on Allow (RFC 9700 §4.16)
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.match(page, /Books Viewer <span class="badge verified">Verified app<\/span>/);
      assert.match(page, new RegExp(`name="organisation" value="${books.org.id}"`));
      assert.match(page, new RegExp(`name="organisation" value="${orgB.id}"`));
      assert.match(page, /name="all_organisations" value="1"/);
      assert.doesNotMatch(page, /name="write"/, 'write is offered only when requested');
    });

    it('a connection for all organisations must name one per call', async () => {
      const config = await discover(base, app.clientId);
      const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: 'all' });
      const orgs = await api(base, '/v1/organisations', tokens.access_token);
      assert.equal(orgs.body.organisations.length, 2);
      assert.equal(orgs.body.allOrganisations, true);
      assert.equal(orgs.body.organisationRequired, true);
      const missing = await api(base, '/v1/operations/accounts.list', tokens.access_token);
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'organisation_required');
      const b = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': orgB.id });
      assert.equal(b.status, 200);
      assert.equal(b.body.count, 0);
      // the organisation's exact name (any case) names it too; an unknown one is told what it may use
      const byName = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': books.org.name.toUpperCase() });
      assert.equal(byName.status, 200);
      assert.ok(byName.body.count > 0);
      const unknown = await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': 'Northwind' });
      assert.equal(unknown.status, 403);
      assert.equal(unknown.body.code, 'organisation_not_approved');
      assert.ok(unknown.body.detail.includes(`${books.org.name} (${books.org.id})`) && unknown.body.detail.includes(orgB.id), unknown.body.detail);
      // "all" covers an organisation joined later by the person's own act (an invitation accepted),
      // not one they were put in (test/auth/invitations.test.ts has both through the pages)
      const orgC = await provisionOrganisation(store.db, { name: 'Joined Later', homeCurrency: 'USD', timeZone: 'UTC', fyStartMonth: 1 });
      await setMembership(store.db, orgC.id, alice.id, 'submitter', 'operator');
      const putIn = await api(base, '/v1/operations/reports.balance_sheet', tokens.access_token, { 'service-organisation': orgC.id });
      assert.equal(putIn.status, 403);
      await removeMembership(store.db, orgC.id, alice.id);
      await setMembership(store.db, orgC.id, alice.id, 'submitter', 'invitation');
      const c = await api(base, '/v1/operations/reports.balance_sheet', tokens.access_token, { 'service-organisation': orgC.id });
      assert.equal(c.status, 200);
      await removeMembership(store.db, orgC.id, alice.id);
      const gone = await api(base, '/v1/operations/reports.balance_sheet', tokens.access_token, { 'service-organisation': orgC.id });
      assert.equal(gone.status, 403);
    });

    it('refresh tokens rotate; reuse after the grace window revokes the whole family', async () => {
      const config = await discover(base, app.clientId);
      const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      const first = tokens.refresh_token!;
      const refreshed = await oidc.refreshTokenGrant(config, first);
      assert.ok(refreshed.refresh_token && refreshed.refresh_token !== first, 'rotated');
      assert.equal((await api(base, '/v1/organisations', refreshed.access_token)).status, 200);
      // within the grace window the just-rotated token answers the same pair again (concurrent refreshes)
      const concurrent = await oidc.refreshTokenGrant(config, first);
      assert.deepEqual([concurrent.access_token, concurrent.refresh_token], [refreshed.access_token, refreshed.refresh_token]);
      // past the grace window, reuse is treated as theft: everything of the grant is revoked
      await store.db
        .updateTable('oauth_store')
        .set({ consumed_at: Math.floor(Date.now() / 1000) - 3600 })
        .where('model', '=', 'RefreshToken')
        .where('consumed_at', 'is not', null)
        .execute();
      await store.db
        .updateTable('oauth_store')
        .set({ expires_at: Date.now() - 1000 })
        .where('model', '=', 'RefreshReplay')
        .execute();
      await assert.rejects(oidc.refreshTokenGrant(config, first), (e: any) => e.error === 'invalid_grant');
      assert.equal((await api(base, '/v1/organisations', refreshed.access_token)).status, 401);
      await assert.rejects(oidc.refreshTokenGrant(config, refreshed.refresh_token!), (e: any) => e.error === 'invalid_grant');
    });

    it('revocation of an access token, a refresh token, and a consent takes effect at once', async () => {
      const config = await discover(base, app.clientId);
      const one = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      await oidc.tokenRevocation(config, one.tokens.access_token, { token_type_hint: 'access_token' });
      assert.equal((await api(base, '/v1/organisations', one.tokens.access_token)).status, 401);
      const two = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      await oidc.tokenRevocation(config, two.tokens.refresh_token!, { token_type_hint: 'refresh_token' });
      await assert.rejects(oidc.refreshTokenGrant(config, two.tokens.refresh_token!), (e: any) => e.error === 'invalid_grant');
      const three = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      const consent = await store.db
        .selectFrom('oauth_consents')
        .select('grant_id')
        .where('user_id', '=', alice.id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal((await api(base, '/v1/organisations', three.tokens.access_token)).status, 200);
      await revokeConsent(store.db, consent.grant_id);
      assert.equal((await api(base, '/v1/organisations', three.tokens.access_token)).status, 401);
      const created = await createApiClient(store.db, { organisationId: books.org.id, name: 'Revoked token' });
      const cc = await discover(base, created.clientId, created.clientSecret);
      const ccTokens = await oidc.clientCredentialsGrant(cc, { scope: 'service.read' });
      await oidc.tokenRevocation(cc, ccTokens.access_token);
      assert.equal((await api(base, '/v1/organisations', ccTokens.access_token)).status, 401);
    });

    it('a reused code fails and revokes the tokens it produced', async () => {
      const config = await discover(base, app.clientId);
      const { tokens, callback, verifier, state } = await connect(base, {
        config,
        redirectUri: REDIRECT,
        email: alice.email,
        password: PASSWORD,
        organisations: [books.org.id],
      });
      await assert.rejects(
        oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state }),
        (e: any) => e.error === 'invalid_grant',
      );
      assert.equal((await api(base, '/v1/organisations', tokens.access_token)).status, 401);
    });

    it('refuses a wrong PKCE verifier, an expired code, and a redirect URI that differs', async () => {
      const config = await discover(base, app.clientId);
      const flow = await authorizeInBrowser(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      await assert.rejects(
        oidc.authorizationCodeGrant(config, new URL(flow.callback), { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: flow.state }),
        (e: any) => e.error === 'invalid_grant',
      );
      const expiring = await authorizeInBrowser(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id] });
      await store.db
        .updateTable('oauth_store')
        .set({ expires_at: Date.now() - 1000 })
        .where('model', '=', 'AuthorizationCode')
        .execute();
      await assert.rejects(
        oidc.authorizationCodeGrant(config, new URL(expiring.callback), { pkceCodeVerifier: expiring.verifier, expectedState: expiring.state }),
        (e: any) => e.error === 'invalid_grant',
      );
      const unregistered = await authorizeInBrowser(base, { config, redirectUri: 'http://127.0.0.1:53682/other', email: alice.email, password: PASSWORD });
      assert.equal(unregistered.page.response.status, 400);
      assert.match(unregistered.page.body, /redirect_uri/);
    });

    it('refuses authorization without PKCE or with the plain method', async () => {
      const noPkce = new URL(`${base}/oauth/authorize`);
      noPkce.search = new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: REDIRECT,
        scope: 'service.read',
        state: 's',
      }).toString();
      const r1 = await fetch(noPkce, { redirect: 'manual' });
      assert.equal(new URL(r1.headers.get('location')!).searchParams.get('error'), 'invalid_request');
      noPkce.searchParams.set('code_challenge', 'x'.repeat(43));
      noPkce.searchParams.set('code_challenge_method', 'plain');
      const r2 = await fetch(noPkce, { redirect: 'manual' });
      assert.equal(new URL(r2.headers.get('location')!).searchParams.get('error'), 'invalid_request');
    });

    it('self-registration refuses http redirect URIs off the loopback address and machine grants', async () => {
      const post = (body: unknown) =>
        fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const http = await post({ redirect_uris: ['http://example.com/callback'] });
      assert.equal(http.status, 400);
      assert.equal(((await http.json()) as any).error, 'invalid_redirect_uri');
      const cc = await post({ redirect_uris: ['https://example.com/cb'], grant_types: ['client_credentials'] });
      assert.equal(cc.status, 400);
      const ok = await post({ redirect_uris: ['https://app.example.com/cb', 'http://localhost:8976/cb'] });
      assert.equal(ok.status, 201);
      const registered: any = await ok.json();
      assert.equal(registered.token_endpoint_auth_method, 'none');
    });

    it('write access can be unticked on the consent screen', async () => {
      const config = await discover(base, app.clientId);
      const readOnly = await connect(base, {
        config,
        redirectUri: REDIRECT,
        email: alice.email,
        password: PASSWORD,
        scope: 'service.read service.write',
        organisations: [books.org.id],
        write: false,
      });
      assert.deepEqual(readOnly.tokens.scope?.split(' ').sort(), ['service.read']);
      const readWrite = await connect(base, {
        config,
        redirectUri: REDIRECT,
        email: alice.email,
        password: PASSWORD,
        scope: 'service.read service.write',
        organisations: [books.org.id],
        write: true,
      });
      assert.deepEqual(readWrite.tokens.scope?.split(' ').sort(), ['service.read', 'service.write']);
    });

    it('a user in one organisation is not asked; roles apply; removal applies on the next call', async () => {
      const config = await discover(base, app.clientId);
      const flow = await authorizeInBrowserUntilConsent(base, config, sam.email);
      assert.doesNotMatch(flow.browser.lastPage, /name="organisation"/);
      assert.match(flow.browser.lastPage, /Organisation: <strong>Test Books Ltd<\/strong>/);
      const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: sam.email, password: PASSWORD });
      const pl = await api(base, '/v1/operations/reports.profit_and_loss', tokens.access_token);
      assert.equal(pl.status, 200);
      const ledger = await api(base, '/v1/operations/ledger.account_transactions?account=Office', tokens.access_token);
      assert.equal(ledger.status, 403);
      assert.equal(ledger.body.code, 'role_not_allowed');
      await removeMembership(store.db, books.org.id, sam.id);
      const removed = await api(base, '/v1/operations/reports.profit_and_loss', tokens.access_token, { 'service-organisation': books.org.id });
      assert.equal(removed.status, 403);
      assert.equal(removed.body.code, 'not_a_member');
      await setMembership(store.db, books.org.id, sam.id, 'submitter');
    });

    it('a token for the MCP resource is not accepted by the REST API', async () => {
      const config = await discover(base, app.clientId);
      const { tokens } = await connect(base, {
        config,
        redirectUri: REDIRECT,
        email: alice.email,
        password: PASSWORD,
        organisations: [books.org.id],
        resource: `${base}/mcp`,
      });
      const r = await api(base, '/v1/organisations', tokens.access_token);
      assert.equal(r.status, 401);
      assert.match(r.body.detail, /another resource/);
    });

    it('forms refuse a post without the CSRF token or from another origin', async () => {
      const config = await discover(base, app.clientId);
      const atSignIn = await authorizeInBrowserUntilSignIn(base, config);
      const action = /<form[^>]*action="([^"]+)"/.exec(atSignIn.browser.lastPage)![1]!;
      const noToken = await atSignIn.browser.request(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ email: alice.email, password: PASSWORD }),
      });
      assert.equal(noToken.status, 403);
      const foreign = await atSignIn.browser.submit({ email: alice.email, password: PASSWORD }, { origin: 'https://evil.example' });
      assert.equal(foreign.response.status, 403);
      const wrong = await atSignIn.browser.submit({ email: alice.email, password: 'not the password' });
      assert.equal(wrong.response.status, 401);
      assert.match(wrong.body, /do not match/);
    });

    it('escapes what an app says about itself on the consent screen', async () => {
      const config = await oidc.dynamicClientRegistration(
        new URL(base),
        { redirect_uris: [REDIRECT], client_name: '<script>alert("x")</script> & Co', token_endpoint_auth_method: 'none' },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      const { browser } = await authorizeInBrowserUntilConsent(base, config);
      assert.ok(!browser.lastPage.includes('<script>alert'));
      assert.match(browser.lastPage, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; Co <span class="badge unverified">Unverified app<\/span>/);
      assert.match(browser.lastPage, /has not been checked by an administrator/);
    });

    it('serves the OpenAPI document and the reference page generated from the operations', async () => {
      const doc: any = await (await fetch(`${base}/openapi.json`)).json();
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(Object.keys(doc.paths).length, 27);
      // the document loop's changes, each with its method
      assert.ok(doc.paths['/v1/operations/documents.publish'].post && doc.paths['/v1/operations/banking.match'].post);
      assert.ok(doc.paths['/v1/operations/banking.unmatch'].delete && doc.paths['/v1/operations/banking.mark_reconciled'].patch);
      assert.ok(doc.paths['/v1/operations/documents.create'].post.requestBody, 'a change takes a JSON body');
      assert.ok(doc.paths['/v1/operations/banking.transactions'].get.parameters.some((p: any) => p.name === 'limit' && p.in === 'query'));
      assert.equal(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl, `${base}/oauth/token`);
      assert.deepEqual(
        doc.paths['/v1/operations/banking.transactions'].get.security,
        [{ oauth2: ['service.read'] }, { bearerAuth: [] }],
        'an OAuth flow or a token in hand',
      );
      const page = await (await fetch(`${base}/docs/reference`)).text();
      for (const [name, item] of Object.entries<Record<string, unknown>>(doc.paths))
        assert.ok(page.includes(`${Object.keys(item)[0]!.toUpperCase()} ${name}`), name);
      assert.match(
        page,
        /<td><code>limit<\/code><\/td><td>no<\/td><td>integer 1–500<\/td><td>Transactions per page/,
        'types and descriptions from the OpenAPI document',
      );
      assert.doesNotMatch(page, /`/, 'backticks in descriptions become code');
      assert.match(page, /id="error-role_not_allowed"/);
    });

    it('unknown query parameters are refused, and every error is problem+json', async () => {
      const created = await createApiClient(store.db, { organisationId: books.org.id, name: 'Params' });
      const config = await discover(base, created.clientId, created.clientSecret);
      const { access_token } = await oidc.clientCredentialsGrant(config, { scope: 'service.read' });
      const r = await api(base, '/v1/operations/accounts.list?serach=rent', access_token);
      assert.equal(r.status, 400);
      assert.deepEqual(r.body.errors, [{ parameter: 'serach', message: 'unknown parameter' }]);
      assert.equal(r.body.code, 'invalid_request');
      const none = await api(base, '/v1/operations/no.such', access_token);
      assert.equal(none.status, 404);
      assert.equal(none.body.code, 'unknown_operation');
      const noToken = await fetch(`${base}/v1/operations/accounts.list`);
      assert.equal(noToken.status, 401);
      assert.match(noToken.headers.get('www-authenticate')!, /error="invalid_request"/);
    });
  });
}

async function authorizeInBrowserUntilSignIn(base: string, config: oidc.Configuration) {
  const { Browser } = await import('../helpers/browser.js');
  const browser = new Browser(base);
  const { url } = await authorizationRequest(config, REDIRECT);
  await browser.follow(url.href);
  return { browser };
}

async function authorizeInBrowserUntilConsent(base: string, config: oidc.Configuration, email = 'alice@example.test') {
  const { browser } = await authorizeInBrowserUntilSignIn(base, config);
  const consent = await browser.submit({ email, password: PASSWORD });
  return { browser, response: consent.response };
}
