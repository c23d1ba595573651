/**
 * Answers reused while an organisation's data stands still (src/operations/result-cache.ts): a
 * kept answer equals a fresh computation, every kind of write (the ledger writer, an import, a
 * hand-written statement in another connection, the organisation's settings) is seen by the very
 * next call, answers never cross organisations or bank-account views, and the database's triggers
 * cover every table of organisation data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { createApiClient } from '../../src/auth/clients.js';
import { acceptsGzip, COMPRESS_FROM_BYTES } from '../../src/http/answer.js';
import { answerGzip, answerJson, keepAnswerJson, restLinks, SYNC_GZIP_UP_TO } from '../../src/http/answer-body.js';
import { registerAccountingSystem } from '../../src/accounting/index.js';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { loadConfig } from '../../src/config.js';
import { generateDemo } from '../../src/demo/generate.js';
import { importStatement } from '../../src/import/importer.js';
import { bankingAccounts } from '../../src/operations/banking-accounts.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { documentsGet } from '../../src/operations/documents-get.js';
import { runOrganisationOperation, type CallEnvironment } from '../../src/operations/execute.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { ResultCache } from '../../src/operations/result-cache.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { VERSIONED_TABLES } from '../../src/store/migrations/006-data-version.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { asUser, BASE_URL, CLIENT } from '../helpers/call.js';
import { discover, oidc } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect, openTestStore } from '../helpers/store.js';
import { fixture } from '../helpers/bank-statements.js';

const REST = restLinks(BASE_URL);

/** Tables with an organisation_id that are not the organisation's data, each with why. */
const NOT_DATA = {
  memberships: 'who may call: checked live on every call, before the cache',
  operation_roles: 'the role policy: checked live on every call, before the cache',
  audit_log: 'never part of an answer',
  idempotency_keys: 'the answers of creates already made, read only to answer a retried create (never cached)',
  accounting_connections: "a vendor connection's tokens: read on every vendor call; the vendor's books answer for themselves (changeToken)",
  accounting_connection_requests: 'a connect flow in progress (state and PKCE verifier), never part of an answer',
  accounting_mirrors: "a vendor mirror's pass state: its version is the connector's changeToken, part of every kept answer's key",
  accounting_mirror_records: 'written only by a mirror pass, which moves the mirror version (changeToken)',
  oauth_clients: 'tokens and clients: checked on every call',
  oauth_consent_organisations: 'consents: checked on every call',
  oauth_client_verifications: "organisations' verifications of apps: read by the web pages only, never part of an answer",
  oauth_client_blocks: "organisations' blocks of apps: read by the token check on every call, before the cache",
  oauth_consent_exclusions: 'consents: checked on every call',
  invitations: 'who may become a member: read by the web pages only, never part of an answer',
  acct_month_totals: 'written only with acct_lines, which moves the version',
  acct_day_totals: 'written only with acct_lines',
  acct_month_line_totals: 'written only with acct_lines',
  acct_day_line_totals: 'written only with acct_lines',
  bank_daily_totals: 'written only with bank_transactions',
  bank_month_totals: 'written only with bank_transactions',
  bank_statements: 'written only with a no-op update of its bank_accounts row (store/bank-imports.ts touchBankAccount), which moves the version',
  bank_matches: 'written only with the bank_transactions rows it matches (their match_id and status), which move the version',
  bank_imports: 'written only with a no-op update of its bank_accounts row (store/bank-imports.ts touchBankAccount), which moves the version',
  bank_narration_keys: "SQLite's search index keys (migration 026): written only by bank_transactions' triggers, whose write moves the version",
  document_supplier_keys: "SQLite's search index keys (migration 026): written only by documents' triggers, whose write moves the version",
  text_search_scopes:
    "SQLite's search index scopes (migrations 030, 032): written only by bank_transactions' and documents' triggers, whose write moves the version",
} as const;

function versionOf(store: Store, organisationId: string): Promise<string> {
  return getOrganisation(store.db, organisationId).then((row) => String(row!.data_version));
}

describeEachDialect('answers reused while the data stands still', (store) => {
  let books: Awaited<ReturnType<typeof buildBooks>>;
  let other: { id: string };
  let cache: ResultCache;
  const env = (withCache = true): CallEnvironment => ({ db: store().db, baseUrl: BASE_URL, today: TODAY, ...(withCache ? { resultCache: cache } : {}) });
  const run = (op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}, principal = CLIENT, withCache = true) =>
    runOrganisationOperation(env(withCache), op, principal, organisationId, { input }) as Promise<any>;
  /** the call through the cache, checked against a fresh computation */
  const exact = async (op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}, principal = CLIENT) => {
    const kept = await run(op, organisationId, input, principal);
    assert.deepEqual(kept, await run(op, organisationId, input, principal, false));
    return kept;
  };
  const pl = { period: 'custom', from: '2026-11-01', to: '2026-11-30' };

  it('serves a second identical call from the cache, equal to a fresh computation and as the same JSON', async () => {
    books = await buildBooks(store());
    other = await provisionOrganisation(store().db, { name: 'Other Books', homeCurrency: 'GBP', timeZone: 'UTC', fyStartMonth: 1 });
    // as the server makes it: a kept answer counted as its REST text, made once when kept (app.ts)
    cache = new ResultCache(1024 * 1024, (value) => keepAnswerJson(value, REST).length);
    const first = await exact(reportsProfitAndLoss, books.org.id, pl);
    const misses = cache.misses;
    const second = await run(reportsProfitAndLoss, books.org.id, pl);
    assert.equal(cache.misses, misses);
    assert.equal(second, first, 'the kept answer itself');
    assert.equal(answerJson(second, REST), answerJson(await run(reportsProfitAndLoss, books.org.id, pl, CLIENT, false), REST));
    await run(reportsProfitAndLoss, books.org.id, { period: 'this_month' });
    const hits = cache.hits;
    await run(reportsProfitAndLoss, books.org.id, { period: 'this_month' });
    assert.equal(cache.hits, hits + 1);
  });

  it('sees a transaction posted by the ledger writer on the very next call', async () => {
    const before = await exact(reportsProfitAndLoss, books.org.id, pl);
    const version = await versionOf(store(), books.org.id);
    const w = new LedgerWriter(store().db, store().dialect, books.org.id, 'GBP');
    await w.post({
      type: 'expense',
      date: '2026-11-18',
      description: 'Taxi',
      lines: [
        { accountId: books.ids.office, amount: 2_345 },
        { accountId: books.ids.bank, amount: -2_345 },
      ],
    });
    assert.notEqual(await versionOf(store(), books.org.id), version);
    const after = await exact(reportsProfitAndLoss, books.org.id, pl);
    assert.notDeepEqual(after, before);
  });

  it('sees an imported statement, a hand-written statement and a deletion on the very next call', async () => {
    const empty = await exact(bankingAccounts, books.org.id);
    await importStatement(store(), {
      organisation: (await getOrganisation(store().db, books.org.id))!,
      account: { create: { name: 'John Lewis card', type: 'credit_card', currency: 'GBP' } },
      fileName: 'jl.csv',
      bytes: fixture('csv/john-lewis-uk-credit-card-pending-gbp.csv'),
    });
    const accounts = await exact(bankingAccounts, books.org.id);
    assert.equal(accounts.accounts.length, empty.accounts.length + 1);
    const account = accounts.accounts.find((a: { name: string }) => a.name === 'John Lewis card');
    const input = { account: account.id, period: 'custom', from: '2019-01-01', to: '2019-12-31' };
    const listed = await exact(bankingTransactions, books.org.id, input);
    assert.equal(listed.transactions.length, 10);

    // as another process would (the CLI, another instance): straight to the database
    await sql`update bank_transactions set description = ${'Renamed by hand'} where id = ${listed.transactions[0].id}`.execute(store().db);
    const renamed = await exact(bankingTransactions, books.org.id, input);
    assert.equal(renamed.transactions[0].description, 'Renamed by hand');

    await sql`delete from document_coded_lines where document_id = ${'doc_acme'}`.execute(store().db);
    const doc = await exact(documentsGet, books.org.id, { ids: 'doc_acme' });
    assert.deepEqual(doc.documents[0].codedLines ?? [], []);
  });

  it("sees a change to the organisation's settings", async () => {
    const ytd = { period: 'ytd' };
    const before = await exact(reportsProfitAndLoss, books.org.id, ytd);
    await sql`update organisations set fy_start_month = 1 where id = ${books.org.id}`.execute(store().db);
    const after = await exact(reportsProfitAndLoss, books.org.id, ytd);
    assert.notDeepEqual(after, before);
    await sql`update organisations set fy_start_month = 4 where id = ${books.org.id}`.execute(store().db);
  });

  it("keeps answers through an update of the organisation that changes nothing (a member change's row lock)", async () => {
    const version = await versionOf(store(), books.org.id);
    // as changeMember (src/store/members.ts) locks the row
    await sql`update organisations set name = name where id = ${books.org.id}`.execute(store().db);
    assert.equal(await versionOf(store(), books.org.id), version);
    if (store().dialect.name === 'sqlite') {
      // SQLite's trigger names the columns it watches: every one of the organisation's but the version
      const columns = (await sql<{ name: string }>`select name from pragma_table_info('organisations')`.execute(store().db)).rows.map((r) => r.name);
      const trigger = (await sql<{ sql: string }>`select sql from sqlite_master where name = 'organisations_update_version'`.execute(store().db)).rows[0]!.sql;
      for (const column of columns.filter((c) => c !== 'data_version')) assert.match(trigger, new RegExp(`new\\.${column} is not old\\.${column}`), column);
    }
  });

  it("never serves one organisation's answer to another, and a write to one leaves the other's kept", async () => {
    const mine = await exact(accountsList, books.org.id);
    const theirs = await exact(accountsList, other.id);
    assert.notDeepEqual(theirs, mine);
    const hits = cache.hits;
    await new LedgerWriter(store().db, store().dialect, books.org.id, 'GBP').createContact('New Supplier', 'supplier');
    await run(accountsList, other.id);
    assert.equal(cache.hits, hits + 1);
  });

  it('keeps bank answers per view: each holder sees only their accounts, never what another saw, and a new role applies at once', async () => {
    const admin = asUser(books.users.admin.id);
    const sam = asUser(books.users.submitter.id);
    const tess = await createUser(store().db, { email: `tess-${books.org.id}@example.test`, name: 'Tess Submitter' });
    await setMembership(store().db, books.org.id, tess.id, 'submitter');
    await setRoleAllowed(store().db, books.org.id, bankingAccounts.name, 'submitter', true);
    const all = await exact(bankingAccounts, books.org.id, {}, admin);
    const card = all.accounts.find((a: { name: string }) => a.name === 'John Lewis card');
    await store()
      .db.insertInto('bank_account_holders')
      .values({ bank_account_id: card.id, organisation_id: books.org.id, user_id: books.users.submitter.id })
      .execute();
    const samSees = await exact(bankingAccounts, books.org.id, {}, sam);
    assert.deepEqual(
      samSees.accounts.map((a: { id: string }) => a.id),
      [card.id],
    );
    const tessSees = await exact(bankingAccounts, books.org.id, {}, asUser(tess.id));
    assert.deepEqual(tessSees.accounts, [], 'Tess holds no account');
    await setMembership(store().db, books.org.id, books.users.submitter.id, 'admin');
    // the role is read live on every call, before the cache: Sam now sees every account
    assert.deepEqual(await exact(bankingAccounts, books.org.id, {}, sam), await run(bankingAccounts, books.org.id, {}, admin));
    await setMembership(store().db, books.org.id, books.users.submitter.id, 'submitter');
  });

  it('keeps no failure, and reads afresh from a system that cannot say when its books change', async () => {
    let calls = 0;
    let failing = true;
    const base = (db: Parameters<Parameters<typeof registerAccountingSystem>[1]>[0], id: string) => new BuiltinAccounting(db, id);
    registerAccountingSystem('test-flaky', (db, org) =>
      Object.assign(Object.create(base(db, org.id)), {
        async chartOfAccounts() {
          calls += 1;
          if (failing) throw new Error('flaky');
          return [];
        },
      }),
    );
    registerAccountingSystem('test-untracked', (db, org) =>
      Object.assign(Object.create(base(db, org.id)), {
        changeToken: undefined,
        async chartOfAccounts() {
          calls += 1;
          return [];
        },
      }),
    );
    const flaky = await provisionOrganisation(store().db, {
      name: 'Flaky Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-flaky',
    });
    await assert.rejects(run(accountsList, flaky.id));
    failing = false;
    await run(accountsList, flaky.id);
    await run(accountsList, flaky.id);
    assert.equal(calls, 2, 'the failure was not kept; the success was');
    const untracked = await provisionOrganisation(store().db, {
      name: 'Untracked Books',
      homeCurrency: 'GBP',
      timeZone: 'UTC',
      fyStartMonth: 1,
      accountingSystem: 'test-untracked',
    });
    calls = 0;
    await run(accountsList, untracked.id);
    await run(accountsList, untracked.id);
    assert.equal(calls, 2);
  });

  it('has the database move data_version on every insert, update and delete of every table of organisation data', async () => {
    const dialect = store().dialect.name;
    const tables =
      dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select m.name from sqlite_master m where m.type = 'table' and exists (select 1 from pragma_table_info(m.name) c where c.name =
              'organisation_id')`.execute(store().db)
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.columns where table_schema = current_schema() and column_name = 'organisation_id'`.execute(
              store().db,
            )
          ).rows.map((r) => r.name);
    const unclassified = tables.filter((t) => !(VERSIONED_TABLES as readonly string[]).includes(t) && !(t in NOT_DATA));
    assert.deepEqual(unclassified, [], 'a new table with organisation_id: version it (migration) or say here why not');
    const triggers =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(store().db)).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select distinct trigger_name as name from information_schema.triggers where trigger_schema = current_schema()`.execute(
              store().db,
            )
          ).rows.map((r) => r.name);
    for (const table of VERSIONED_TABLES)
      for (const event of ['insert', 'update', 'delete']) assert.ok(triggers.includes(`${table}_${event}_version`), `${table} ${event}`);

    // and they fire, on a demo organisation, which has rows in every one of them: an update that
    // changes nothing still says the data may have changed
    const demo = (await generateDemo(store(), { date: TODAY, seed: 5, scale: 1 })).organisations[0]!.id;
    for (const table of VERSIONED_TABLES) {
      const has = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where organisation_id = ${demo}`.execute(store().db);
      assert.ok(Number(has.rows[0]!.n) > 0, `the demo has ${table} rows`);
      const version = await versionOf(store(), demo);
      const others = await versionOf(store(), books.org.id);
      await sql`update ${sql.table(table)} set organisation_id = organisation_id where organisation_id = ${demo}`.execute(store().db);
      assert.notEqual(await versionOf(store(), demo), version, table);
      assert.equal(await versionOf(store(), books.org.id), others, `${table}: another organisation's version stands`);
    }
    const version = await versionOf(store(), books.org.id);
    await sql`delete from bank_account_holders where organisation_id = ${books.org.id} and user_id = ${'nobody'}`.execute(store().db);
    assert.equal(await versionOf(store(), books.org.id), version, 'a statement that touches no row moves nothing');
  });
});

it('keeps answers within its budget, least recently used first, and computes a key once for concurrent callers', async () => {
  const cache = new ResultCache(200); // five of these answers (37 bytes with their key)
  let computed = 0;
  const answer = (n: number) => async () => {
    computed += 1;
    await new Promise((r) => setTimeout(r, 5));
    return { n, pad: 'x'.repeat(20) };
  };
  const [a, b] = await Promise.all([cache.get('a', answer(1)), cache.get('a', answer(1))]);
  assert.equal(computed, 1);
  assert.equal(a, b);
  for (const key of ['b', 'c', 'd', 'e']) await cache.get(key, answer(2));
  await cache.get('a', answer(1)); // a is now the most recently used
  await cache.get('f', answer(3));
  assert.ok(cache.usedBytes <= 200);
  computed = 0;
  await cache.get('a', answer(1));
  assert.equal(computed, 0, 'a was kept');
  await cache.get('b', answer(2));
  assert.equal(computed, 1, 'b, the least recently used, went first');
  let big = 0;
  const large = async () => ({ n: (big += 1), pad: 'x'.repeat(200) });
  await cache.get('big', large);
  await cache.get('big', large);
  assert.equal(big, 2, 'an answer over a quarter of the budget is never kept');
});

it('RESULT_CACHE_MB sets the budget, 0 turns it off, anything else is refused with the reason', () => {
  assert.equal(loadConfig({}).resultCacheBytes, 64 * 1024 * 1024);
  assert.equal(loadConfig({ RESULT_CACHE_MB: '0' }).resultCacheBytes, 0);
  assert.equal(loadConfig({ RESULT_CACHE_MB: '8' }).resultCacheBytes, 8 * 1024 * 1024);
  assert.throws(() => loadConfig({ RESULT_CACHE_MB: 'lots' }), /RESULT_CACHE_MB must be a whole number of megabytes/);
  assert.throws(() => loadConfig({ RESULT_CACHE_MB: '-1' }), /RESULT_CACHE_MB/);
});

describe('answers on the wire', () => {
  it('are gzipped when the client accepts it and they are big enough, from the kept JSON', async () => {
    const store = await openTestStore('sqlite');
    const books = await buildBooks(store);
    const server = await startServer(store, { today: TODAY });
    try {
      const client = await createApiClient(store.db, { organisationId: books.org.id, name: 'wire' });
      const token = (await oidc.clientCredentialsGrant(await discover(server.baseUrl, client.clientId, client.clientSecret), { scope: 'service.read' }))
        .access_token;
      const get = (path: string, acceptEncoding?: string) =>
        server.app.inject({
          method: 'GET',
          url: path,
          headers: { authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
        });
      const plain = await get('/v1/operations/accounts.list');
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.body.length > COMPRESS_FROM_BYTES);
      for (const accept of ['gzip', 'br;q=1, gzip;q=0.5', '*']) {
        const zipped = await get('/v1/operations/accounts.list', accept);
        assert.equal(zipped.headers['content-encoding'], 'gzip', accept);
        assert.equal(zipped.headers.vary, 'accept-encoding');
        assert.equal(zipped.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body);
      }
      for (const accept of ['gzip;q=0', 'br', 'identity', '*;q=0'])
        assert.equal((await get('/v1/operations/accounts.list', accept)).headers['content-encoding'], undefined, accept);
      assert.equal(plain.headers.vary, 'accept-encoding');
      const head = await server.app.inject({
        method: 'HEAD',
        url: '/v1/operations/accounts.list',
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
      });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      const refused = await get('/v1/operations/accounts.list?type=nonsense', 'gzip');
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.headers['content-encoding'], undefined, 'problems go as they are');
      assert.equal(refused.json().code, 'invalid_request');
      const small = await get('/v1/operations/banking.accounts', 'gzip');
      assert.ok(small.body.length < COMPRESS_FROM_BYTES);
      assert.equal(small.headers['content-encoding'], undefined);
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('a throwaway answer gzips to its own JSON, small ones on the calling thread and large ones in the thread pool alike', async () => {
    for (const rows of [40, 6_000]) {
      const answer = { rows: Array.from({ length: rows }, (_, i) => ({ id: `row_${i}`, amount: i * 1.25, note: 'é€ "quoted"' })) };
      const json = answerJson(answer, restLinks(BASE_URL));
      assert.ok(rows === 40 ? json.length < SYNC_GZIP_UP_TO : json.length > SYNC_GZIP_UP_TO, `${json.length} characters`);
      assert.equal(gunzipSync(await answerGzip(answer, json)).toString('utf8'), json);
    }
  });

  it('reads Accept-Encoding as RFC 9110 says', () => {
    assert.equal(acceptsGzip(undefined), false);
    assert.equal(acceptsGzip('gzip, deflate, br'), true);
    assert.equal(acceptsGzip('GZIP;Q=0.3'), true);
    assert.equal(acceptsGzip('x-gzip'), true);
    assert.equal(acceptsGzip('gzip;q=0, *'), false);
    assert.equal(acceptsGzip('br, *;q=0.1'), true);
    assert.equal(acceptsGzip('deflate'), false);
    assert.equal(acceptsGzip('gzip;q=abc'), false);
    assert.equal(acceptsGzip('gzip;q=0.000'), false);
    assert.equal(acceptsGzip('gzip;q=0.001'), true);
  });
});
