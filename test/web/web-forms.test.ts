/**
 * Every form of the web pages, found by reading the pages themselves, refuses a post without its
 * CSRF token, with another session's token, from another origin, or with no origin at all, and
 * changes nothing when it refuses; the same post done right goes through. Also: the member rules,
 * admins only, the sign-in throttle shared with the OAuth sign-in, and the session cookie's flags.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { createApiClient, registerApp } from '../../src/auth/clients.js';
import { buildApp } from '../../src/app/app.js';
import { defaultRateLimits } from '../../src/config.js';
import { blockForOrganisation } from '../../src/store/client-blocks.js';
import { createInvitation } from '../../src/store/invitations.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { authorizeInBrowser, connect, discover, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
const EVIL = 'https://evil.example';

interface FoundForm {
  action: string;
  fields: [string, string][];
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The post forms of a page with the values a browser would send by default. */
function formsOf(page: string): FoundForm[] {
  const forms: FoundForm[] = [];
  for (const [, attrs, inner] of page.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!/method="post"/.test(attrs!)) continue;
    const action = decode(/action="([^"]+)"/.exec(attrs!)![1]!);
    const fields: [string, string][] = [];
    for (const [input] of inner!.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input!)?.[1];
      const value = decode(/value="([^"]*)"/.exec(input!)?.[1] ?? '');
      if (!name) continue;
      if (/type="checkbox"/.test(input!) && !/\schecked/.test(input!)) continue;
      fields.push([name, value]);
    }
    for (const [, name, options] of inner!.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
      const selected = /<option value="([^"]*)" selected/.exec(options!) ?? /<option value="([^"]*)"/.exec(options!);
      fields.push([name!, decode(selected![1]!)]);
    }
    forms.push({ action, fields });
  }
  return forms;
}

/** The same form for any id: /orgs/:id/members/:id/role */
const shape = (action: string) =>
  action
    .replace(/\/(org|usr|cli|app|dyn|inv)_[\w]+/g, '/:id')
    .replace(/\/connections\/[\w-]+\/(revoke|disconnect)/, '/connections/:grant/$1')
    .split('?')[0]!;

async function signIn(base: string, email: string): Promise<Browser> {
  const browser = new Browser(base);
  const page = await browser.follow('/signin');
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const response = await browser.request('/signin', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ csrf: decode(csrf), email, password: PASSWORD }),
  });
  assert.equal(response.status, 303, `${email} signs in`);
  assert.equal(response.headers.get('location'), '/account');
  return browser;
}

function post(browser: Browser, action: string, fields: [string, string][], headers: Record<string, string>) {
  return browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
}

/** The value of the signed-out form's cookie a Browser holds. */
const signInCookie = (browser: Browser) =>
  (browser as unknown as { cookies: { name: string; value: string }[] }).cookies.find((c) => c.name === 'ledgerline_signin')!.value;

const csrfOf = async (browser: Browser) => decode(/name="csrf" value="([^"]+)"/.exec((await browser.follow('/account')).body)![1]!);

for (const dialect of DIALECTS) {
  describe(`web forms refuse cross-site posts [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let sue: { id: string; email: string };
    let ada: { id: string; email: string };
    let sam: { id: string; email: string };

    /** Everything a refused post could have changed. */
    async function fingerprint() {
      const count = async (table: 'oauth_clients' | 'oauth_consents' | 'memberships' | 'operation_roles' | 'oauth_store') =>
        Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const w = store.db;
      const clients = await store.db.selectFrom('oauth_clients').select(['client_id', 'verified', 'blocked']).orderBy('client_id').execute();
      const roles = await store.db.selectFrom('memberships').select(['user_id', 'role']).orderBy('user_id').execute();
      return {
        clients,
        roles,
        verifications: await store.db
          .selectFrom('oauth_client_verifications')
          .select(['client_id', 'organisation_id'])
          .orderBy('client_id')
          .orderBy('organisation_id')
          .execute(),
        blocks: await store.db
          .selectFrom('oauth_client_blocks')
          .select(['client_id', 'organisation_id'])
          .orderBy('client_id')
          .orderBy('organisation_id')
          .execute(),
        consents: await count('oauth_consents'),
        policy: await count('operation_roles'),
        tokens: await count('oauth_store'),
        audit: Number(
          (
            await w
              .selectFrom('audit_log')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        invitations: await store.db.selectFrom('invitations').select(['id', 'email', 'accepted_at']).orderBy('id').execute(),
        sessions: Number(
          (
            await w
              .selectFrom('web_sessions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      };
    }

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      const passwordHash = await hash(PASSWORD);
      sue = await createUser(store.db, { email: 'sue@example.test', name: 'Sue Owner', passwordHash });
      await setMembership(store.db, books.org.id, sue.id, 'super_admin');
      ada = books.users.admin;
      sam = books.users.submitter;
      for (const id of [ada.id, sam.id]) await store.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      const viewer = await registerApp(store.db, { name: 'Books Viewer', redirectUris: [REDIRECT] });
      await registerApp(store.db, { name: 'Month-end Pack', redirectUris: ['https://monthend.example/cb'], organisationId: books.org.id });
      await createApiClient(store.db, { organisationId: books.org.id, name: 'Nightly export' });
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
      // an invitation not yet accepted, so its withdraw form shows
      await createInvitation(store.db, { organisationId: books.org.id, email: 'colleague@example.test', role: 'submitter', invitedBy: sue.id });
      // connections of every kind, so every form shows up: Sue's own, Sam's, and two self-registered apps, one blocked
      await connect(base, { config: await discover(base, viewer.clientId), redirectUri: REDIRECT, email: sue.email, password: PASSWORD });
      for (const name of ['Assistant One', 'Assistant Two']) {
        const config = await oidc.dynamicClientRegistration(
          new URL(base),
          { redirect_uris: [REDIRECT], client_name: name, grant_types: ['authorization_code'], token_endpoint_auth_method: 'none' },
          oidc.None(),
          { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
        );
        await connect(base, { config, redirectUri: REDIRECT, email: sam.email, password: PASSWORD, scope: 'service.read' });
        if (name === 'Assistant Two')
          await blockForOrganisation(store.db, { clientId: config.clientMetadata().client_id, organisationId: books.org.id, userId: sue.id });
      }
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it("every form refuses a post without the token, with another session's token, from another origin or from nowhere", async () => {
      const browser = await signIn(base, sue.email);
      const other = await signIn(base, ada.email);
      const foreignToken = await csrfOf(other);
      const pages = ['/account', '/orgs/new', ...['api-clients', 'apps', 'roles', 'connections', 'members', 'audit'].map((t) => `/orgs/${books.org.id}/${t}`)];
      const forms = new Map<string, FoundForm>();
      for (const path of pages) {
        const { response, body } = await browser.follow(path);
        assert.equal(response.status, 200, path);
        for (const f of formsOf(body)) forms.set(f.action, f);
        // the confirmation pages that destructive actions go through
        for (const [, href] of body.matchAll(/href="(\/(?:orgs|account)\/[^"]+\/(?:revoke|remove|block|disconnect)(?:\?[^"]*)?)"/g)) {
          const confirm = await browser.follow(decode(href!));
          assert.equal(confirm.response.status, 200, href);
          for (const f of formsOf(confirm.body)) forms.set(f.action, f);
        }
      }
      assert.deepEqual(
        [...new Set([...forms.keys()].map(shape))].sort(),
        [
          '/account/connections/:grant/disconnect',
          '/orgs/:id/api-clients',
          '/orgs/:id/api-clients/:id/revoke',
          '/orgs/:id/apps',
          '/orgs/:id/apps/:id/block',
          '/orgs/:id/apps/:id/remove',
          '/orgs/:id/apps/:id/unblock',
          '/orgs/:id/apps/:id/verify',
          '/orgs/:id/connections/:grant/revoke',
          '/orgs/:id/invitations/:id/withdraw',
          '/orgs/:id/members/:id/remove',
          '/orgs/:id/members/:id/role',
          '/orgs/:id/members/invite',
          '/orgs/:id/roles',
          '/orgs/new',
          '/signout',
        ],
        'every kind of form was found',
      );

      const ordered = [...forms.values()].sort((a, b) => Number(a.action === '/signout') - Number(b.action === '/signout'));
      for (const form of ordered) {
        const before = await fingerprint();
        const token = form.fields.find(([n]) => n === 'csrf')![1];
        const others = form.fields.filter(([n]) => n !== 'csrf');
        const attempts: [string, [string, string][], Record<string, string>][] = [
          ['no token', others, { origin: base }],
          ['an empty token', [...others, ['csrf', '']], { origin: base }],
          ["another session's token", [...others, ['csrf', foreignToken]], { origin: base }],
          ['a tampered token', [...others, ['csrf', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`]], { origin: base }],
          ['another origin', form.fields, { origin: EVIL }],
          ['another origin in Referer only', form.fields, { referer: `${EVIL}/page` }],
          ['no Origin or Referer', form.fields, {}],
        ];
        for (const [what, fields, headers] of attempts) {
          const response = await post(browser, form.action, fields, headers);
          assert.equal(response.status, 403, `${form.action} with ${what}`);
          assert.match(await response.text(), /Nothing was changed|form must be sent from Ledgerline|form has expired/);
        }
        assert.deepEqual(await fingerprint(), before, `${form.action}: a refused post changes nothing`);
        // the very same post from this origin with the token goes through (so the refusals were the CSRF checks)
        const done = await post(browser, form.action, form.fields, { origin: base });
        assert.notEqual(done.status, 403, `${form.action} done right`);
        assert.ok([200, 303, 400, 404, 409].includes(done.status), `${form.action} done right: ${done.status}`);
      }
      assert.equal((await browser.follow('/account')).url, `${base}/signin?next=%2Faccount`, 'the last form was sign-out');
      assert.equal(
        (await store.db.selectFrom('memberships').select('role').where('user_id', '=', sue.id).executeTakeFirst())?.role,
        'super_admin',
        'the last super admin stayed',
      );
      // the posts done right removed members; put them back for the tests below
      await setMembership(store.db, books.org.id, ada.id, 'admin');
      await setMembership(store.db, books.org.id, sam.id, 'submitter');
    });

    it('shows only its own notices: a notice code naming anything else shows nothing', async () => {
      const browser = await signIn(base, sue.email);
      for (const code of ['constructor', 'toString', '__proto__']) {
        const { response, body } = await browser.follow(`/account?done=${code}`);
        assert.equal(response.status, 200, code);
        assert.doesNotMatch(body, /role="status"|function|\[native code\]/, code);
      }
    });

    it('the sign-in form refuses a post without its token or from another origin', async () => {
      const browser = new Browser(base);
      const page = await browser.follow('/signin');
      const token = decode(/name="csrf" value="([^"]+)"/.exec(page.body)![1]!);
      const fields: [string, string][] = [
        ['email', sue.email],
        ['password', PASSWORD],
      ];
      assert.equal((await post(browser, '/signin', fields, { origin: base })).status, 403);
      assert.equal((await post(browser, '/signin', [...fields, ['csrf', token]], { origin: EVIL })).status, 403);
      assert.equal(
        (await post(new Browser(base), '/signin', [...fields, ['csrf', token]], { origin: base })).status,
        403,
        'the token is bound to its own cookie',
      );
      // a "next" that could lead off the site is ignored
      for (const next of ['//evil.example/x', '/\t/evil.example', '/\\evil.example', 'https://evil.example']) {
        const away = await post(new Browser(base), '/signin', [...fields, ['csrf', token], ['next', next]], {
          origin: base,
          cookie: `ledgerline_signin=${signInCookie(browser)}`,
        });
        assert.equal(away.status, 303);
        assert.equal(away.headers.get('location'), '/account', JSON.stringify(next));
      }
      const ok = await post(browser, '/signin', [...fields, ['csrf', token], ['next', `/orgs/${books.org.id}/roles`]], { origin: base });
      assert.equal(ok.status, 303);
      assert.equal(ok.headers.get('location'), `/orgs/${books.org.id}/roles`);
    });

    it('only a super admin grants or changes super admin, and the last one stays', async () => {
      const adaBrowser = await signIn(base, ada.email);
      const adaToken = await csrfOf(adaBrowser);
      const act = (b: Browser, token: string, path: string, fields: [string, string][] = []) =>
        post(b, `/orgs/${books.org.id}${path}`, [...fields, ['csrf', token]], { origin: base });
      const roleOf = async (id: string) =>
        (await store.db.selectFrom('memberships').select('role').where('user_id', '=', id).where('organisation_id', '=', books.org.id).executeTakeFirst())
          ?.role;
      assert.equal(await roleOf(sue.id), 'super_admin');
      const removeSue = await act(adaBrowser, adaToken, `/members/${sue.id}/remove`);
      assert.equal(removeSue.status, 403);
      assert.match(await removeSue.text(), /Only a super admin can grant the super admin role or change a super admin/);
      const raiseSelf = await act(adaBrowser, adaToken, `/members/${ada.id}/role`, [['role', 'super_admin']]);
      assert.equal(raiseSelf.status, 403);
      assert.equal(await roleOf(ada.id), 'admin');
      assert.equal((await act(adaBrowser, adaToken, `/members/${sam.id}/role`, [['role', 'owner']])).status, 400, 'an unknown role');

      const sueBrowser = await signIn(base, sue.email);
      const sueToken = await csrfOf(sueBrowser);
      const demoteSelf = await act(sueBrowser, sueToken, `/members/${sue.id}/role`, [['role', 'admin']]);
      assert.equal(demoteSelf.status, 409);
      assert.match(await demoteSelf.text(), /This is the last super admin of the organisation/);
      assert.equal((await act(sueBrowser, sueToken, `/members/${sue.id}/remove`)).status, 409);
      assert.equal((await act(sueBrowser, sueToken, `/members/${ada.id}/role`, [['role', 'super_admin']])).status, 303);
      assert.equal(await roleOf(ada.id), 'super_admin');
      // now there are two, a super admin may step down
      assert.equal((await act(adaBrowser, adaToken, `/members/${sue.id}/role`, [['role', 'admin']])).status, 303);
      assert.equal(await roleOf(sue.id), 'admin');
      assert.equal((await act(adaBrowser, adaToken, `/members/${ada.id}/remove`)).status, 409, 'and the remaining one stays');
    });

    it('settings are for admins only: a submitter gets 403 on pages and forms, and nothing changes', async () => {
      const samBrowser = await signIn(base, sam.email);
      const token = await csrfOf(samBrowser);
      for (const tab of ['api-clients', 'apps', 'roles', 'connections', 'members', 'audit']) {
        const { response } = await samBrowser.follow(`/orgs/${books.org.id}/${tab}`);
        assert.equal(response.status, 403, tab);
      }
      const before = await fingerprint();
      const response = await post(samBrowser, `/orgs/${books.org.id}/roles`, [['csrf', token]], { origin: base });
      assert.equal(response.status, 403);
      assert.equal(
        (
          await post(
            samBrowser,
            `/orgs/${books.org.id}/api-clients`,
            [
              ['csrf', token],
              ['name', 'Mine'],
            ],
            { origin: base },
          )
        ).status,
        403,
      );
      assert.deepEqual(await fingerprint(), before);
      assert.equal((await samBrowser.follow('/orgs/org_doesnotexist/roles')).response.status, 403, 'an unknown organisation looks the same');
    });

    it('failed sign-ins are throttled per account, counted together with the OAuth sign-in', async () => {
      const throttled = await startServer(store, { today: TODAY, rateLimits: defaultRateLimits({ signInPerAccount: 3 }) });
      try {
        const config = await discover(throttled.baseUrl, (await registerApp(store.db, { name: 'Throttle Test', redirectUris: [REDIRECT] })).clientId);
        // two failures through the OAuth sign-in…
        for (let i = 0; i < 2; i++) {
          const flow = await authorizeInBrowser(throttled.baseUrl, { config, redirectUri: REDIRECT, email: sam.email, password: 'wrong' });
          assert.equal(flow.page.response.status, 401);
        }
        // …and one on /signin reach the limit of three
        const browser = new Browser(throttled.baseUrl);
        const token = () => decode(/name="csrf" value="([^"]+)"/.exec(browser.lastPage)![1]!);
        await browser.follow('/signin');
        const wrong = await post(
          browser,
          '/signin',
          [
            ['csrf', token()],
            ['email', sam.email],
            ['password', 'wrong'],
          ],
          { origin: throttled.baseUrl },
        );
        assert.equal(wrong.status, 401);
        await browser.follow('/signin');
        const right = await post(
          browser,
          '/signin',
          [
            ['csrf', token()],
            ['email', sam.email],
            ['password', PASSWORD],
          ],
          { origin: throttled.baseUrl },
        );
        assert.equal(right.status, 429, 'even the right password waits');
        assert.ok(Number(right.headers.get('retry-after')) > 0);
        assert.match(await right.text(), /Too many failed sign-in attempts/);
      } finally {
        await throttled.close();
      }
    });

    it('the session cookie is HttpOnly and SameSite=Lax, and Secure with the __Host- prefix on https', async () => {
      for (const [baseUrl, name, secure] of [
        ['https://ledgerline.example', '__Host-ledgerline_session', true],
        ['http://127.0.0.1:9', 'ledgerline_session', false],
      ] as const) {
        const { app } = await buildApp({ store, baseUrl, today: TODAY });
        try {
          const page = await app.inject({ method: 'GET', url: '/signin' });
          const signInCookie = String(page.headers['set-cookie']).split(';')[0]!;
          const csrf = decode(/name="csrf" value="([^"]+)"/.exec(page.body)![1]!);
          const response = await app.inject({
            method: 'POST',
            url: '/signin',
            headers: { origin: baseUrl, cookie: signInCookie, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ csrf, email: sue.email, password: PASSWORD }).toString(),
          });
          assert.equal(response.statusCode, 303);
          const cookies = ([] as string[]).concat(response.headers['set-cookie'] as string | string[]);
          const session = cookies.find((c) => c.startsWith(`${name}=`));
          assert.ok(session, `${name} is set: ${cookies.join(' | ')}`);
          assert.match(session!, /; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200/);
          assert.equal(/; Secure/.test(session!), secure);
          const value = decodeURIComponent(session!.split(';')[0]!.slice(name.length + 1));
          const stored = await store.db.selectFrom('web_sessions').select('id_hash').execute();
          assert.ok(!stored.some((s) => s.id_hash === value), 'the table keeps only a hash of the cookie');
        } finally {
          await app.close();
        }
      }
    });
  });
}
