/**
 * The web pages in a real browser (Debian's Chromium through playwright-core) over a real port:
 * admins manage API clients, role permissions, apps, connections and members; people see and
 * disconnect their connected apps; sign-in through an external identity provider (a second, local
 * oidc-provider) lands on the consent page. Every check goes through to the API the change governs.
 * Screenshots of each page go to test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Page } from 'playwright-core';
import { registerApp } from '../../src/auth/clients.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { launchBrowser, screenshot, type PersonBrowser } from '../helpers/chromium.js';
import { IDP_CLIENT, startIdentityProvider } from '../helpers/identity-provider.js';
import { api, connect, discover, oidc, authorizationRequest } from '../helpers/oauth.js';
import { freePort, startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

/** Waits for the confirmation a page shows after a change. */
async function notice(page: Page, text: string) {
  await page.getByRole('status').filter({ hasText: text }).waitFor();
}

/** Signs in on /signin with a password; answers on the page it lands on. */
async function signIn(page: Page, base: string, email: string, next = '/account') {
  await page.goto(`${base}${next}`);
  assert.match(page.url(), /\/signin\?next=/, 'a signed-out visitor is sent to sign in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}${next}`);
}

/** Starts an app's authorization in the browser; the app's redirect URI is answered by the test. */
async function startAuthorization(page: Page, config: oidc.Configuration) {
  const { url, verifier, state } = await authorizationRequest(config, REDIRECT, 'service.read offline_access');
  await page.route('http://127.0.0.1:53682/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>App</title><p>Back in the app</p>' }),
  );
  await page.goto(url.href);
  return {
    async redeem() {
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:53682\/callback/);
      return oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`web pages in Chromium [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let orgB: { id: string; name: string };
    let admin: { id: string; email: string };
    let sam: { id: string; email: string };
    let carl: { id: string; email: string };
    let priya: { id: string; email: string };
    let booksViewer: { clientId: string };
    let adminBrowser: PersonBrowser;
    const browsers: PersonBrowser[] = [];
    const shot = (page: Page, name: string) => screenshot(page, `${dialect}-${name}`);
    const person = async () => {
      const b = await launchBrowser();
      browsers.push(b);
      return b;
    };

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      orgB = await provisionOrganisation(store.db, { name: 'Harbour Lights CIC', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
      const passwordHash = await hash(PASSWORD);
      const withPassword = (id: string) => store.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      admin = books.users.admin;
      sam = books.users.submitter;
      await withPassword(admin.id);
      await withPassword(sam.id);
      const sue = await createUser(store.db, { email: 'sue@example.test', name: 'Sue Owner', passwordHash });
      await setMembership(store.db, books.org.id, sue.id, 'super_admin');
      carl = await createUser(store.db, { email: 'carl@example.test', name: 'Carl Custom', passwordHash });
      await setMembership(store.db, books.org.id, carl.id, 'custom');
      priya = await createUser(store.db, { email: 'priya@example.test', name: 'Priya Patel', passwordHash });
      await setMembership(store.db, books.org.id, priya.id, 'admin');
      await setMembership(store.db, orgB.id, priya.id, 'submitter');
      const ines = await createUser(store.db, { email: 'ines@example.test', name: 'Ines Ibarra' });
      await setMembership(store.db, books.org.id, ines.id, 'submitter');
      booksViewer = await registerApp(store.db, { name: 'Books Viewer', redirectUris: [REDIRECT] });

      // the identity provider's address must be known before the service starts, and the service's before the provider does
      const idpPort = await freePort();
      const externalIdentity = { issuer: `http://127.0.0.1:${idpPort}`, clientId: IDP_CLIENT.id, clientSecret: IDP_CLIENT.secret };
      server = await startServer(store, { today: TODAY, externalIdentity });
      base = server.baseUrl;
      idp = await startIdentityProvider(idpPort, `${base}/signin/external/callback`);
      idp.addAccount({ sub: 'idp-ines', email: 'Ines@Example.test', email_verified: true });
      idp.addAccount({ sub: 'idp-unverified', email: 'sam-lookalike@example.test', email_verified: false });
      idp.addAccount({ sub: 'idp-stranger', email: 'stranger@example.test', email_verified: true });
      adminBrowser = await person();
    });
    after(async () => {
      for (const b of browsers) await b.close();
      await server?.close();
      await idp?.close();
      await store?.close();
    });

    it('an admin creates an API client; the secret, shown once, works at the token endpoint', async () => {
      const page = adminBrowser.page;
      await page.goto(`${base}/account`);
      await shot(page, 'signin');
      await signIn(page, base, admin.email);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Connected apps');
      await page.getByRole('link', { name: 'Organisation settings' }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/api-clients`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Test Books Ltd');
      await page.getByLabel('Name').fill('Nightly export <script>alert(1)</script>');
      await page.getByRole('button', { name: 'Create API client' }).click();
      await page.getByRole('heading', { name: /API client “Nightly export <script>alert\(1\)<\/script>” created/ }).waitFor();
      const clientId = await page.locator('#client-id').inputValue();
      const secret = await page.locator('#client-secret').inputValue();
      assert.match(secret, /^lls_/);
      assert.equal(await page.locator('#client-secret').getAttribute('readonly'), '', 'the secret is a read-only field');
      const copy = page.getByRole('button', { name: 'Copy client secret' });
      assert.ok(await copy.isVisible(), 'with scripts, a copy button appears');
      await copy.click();
      await page.getByText('Copied to the clipboard.').waitFor({ state: 'attached' });
      await shot(page, 'api-client-secret');

      const config = await discover(base, clientId, secret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'service.read' });
      const pl = await api(base, '/v1/operations/reports.profit_and_loss', tokens.access_token);
      assert.equal(pl.status, 200);
      assert.deepEqual(pl.body.summary.find((l: any) => l.label === 'Net Profit').amounts, [1788.25]);

      await page.getByRole('link', { name: 'Done' }).click();
      const row = page.getByRole('row', { name: /Nightly export/ });
      assert.match((await row.textContent())!, /Read only/);
      assert.doesNotMatch((await row.textContent())!, /Never/, 'the list shows when it was last used');
      assert.doesNotMatch(await page.content(), /lls_/, 'the secret is never shown again');
      await shot(page, 'api-clients');

      // revoking it from the list: its token is refused on the next call
      await row.getByRole('link', { name: /Revoke/ }).click();
      await shot(page, 'api-client-revoke-confirm');
      await page.getByRole('button', { name: 'Revoke API client' }).click();
      await notice(page, 'API client revoked');
      assert.equal((await api(base, '/v1/organisations', tokens.access_token)).status, 401);
      await assert.rejects(oidc.clientCredentialsGrant(config, { scope: 'service.read' }), (e: any) => e.error === 'invalid_client');
    });

    it("an admin turns a role off for an operation; that role's next API call gets 403 role_not_allowed", async () => {
      const samApp = await connect(base, { config: await discover(base, booksViewer.clientId), redirectUri: REDIRECT, email: sam.email, password: PASSWORD });
      const before = await api(base, '/v1/operations/reports.profit_and_loss', samApp.tokens.access_token);
      assert.equal(before.status, 200);
      assert.deepEqual(before.body.summary.find((l: any) => l.label === 'Net Profit').amounts, [1788.25]);

      const page = adminBrowser.page;
      await page.getByRole('link', { name: 'Role permissions' }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/roles`);
      const box = page.getByLabel('Submitter may call Profit and loss');
      assert.ok(await box.isChecked(), 'submitters may call the profit and loss by default');
      assert.equal(await page.getByLabel('Submitter may call Ledger account transactions').isChecked(), false);
      await shot(page, 'roles');
      await box.uncheck();
      await page.getByRole('button', { name: 'Save permissions' }).click();
      await notice(page, 'Role permissions saved');
      assert.equal(await page.getByLabel('Submitter may call Profit and loss').isChecked(), false);

      const refused = await api(base, '/v1/operations/reports.profit_and_loss', samApp.tokens.access_token);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'role_not_allowed');
      const other = await api(base, '/v1/operations/accounts.list', samApp.tokens.access_token);
      assert.equal(other.status, 200, 'other operations are untouched');
      const adminsStill = await store.db
        .selectFrom('operation_roles')
        .select('role')
        .where('organisation_id', '=', books.org.id)
        .where('operation', '=', 'reports.profit_and_loss')
        .orderBy('role')
        .execute();
      assert.deepEqual(
        adminsStill.map((r) => r.role),
        ['admin', 'custom', 'super_admin'],
      );

      // and back on: the next call is allowed again
      await page.getByLabel('Submitter may call Profit and loss').check();
      await page.getByRole('button', { name: 'Save permissions' }).click();
      await notice(page, 'Role permissions saved');
      assert.equal((await api(base, '/v1/operations/reports.profit_and_loss', samApp.tokens.access_token)).status, 200);
    });

    it("a person connects an app through sign-in and consent, disconnects it from their connected apps, and the app's next call gets 401", async () => {
      const { page } = await person();
      const flow = await startAuthorization(page, await discover(base, booksViewer.clientId));
      await page.getByRole('heading', { name: 'Sign in to Ledgerline' }).waitFor();
      assert.match((await page.locator('main').textContent())!, /Books Viewer is asking to connect to your books/);
      await shot(page, 'oauth-signin');
      await page.getByLabel('Email').fill(priya.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow access' }).waitFor();
      await page.getByLabel('Test Books Ltd').check();
      await page.getByLabel('Harbour Lights CIC').check();
      await shot(page, 'consent');
      await page.getByRole('button', { name: 'Allow access' }).click();
      const tokens = await flow.redeem();
      const orgs = await api(base, '/v1/organisations', tokens.access_token);
      assert.deepEqual(orgs.body.organisations.map((o: any) => o.name).sort(), ['Harbour Lights CIC', 'Test Books Ltd']);

      // signing in to connect the app signed her in to the pages too
      await page.goto(`${base}/account`);
      assert.equal(page.url(), `${base}/account`, 'no second sign-in');
      const card = page.locator('li.connection', { hasText: 'Books Viewer' });
      const text = (await card.textContent())!.replace(/\s+/g, ' ');
      assert.match(text, /Books Viewer Verified app/);
      assert.match(text, /Read accounting data: reports, the chart of accounts/);
      assert.match(text, /Stay connected while you are away/);
      assert.match(text, /For Test Books Ltd, Harbour Lights CIC|For Harbour Lights CIC, Test Books Ltd/);
      await shot(page, 'connected-apps');
      await card.getByRole('link', { name: 'Disconnect Books Viewer' }).click();
      await page.getByRole('heading', { name: 'Disconnect Books Viewer?' }).waitFor();
      await shot(page, 'disconnect-confirm');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await notice(page, 'Disconnected. The app can no longer use your books');
      assert.equal(await page.locator('li.connection').count(), 0);

      const afterwards = await api(base, '/v1/organisations', tokens.access_token, { 'service-organisation': books.org.id });
      assert.equal(afterwards.status, 401);
      await assert.rejects(oidc.refreshTokenGrant(await discover(base, booksViewer.clientId), tokens.refresh_token!));
      const logged = await store.db
        .selectFrom('audit_log')
        .select('organisation_id')
        .where('action', '=', 'account.connection_revoked')
        .where('actor_user_id', '=', priya.id)
        .execute();
      assert.deepEqual(logged.map((l) => l.organisation_id).sort(), [books.org.id, orgB.id].sort(), 'each organisation it acted for logs it');
    });

    it("an admin removes a member; that member's next call gets 403", async () => {
      const carlApp = await connect(base, { config: await discover(base, booksViewer.clientId), redirectUri: REDIRECT, email: carl.email, password: PASSWORD });
      assert.equal((await api(base, '/v1/operations/accounts.list', carlApp.tokens.access_token)).status, 200);

      const page = adminBrowser.page;
      await page.getByRole('link', { name: 'Members' }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/members`);
      const sueRow = page.getByRole('row', { name: /sue@example\.test/ });
      assert.match((await sueRow.textContent())!, /The last super admin/);
      assert.equal(await sueRow.getByRole('link', { name: /Remove/ }).count(), 0, 'an admin is not offered removing the last super admin');
      await shot(page, 'members');
      await page.getByRole('link', { name: 'Remove carl@example.test' }).click();
      await page.getByRole('heading', { name: 'Remove Carl Custom?' }).waitFor();
      await page.getByRole('button', { name: 'Remove member' }).click();
      await notice(page, 'Member removed');
      assert.equal(await page.getByRole('row', { name: /carl@example\.test/ }).count(), 0);

      const refused = await api(base, '/v1/operations/accounts.list', carlApp.tokens.access_token);
      assert.equal(refused.status, 403);
      const named = await api(base, '/v1/operations/accounts.list', carlApp.tokens.access_token, { 'service-organisation': books.org.id });
      assert.equal(named.status, 403);
      assert.equal(named.body.code, 'not_a_member');

      // a role change applies to the next call too
      await page.getByLabel('Role of priya@example.test').selectOption('submitter');
      await page.getByRole('button', { name: 'Change role of priya@example.test' }).click();
      await notice(page, 'Role changed');
      assert.equal(await page.getByLabel('Role of priya@example.test').inputValue(), 'submitter');
    });

    it('self-registered apps members connected can be blocked, unblocked and verified; admins register verified apps', async () => {
      const assistant = await oidc.dynamicClientRegistration(
        new URL(base),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Helpful <b>Assistant</b>',
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      const samAssistant = await connect(base, { config: assistant, redirectUri: REDIRECT, email: sam.email, password: PASSWORD });
      assert.equal((await api(base, '/v1/operations/accounts.list', samAssistant.tokens.access_token)).status, 200);

      const page = adminBrowser.page;
      await page.getByRole('link', { name: 'Apps', exact: true }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/apps`);
      const row = page.getByRole('row', { name: /Helpful <b>Assistant<\/b>/ });
      assert.match((await row.textContent())!, /Unverified app/);
      assert.match((await row.textContent())!, /Registered itself/);
      assert.doesNotMatch(await page.content(), /Helpful <b>Assistant/, 'what an app says about itself is escaped');

      await row.getByRole('link', { name: /Block/ }).click();
      await page.getByRole('button', { name: 'Block app' }).click();
      await notice(page, 'App blocked');
      assert.equal((await api(base, '/v1/operations/accounts.list', samAssistant.tokens.access_token)).status, 401, 'a blocked app is refused at once');
      await page.getByRole('button', { name: /Unblock/ }).click();
      await notice(page, 'App unblocked');
      assert.equal((await api(base, '/v1/operations/accounts.list', samAssistant.tokens.access_token)).status, 200);
      await page.getByRole('button', { name: /Verify Helpful/ }).click();
      await notice(page, 'App verified');
      assert.match((await page.getByRole('row', { name: /Helpful <b>Assistant<\/b>/ }).textContent())!, /Verified app/);

      await page.getByLabel('Name').fill('Month-end Pack');
      await page.getByLabel('Redirect URIs').fill('http://monthend.example/callback');
      await page.getByRole('button', { name: 'Register app' }).click();
      await page.getByRole('alert').getByText('must be https, or http on the loopback address').waitFor();
      assert.equal(await page.getByLabel('Name').inputValue(), 'Month-end Pack', 'what was typed is kept');
      await page.getByLabel('Redirect URIs').fill('https://monthend.example/callback\nhttp://127.0.0.1:7777/cb');
      await page.getByRole('button', { name: 'Register app' }).click();
      await notice(page, 'App registered');
      const registered = await store.db.selectFrom('oauth_clients').selectAll().where('name', '=', 'Month-end Pack').executeTakeFirstOrThrow();
      // verified for this organisation (its own row), not by the operator for everyone
      assert.deepEqual([registered.kind, registered.verified, registered.organisation_id], ['app', 0, books.org.id]);
      const verifiedBy = await store.db
        .selectFrom('oauth_client_verifications')
        .select('organisation_id')
        .where('client_id', '=', registered.client_id)
        .execute();
      assert.deepEqual(verifiedBy, [{ organisation_id: books.org.id }]);
      assert.deepEqual(JSON.parse(registered.metadata).redirect_uris, ['https://monthend.example/callback', 'http://127.0.0.1:7777/cb']);
      await shot(page, 'apps');

      // connections: every consent acting for the organisation, with its live tokens; one is disconnected
      await page.getByRole('link', { name: 'Connections' }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/connections`);
      const samRows = page.getByRole('row', { name: /sub-.*@example\.test/ });
      assert.equal(await samRows.count(), 2, "Sam's two connections");
      const assistantRow = page.getByRole('row', { name: /Helpful <b>Assistant<\/b>/ });
      assert.match((await assistantRow.textContent())!, /1 access, 1 refresh/);
      assert.doesNotMatch(await page.content(), new RegExp(samAssistant.tokens.access_token.slice(0, 12)), 'token values are never shown');
      await shot(page, 'connections');
      await assistantRow.getByRole('link', { name: /Disconnect/ }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await notice(page, 'Disconnected for this organisation. Its tokens stopped acting for it at once.');
      assert.equal((await api(base, '/v1/operations/accounts.list', samAssistant.tokens.access_token)).status, 401);
    });

    it('sign-in through an external identity provider lands on the consent page', async () => {
      const { page } = await person();
      idp.signInAs('idp-ines');
      const flow = await startAuthorization(page, await discover(base, booksViewer.clientId));
      await page.getByRole('link', { name: 'Continue with single sign-on' }).click();
      await page.getByRole('button', { name: 'Allow access' }).waitFor();
      assert.match(page.url(), new RegExp(`^${base}/oauth/interaction/`));
      const consent = (await page.locator('main').textContent())!.replace(/\s+/g, ' ');
      assert.match(consent, /Books Viewer Verified app/);
      assert.match(consent, /as ines@example\.test/);
      assert.match(consent, /Organisation: Test Books Ltd/);
      await shot(page, 'consent-after-single-sign-on');
      await page.getByRole('button', { name: 'Allow access' }).click();
      const tokens = await flow.redeem();
      const accounts = await api(base, '/v1/operations/accounts.list', tokens.access_token);
      assert.equal(accounts.status, 200);

      // the same provider signs in to the pages, with a session of its own
      await page.goto(`${base}/signin`);
      await shot(page, 'signin-with-single-sign-on');
      await page.getByRole('link', { name: 'Continue with single sign-on' }).click();
      await page.waitForURL(`${base}/account`);
      assert.match((await page.locator('header').textContent())!, /Ines Ibarra/);
      const session = await store.db
        .selectFrom('web_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.method'])
        .where('u.email', '=', 'ines@example.test')
        .executeTakeFirstOrThrow();
      assert.equal(session.method, 'external');
    });

    it('an unverified or unknown email from the identity provider signs no one in', async () => {
      for (const [sub, message] of [
        ['idp-unverified', 'has not verified sam-lookalike@example.test'],
        ['idp-stranger', 'No Ledgerline account uses stranger@example.test'],
      ] as const) {
        const { page } = await person();
        idp.signInAs(sub);
        await page.goto(`${base}/signin`);
        await page.getByRole('link', { name: 'Continue with single sign-on' }).click();
        await page.getByRole('heading', { name: 'Sign-in did not work' }).waitFor();
        assert.match((await page.locator('main').textContent())!, new RegExp(message));
        await page.goto(`${base}/account`);
        assert.match(page.url(), /\/signin\?next=/, 'no session was made');
      }
    });

    it('the audit log shows who changed what; people who are not admins get 403', async () => {
      const page = adminBrowser.page;
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.waitForURL(`${base}/orgs/${books.org.id}/audit`);
      const log = (await page.locator('table').textContent())!.replace(/\s+/g, ' ');
      for (const sentence of [
        'Created API client “Nightly export <script>alert(1)</script>” (service.read)',
        'Revoked API client “Nightly export',
        'Changed role permissions; refused Submitter → reports.profit_and_loss',
        'Changed role permissions; allowed Submitter → reports.profit_and_loss',
        'Removed carl@example.test (Custom)',
        'Changed priya@example.test from Admin to Submitter',
        'Blocked app “Helpful <b>Assistant</b>”',
        'Unblocked app “Helpful <b>Assistant</b>”',
        'Verified app “Helpful <b>Assistant</b>”',
        'Registered app “Month-end Pack” for https://monthend.example/callback, http://127.0.0.1:7777/cb',
        `Disconnected “Helpful <b>Assistant</b>” for ${sam.email}`,
        'priya@example.test disconnected “Books Viewer”',
      ]) {
        assert.ok(log.includes(sentence), `the log says: ${sentence}\n${log}`);
      }
      assert.match(log, /Ada Admin/);
      await shot(page, 'audit-log');

      const { page: samPage } = await person();
      await signIn(samPage, base, sam.email);
      assert.equal(await samPage.getByRole('link', { name: 'Organisation settings' }).count(), 0);
      const response = await samPage.goto(`${base}/orgs/${books.org.id}/roles`);
      assert.equal(response!.status(), 403);
      await samPage.getByRole('heading', { name: 'Not allowed' }).waitFor();
      await shot(samPage, 'not-allowed');
    });

    it('the skip link is the first thing the keyboard reaches, and leads to the main content', async () => {
      const page = adminBrowser.page;
      await page.goto(`${base}/account`);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Skip to main content');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate('document.activeElement?.id'), 'main');
    });
    it('signing out ends the session', async () => {
      const page = adminBrowser.page;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await notice(page, 'You have signed out.');
      await page.goto(`${base}/orgs/${books.org.id}/api-clients`);
      assert.match(page.url(), /\/signin\?next=%2Forgs%2F/);
      const left = await store.db.selectFrom('web_sessions').select('id_hash').where('user_id', '=', admin.id).execute();
      assert.equal(left.length, 0);
    });
  });
}
