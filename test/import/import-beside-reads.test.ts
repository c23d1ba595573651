/**
 * A large journal loads while 20 API clients read over REST (issue 36 item 7). The server runs here
 * on its own store, as `ledgerline serve` runs it (SQLite: a database file with read workers); the
 * imports are `ledgerline import ledger` processes on the same database, as an operator runs them.
 * Once the first import is writing, the clients read in a loop (one of them last used two minutes
 * ago, so its call is due a last-use stamp) and a second import starts, into another organisation.
 * No read may answer 5xx; the second import is queued (it completes; on SQLite, where there is one
 * writer, it says it is waiting for the first) or refused with a one-line message, never a crash
 * with a stack trace.
 * Before the fix, on SQLite, the idle client's stamp waited for the import's write lock on the
 * server's thread (every request stalled) and answered 503 after 5 s, and the second import died
 * with "database is locked" and a stack trace.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { createApiClient } from '../../src/auth/clients.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import { writeStamps } from '../../src/store/deferred-stamps.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { REPOSITORY_ROOT } from '../helpers/cli.js';
import { discover, oidc } from '../helpers/oauth.js';
import { sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers/store.js';

const READERS = 20;
/** ledger lines of the first import: enough that SQLite holds its write lock well past 5 s; PostgreSQL writes about three times slower */
const BIG_LINES = { sqlite: 150_000, postgres: 40_000 };
const SECOND_LINES = 3_000;

const EXPENSES = ['Rent', 'Software', 'Travel', 'Meals', 'Office', 'Marketing', 'Insurance', 'Utilities'];
const pounds = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
const day = (i: number) => new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 30) * 86_400_000).toISOString().slice(0, 10);

/** An hledger journal of sales with VAT (three lines) and purchases (two), as scripts/bench/journal.ts makes; its transaction count. */
function journal(lines: number, tag: string): { text: string; transactions: number } {
  const parts = ['account Assets:Bank:Current  ; type: C\n\n'];
  let written = 0;
  let i = 0;
  for (; written < lines; i++) {
    const net = ((i * 7919) % 250_000) + 100;
    const vat = Math.round(net / 5);
    const postings: Array<[string, number]> =
      i % 3 === 0
        ? [
            ['Assets:Accounts Receivable', net + vat],
            ['Income:Sales', -net],
            ['Liabilities:VAT', -vat],
          ]
        : [
            [`Expenses:${EXPENSES[i % EXPENSES.length]}`, net],
            ['Assets:Bank:Current', -net],
          ];
    parts.push(`${day(i)} (${tag}${i}) ${i % 3 === 0 ? 'Customer' : 'Supplier'} ${i % 97} | Entry ${i}\n`);
    for (const [account, pence] of postings) parts.push(`    ${account}  ${pence < 0 ? '-' : ''}£${pounds(Math.abs(pence))}\n`);
    parts.push('\n');
    written += postings.length;
  }
  return { text: parts.join(''), transactions: i };
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  endedAt: number;
}

/** `ledgerline import ledger` as its own process; settles when it exits. */
function importLedger(env: NodeJS.ProcessEnv, org: string, file: string): { done: Promise<Finished>; exited: () => boolean } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', 'import', 'ledger', '--org', org, '--allow-new-accounts', file], {
    cwd: REPOSITORY_ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Finished>((resolve) =>
    child.on('close', (code) => {
      exited = true;
      resolve({ code, stdout, stderr, endedAt: performance.now() });
    }),
  );
  return { done, exited: () => exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of DIALECTS) {
  describe(`a large journal loads while 20 clients read [${dialect}]`, () => {
    let dir: string;
    let store: Store;
    let env: NodeJS.ProcessEnv;
    /** true while another connection holds what the first import takes first (SQLite's write lock, the organisation's row) */
    let importIsWriting: (orgId: string) => Promise<boolean>;
    let dropSchema = async () => {};

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ledgerline-import-reads-'));
      if (dialect === 'sqlite') {
        const path = join(dir, 'books.sqlite');
        store = openStore({ sqlitePath: path, sqliteReadWorkers: 2 });
        env = { ...process.env, LEDGERLINE_SQLITE_PATH: path, DATABASE_URL: '' };
        importIsWriting = async () => {
          const probe = new SqliteDatabase(path);
          try {
            probe.pragma('busy_timeout = 0');
            probe.exec('begin immediate');
            probe.exec('rollback');
            return false;
          } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
            throw error;
          } finally {
            probe.close();
          }
        };
      } else {
        const schema = `t_${Math.random().toString(16).slice(2, 14)}`;
        const admin = openStore({ databaseUrl: TEST_DATABASE_URL, poolSize: 1 });
        await sql`create schema ${sql.id(schema)}`.execute(admin.db);
        await admin.close();
        store = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 10 });
        const url = new URL(TEST_DATABASE_URL);
        url.searchParams.set('options', `-c search_path=${schema}`);
        env = { ...process.env, DATABASE_URL: url.toString() };
        importIsWriting = async (orgId) => {
          try {
            await store.db.transaction().execute((trx) => sql`select id from organisations where id = ${orgId} for update nowait`.execute(trx));
            return false;
          } catch (error) {
            if ((error as { code?: string }).code === '55P03') return true;
            throw error;
          }
        };
        dropSchema = async () => {
          await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
        };
      }
      await migrate(store);
    });
    after(async () => {
      await dropSchema();
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('no read answers 5xx, and the second import is queued or refused with a message', async () => {
      const first = await provisionOrganisation(store.db, { name: 'Bulk Books Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
      const second = await provisionOrganisation(store.db, { name: 'Second Books Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
      const big = journal(BIG_LINES[dialect], 'B');
      const small = journal(SECOND_LINES, 'S');
      writeFileSync(join(dir, 'big.journal'), big.text);
      writeFileSync(join(dir, 'second.journal'), small.text);

      const server = await startServer(store, { rateLimits: defaultRateLimits({ perToken: 100_000, perOrganisation: 100_000 }), resultCacheBytes: 0 });
      try {
        const tokens: string[] = [];
        const clientIds: string[] = [];
        for (let i = 0; i < READERS; i++) {
          const c = await createApiClient(store.db, { organisationId: first.id, name: `Reader ${i}`, scopes: ['service.read'] });
          clientIds.push(c.clientId);
          tokens.push((await oidc.clientCredentialsGrant(await discover(server.baseUrl, c.clientId, c.clientSecret), { scope: 'service.read' })).access_token);
        }
        // every client has been used just now; then client 0's last use is put two minutes back
        for (const token of tokens) assert.equal((await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', token)).status, 200);
        await writeStamps(store.db);
        const clients = await store.db.selectFrom('oauth_clients').select(['client_id', 'last_used_at']).where('organisation_id', '=', first.id).execute();
        assert.ok(clients.length === READERS && clients.every((c) => c.last_used_at), 'every client has a last use before the import');
        const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
        await store.db.updateTable('oauth_clients').set({ last_used_at: twoMinutesAgo }).where('client_id', '=', clientIds[0]!).execute();

        const began = performance.now();
        const one = importLedger(env, first.id, join(dir, 'big.journal'));
        // writing: the lock held for half a second on end (a command's start takes SQLite's for a moment)
        let writingSince: number | null = null;
        while (writingSince === null || performance.now() - writingSince < 500) {
          if (one.exited()) assert.fail(`the first import ended before it was seen writing: ${JSON.stringify(await one.done)}`);
          assert.ok(performance.now() - began < 60_000, 'the first import was not seen writing within a minute');
          if (await importIsWriting(first.id)) writingSince ??= performance.now();
          else writingSince = null;
          await sleep(25);
        }
        const writingAt = performance.now();

        const reads: Array<{ client: number; status: number; ms: number; detail: string }> = [];
        let reading = true;
        const reader = async (client: number) => {
          while (reading) {
            const t0 = performance.now();
            const r = await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', tokens[client]!);
            reads.push({ client, status: r.status, ms: performance.now() - t0, detail: r.status >= 500 ? r.bytes.slice(0, 300) : '' });
            await sleep(50);
          }
        };
        const readers = Array.from({ length: READERS }, (_, client) => reader(client));
        const two = importLedger(env, second.id, join(dir, 'second.journal'));
        const [firstDone, secondDone] = await Promise.all([one.done, two.done]);
        // a few more reads once both have finished, then stop
        await sleep(200);
        reading = false;
        await Promise.all(readers);

        const failed = reads.filter((r) => r.status >= 500);
        const idleReads = reads.filter((r) => r.client === 0);
        const slowest = Math.max(...reads.map((r) => r.ms));
        const diagnostic =
          `${reads.length} reads, slowest ${Math.round(slowest)} ms; first import seen writing at ${Math.round(writingAt - began)} ms, exited ` +
          `at ${Math.round(firstDone.endedAt - began)} ms; ` +
          `second exited at ${Math.round(secondDone.endedAt - began)} ms with ` +
          `code ${secondDone.code}: ${[secondDone.stderr.trim(), secondDone.stdout.split('\n')[0]].filter(Boolean).join(' / ')}`;
        assert.deepEqual(failed, [], `reads that answered 5xx (${diagnostic})`);
        assert.ok(idleReads.length > 0 && idleReads.every((r) => r.status === 200), `the idle client's reads: ${JSON.stringify(idleReads.slice(0, 5))}`);
        assert.ok(reads.length >= READERS * 2, diagnostic);

        assert.equal(firstDone.code, 0, `first import: ${firstDone.stdout}${firstDone.stderr}`);
        assert.match(firstDone.stdout, new RegExp(`big\\.journal \\(journal\\): ${big.transactions} transactions .*added ${big.transactions} `));
        for (const run of [firstDone, secondDone])
          assert.doesNotMatch(run.stderr, /\n\s+at |Error:|database is locked/, `no crash or stack trace: ${run.stderr}`);
        if (secondDone.code === 0) {
          assert.match(secondDone.stdout, new RegExp(`added ${small.transactions} `), secondDone.stdout);
          // one writer on SQLite: it waited for the first, said so, and went in after it
          if (dialect === 'sqlite')
            assert.equal(
              secondDone.stderr,
              "ledgerline: second.journal: waiting for another process's write to the database to finish (another import?)\n",
              diagnostic,
            );
        } else {
          assert.match(secondDone.stderr.trim(), /^ledgerline: second\.journal: not imported: [^\n]+try again when it has finished$/, secondDone.stderr);
        }
        const count = async (organisationId: string) =>
          Number(
            (
              await store.db
                .selectFrom('acct_transactions')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('organisation_id', '=', organisationId)
                .executeTakeFirstOrThrow()
            ).n,
          );
        assert.equal(await count(first.id), big.transactions);
        assert.equal(await count(second.id), secondDone.code === 0 ? small.transactions : 0);

        // the idle client's use was noted and is written off the request path, once the writer is free
        await writeStamps(store.db);
        const stamped = await store.db.selectFrom('oauth_clients').select('last_used_at').where('client_id', '=', clientIds[0]!).executeTakeFirstOrThrow();
        assert.ok(stamped.last_used_at! > twoMinutesAgo, `the idle client's last use was written: ${stamped.last_used_at}`);
        console.log(`# ${dialect}: ${diagnostic}`);
      } finally {
        await server.close();
      }
    });
  });
}
