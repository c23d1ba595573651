/**
 * The consent screen says no more than is true. Write access starts unticked and keeps the
 * person's choice (and the organisations they ticked) when the page comes back with an error. An
 * app verified by one organisation's admins reads as verified to that organisation's members only;
 * the operator's `ledgerline apps verify` makes it verified for everyone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import * as m008 from '../../src/store/migrations/008-client-verifications.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { runLedgerline } from '../helpers/cli.js';
import { authorizationRequest, discover, oidc } from '../helpers/oauth.js';
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

const VERIFIED = /<h1>[^<]*<span class="badge verified">Verified app<\/span><\/h1>/;
const UNVERIFIED = /<h1>[^<]*<span class="badge unverified">Unverified app<\/span><\/h1>/;

/** A self-registered app (RFC 7591), as an assistant registers itself. */
async function selfRegistered(base: string, name: string) {
  return oidc.dynamicClientRegistration(
    new URL(base),
    { redirect_uris: [REDIRECT], client_name: name, grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' },
    oidc.None(),
    { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
  );
}

/** Signs in through the authorization request and stops at the consent screen. */
async function untilConsent(base: string, config: oidc.Configuration, email: string, scope = 'service.read') {
  const { url, verifier, state } = await authorizationRequest(config, REDIRECT, scope);
  const browser = new Browser(base);
  await browser.follow(url.href);
  const page = await browser.submit({ email, password: PASSWORD });
  assert.match(page.body, /name="decision"/, `${email} reaches the consent screen`);
  return { browser, page, verifier, state };
}

/** What a browser sends for the form on the page: hidden fields, ticked boxes as they stand, and what the person changed. */
function submitAsBrowser(browser: Browser, changes: { tick?: [string, string][]; untick?: string[]; decision?: string }) {
  const page = browser.lastPage;
  const body = new URLSearchParams();
  for (const [input] of page.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input!)?.[1];
    const value = decode(/value="([^"]*)"/.exec(input!)?.[1] ?? '');
    if (!name) continue;
    if (/type="checkbox"/.test(input!)) {
      const ticked = /\schecked/.test(input!) || (changes.tick ?? []).some(([n, v]) => n === name && v === value);
      if (!ticked || (changes.untick ?? []).includes(name)) continue;
    }
    body.append(name, value);
  }
  body.append('decision', changes.decision ?? 'approve');
  const action = decode(/<form[^>]*action="([^"]+)"/.exec(page)![1]!);
  return browser.follow(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin }, body });
}

const checkbox = (page: string, name: string, value: string) =>
  new RegExp(`<input type="checkbox" name="${name}" value="${value}"[^>]*>`).exec(page)?.[0] ?? '';

async function signIn(base: string, email: string): Promise<Browser> {
  const browser = new Browser(base);
  await browser.follow('/signin');
  const page = await browser.submit({ email, password: PASSWORD });
  assert.equal(page.response.status, 200, `${email} signs in`);
  return browser;
}

for (const dialect of DIALECTS) {
  describe(`consent screen [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let orgB: { id: string; name: string };
    const user = async (email: string, orgs: string[]) => {
      const u = await createUser(store.db, { email, name: email.split('@')[0]!, passwordHash: await hash(PASSWORD) });
      for (const o of orgs) await setMembership(store.db, o, u.id, 'submitter');
      return u;
    };

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      orgB = await provisionOrganisation(store.db, { name: 'Second Org', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .where('id', '=', books.users.admin.id)
        .execute();
      await user('both@example.test', [books.org.id, orgB.id]);
      await user('a-member@example.test', [books.org.id]);
      await user('a-other@example.test', [books.org.id]);
      await user('b-member@example.test', [orgB.id]);
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('write access starts unticked, also for an unverified app', async () => {
      const config = await selfRegistered(base, 'Writer');
      const { page } = await untilConsent(base, config, 'both@example.test', 'service.read service.write');
      assert.match(page.body, UNVERIFIED);
      const write = checkbox(page.body, 'write', '1');
      assert.ok(write, 'write is offered');
      assert.doesNotMatch(write, /checked/, 'write starts unticked');
    });

    it('after an error the page keeps the ticks the person made: write and the organisations', async () => {
      const config = await selfRegistered(base, 'Keeper');
      const { browser } = await untilConsent(base, config, 'both@example.test', 'service.read service.write');
      // write ticked, no organisation: refused, and write stays ticked
      const noOrg = await submitAsBrowser(browser, { tick: [['write', '1']] });
      assert.equal(noOrg.response.status, 400);
      assert.match(noOrg.body, /Pick at least one organisation/);
      assert.match(checkbox(noOrg.body, 'write', '1'), /checked/, 'write stays ticked');
      // an organisation the person does not belong to beside one they do: refused, theirs stays ticked
      const body = new URLSearchParams();
      for (const [, name, value] of noOrg.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) body.append(name!, decode(value!));
      body.append('organisation', books.org.id);
      body.append('organisation', 'org_not_mine');
      body.append('decision', 'approve');
      const action = decode(/<form[^>]*action="([^"]+)"/.exec(noOrg.body)![1]!);
      const wrongOrg = await browser.follow(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base }, body });
      assert.equal(wrongOrg.response.status, 400);
      assert.match(wrongOrg.body, /only pick organisations you belong to/);
      assert.match(checkbox(wrongOrg.body, 'organisation', books.org.id), /checked/, 'the organisation stays ticked');
      assert.doesNotMatch(checkbox(wrongOrg.body, 'organisation', orgB.id), /checked/);
      assert.doesNotMatch(checkbox(wrongOrg.body, 'write', '1'), /checked/, 'write was not ticked this time');
    });

    it('approving the page as it comes gives no write access', async () => {
      const config = await selfRegistered(base, 'Defaults');
      const { browser, verifier, state } = await untilConsent(base, config, 'a-member@example.test', 'service.read service.write');
      const done = await submitAsBrowser(browser, {});
      assert.ok(done.url.startsWith(REDIRECT), `back to the app: ${done.response.status} ${done.body.slice(0, 200)}`);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(done.url), { pkceCodeVerifier: verifier, expectedState: state });
      assert.deepEqual(tokens.scope?.split(' ').sort(), ['service.read']);
    });

    it("an admin's verification reads as verified to that organisation's members only", async () => {
      const config = await selfRegistered(base, 'Org Assistant');
      const clientId = config.clientMetadata().client_id;
      // a member of A connects it, so it shows among A's apps
      const first = await untilConsent(base, config, 'a-member@example.test');
      assert.match(first.page.body, UNVERIFIED);
      await submitAsBrowser(first.browser, {});
      // A's admin verifies it
      const admin = await signIn(base, books.users.admin.email);
      const apps = await admin.follow(`/orgs/${books.org.id}/apps`);
      assert.match(apps.body, new RegExp(`/apps/${clientId}/verify`));
      const verified = await admin.submit({}, { action: `/orgs/${books.org.id}/apps/${clientId}/verify` });
      assert.equal(verified.response.status, 200);
      assert.match(verified.body, /App verified/);
      assert.match(verified.body, /App verified for this organisation/);
      const row = await store.db.selectFrom('oauth_clients').select('verified').where('client_id', '=', clientId).executeTakeFirstOrThrow();
      assert.equal(row.verified, 0, 'the operator-level mark is untouched');

      // a member of B only: not verified
      const b = await untilConsent(base, config, 'b-member@example.test');
      assert.match(b.page.body, UNVERIFIED);
      assert.doesNotMatch(b.page.body, /Test Books Ltd/, "nothing of A's is shown to B");
      // another member of A: verified, by A
      const a = await untilConsent(base, config, 'a-other@example.test');
      assert.match(a.page.body, VERIFIED);
      assert.match(a.page.body, /Verified by the admins of Test Books Ltd/);
      // a member of both: not verified as a whole, A's verification said beside A
      const both = await untilConsent(base, config, 'both@example.test');
      assert.match(both.page.body, UNVERIFIED);
      assert.match(both.page.body, /has not been checked by the admins of Second Org/);
      assert.match(
        both.page.body,
        new RegExp(`value="${books.org.id}"> <span>Test Books Ltd</span> <span class="muted small">\\(verified by its admins\\)</span>`),
      );
      assert.doesNotMatch(both.page.body, /Second Org<\/span> <span class="muted small">/);
      // the pages that list connections say the same: verified for A's member and on A's page, not for B's
      const aAccount = await (await signIn(base, 'a-member@example.test')).follow('/account');
      assert.match(aAccount.body, /Org Assistant <span class="badge verified">Verified app<\/span>/);
      const aConnections = await admin.follow(`/orgs/${books.org.id}/connections`);
      assert.match(aConnections.body, /Org Assistant <span class="badge verified">Verified app<\/span>/);
      // B's admins see it unverified on their own page too (once a member of B connects it)
      await submitAsBrowser(b.browser, {});
      const bAccount = await (await signIn(base, 'b-member@example.test')).follow('/account');
      assert.match(bAccount.body, /Org Assistant <span class="badge unverified">Unverified app<\/span>/);
      const bAdmin = await user('b-admin@example.test', []);
      await setMembership(store.db, orgB.id, bAdmin.id, 'admin');
      const bApps = await (await signIn(base, 'b-admin@example.test')).follow(`/orgs/${orgB.id}/apps`);
      assert.match(bApps.body, /Org Assistant <span class="badge unverified">Unverified app<\/span>/);
      assert.match(bApps.body, new RegExp(`/apps/${clientId}/verify`));
    });

    it("an app an organisation's admin registers is verified for that organisation only", async () => {
      const admin = await signIn(base, books.users.admin.email);
      await admin.follow(`/orgs/${books.org.id}/apps`);
      const created = await admin.submit({ name: 'Month-end Pack', redirect_uris: REDIRECT }, { action: `/orgs/${books.org.id}/apps` });
      assert.match(created.body, /App registered/);
      const row = await store.db.selectFrom('oauth_clients').select(['client_id', 'verified']).where('name', '=', 'Month-end Pack').executeTakeFirstOrThrow();
      assert.equal(row.verified, 0);
      const config = await discover(base, row.client_id);
      assert.match((await untilConsent(base, config, 'a-other@example.test')).page.body, VERIFIED);
      assert.match((await untilConsent(base, config, 'b-member@example.test')).page.body, UNVERIFIED);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`migration 008 moves organisations' verifications to their own rows [${dialect}]`, () => {
    let store: Store;
    before(async () => {
      store = await openTestStore(dialect);
    });
    after(async () => {
      await store?.close();
    });

    it('keeps each organisation its own verification, found in the audit log; clears what no one can be found for; the operator keeps theirs', async () => {
      const a = await provisionOrganisation(store.db, { name: 'A Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
      const b = await provisionOrganisation(store.db, { name: 'B Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
      // the data as it stood before: an organisation's "Verify" set the global mark
      await sql`drop table oauth_client_verifications`.execute(store.db);
      const client = (client_id: string, kind: string, organisation_id: string | null, verified: number) => ({
        client_id,
        kind,
        organisation_id,
        name: client_id,
        verified,
        blocked: 0,
        metadata: '{}',
        secret_hash: null,
        created_by: organisation_id ? 'usr_admin_a' : null,
        created_at: '2026-01-01T00:00:00.000Z',
        last_used_at: null,
      });
      await store.db
        .insertInto('oauth_clients')
        .values([
          client('dyn_by_a_and_b', 'dynamic', null, 1),
          client('dyn_unknown', 'dynamic', null, 1),
          client('https://cimd.example/app', 'metadata_document', null, 1),
          client('dyn_never', 'dynamic', null, 0),
          client('app_of_a', 'app', a.id, 1),
          client('app_of_operator', 'app', null, 1),
        ])
        .execute();
      const audit = (organisation_id: string, actor_user_id: string, target: string, created_at: string) => ({
        id: `aud_${target}_${organisation_id}_${created_at}`,
        organisation_id,
        actor_user_id,
        action: 'app.verified',
        target,
        detail: '{}',
        created_at,
      });
      await store.db
        .insertInto('audit_log')
        .values([
          audit(a.id, 'usr_admin_a', 'dyn_by_a_and_b', '2026-02-01T00:00:00.000Z'),
          audit(b.id, 'usr_admin_b', 'dyn_by_a_and_b', '2026-03-01T00:00:00.000Z'),
          audit(b.id, 'usr_admin_b', 'https://cimd.example/app', '2026-03-02T00:00:00.000Z'),
          audit(a.id, 'usr_admin_a', 'dyn_never', '2026-03-03T00:00:00.000Z'),
        ])
        .execute();
      await m008.up(store.db, store.dialect);

      const rows = await store.db.selectFrom('oauth_client_verifications').selectAll().orderBy('client_id').orderBy('verified_at').execute();
      assert.deepEqual(
        rows.map((r) => [r.client_id, r.organisation_id, r.verified_by, r.verified_at]),
        [
          ['app_of_a', a.id, 'usr_admin_a', '2026-01-01T00:00:00.000Z'],
          ['dyn_by_a_and_b', a.id, 'usr_admin_a', '2026-02-01T00:00:00.000Z'],
          ['dyn_by_a_and_b', b.id, 'usr_admin_b', '2026-03-01T00:00:00.000Z'],
          ['https://cimd.example/app', b.id, 'usr_admin_b', '2026-03-02T00:00:00.000Z'],
        ],
      );
      const marks = await store.db.selectFrom('oauth_clients').select(['client_id', 'verified']).orderBy('client_id').execute();
      assert.deepEqual(Object.fromEntries(marks.map((m) => [m.client_id, m.verified])), {
        app_of_a: 0,
        app_of_operator: 1,
        dyn_by_a_and_b: 0,
        dyn_never: 0,
        dyn_unknown: 0,
        'https://cimd.example/app': 0,
      });
    });
  });
}

describe('ledgerline apps verify: the operator verifies an app for everyone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-verify-'));
  const file = join(dir, 'verify.sqlite');
  const env = { ...process.env, LEDGERLINE_SQLITE_PATH: file, DATABASE_URL: '' };
  const ledgerline = (args: string[]) => runLedgerline(args, { env });
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;

  before(async () => {
    store = openStore({ sqlitePath: file });
    await migrate(store);
    const org = await provisionOrganisation(store.db, { name: 'Only Org', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    const u = await createUser(store.db, { email: 'member@example.test', name: 'Member', passwordHash: await hash(PASSWORD) });
    await setMembership(store.db, org.id, u.id, 'submitter');
    server = await startServer(store, { today: TODAY });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('apps verify makes a self-registered app verified on every consent screen; apps unverify takes it back', async () => {
    const config = await selfRegistered(server.baseUrl, 'Everyone Assistant');
    const clientId = config.clientMetadata().client_id;
    assert.match((await untilConsent(server.baseUrl, config, 'member@example.test')).page.body, UNVERIFIED);
    const verify = ledgerline(['apps', 'verify', clientId]);
    assert.equal(verify.status, 0, verify.stderr);
    assert.deepEqual(JSON.parse(verify.stdout), { client_id: clientId, name: 'Everyone Assistant', verified: true });
    const page = (await untilConsent(server.baseUrl, config, 'member@example.test')).page.body;
    assert.match(page, VERIFIED);
    assert.doesNotMatch(page, /has not been checked/);
    const audit = await store.db.selectFrom('audit_log').select(['action', 'organisation_id']).where('target', '=', clientId).execute();
    assert.deepEqual(audit, [{ action: 'app.verified_by_operator', organisation_id: null }]);
    const unverify = ledgerline(['apps', 'unverify', clientId]);
    assert.equal(unverify.status, 0, unverify.stderr);
    assert.match((await untilConsent(server.baseUrl, config, 'member@example.test')).page.body, UNVERIFIED);
    const unknown = ledgerline(['apps', 'verify', 'dyn_no_such_app']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no app dyn_no_such_app/);
  });

  it('apps block keeps everyone from connecting the app; apps unblock takes it back', async () => {
    const config = await selfRegistered(server.baseUrl, 'Blocked Assistant');
    const clientId = config.clientMetadata().client_id;
    const block = ledgerline(['apps', 'block', clientId]);
    assert.equal(block.status, 0, block.stderr);
    assert.deepEqual(JSON.parse(block.stdout), { client_id: clientId, name: 'Blocked Assistant', blocked: true });
    const refused = await untilConsent(server.baseUrl, config, 'member@example.test').catch((e: Error) => e);
    assert.ok(refused instanceof Error || !/name="decision"/.test(refused.page.body), 'no consent screen for a blocked app');
    const unblock = ledgerline(['apps', 'unblock', clientId]);
    assert.equal(unblock.status, 0, unblock.stderr);
    assert.match((await untilConsent(server.baseUrl, config, 'member@example.test')).page.body, UNVERIFIED);
    const audit = await store.db.selectFrom('audit_log').select('action').where('target', '=', clientId).orderBy('created_at').execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['app.blocked_by_operator', 'app.unblocked_by_operator'],
    );
    assert.equal(ledgerline(['apps', 'block']).status, 2, 'usage');
  });
});
