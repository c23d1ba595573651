/**
 * Membership by invitation (issue 36, finding 2): nobody is made a member without accepting; the
 * invite form answers the same whether or not the address has a sign-in; someone new chooses a
 * password through the link, someone known signs in to accept, and a link never sets an existing
 * account's password; "all organisations" covers organisations the person joins themselves, not
 * ones they were put in; an organisation admin's disconnect takes only that organisation out of a
 * connection. Black-box: the real server on a port, its pages and forms, openid-client, REST.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { registerApp } from '../../src/auth/clients.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, getMembership, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { api, connect, discover } from '../helpers/oauth.js';
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

async function signIn(base: string, email: string, password = PASSWORD): Promise<Browser> {
  const browser = new Browser(base);
  await browser.follow('/signin');
  const page = await browser.submit({ email, password });
  assert.equal(page.url, `${base}/account`, `${email} signs in`);
  return browser;
}

/** The link shown once on the members page after inviting. */
const linkOf = (body: string) => decode(/id="invitation-link" type="text" readonly value="([^"]+)"/.exec(body)?.[1] ?? '');

for (const dialect of DIALECTS) {
  describe(`membership by invitation [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let admin: Browser;
    let known: { id: string; email: string };
    const members = () => `/orgs/${books.org.id}/members`;

    async function invite(email: string, role = 'submitter', by = admin) {
      await by.follow(members());
      return by.submit({ email, role }, { action: `${members()}/invite` });
    }

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      const passwordHash = await hash(PASSWORD);
      await store.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', books.users.admin.id).execute();
      known = await createUser(store.db, { email: 'known@example.test', name: 'Known Person', passwordHash });
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
      admin = await signIn(base, books.users.admin.email);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('the invite form answers the same whether or not the address has a sign-in, and adds no one', async () => {
      const forKnown = await invite('Known@Example.test');
      const forNew = await invite('stranger@example.test');
      assert.equal(forKnown.response.status, 200);
      assert.equal(forNew.response.status, 200);
      const same = (body: string, email: string) =>
        body
          .replaceAll(email, 'EMAIL')
          .replace(/\/invitations\/[\w-]+/g, '/invitations/LINK')
          .replace(/value="csrf[^"]*"|name="csrf" value="[^"]*"/g, '')
          .replace(/inv_\w+/g, 'inv_ID')
          .replace(/<tr>[\s\S]*?<\/tr>/g, '');
      assert.equal(same(forKnown.body, 'known@example.test'), same(forNew.body, 'stranger@example.test'), 'one page for both');
      assert.match(linkOf(forKnown.body), new RegExp(`^${base}/invitations/[\\w-]{30,}$`));
      assert.equal(await getMembership(store.db, books.org.id, known.id), undefined, 'not a member until they accept');
      const pending = (await admin.follow(members())).body;
      const list = pending.slice(pending.indexOf('Invitations not yet accepted'));
      assert.ok(list.includes('known@example.test') && list.includes('stranger@example.test'), 'both listed as not yet accepted');
    });

    it('a known person signs in and accepts; the link works once; another signed-in person cannot use it', async () => {
      const link = linkOf((await invite('known@example.test', 'admin')).body);
      // signed in as someone else: told it is not theirs, and accepting is refused
      const other = await signIn(base, books.users.admin.email);
      const wrong = await other.follow(link);
      assert.match(wrong.body, /This invitation is for someone else/);
      assert.doesNotMatch(wrong.body, /Accept and join/);
      const csrf = decode(/name="csrf" value="([^"]+)"/.exec((await other.follow('/account')).body)![1]!);
      const refused = await other.request(`${link}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ csrf }),
      });
      assert.equal(refused.status, 403);

      // signed out: sign in through the page, come back, accept
      const person = new Browser(base);
      const opened = await person.follow(link);
      assert.match(opened.body, /invites <strong>known@example\.test<\/strong> to join <strong>Test Books Ltd<\/strong> as Admin/);
      const signin = await person.follow(decode(/href="(\/signin\?next=[^"]+)"/.exec(opened.body)![1]!));
      const back = await person.submit({ email: 'known@example.test', password: PASSWORD });
      assert.equal(back.url, link, 'back at the invitation');
      assert.ok(signin.body.length > 0);
      const accepted = await person.submit({}, { action: `${new URL(link).pathname}/accept` });
      assert.equal(accepted.url, `${base}/account?done=joined`);
      assert.match(accepted.body, /You accepted the invitation/);
      assert.deepEqual(await getMembership(store.db, books.org.id, known.id), { role: 'admin' });
      const again = await person.follow(link);
      assert.equal(again.response.status, 404, 'a used link is not valid any more');
      assert.match(again.body, /not valid any more/);
    });

    it('someone new chooses a password through the link and is signed in as a member; a link never sets a known account’s password', async () => {
      const link = linkOf((await invite('newbie@example.test', 'submitter')).body);
      const person = new Browser(base);
      const page = await person.follow(link);
      assert.match(page.body, /New to Ledgerline\?/);
      const short = await person.submit({ name: 'New Bie', password: 'short' }, { action: `${new URL(link).pathname}/join` });
      assert.equal(short.response.status, 400);
      assert.match(short.body, /at least 10 characters/);
      const joined = await person.submit({ name: 'New Bie', password: 'a new long password' }, { action: `${new URL(link).pathname}/join` });
      assert.equal(joined.url, `${base}/account?done=joined`);
      const user = await store.db.selectFrom('users').selectAll().where('email', '=', 'newbie@example.test').executeTakeFirstOrThrow();
      assert.deepEqual(await getMembership(store.db, books.org.id, user.id), { role: 'submitter' });
      await signIn(base, 'newbie@example.test', 'a new long password');

      // an invitation to an address with a sign-in: the new-password form is refused, the password stays
      const knownLink = linkOf((await invite('known@example.test')).body);
      const attacker = new Browser(base);
      await attacker.follow(knownLink);
      const taken = await attacker.submit({ name: 'Mallory', password: 'attacker password 1' }, { action: `${new URL(knownLink).pathname}/join` });
      assert.equal(taken.response.status, 409);
      assert.match(taken.body, /has a Ledgerline sign-in already: sign in with it to accept/);
      await signIn(base, 'known@example.test', PASSWORD);
      // a post from another site is refused before anything
      const foreign = await fetch(`${knownLink}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: 'name=x&password=xxxxxxxxxxxx',
      });
      assert.equal(foreign.status, 403);
    });

    it('an admin cannot invite a super admin; a withdrawn or replaced link stops working', async () => {
      const submitterAdmin = books.users.admin;
      assert.equal((await getMembership(store.db, books.org.id, submitterAdmin.id))?.role, 'admin');
      const tooHigh = await invite('someone@example.test', 'super_admin');
      assert.equal(tooHigh.response.status, 403);
      const bad = await invite('not an email');
      assert.equal(bad.response.status, 400);

      const first = linkOf((await invite('later@example.test')).body);
      const second = linkOf((await invite('later@example.test')).body);
      assert.equal((await fetch(first)).status, 404, 'inviting again replaces the link');
      assert.equal((await fetch(second)).status, 200);
      const page = await admin.follow(members());
      const withdraw = /action="(\/orgs\/[^"]+\/invitations\/inv_\w+\/withdraw)"[\s\S]*?<\/form><\/td>\s*<\/tr>/.exec(
        page.body.slice(page.body.indexOf('later@example.test')),
      )![1]!;
      const done = await admin.submit({}, { action: withdraw });
      assert.match(done.body, /Invitation withdrawn/);
      assert.equal((await fetch(second)).status, 404);
    });

    it(
      '"all organisations" covers an organisation the person joins by invitation, not one they were put in; an admin’s disconnect takes out their ' +
        'organisation only',
      async () => {
        const app = await registerApp(store.db, { name: 'Assistant', redirectUris: [REDIRECT] });
        const config = await discover(base, app.clientId);
        const second = await provisionOrganisation(store.db, { name: 'Second Org', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
        await setMembership(store.db, second.id, known.id, 'super_admin', 'operator');
        const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: 'known@example.test', password: PASSWORD, organisations: 'all' });
        const read = (org: string) => api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': org });
        assert.equal((await read(books.org.id)).status, 200);
        assert.equal((await read(second.id)).status, 200);

        // a stranger makes an organisation and puts the person in it: not covered, and its admin does not see the connection
        const strangerOrg = await provisionOrganisation(store.db, { name: 'Stranger Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
        await setMembership(store.db, strangerOrg.id, books.users.admin.id, 'super_admin', 'creator');
        await setMembership(store.db, strangerOrg.id, known.id, 'submitter', 'operator');
        const putIn = await read(strangerOrg.id);
        assert.equal(putIn.status, 403);
        assert.equal(putIn.body.code, 'organisation_not_approved');
        const listing = await admin.follow(`/orgs/${strangerOrg.id}/connections`);
        assert.doesNotMatch(listing.body, /known@example\.test/, "the stranger's admin does not see the person's connection");
        assert.equal((await admin.follow(`/orgs/${strangerOrg.id}/connections/${encodeURIComponent('x')}/revoke`)).response.status, 404);

        // joined by accepting an invitation: covered
        const third = await provisionOrganisation(store.db, { name: 'Third Org', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
        await setMembership(store.db, third.id, books.users.admin.id, 'super_admin', 'creator');
        await admin.follow(`/orgs/${third.id}/members`);
        const invited = await admin.submit({ email: 'known@example.test', role: 'submitter' }, { action: `/orgs/${third.id}/members/invite` });
        const person = await signIn(base, 'known@example.test');
        const thirdLink = linkOf(invited.body);
        await person.follow(thirdLink);
        await person.submit({}, { action: `${new URL(thirdLink).pathname}/accept` });
        assert.equal((await read(third.id)).status, 200, 'covered once accepted');

        // Test Books Ltd's admin disconnects the connection: out of Test Books Ltd only
        const connections = await admin.follow(`/orgs/${books.org.id}/connections`);
        const revoke = decode(
          /href="(\/orgs\/[^"]+\/connections\/[^"]+\/revoke)"/.exec(connections.body.slice(connections.body.indexOf('known@example.test')))![1]!,
        );
        const confirm = await admin.follow(revoke);
        assert.match(confirm.body, /goes on working there/);
        const done = await admin.submit({}, { action: revoke });
        assert.match(done.body, /Disconnected for this organisation/);
        assert.equal((await read(books.org.id)).status, 403, 'refused for the organisation that disconnected it');
        assert.equal((await read(second.id)).status, 200, "the person's other organisations keep the connection");
        assert.equal((await read(third.id)).status, 200);
        assert.doesNotMatch((await admin.follow(`/orgs/${books.org.id}/connections`)).body, /known@example\.test/);
        assert.match((await person.follow('/account')).body, /Assistant/, 'still on their own account page');
      },
    );
  });
}
