/**
 * Native apps listen on a loopback port the system gives them at the time of the request, so a
 * registered http loopback redirect URI matches on any port (RFC 8252 §7.3); every other redirect
 * URI, https included, must match exactly (RFC 9700 §4.1.3). Issue 13, item 7e.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { registerApp } from '../../src/auth/clients.js';
import { provisionOrganisation } from '../../src/provision.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { Browser } from '../helpers/browser.js';
import { api, connect, discover, authorizationRequest } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';

describeEachDialect('loopback redirect URIs', (store) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  let orgId: string;
  let email: string;

  before(async () => {
    orgId = (await provisionOrganisation(store().db, { name: 'Loopback Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 })).id;
    const user = await createUser(store().db, { email: 'loopback@example.test', name: 'Loopback', passwordHash: await hash(PASSWORD) });
    email = user.email;
    await setMembership(store().db, orgId, user.id, 'admin');
    server = await startServer(store());
    base = server.baseUrl;
  });
  after(async () => {
    await server.close();
  });

  /** Whether the authorization server accepts this redirect URI for the client (the sign-in page, not an error). */
  async function accepted(clientId: string, redirectUri: string): Promise<boolean> {
    const { url } = await authorizationRequest(await discover(base, clientId), redirectUri);
    const page = await new Browser(base).follow(url.href);
    if (page.body.includes('name="password"')) return true;
    assert.equal(page.response.status, 400, page.body.slice(0, 300));
    assert.match(page.body, /redirect_uri/);
    return false;
  }

  it('an http loopback redirect URI matches on any port, and the whole flow works there', async () => {
    const app = await registerApp(store().db, {
      name: 'Desktop App',
      redirectUris: ['http://127.0.0.1:53682/callback', 'http://[::1]:8000/cb', 'http://localhost/cb'],
    });
    assert.equal(await accepted(app.clientId, 'http://127.0.0.1:61000/callback'), true);
    assert.equal(await accepted(app.clientId, 'http://127.0.0.1/callback'), true);
    assert.equal(await accepted(app.clientId, 'http://[::1]:49152/cb'), true);
    assert.equal(await accepted(app.clientId, 'http://localhost:3000/cb'), true);
    const config = await discover(base, app.clientId);
    const { tokens } = await connect(base, { config, redirectUri: 'http://127.0.0.1:61000/callback', email, password: PASSWORD, organisations: [orgId] });
    assert.equal((await api(base, '/v1/organisations', tokens.access_token)).status, 200);
  });

  it('but only the port: another path, host, scheme or query is refused', async () => {
    const app = await registerApp(store().db, { name: 'Desktop App 2', redirectUris: ['http://127.0.0.1:53682/callback'] });
    for (const uri of [
      'http://127.0.0.1:61000/other',
      'http://127.0.0.1:61000/callback/',
      'http://127.0.0.1:61000/callback?x=1',
      'http://127.0.0.2:61000/callback',
      'http://localhost:61000/callback',
      'http://[::1]:61000/callback',
      'https://127.0.0.1:61000/callback',
      'http://user@127.0.0.1:61000/callback',
      'http://127.0.0.1.example.com:61000/callback',
    ]) {
      assert.equal(await accepted(app.clientId, uri), false, uri);
    }
  });

  it('https redirect URIs match exactly: no port change, no trailing slash', async () => {
    const app = await registerApp(store().db, { name: 'Web App', redirectUris: ['https://app.example.com/cb'] });
    assert.equal(await accepted(app.clientId, 'https://app.example.com/cb'), true);
    for (const uri of ['https://app.example.com:8443/cb', 'https://app.example.com/cb/', 'https://app.example.com:443/cb', 'http://app.example.com/cb']) {
      assert.equal(await accepted(app.clientId, uri), false, uri);
    }
  });

  it('a self-registered app gets the same loopback rule', async () => {
    const response = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'], client_name: 'CLI tool', token_endpoint_auth_method: 'none' }),
    });
    assert.equal(response.status, 201);
    const { client_id: clientId } = (await response.json()) as { client_id: string };
    assert.equal(await accepted(clientId, 'http://127.0.0.1:61000/callback'), true);
    assert.equal(await accepted(clientId, 'http://127.0.0.1:61000/other'), false);
  });
});
