/**
 * Accounting connections (issue 16, item 1): tokens sealed at rest with rotatable keys, and the
 * rotation-safe refresh: two instances (two store handles on one database) needing a refresh at once
 * make exactly one call to the vendor's token endpoint and both use its new access token; a refresh
 * token the vendor refuses marks the connection for reconnecting and answers 502 naming it. With the
 * vendor's clock past the token's lifetime (ours not), the vendor's 401 is answered by one refresh
 * and the call succeeds (issue 38, item 4). A Xero connection without a scope the connector needs
 * (the scopes asked before issue 38) answers 502 naming the scope and is marked for reconnecting,
 * whether Xero refuses a call for want of it or a refresh says it was not granted (item 1).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ConnectionKeys } from '../../src/domain/connection-keys.js';
import { accessTokenFor, getConnection, saveConnection } from '../../src/accounting/connections/tokens.js';
import type { AccountingConnectionSettings, Vendor } from '../../src/domain/accounting-vendors.js';
import { readAccountingConnections } from '../../src/domain/accounting-vendors.js';
import { AccountingSystemError } from '../../src/accounting/types.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { BASE_URL, CLIENT, rejection } from '../helpers/call.js';
import { fakeVendorClient } from '../helpers/fake-vendor-identity.js';
import { startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers/store.js';

describe('connection keys', () => {
  const k = () => randomBytes(32).toString('base64');
  it('seal with the first key, open with any listed key, and refuse a value moved to another row', () => {
    const old = ConnectionKeys.parse(`k1:${k()}`);
    const sealed = old.seal('refresh-token', 'org_a:refresh');
    assert.match(sealed, /^v1\.k1\./);
    assert.ok(!sealed.includes('refresh-token'));
    const oldKey = old.keys[0]!.key.toString('base64');
    const rotated = ConnectionKeys.parse(`k2:${k()},k1:${oldKey}`);
    assert.equal(rotated.open(sealed, 'org_a:refresh'), 'refresh-token');
    assert.match(rotated.seal('x', 'c'), /^v1\.k2\./, 'the first key seals');
    assert.throws(() => rotated.open(sealed, 'org_b:refresh'));
    assert.throws(() => ConnectionKeys.parse(`k2:${k()}`).open(sealed, 'org_a:refresh'), /no longer lists/);
  });

  it('are read from LEDGERLINE_CONNECTION_KEYS, with messages that say what to fix', () => {
    assert.match(readAccountingConnections({ LEDGERLINE_CONNECTION_KEYS: 'k1:short' }, false).problems.join(), /32 bytes/);
    assert.match(readAccountingConnections({ XERO_CLIENT_ID: 'id' }, false).problems.join(), /go together/);
    assert.match(
      readAccountingConnections({ XERO_CLIENT_ID: 'id', XERO_CLIENT_SECRET: 's' }, true).problems.join(),
      /LEDGERLINE_CONNECTION_KEYS is required in production/,
    );
    assert.match(
      readAccountingConnections(
        { XERO_CLIENT_ID: 'id', XERO_CLIENT_SECRET: 's', XERO_TOKEN_URL: 'http://example.com/t', LEDGERLINE_CONNECTION_KEYS: `a:${k()}` },
        false,
      ).problems.join(),
      /XERO_TOKEN_URL must be an https URL/,
    );
    const ok = readAccountingConnections({ QUICKBOOKS_CLIENT_ID: 'id', QUICKBOOKS_CLIENT_SECRET: 's', LEDGERLINE_CONNECTION_KEYS: `a:${k()},b:${k()}` }, true);
    assert.deepEqual(ok.problems, []);
    assert.equal(ok.settings?.quickbooks?.tokenUrl, 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer');
    assert.equal(ok.settings?.xero, undefined);
    assert.deepEqual(
      ok.settings?.keys.keys.map((x) => x.id),
      ['a', 'b'],
    );
    assert.equal(ok.settings?.mirrorMaxAgeMs, undefined, "the mirror's default age (60 s) applies");
    const aged = { QUICKBOOKS_CLIENT_ID: 'id', QUICKBOOKS_CLIENT_SECRET: 's', LEDGERLINE_CONNECTION_KEYS: `a:${k()}` };
    assert.equal(readAccountingConnections({ ...aged, LEDGERLINE_MIRROR_MAX_AGE_SECONDS: '300' }, true).settings?.mirrorMaxAgeMs, 300_000);
    assert.equal(readAccountingConnections({ ...aged, LEDGERLINE_MIRROR_MAX_AGE_SECONDS: '0' }, true).settings?.mirrorMaxAgeMs, 0);
    for (const bad of ['-1', '1.5', 'soon', '86401']) {
      assert.match(
        readAccountingConnections({ ...aged, LEDGERLINE_MIRROR_MAX_AGE_SECONDS: bad }, true).problems.join(),
        /LEDGERLINE_MIRROR_MAX_AGE_SECONDS must be a whole number of seconds from 0 to 86400/,
        bad,
      );
    }
  });
});

/** Two handles on one database, as two instances have. */
async function twoStores(dialect: string): Promise<{ a: Store; b: Store; close: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-conn-'));
    const path = join(dir, 'db.sqlite');
    const a = openStore({ sqlitePath: path });
    await migrate(a);
    const b = openStore({ sqlitePath: path });
    return { a, b, close: async () => (await a.close(), await b.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = openStore({ databaseUrl: TEST_DATABASE_URL, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const a = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 4 });
  await migrate(a);
  const b = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 4 });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`accounting connection refresh [${dialect}]`, () => {
    let stores: Awaited<ReturnType<typeof twoStores>>;
    let xero: FakeXero;
    let qbo: FakeQuickBooks;
    let settings: AccountingConnectionSettings;

    before(async () => {
      stores = await twoStores(dialect);
      xero = await startFakeXero({ today: '2026-06-15' });
      qbo = await startFakeQuickBooks({ today: '2026-06-15' });
      settings = { keys: ConnectionKeys.random(), xero: fakeVendorClient(xero, 'xero'), quickbooks: fakeVendorClient(qbo, 'quickbooks') };
    });
    after(async () => {
      await stores?.close();
      await xero?.close();
      await qbo?.close();
    });

    async function connected(vendor: Vendor) {
      const fake = vendor === 'xero' ? xero : qbo;
      const org = await provisionOrganisation(stores.a.db, {
        name: `${vendor} ${randomBytes(3).toString('hex')}`,
        homeCurrency: 'GBP',
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: vendor,
      });
      const pair = fake.identity.issue();
      const tenantId = vendor === 'xero' ? xero.tenantId : qbo.realmId;
      await saveConnection(stores.a.db, settings.keys, { organisationId: org.id, vendor, tenantId, tenantName: 'Fake', tokens: pair, userId: null });
      return { org, pair, fake };
    }
    const expire = (organisationId: string) =>
      stores.a.db
        .updateTable('accounting_connections')
        .set({ access_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('organisation_id', '=', organisationId)
        .execute();
    const refreshes = (fake: FakeXero | FakeQuickBooks) => fake.identity.tokenCalls.filter((c) => c.grant === 'refresh_token').length;

    for (const vendor of ['xero', 'quickbooks'] as const) {
      it(`${vendor}: stores the tokens sealed, and a live access token is used without a refresh`, async () => {
        const { org, pair, fake } = await connected(vendor);
        const row = (await getConnection(stores.a.db, org.id))!;
        assert.ok(!row.refresh_token.includes(pair.refreshToken) && !row.access_token.includes(pair.accessToken), 'sealed at rest');
        const before = refreshes(fake);
        const got = await accessTokenFor(stores.b.db, settings, org.id, vendor);
        assert.equal(got.accessToken, pair.accessToken);
        assert.equal(refreshes(fake), before);
      });

      it(`${vendor}: connecting again replaces the connection (tokens, status, lease, who and when) and moves its version on`, async () => {
        const { org, fake } = await connected(vendor);
        await stores.a.db
          .updateTable('accounting_connections')
          .set({
            status: 'reconnect',
            problem: 'refused',
            lease_owner: 'someone',
            lease_until: '2999-01-01T00:00:00.000Z',
            created_at: '2000-01-01T00:00:00.000Z',
          })
          .where('organisation_id', '=', org.id)
          .execute();
        const old = (await getConnection(stores.a.db, org.id))!;
        const pair = fake.identity.issue();
        const tenantId = vendor === 'xero' ? xero.tenantId : qbo.realmId;
        await saveConnection(stores.a.db, settings.keys, { organisationId: org.id, vendor, tenantId, tenantName: 'Again', tokens: pair, userId: null });
        const row = (await getConnection(stores.b.db, org.id))!;
        assert.equal(row.version, old.version + 1);
        assert.deepEqual([row.status, row.problem, row.lease_owner, row.lease_until, row.tenant_name], ['active', null, null, null, 'Again']);
        assert.ok(row.created_at > old.created_at, 'a new connection as of now');
        assert.equal((await accessTokenFor(stores.b.db, settings, org.id, vendor)).accessToken, pair.accessToken);
      });

      it(`${vendor}: two instances needing a refresh at once make one call to the token endpoint and share its new token`, async () => {
        const { org, pair, fake } = await connected(vendor);
        await expire(org.id);
        const before = refreshes(fake);
        const version = (await getConnection(stores.a.db, org.id))!.version;
        const [one, two, three] = await Promise.all([
          accessTokenFor(stores.a.db, settings, org.id, vendor),
          accessTokenFor(stores.b.db, settings, org.id, vendor),
          accessTokenFor(stores.b.db, settings, org.id, vendor),
        ]);
        assert.equal(refreshes(fake) - before, 1, 'exactly one refresh at the vendor');
        assert.notEqual(one.accessToken, pair.accessToken);
        assert.equal(two.accessToken, one.accessToken);
        assert.equal(three.accessToken, one.accessToken);
        const row = (await getConnection(stores.b.db, org.id))!;
        assert.equal(row.version, version + 1);
        assert.equal(row.lease_owner, null);
        // the rotated refresh token was kept: the next refresh works (the first one is dead at the vendor)
        await expire(org.id);
        const next = await accessTokenFor(stores.b.db, settings, org.id, vendor);
        assert.notEqual(next.accessToken, one.accessToken);
        assert.equal(refreshes(fake) - before, 2);
        assert.ok(
          fake.identity.tokenCalls.every((c) => c.status === 200),
          'no refresh was refused',
        );
      });

      it(`${vendor}: a refresh token the vendor refuses marks the connection for reconnecting, answered 502 naming it`, async () => {
        const { org, fake } = await connected(vendor);
        await expire(org.id);
        fake.identity.refuseRefresh(true);
        try {
          const error = await rejection(() => accessTokenFor(stores.a.db, settings, org.id, vendor));
          assert.ok(error instanceof AccountingSystemError);
          assert.match(error.message, new RegExp(`${vendor === 'xero' ? 'Xero' : 'QuickBooks'} connection needs reconnecting`));
          const row = (await getConnection(stores.a.db, org.id))!;
          assert.equal(row.status, 'reconnect');
          const before = fake.identity.tokenCalls.length;
          const problem = await rejection(() =>
            runOrganisationOperation(
              { db: stores.b.db, baseUrl: BASE_URL, today: '2026-06-15', accountingConnections: settings },
              accountsList,
              CLIENT,
              org.id,
              { input: {} },
            ),
          );
          assert.equal(problem.code, 'accounting_unavailable');
          assert.match(problem.message, /needs reconnecting/);
          assert.equal(fake.identity.tokenCalls.length, before, 'no second try at the vendor');
        } finally {
          fake.identity.refuseRefresh(false);
        }
      });

      it(`${vendor}: a lease left by an instance that died is taken over once it lapses; a refresh re-seals with the first key`, async () => {
        const { org, fake } = await connected(vendor);
        const row = (await getConnection(stores.a.db, org.id))!;
        assert.equal(ConnectionKeys.keyIdOf(row.refresh_token), 'dev');
        await stores.a.db
          .updateTable('accounting_connections')
          .set({
            lease_owner: 'dead-instance',
            lease_until: new Date(Date.now() - 1).toISOString(),
            access_expires_at: new Date(Date.now() - 1000).toISOString(),
          })
          .where('organisation_id', '=', org.id)
          .execute();
        // the new key first, the old one still listed: the old seal opens, the refresh seals with the new
        const rotated: AccountingConnectionSettings = { ...settings, keys: new ConnectionKeys([{ id: 'next', key: randomBytes(32) }, ...settings.keys.keys]) };
        const before = refreshes(fake);
        await accessTokenFor(stores.b.db, rotated, org.id, vendor);
        assert.equal(refreshes(fake) - before, 1);
        const after = (await getConnection(stores.a.db, org.id))!;
        assert.deepEqual([ConnectionKeys.keyIdOf(after.refresh_token), ConnectionKeys.keyIdOf(after.access_token), after.lease_owner], ['next', 'next', null]);
        // with the old key dropped, the connection still opens
        assert.ok((await accessTokenFor(stores.a.db, { ...rotated, keys: new ConnectionKeys([rotated.keys.keys[0]!]) }, org.id, vendor)).accessToken);
      });

      it(
        `${vendor}: with the vendor's clock past the token's lifetime (ours not), the vendor's 401 is answered by one refresh and the call ` + `succeeds`,
        async () => {
          const { org, fake } = await connected(vendor);
          const before = { refreshes: refreshes(fake), requests: fake.requests.length };
          fake.identity.advance(fake.identity.expiresIn * 1000 + 60_000);
          const answer = (await runOrganisationOperation(
            { db: stores.b.db, baseUrl: BASE_URL, today: '2026-06-15', accountingConnections: settings },
            accountsList,
            CLIENT,
            org.id,
            { input: {} },
          )) as { count: number };
          assert.ok(answer.count > 5);
          assert.equal(refreshes(fake) - before.refreshes, 1, 'one refresh');
          const statuses = fake.requests.slice(before.requests).map((r) => r.status);
          assert.equal(statuses[0], 401, 'the vendor refused the token its clock had expired');
          assert.ok(
            statuses.slice(1).every((s) => s === 200),
            'then every call succeeded with the new token',
          );
          assert.equal((await getConnection(stores.a.db, org.id))!.status, 'active');
        },
      );

      it(`${vendor}: an organisation connected this way answers accounts.list from the vendor, refreshing on the way`, async () => {
        const { org } = await connected(vendor);
        await expire(org.id);
        const answer = (await runOrganisationOperation(
          { db: stores.b.db, baseUrl: BASE_URL, today: '2026-06-15', accountingConnections: settings },
          accountsList,
          CLIENT,
          org.id,
          { input: {} },
        )) as { count: number };
        assert.ok(answer.count > 5);
      });
    }

    /** The scopes the connection asked Xero for before issue 38: no accounting.journals.read. */
    const BEFORE_ISSUE_38 = [
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

    it(
      "xero: a connection made without accounting.journals.read answers 502 naming the scope and 'connect again', and is marked for reconnecting; " +
        'later calls ask Xero nothing',
      async () => {
        const org = await provisionOrganisation(stores.a.db, {
          name: `xero old ${randomBytes(3).toString('hex')}`,
          homeCurrency: 'GBP',
          timeZone: 'Europe/London',
          fyStartMonth: 1,
          accountingSystem: 'xero',
        });
        await saveConnection(stores.a.db, settings.keys, {
          organisationId: org.id,
          vendor: 'xero',
          tenantId: xero.tenantId,
          tenantName: 'Fake',
          tokens: xero.identity.issue(undefined, BEFORE_ISSUE_38),
          userId: null,
        });
        const run = () =>
          runOrganisationOperation({ db: stores.b.db, baseUrl: BASE_URL, today: '2026-06-15', accountingConnections: settings }, accountsList, CLIENT, org.id, {
            input: {},
          });
        const refusedBefore = xero.scopeRefusals.length;
        const problem = await rejection(run);
        assert.equal(problem.code, 'accounting_unavailable');
        assert.match(problem.message, /accounting\.journals\.read/);
        assert.match(problem.message, /connect it again/);
        assert.deepEqual(
          xero.scopeRefusals.slice(refusedBefore).map((r) => r.path),
          ['/Journals'],
          'Xero refused the journals for want of the scope',
        );
        const row = (await getConnection(stores.a.db, org.id))!;
        assert.equal(row.status, 'reconnect');
        assert.match(row.problem ?? '', /Xero did not grant the scope accounting\.journals\.read/);
        const asked = xero.requests.length;
        assert.match((await rejection(run)).message, /accounting\.journals\.read/);
        assert.equal(xero.requests.length, asked, 'no call to Xero once it is known');
      },
    );

    it('xero: a refresh whose new token lacks a scope the connector needs marks the connection for reconnecting, naming it', async () => {
      const org = await provisionOrganisation(stores.a.db, {
        name: `xero refresh ${randomBytes(3).toString('hex')}`,
        homeCurrency: 'GBP',
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: 'xero',
      });
      await saveConnection(stores.a.db, settings.keys, {
        organisationId: org.id,
        vendor: 'xero',
        tenantId: xero.tenantId,
        tenantName: 'Fake',
        tokens: xero.identity.issue(undefined, BEFORE_ISSUE_38),
        userId: null,
      });
      await expire(org.id);
      const error = await rejection(() => accessTokenFor(stores.a.db, settings, org.id, 'xero'));
      assert.match(error.message, /needs reconnecting \(Xero did not grant the scope accounting\.journals\.read/);
      assert.equal((await getConnection(stores.a.db, org.id))!.status, 'reconnect');
    });
  });
}
