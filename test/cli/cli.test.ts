/** The ledgerline command, run as a process against a SQLite file, as an operator would. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { openStore } from '../../src/store/db.js';
import { listAudit } from '../../src/store/audit-log.js';
import { auditActor, auditSentence } from '../../src/web/words.js';
import { runLedgerline } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-cli-'));
const env = { ...process.env, LEDGERLINE_SQLITE_PATH: join(dir, 'cli.sqlite'), DATABASE_URL: '' };

function ledgerline(args: string[], input?: string) {
  const r = runLedgerline(args, { env, input });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

describe('ledgerline command', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));
  let orgId = '';

  it('migrates, creates an organisation, a user and a membership', () => {
    assert.match(ledgerline(['migrate']).stdout, /applied: 001-initial, 002-oauth|database is up to date/);
    const org = ledgerline([
      'orgs',
      'create',
      '--name',
      'Cli Ltd',
      '--currency',
      'gbp',
      '--timezone',
      'Europe/London',
      '--financial-year-start',
      '4',
      '--json',
    ]);
    assert.equal(org.status, 0, org.stderr);
    orgId = org.json().id;
    assert.equal(org.json().currency, 'GBP');
    const bad = ledgerline(['orgs', 'create', '--name', 'X', '--currency', 'ABC', '--timezone', 'Mars/Olympus', '--financial-year-start', '13']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /ISO 4217.*IANA time zone.*1 to 12/);
    const user = ledgerline(['users', 'create', '--email', 'Op@Example.test', '--name', 'Op Erator', '--password-stdin'], 'a long enough password\n');
    assert.equal(user.status, 0, user.stderr);
    assert.deepEqual([user.json().email, user.json().password], ['op@example.test', true]);
    const short = ledgerline(['users', 'create', '--email', 'x@example.test', '--name', 'X', '--password-stdin'], 'short\n');
    assert.equal(short.status, 2);
    assert.equal(ledgerline(['members', 'add', '--org', 'Cli Ltd', '--email', 'op@example.test', '--role', 'submitter']).status, 0);
    assert.equal(ledgerline(['members', 'add', '--org', orgId, '--email', 'op@example.test', '--role', 'owner']).status, 2);
    const list = ledgerline(['orgs', 'list', '--json']);
    assert.deepEqual(
      list.json().map((o: any) => o.name),
      ['Cli Ltd'],
    );
  });

  it('calls operations as the organisation or as a member, with text parameters and typed errors', () => {
    const pl = ledgerline(['call', 'reports.profit_and_loss', '--org', 'Cli Ltd', '--today', '2026-11-21', 'period=ytd', 'comparePeriods=2']);
    assert.equal(pl.status, 0, pl.stderr);
    assert.deepEqual(
      pl.json().periods.map((p: any) => p.from),
      ['2026-04-01', '2025-04-01', '2024-04-01'],
    );
    const asMember = ledgerline(['call', 'ledger.account_transactions', '--org', 'Cli Ltd', '--as', 'op@example.test', 'account=Rent']);
    assert.equal(asMember.status, 1);
    assert.equal(JSON.parse(asMember.stderr).code, 'role_not_allowed');
    const invalid = ledgerline(['call', 'accounts.list', '--org', 'Cli Ltd', 'includeInactive=perhaps', 'colour=red']);
    assert.equal(invalid.status, 1);
    assert.deepEqual(
      JSON.parse(invalid.stderr)
        .errors.map((e: any) => e.parameter)
        .sort(),
      ['colour', 'includeInactive'],
    );
    const orgs = ledgerline(['call', 'organisations', '--as', 'op@example.test']);
    assert.deepEqual(orgs.json().organisations, [{ id: orgId, name: 'Cli Ltd' }]);
    // without --as it is the organisation's own client, as a client-credentials token is over REST
    const asClient = ledgerline(['call', 'organisations', '--org', 'Cli Ltd']);
    assert.deepEqual(asClient.json(), { organisations: [{ id: orgId, name: 'Cli Ltd' }], allOrganisations: false, organisationRequired: false });
    const nobody = ledgerline(['call', 'organisations']);
    assert.equal(nobody.status, 2);
    assert.match(nobody.stderr, /give --as EMAIL \(a user\) or --org ORG/);
    assert.equal(ledgerline(['call', 'no.such', '--org', 'Cli Ltd']).status, 2);
  });

  it('pages the ledger with page=N, and refuses a page that is not a whole number of at least 1, naming it', async () => {
    const store = openStore({ sqlitePath: env.LEDGERLINE_SQLITE_PATH! });
    try {
      const w = new LedgerWriter(store.db, store.dialect, orgId, 'GBP');
      const rent = (await w.createAccount({ name: 'Rent', type: 'Expense' })).id;
      const bank = (await w.createAccount({ name: 'Current', type: 'Bank' })).id;
      for (const [date, pence] of [
        ['2026-09-01', 100_000],
        ['2026-10-01', 110_000],
        ['2026-11-01', 120_000],
      ] as const) {
        await w.post({
          type: 'expense',
          date,
          description: `Rent ${date}`,
          lines: [
            { accountId: rent, amount: pence },
            { accountId: bank, amount: -pence },
          ],
        });
      }
    } finally {
      await store.close();
    }
    const call = (...args: string[]) =>
      ledgerline(['call', 'ledger.account_transactions', '--org', 'Cli Ltd', '--today', '2026-11-21', 'account=Rent', ...args]);
    const second = call('limit=2', 'page=2');
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual(
      [second.json().transactions.map((t: any) => [t.date, t.amount]), second.json().page, second.json().hasMore, second.json().count, second.json().total],
      [[['2026-09-01', 1000]], 2, false, 3, 3300],
    );
    const bad = call('page=0');
    assert.equal(bad.status, 1);
    assert.deepEqual(JSON.parse(bad.stderr).errors, [{ parameter: 'page', message: 'must be a whole number of at least 1' }]);
  });

  it('creates, lists and revokes API clients, and registers apps', () => {
    const created = ledgerline(['clients', 'create', '--org', 'Cli Ltd', '--name', 'Export', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const { client_id, client_secret } = created.json();
    assert.match(client_secret, /^lls_/);
    const listed = ledgerline(['clients', 'list', '--org', 'Cli Ltd', '--json']).json();
    assert.deepEqual(
      listed.map((c: any) => [c.clientId, c.name, c.scopes]),
      [[client_id, 'Export', ['service.read']]],
    );
    assert.ok(!JSON.stringify(listed).includes(client_secret));
    assert.equal(ledgerline(['clients', 'revoke', client_id]).status, 0);
    assert.deepEqual(ledgerline(['clients', 'list', '--org', 'Cli Ltd', '--json']).json(), []);
    assert.equal(ledgerline(['clients', 'create', '--org', 'Cli Ltd', '--name', 'Bad', '--scopes', 'admin']).status, 2);
    const app = ledgerline([
      'apps',
      'register',
      '--name',
      'Viewer',
      '--redirect-uri',
      'https://viewer.example/cb',
      '--redirect-uri',
      'http://127.0.0.1:8080/cb',
      '--json',
    ]);
    assert.equal(app.status, 0, app.stderr);
    assert.equal(app.json().verified, true);
    const bad = ledgerline(['apps', 'register', '--name', 'Viewer', '--redirect-uri', 'http://viewer.example/cb']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /https, or http on the loopback/);
  });

  it('removes a member; the demo refuses a database that has organisations', () => {
    assert.equal(ledgerline(['members', 'remove', '--org', 'Cli Ltd', '--email', 'op@example.test']).status, 0);
    assert.equal(ledgerline(['members', 'remove', '--org', 'Cli Ltd', '--email', 'op@example.test']).status, 2);
    const demo = ledgerline(['demo', '--date', '2026-11-21']);
    assert.equal(demo.status, 2);
    assert.match(demo.stderr, /already has organisations/);
    assert.equal(ledgerline(['demo', '--date', '2026-02-30']).status, 2);
  });

  it("puts every change made from the command line in the organisation's audit log, said in words", async () => {
    assert.equal(ledgerline(['members', 'add', '--org', 'Cli Ltd', '--email', 'op@example.test', '--role', 'admin']).status, 0);
    assert.equal(ledgerline(['members', 'add', '--org', 'Cli Ltd', '--email', 'op@example.test', '--role', 'admin']).status, 0);
    assert.equal(ledgerline(['members', 'add', '--org', 'Cli Ltd', '--email', 'op@example.test', '--role', 'submitter']).status, 0);
    const store = openStore({ sqlitePath: env.LEDGERLINE_SQLITE_PATH! });
    try {
      const entries = (await listAudit(store.db, orgId, { limit: 50 })).reverse();
      const said = entries.map((e) => {
        const detail = JSON.parse(e.detail) as Record<string, unknown>;
        return `${auditActor(e, detail)}: ${auditSentence(e.action, detail)}`;
      });
      assert.deepEqual(said, [
        'Operator (command line): Created the organisation “Cli Ltd” (GBP, books in builtin)',
        'Operator (command line): Added op@example.test as Submitter',
        'Operator (command line): Created API client “Export” (service.read)',
        'Operator (command line): Revoked API client “Export”',
        'Operator (command line): Removed op@example.test (Submitter)',
        'Operator (command line): Added op@example.test as Admin',
        // the second add changed nothing and is not logged
        'Operator (command line): Changed op@example.test from Admin to Submitter',
      ]);
    } finally {
      await store.close();
    }
  });
});
