/**
 * Small things a new user meets (issue 18 item 7): an empty sign-in form says what is missing (both
 * sign-in forms), signing in to connect an app signs in to the pages too, and a wrong link in a
 * browser shows a page while an API client still gets problem+json.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { registerApp } from '../../src/auth/clients.js';
import { getMembership } from '../../src/store/users.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { authorizationRequest, discover } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';

describe('the first hour', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let books: Awaited<ReturnType<typeof buildBooks>>;

  before(async () => {
    // pages and their forms, no dialect-specific storage: one dialect is enough
    store = await openTestStore('sqlite');
    books = await buildBooks(store);
    await store.db
      .updateTable('users')
      .set({ password_hash: await hash(PASSWORD) })
      .execute();
    server = await startServer(store, { today: TODAY });
  });
  after(async () => {
    await server?.close();
    await store?.close();
  });

  /** A browser at the OAuth sign-in page of a registered app (one that may already have visited other pages). */
  async function oauthSignInPage(browser = new Browser(server.baseUrl)) {
    const app = await registerApp(store.db, { name: 'First Hour App', redirectUris: [REDIRECT] });
    const { url } = await authorizationRequest(await discover(server.baseUrl, app.clientId), REDIRECT, 'service.read');
    const page = await browser.follow(url.href);
    assert.match(page.body, /name="password"/);
    return browser;
  }

  it('an empty sign-in form says what is missing, on /signin and on the OAuth sign-in', async () => {
    const web = new Browser(server.baseUrl);
    await web.follow('/signin');
    const noEmail = await web.submit({ email: '', password: PASSWORD });
    assert.equal(noEmail.response.status, 400);
    assert.match(noEmail.body, /Enter your email address\./);
    const noPassword = await web.submit({ email: books.users.admin.email, password: '' });
    assert.equal(noPassword.response.status, 400);
    assert.match(noPassword.body, /Enter your password\./);
    assert.doesNotMatch(noPassword.body, /do not match/);

    const oauth = await oauthSignInPage();
    const empty = await oauth.submit({ email: '', password: '' });
    assert.equal(empty.response.status, 400);
    assert.match(empty.body, /Enter your email address\./);
  });

  it('signing in to connect an app signs in to the pages too: /account opens without a second sign-in', async () => {
    const browser = new Browser(server.baseUrl);
    assert.match((await browser.follow('/account')).url, /\/signin/, 'not signed in to the pages yet');
    await oauthSignInPage(browser);
    const consent = await browser.submit({ email: books.users.admin.email, password: PASSWORD });
    assert.match(consent.body, /name="decision"/, 'at the consent screen');
    const account = await browser.follow('/account');
    assert.equal(account.response.status, 200);
    assert.match(account.url, /\/account$/);
    assert.match(account.body, new RegExp(books.users.admin.email.replace('.', '\\.')));
  });

  it('a signed-in person creates an organisation and becomes its super admin; names stay unique, settings are checked', async () => {
    const browser = new Browser(server.baseUrl);
    await browser.follow('/signin');
    await browser.submit({ email: books.users.submitter.email, password: PASSWORD });
    const account = await browser.follow('/account');
    assert.match(account.body, /<a href="\/orgs\/new">Create an organisation<\/a>/);
    await browser.follow('/orgs/new');
    const bad = await browser.submit({ name: 'Sam Studio', currency: 'POUNDS', timeZone: 'Mars/Olympus', fyStartMonth: '4' }, { action: '/orgs/new' });
    assert.equal(bad.response.status, 400);
    assert.match(bad.body, /currency &quot;POUNDS&quot; is not an ISO 4217 code; time zone &quot;Mars\/Olympus&quot; is not an IANA time zone/);
    assert.match(bad.body, /value="Sam Studio"/, 'what was typed stays');
    const taken = await browser.submit({ name: ' test books LTD ', currency: 'gbp', timeZone: 'Europe/London', fyStartMonth: '4' }, { action: '/orgs/new' });
    assert.equal(taken.response.status, 409);
    assert.match(taken.body, /An organisation named “Test Books Ltd” exists already/);
    const created = await browser.submit({ name: 'Sam Studio', currency: 'gbp', timeZone: 'Europe/London', fyStartMonth: '4' }, { action: '/orgs/new' });
    assert.equal(created.response.status, 200);
    assert.match(created.url, /\/orgs\/org_[a-z0-9]+\/ledger-import\?done=created$/, 'on to loading its books');
    assert.match(
      created.body,
      /<div class="success" role="status">Organisation created: Sam Studio, with you as its super admin\. Its books are empty: load them below/,
      'saying it worked',
    );
    const org = await store.db.selectFrom('organisations').selectAll().where('name', '=', 'Sam Studio').executeTakeFirstOrThrow();
    assert.deepEqual([org.home_currency, org.time_zone, org.fy_start_month, org.accounting_system], ['GBP', 'Europe/London', 4, 'builtin']);
    assert.deepEqual(await getMembership(store.db, org.id, books.users.submitter.id), { role: 'super_admin' });
    const logged = await store.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('organisation_id', '=', org.id).execute();
    assert.deepEqual(logged, [{ action: 'organisation.created', actor_user_id: books.users.submitter.id }]);
  });

  it('a wrong link: a page for a browser, problem+json for an API client', async () => {
    const page = await fetch(`${server.baseUrl}/no/such/<page>`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const body = await page.text();
    assert.match(body, /<h1>Page not found<\/h1>/);
    assert.match(body, /<code>\/no\/such\/%3Cpage%3E<\/code>/, 'the path as requested, escaped');
    const api = await fetch(`${server.baseUrl}/v1/nothing`, { headers: { accept: 'application/json' } });
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const any = await fetch(`${server.baseUrl}/nothing`);
    assert.match(any.headers.get('content-type') ?? '', /^application\/problem\+json/, 'no Accept: the API answer');
  });
});
