/**
 * The connect use case (accounting/connections/connect.ts) on its own, against the fake Xero's
 * identity endpoints, and the one factory that builds an organisation's books system from the
 * vendor's descriptor (issue 39, item 3). The sign-in is openid-client's: the authorize address
 * carries the state and a PKCE S256 challenge of the verifier kept with the sign-in, the code is
 * exchanged with HTTP Basic as Xero writes it (the fake refuses any other), and the one tenant the
 * token covers is connected and audited. Without the explicit test option the OAuth client does not
 * send the code over http at all. The factory reads stored settings against the vendor's schema,
 * reads through the connection when none are stored, and knows no vendor it has no descriptor for.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { completeSignIn, findSignIn, startSignIn } from '../../src/accounting/connections/connect.js';
import { getConnection } from '../../src/accounting/connections/tokens.js';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { vendorNamed, VENDOR_DESCRIPTORS } from '../../src/accounting/vendors.js';
import type { AccountingConnectionSettings } from '../../src/domain/accounting-vendors.js';
import { ConnectionKeys } from '../../src/domain/connection-keys.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { fakeVendorClient } from '../helpers/fake-vendor-identity.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const REDIRECT = 'https://ledgerline.example/accounting/callback/xero';

for (const dialect of DIALECTS) {
  describe(`the connect use case and the vendors' factory [${dialect}]`, () => {
    let store: Store;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let xero: FakeXero;
    let settings: AccountingConnectionSettings;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      xero = await startFakeXero({ today: TODAY });
      settings = { keys: ConnectionKeys.random(), xero: fakeVendorClient(xero, 'xero'), allowInsecureRequests: true };
    });
    after(async () => {
      await store?.close();
      await xero?.close();
    });

    /** Through the fake's authorize page: the callback's query, as the vendor sends the person back. */
    async function signIn(s: AccountingConnectionSettings) {
      const userId = books.users.admin.id;
      const started = await startSignIn(store.db, s, { vendor: 'xero', organisationId: books.org.id, userId, redirectUri: REDIRECT });
      assert.ok('url' in started, JSON.stringify(started));
      const { url } = started;
      const back = await fetch(url, { redirect: 'manual' });
      assert.equal(back.status, 302, await back.text());
      const callback = new URL(back.headers.get('location')!);
      assert.equal(callback.origin + callback.pathname, REDIRECT);
      const found = await findSignIn(store.db, s, { vendor: 'xero', state: callback.searchParams.get('state') ?? undefined, userId });
      assert.ok(found, 'the state names the sign-in started');
      return { url, callback: callback.searchParams, found, userId };
    }

    it('signs in at Xero with state and PKCE S256, exchanges the code with HTTP Basic, connects the one tenant and audits it', async () => {
      const { url, callback, found, userId } = await signIn(settings);
      assert.equal(url.searchParams.get('client_id'), settings.xero!.clientId);
      assert.equal(url.searchParams.get('response_type'), 'code');
      assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(
        url.searchParams.get('code_challenge'),
        createHash('sha256').update(found.verifier).digest('base64url'),
        'the challenge of the verifier kept',
      );
      assert.equal(found.descriptor, VENDOR_DESCRIPTORS.xero);
      // another person's callback with the same state finds nothing
      assert.equal(await findSignIn(store.db, settings, { vendor: 'xero', state: found.state, userId: books.users.submitter.id }), undefined);
      assert.equal(await findSignIn(store.db, settings, { vendor: 'quickbooks', state: found.state, userId }), undefined);

      const outcome = await completeSignIn(store.db, settings, found, { callback, redirectUri: REDIRECT, userId });
      assert.deepEqual(outcome, { outcome: 'connected', organisationId: books.org.id });
      assert.deepEqual(xero.identity.tokenCalls.at(-1), { grant: 'authorization_code', status: 200 });
      const row = await getConnection(store.db, books.org.id);
      assert.deepEqual([row?.vendor, row?.tenant_id, row?.status], ['xero', xero.tenantId, 'active']);
      const audit = await store.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('organisation_id', '=', books.org.id)
        .where('action', '=', 'accounting.connected')
        .execute();
      assert.equal(audit.length, 1);
      assert.equal(JSON.parse(audit[0]!.detail).vendorName, 'Xero');
      // the sign-in is finished: its state finds nothing any more
      assert.equal(await findSignIn(store.db, settings, { vendor: 'xero', state: found.state, userId }), undefined);
    });

    it('talks http to no endpoint without the explicit test option: the sign-in is not started, nothing is sent or stored', async () => {
      const before = { calls: xero.identity.tokenCalls.length, authorizations: xero.identity.scopeRequests.length };
      const strict = { ...settings, allowInsecureRequests: false };
      const input = { organisationId: books.org.id, userId: books.users.admin.id, redirectUri: REDIRECT };
      assert.deepEqual(await startSignIn(store.db, strict, { ...input, vendor: 'xero' }), {
        refused: "Xero's sign-in cannot be used (only requests to HTTPS are allowed).",
        status: 502,
      });
      assert.deepEqual(await startSignIn(store.db, strict, { ...input, vendor: 'quickbooks' }), {
        refused: 'That accounting system is not configured on this service.',
        status: 404,
      });
      // a sign-in started with the option is not finished over http without it either
      const { callback, found, userId } = await signIn(settings);
      const outcome = await completeSignIn(store.db, strict, found, { callback, redirectUri: REDIRECT, userId });
      assert.equal(outcome.outcome, 'refused');
      assert.equal(outcome.outcome === 'refused' && outcome.status, 502);
      assert.match(
        outcome.outcome === 'refused' ? outcome.message : '',
        /^Xero's token endpoint could not be asked \(.*HTTPS.*\), so nothing was connected\.$/,
      );
      assert.equal(xero.identity.tokenCalls.length, before.calls, 'no request reached the token endpoint');
      assert.equal(xero.identity.scopeRequests.length, before.authorizations + 1, 'only the sign-in started with the option reached the authorize page');
    });

    it("builds an organisation's system from the vendor's descriptor: stored settings against its schema, else the connection", async () => {
      const organisation = { id: books.org.id, accounting_system: 'xero', home_currency: 'GBP' };
      // settings given by hand are read against Xero's schema (no token: refused, saying what is missing)
      const noToken = accountingSystemFor(store.db, { ...organisation, accounting_config: JSON.stringify({ tenantId: xero.tenantId }) }, 5_000, { settings });
      await assert.rejects(noToken.check(), /Xero settings are invalid \(accessToken: /);
      // none stored: the connection made above, read with its token
      const connected = accountingSystemFor(store.db, { ...organisation, accounting_config: null }, 5_000, { settings, primary: store.db });
      assert.equal(connected.kind, 'xero');
      await connected.check();
      // a name no descriptor has is not a vendor, whatever an object answers to it
      for (const name of ['constructor', 'toString', '__proto__', 'sage']) {
        assert.equal(vendorNamed(name), undefined, name);
        assert.throws(() => accountingSystemFor(store.db, { ...organisation, accounting_system: name, accounting_config: null }), /unknown accounting system/);
      }
      assert.deepEqual(Object.keys(VENDOR_DESCRIPTORS), ['xero', 'quickbooks']);
    });
  });
}
