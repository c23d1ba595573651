/**
 * Connecting an organisation to Xero and QuickBooks from its settings, over a real port with the
 * fakes of both vendors (their identity endpoints and Accounting APIs): the connect buttons post to
 * the vendor's authorize page with state and PKCE S256; the callback exchanges the code, lists
 * Xero's tenants (the admin chooses when there are several) or takes QuickBooks' realmId, stores
 * the connection and switches the books to the vendor, audited; accounts.list then answers over
 * REST from the vendor, refreshing the access token when it has expired; Disconnect revokes the
 * refresh token at the vendor, deletes the connection and is audited. A callback whose state this
 * service did not start for this person is refused, and so is a QuickBooks callback whose realmId
 * names a company its token was not issued for (the fake's tokens are for one realm, as Intuit's).
 * The sign-in asks Xero for a scope for every endpoint the connector calls; a sign-in Xero does not
 * grant accounting.journals.read connects nothing and the page names the scope; a connection made
 * with the scopes asked before issue 38 answers 502 naming it, and the settings page says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { ConnectionKeys } from '../../src/domain/connection-keys.js';
import { DEFAULTS, type AccountingConnectionSettings } from '../../src/domain/accounting-vendors.js';
import { saveConnection } from '../../src/accounting/connections/tokens.js';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { fakeVendorClient } from '../helpers/fake-vendor-identity.js';
import { startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { discover, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';

for (const dialect of DIALECTS) {
  describe(`Accounting system page: connecting Xero and QuickBooks [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let xero: FakeXero;
    let qbo: FakeQuickBooks;
    let settings: AccountingConnectionSettings;
    let reader: string;
    let path: string;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .execute();
      xero = await startFakeXero({ today: TODAY });
      qbo = await startFakeQuickBooks({ today: TODAY });
      // the Xero sign-in covers two organisations: the admin chooses
      xero.identity.tenants.push({ tenantId: '0a9a1d5f-0000-4000-8000-000000000002', tenantName: 'Another Xero organisation' });
      // mirrorMaxAgeMs 0: every call asks the vendor what changed, so a call after the access token expired refreshes it
      // allowInsecureRequests: the fakes' identity endpoints are http on 127.0.0.1, which openid-client refuses otherwise
      settings = {
        keys: ConnectionKeys.random(),
        xero: fakeVendorClient(xero, 'xero'),
        quickbooks: fakeVendorClient(qbo, 'quickbooks'),
        mirrorMaxAgeMs: 0,
        allowInsecureRequests: true,
      };
      server = await startServer(store, { today: TODAY, accountingConnections: settings, resultCacheBytes: 0 });
      const c = await createApiClient(store.db, { organisationId: books.org.id, name: 'reader', scopes: ['service.read'] });
      reader = (await oidc.clientCredentialsGrant(await discover(server.baseUrl, c.clientId, c.clientSecret), { scope: 'service.read' })).access_token;
      path = `/orgs/${books.org.id}/accounting`;
    });
    after(async () => {
      await server?.close();
      await store?.close();
      await xero?.close();
      await qbo?.close();
    });

    async function signedIn() {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const page = await browser.submit({ email: books.users.admin.email, password: PASSWORD });
      assert.equal(page.response.status, 200);
      return browser;
    }
    const accountsList = async () => {
      const response = await fetch(`${server.baseUrl}/v1/operations/accounts.list`, { headers: { authorization: `Bearer ${reader}` } });
      return { status: response.status, body: (await response.json()) as any };
    };
    const audit = async () =>
      (
        (await store.db
          .selectFrom('audit_log' as any)
          .select(['action', 'detail'])
          .where('organisation_id', '=', books.org.id)
          .execute()) as { action: string; detail: string }[]
      ).filter((r) => r.action.startsWith('accounting.'));
    const connection = () => store.db.selectFrom('accounting_connections').selectAll().where('organisation_id', '=', books.org.id).executeTakeFirst();
    const system = async () =>
      (await store.db.selectFrom('organisations').select('accounting_system').where('id', '=', books.org.id).executeTakeFirstOrThrow()).accounting_system;

    /** Posts the page's connect button and goes through the vendor's authorize page back to the service. */
    async function connectThrough(browser: Browser, vendor: 'xero' | 'quickbooks') {
      await browser.follow(path);
      const toVendor = await browser.submit({}, { action: `${path}/connect/${vendor}` });
      const authorize = new URL(toVendor.url);
      const fake = vendor === 'xero' ? xero : qbo;
      assert.equal(authorize.origin + authorize.pathname, `${fake.origin}${fake.identity.paths.authorize}`);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('redirect_uri'), `${server.baseUrl}/accounting/callback/${vendor}`);
      assert.ok((authorize.searchParams.get('state') ?? '').length >= 32);
      // the scopes the service asks for: for Xero, one for every endpoint the connector calls (xero-scopes.test.ts)
      assert.equal(authorize.searchParams.get('scope'), DEFAULTS[vendor].scopes);
      if (vendor === 'xero') assert.match(authorize.searchParams.get('scope')!, /\baccounting\.journals\.read\b/);
      const back = await fetch(authorize, { redirect: 'manual' });
      assert.equal(back.status, 302);
      return browser.follow(back.headers.get('location')!);
    }

    it('shows the connect buttons for the configured vendors', async () => {
      const browser = await signedIn();
      const page = await browser.follow(path);
      assert.equal(page.response.status, 200);
      assert.match(page.body, /Connect Xero/);
      assert.match(page.body, /Connect QuickBooks/);
      assert.match(page.body, /not connected to Xero or QuickBooks/);
    });

    it('connects Xero, the admin choosing the organisation; accounts.list answers from Xero, refreshing an expired token once', async () => {
      const browser = await signedIn();
      const choose = await connectThrough(browser, 'xero');
      assert.equal(choose.response.status, 200, choose.body.slice(0, 500));
      assert.match(choose.body, /Another Xero organisation/);
      const action = /action="(\/orgs\/[^"]+\/accounting\/choose\/[^"]+)"/.exec(choose.body)![1]!;
      const done = await browser.submit({ tenant: xero.tenantId }, { action });
      assert.equal(done.response.status, 200);
      assert.match(done.body, /Connected\. The books are now read from there\./);
      assert.match(done.body, new RegExp(xero.book.name));
      assert.equal(await system(), 'xero');
      const row = (await connection())!;
      assert.deepEqual([row.vendor, row.tenant_id, row.status], ['xero', xero.tenantId, 'active']);
      assert.deepEqual(
        (await audit()).map((a) => a.action),
        ['accounting.connected'],
      );

      assert.match((await browser.follow(path)).body, /makes it at the first call that reads them/);
      const listed = await accountsList();
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.accounts.some((a: any) => a.number === '200' && a.classification === 'Revenue'));
      // the age the deployment set (mirrorMaxAgeMs 0 here), not a fixed minute
      assert.match(
        (await browser.follow(path)).body,
        /answers from its copy of the books, last brought up to date [^<]*; a call asks Xero what changed when the copy is older than 0 seconds\./,
      );

      await store.db
        .updateTable('accounting_connections')
        .set({ access_expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const refreshesBefore = xero.identity.tokenCalls.filter((c) => c.grant === 'refresh_token').length;
      const [a, b] = await Promise.all([accountsList(), accountsList()]);
      assert.deepEqual([a.status, b.status], [200, 200]);
      assert.equal(xero.identity.tokenCalls.filter((c) => c.grant === 'refresh_token').length - refreshesBefore, 1);
      assert.deepEqual(xero.violations, []);
    });

    it('disconnects Xero: revoked at Xero, the connection deleted, audited; the books then answer 502 naming it', async () => {
      const browser = await signedIn();
      const confirm = await browser.follow(`${path}/disconnect`);
      assert.match(confirm.body, /Disconnect Xero from/);
      const done = await browser.submit({}, { action: `${path}/disconnect` });
      assert.match(done.body, /Disconnected\./);
      assert.equal(await connection(), undefined);
      assert.equal(xero.identity.revoked.length, 1);
      const last = (await audit()).at(-1)!;
      assert.equal(last.action, 'accounting.disconnected');
      assert.equal(JSON.parse(last.detail).revoked, true);
      const log = await browser.follow(`/orgs/${books.org.id}/audit`);
      assert.match(log.body, /Connected the books to Xero \(“[^”]+”\)/);
      assert.match(log.body, /Disconnected Xero \(“[^”]+”\)/);
      const listed = await accountsList();
      assert.equal(listed.status, 502);
      assert.match(JSON.stringify(listed.body), /not connected to Xero/);
      // nothing copied from Xero stays behind
      const mirrored = await store.db.selectFrom('accounting_mirror_records').select('id').where('organisation_id', '=', books.org.id).execute();
      const lines = await store.db
        .selectFrom('acct_lines')
        .select('id')
        .where('organisation_id', '=', books.org.id)
        .where('transaction_id', 'like', `${books.org.id}:%`)
        .execute();
      assert.deepEqual([mirrored.length, lines.length], [0, 0]);
    });

    it(
      'connects nothing when Xero does not grant accounting.journals.read: the page names the scope and says to connect again; the tokens ' + 'revoked',
      async () => {
        const browser = await signedIn();
        const before = { connection: await connection(), system: await system(), revoked: xero.identity.revoked.length };
        xero.identity.withhold(['accounting.journals.read']);
        let page: Awaited<ReturnType<typeof connectThrough>>;
        try {
          page = await connectThrough(browser, 'xero');
        } finally {
          xero.identity.withhold([]);
        }
        assert.equal(page.response.status, 400, page.body.slice(0, 500));
        assert.match(page.body, /Xero did not grant the scope accounting\.journals\.read \(to read the journals/);
        assert.match(page.body, /nothing was connected\. Connect again and allow it/);
        assert.deepEqual(
          { connection: await connection(), system: await system() },
          { connection: before.connection, system: before.system },
          'nothing was stored',
        );
        assert.equal(xero.identity.revoked.length - before.revoked, 1, 'the tokens not kept were revoked at Xero');
      },
    );

    it(
      'a Xero connection made with the scopes asked for before issue 38 answers 502 naming accounting.journals.read; the settings page says it needs ' +
        'reconnecting and why',
      async () => {
        const old = [
          'openid',
          'profile',
          'email',
          'offline_access',
          'accounting.transactions.read',
          'accounting.reports.read',
          'accounting.contacts.read',
          'accounting.settings.read',
          'accounting.attachments.read',
        ];
        await saveConnection(store.db, settings.keys, {
          organisationId: books.org.id,
          vendor: 'xero',
          tenantId: xero.tenantId,
          tenantName: xero.book.name,
          tokens: xero.identity.issue(undefined, old),
          userId: null,
        });
        await store.db.updateTable('organisations').set({ accounting_system: 'xero' }).where('id', '=', books.org.id).execute();
        const listed = await accountsList();
        assert.equal(listed.status, 502);
        assert.equal(listed.body.code, 'accounting_unavailable');
        assert.match(listed.body.detail ?? listed.body.message ?? JSON.stringify(listed.body), /accounting\.journals\.read/);
        assert.match(JSON.stringify(listed.body), /connect it again/);
        const browser = await signedIn();
        const page = await browser.follow(path);
        assert.match(page.body, /Needs reconnecting/);
        assert.match(page.body, /Xero did not grant the scope accounting\.journals\.read/);
        // reconnecting through the page asks for the scope, and the books then read
        const choose = await connectThrough(browser, 'xero');
        const action = /action="(\/orgs\/[^"]+\/accounting\/choose\/[^"]+)"/.exec(choose.body)![1]!;
        const done = await browser.submit({ tenant: xero.tenantId }, { action });
        assert.match(done.body, /Connected\./);
        assert.equal((await connection())!.status, 'active');
        assert.equal((await accountsList()).status, 200);
        await browser.submit({}, { action: `${path}/disconnect` });
      },
    );

    it('refuses a QuickBooks callback whose realmId is a company the token was not issued for: nothing stored, the token revoked', async () => {
      const browser = await signedIn();
      const before = { connection: await connection(), system: await system(), audit: (await audit()).length, revoked: qbo.identity.revoked.length };
      /** Through QuickBooks' authorize page, then back to the service with the callback's realmId changed to `realm`. */
      const tamperedCallback = async (realm: string) => {
        await browser.follow(path);
        const toVendor = await browser.submit({}, { action: `${path}/connect/quickbooks` });
        const back = await fetch(toVendor.url, { redirect: 'manual' });
        const callback = new URL(back.headers.get('location')!);
        assert.notEqual(callback.searchParams.get('realmId'), realm);
        callback.searchParams.set('realmId', realm);
        return browser.follow(callback.href);
      };
      // the sign-in was for the person's own company, the callback names another one (the fake holds it, and answers it to its own tokens)
      const own = { tenantId: '4620816365012345678', tenantName: "The admin's own company" };
      qbo.identity.tenants.unshift(own);
      let other: Awaited<ReturnType<typeof tamperedCallback>>;
      try {
        other = await tamperedCallback(qbo.realmId);
      } finally {
        qbo.identity.tenants.splice(qbo.identity.tenants.indexOf(own), 1);
      }
      // the sign-in was for the fake's company, the callback names a company it does not hold
      const unknown = await tamperedCallback('1234567890123456');
      for (const [page, realm] of [
        [other, qbo.realmId],
        [unknown, '1234567890123456'],
      ] as const) {
        assert.equal(page.response.status, 400, page.body.slice(0, 500));
        assert.match(page.body, new RegExp(`QuickBooks did not let this sign-in read company ${realm} \\(HTTP 403\\)`));
        assert.match(page.body, /nothing was connected/);
        assert.ok(
          qbo.requests.some((r) => r.path === `/companyinfo/${realm}` && r.status === 403),
          `the realm ${realm} was checked with the new token`,
        );
      }
      assert.deepEqual(
        { connection: await connection(), system: await system(), audit: (await audit()).length },
        { connection: before.connection, system: before.system, audit: before.audit },
        'nothing was stored',
      );
      assert.equal(qbo.identity.revoked.length - before.revoked, 2, 'the tokens not kept were revoked at QuickBooks');
      assert.deepEqual(qbo.violations, []);
    });

    it('connects QuickBooks with the realm from the callback; accounts.list answers from QuickBooks', async () => {
      const browser = await signedIn();
      const done = await connectThrough(browser, 'quickbooks');
      assert.equal(done.response.status, 200, done.body.slice(0, 500));
      assert.match(done.body, /Connected\./);
      assert.equal(await system(), 'quickbooks');
      assert.equal((await connection())!.tenant_id, qbo.realmId);
      // the realm was read with the new token before the connection was saved, and named from its record
      assert.ok(qbo.requests.some((r) => r.path === `/companyinfo/${qbo.realmId}` && r.status === 200));
      assert.equal((await connection())!.tenant_name, qbo.company.name);
      const listed = await accountsList();
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.count > 5);
      assert.deepEqual(qbo.violations, []);

      // QuickBooks down: the call says so (502), and the settings page says the copy could not be
      // brought up to date, why, and when Ledgerline tries again by itself (the backoff)
      qbo.outage(true);
      try {
        const down = await accountsList();
        assert.equal(down.status, 502);
        const page = await browser.follow(path);
        assert.match(
          page.body,
          new RegExp(
            String.raw`could not bring its copy of the books up to date \(the last attempt failed\): Qu` +
              String.raw`ickBooks is unavailable \(HTTP 503\)\. It tries again by itself after [^;]+; a c` +
              String.raw`all that reads the books tries at once\.`,
          ),
        );
      } finally {
        qbo.outage(false);
      }
      assert.equal((await accountsList()).status, 200);
      assert.doesNotMatch((await browser.follow(path)).body, /could not bring its copy/, 'a pass that went through ends it');
    });

    it('refuses a callback whose state it did not start for this person, and one that reuses a finished state', async () => {
      const browser = await signedIn();
      const forged = await browser.follow('/accounting/callback/xero?code=abc&state=not-one-of-ours');
      assert.equal(forged.response.status, 400);
      assert.match(forged.body, /not one this service started for you/);
      // a finished sign-in's state is gone
      await browser.follow(path);
      const toVendor = await browser.submit({}, { action: `${path}/connect/quickbooks` });
      const back = await fetch(toVendor.url, { redirect: 'manual' });
      const callback = back.headers.get('location')!;
      assert.equal((await browser.follow(callback)).response.status, 200);
      const again = await browser.follow(callback);
      assert.equal(again.response.status, 400);
    });

    it('refuses a connect post without the CSRF token', async () => {
      const browser = await signedIn();
      await browser.follow(path);
      const response = await browser.request(`${path}/connect/xero`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl },
        body: '',
      });
      assert.equal(response.status, 403);
    });
  });
}
