/**
 * Blocking an app is an organisation's decision for itself (issue 36, finding 1): an admin of one
 * organisation — any signed-in person can make one — blocks a self-registered app for that
 * organisation only, cannot cut another organisation's members off it, and cannot undo another
 * organisation's block. A block for everyone is the operator's (`ledgerline apps block`), which no
 * organisation admin can clear. Black-box: the real server on a port, the real pages and forms, a
 * standard OAuth client (openid-client) and the REST API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { setOperatorBlock } from '../../src/store/client-blocks.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { api, authorizeInBrowser, connect, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

async function signIn(base: string, email: string): Promise<Browser> {
  const browser = new Browser(base);
  await browser.follow('/signin');
  const page = await browser.submit({ email, password: PASSWORD });
  assert.equal(page.url, `${base}/account`, `${email} signs in`);
  return browser;
}

/** Posts a form found on a page of the signed-in browser (its csrf field kept), as the page would. */
async function postForm(browser: Browser, pagePath: string, action: string, fields: Record<string, string> = {}) {
  const { body } = await browser.follow(pagePath);
  const csrf = decode(/name="csrf" value="([^"]+)"/.exec(body)![1]!);
  return browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin },
    body: new URLSearchParams({ csrf, ...fields }),
  });
}

for (const dialect of DIALECTS) {
  describe(`blocking an app holds for the organisation that blocked it [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let config: oidc.Configuration;
    let clientId: string;
    let victimToken: string;
    let eve: Browser;
    let eveOrg: string;
    const victim = 'vic@example.test';

    const read = (token: string) => api(base, '/v1/operations/accounts.list', token);

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      const passwordHash = await hash(PASSWORD);
      const vic = await createUser(store.db, { email: victim, name: 'Vic Admin', passwordHash });
      await setMembership(store.db, books.org.id, vic.id, 'admin');
      await createUser(store.db, { email: 'eve@example.test', name: 'Eve', passwordHash });
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
      // an assistant that registers itself, as MCP clients do
      config = await oidc.dynamicClientRegistration(
        new URL(base),
        {
          redirect_uris: [REDIRECT],
          client_name: 'Shared Assistant',
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
        oidc.None(),
        { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
      );
      clientId = config.clientMetadata().client_id;
      victimToken = (await connect(base, { config, redirectUri: REDIRECT, email: victim, password: PASSWORD })).tokens.access_token;
      assert.equal((await read(victimToken)).status, 200);

      // Eve makes an organisation of her own and connects the same app to it
      eve = await signIn(base, 'eve@example.test');
      const created = await postForm(eve, '/orgs/new', '/orgs/new', { name: 'Eve Holdings', currency: 'GBP', timeZone: 'Europe/London', fyStartMonth: '1' });
      assert.equal(created.status, 303);
      eveOrg = /\/orgs\/([^/]+)\//.exec(created.headers.get('location')!)![1]!;
      await connect(base, { config, redirectUri: REDIRECT, email: 'eve@example.test', password: PASSWORD });
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it("another organisation's admin blocking the app leaves this organisation's tokens working", async () => {
      const blocked = await postForm(eve, `/orgs/${eveOrg}/apps/${clientId}/block`, `/orgs/${eveOrg}/apps/${clientId}/block`);
      assert.equal(blocked.status, 303);
      assert.equal((await read(victimToken)).status, 200, "Eve's block does not reach the victim's organisation");
      const apps = await eve.follow(blocked.headers.get('location')!);
      assert.match(apps.body, /App blocked for this organisation/);
      assert.match(apps.body, /Shared Assistant <span class="badge blocked">Blocked<\/span>/);
      // Eve's own token for her organisation is refused
      const eveToken = (await connect(base, { config, redirectUri: REDIRECT, email: 'eve@example.test', password: PASSWORD }).catch((e: Error) => e)) as Error;
      assert.ok(eveToken instanceof Error, 'no one can connect the app to the organisation that blocked it');
    });

    it("this organisation's block refuses its tokens, and another organisation's unblock does not undo it", async () => {
      const vic = await signIn(base, victim);
      const appsPage = await vic.follow(`/orgs/${books.org.id}/apps`);
      assert.match(appsPage.body, /Shared Assistant <span class="badge unverified">/, 'not shown blocked here');
      const blocked = await postForm(vic, `/orgs/${books.org.id}/apps/${clientId}/block`, `/orgs/${books.org.id}/apps/${clientId}/block`);
      assert.equal(blocked.status, 303);
      const refused = await read(victimToken);
      assert.equal(refused.status, 401);
      assert.match(refused.body.detail, /an admin of Test Books Ltd has blocked this app/);

      // Eve unblocks in her organisation: the victim's organisation's block stands
      const unblocked = await postForm(eve, `/orgs/${eveOrg}/apps`, `/orgs/${eveOrg}/apps/${clientId}/unblock`);
      assert.equal(unblocked.status, 303);
      assert.equal((await read(victimToken)).status, 401, "Eve's unblock does not clear Test Books Ltd's block");

      // and the consent screen offers the victim nothing to connect the app to
      const again = await authorizeInBrowser(base, { config, redirectUri: REDIRECT, email: victim, password: PASSWORD });
      assert.ok(!again.callback.startsWith(REDIRECT));
      assert.match(again.page.body, /not a member of any organisation this app may be connected to/);

      const back = await postForm(vic, `/orgs/${books.org.id}/apps`, `/orgs/${books.org.id}/apps/${clientId}/unblock`);
      assert.equal(back.status, 303);
      assert.equal((await read(victimToken)).status, 200);
    });

    it("the operator's block holds everywhere and no organisation admin can clear it", async () => {
      await setOperatorBlock(store.db, clientId, true);
      assert.equal((await read(victimToken)).status, 401);
      const vic = await signIn(base, victim);
      const page = await vic.follow(`/orgs/${books.org.id}/apps`);
      assert.match(page.body, /Blocked by the operator/);
      assert.doesNotMatch(page.body, new RegExp(`/apps/${clientId}/unblock`), 'no unblock button');
      const tried = await postForm(vic, `/orgs/${books.org.id}/apps`, `/orgs/${books.org.id}/apps/${clientId}/unblock`);
      assert.equal(tried.status, 303);
      assert.equal((await read(victimToken)).status, 401, "an organisation's unblock leaves the operator's block");
      await setOperatorBlock(store.db, clientId, false);
      assert.equal((await read(victimToken)).status, 200);
    });
  });
}
