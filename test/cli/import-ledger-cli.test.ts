/**
 * `ledgerline import ledger` end to end on a SQLite file: a journal and the same books as CSV, a
 * second run that adds nothing, a refusal beside an accepted file, the audit log's sentence, and
 * the usage errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCommand } from '../../src/cli/import.js';
import { UsageError } from '../../src/cli/io.js';
import { captureOutput } from '../helpers/cli.js';
import { provisionOrganisation } from '../../src/provision.js';
import { listAudit } from '../../src/store/audit-log.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { auditSentence } from '../../src/web/words.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-ledger-'));
const saved = { sqlite: process.env.LEDGERLINE_SQLITE_PATH, url: process.env.DATABASE_URL };
const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'journal', 'small-business');

const run = (args: string[]) => captureOutput(() => importCommand(['ledger', ...args]));

describe('ledgerline import ledger', () => {
  before(async () => {
    process.env.LEDGERLINE_SQLITE_PATH = path.join(dir, 'cli.sqlite');
    process.env.DATABASE_URL = '';
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH });
    await migrate(store);
    await provisionOrganisation(store.db, { id: 'org_hl', name: 'Harbour Lane Design', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    await store.close();
  });
  after(() => {
    process.env.LEDGERLINE_SQLITE_PATH = saved.sqlite;
    process.env.DATABASE_URL = saved.url;
    rmSync(dir, { recursive: true, force: true });
  });

  it('without --allow-new-accounts an empty chart refuses the journal, naming the first line of each account', async () => {
    const { code, out, err } = await run(['--org', 'Harbour Lane Design', `${FIXTURE}.journal`]);
    assert.equal(code, 1);
    // a problem, so on standard error (README), in one line; nothing on standard output
    assert.match(
      err,
      new RegExp(
        String.raw`^ledgerline: small-business\.journal: refused \(unknown_account\): the journal n` +
          String.raw`ames accounts the books have not: line 24: no account "Assets:Bank:Current Accou` +
          String.raw`nt".*; nothing from small-business\.journal was written\n$`,
      ),
    );
    assert.equal(out, '');
  });

  it('loads the journal, then the same books as CSV add nothing; the audit log says what was loaded', async () => {
    const first = await run(['--org', 'Harbour Lane Design', '--allow-new-accounts', `${FIXTURE}.journal`]);
    assert.equal(first.code, 0, first.out);
    assert.match(
      first.out,
      /small-business\.journal \(journal\): 16 transactions from 2026-01-01 to 2026-06-30; added 16 \(38 ledger lines\), 0 already present/,
    );
    assert.match(first.out, /accounts created: Assets, Assets:Bank, Assets:Bank:Current Account/);
    const again = await run(['--org', 'harbour lane design', '--json', `${FIXTURE}.csv`]);
    assert.equal(again.code, 0);
    const json = JSON.parse(again.out);
    assert.deepEqual([json.files[0].status, json.files[0].new, json.files[0].alreadyPresent], ['imported', 0, 16]);

    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH! });
    try {
      const entries = (await listAudit(store.db, 'org_hl', { limit: 10 })).filter((e) => e.action === 'ledger_journal.imported');
      assert.equal(entries.length, 1, 'an import that adds nothing changes nothing and is not logged');
      assert.match(
        auditSentence(entries[0]!.action, JSON.parse(entries[0]!.detail)),
        /^Loaded 16 transactions \(38 ledger lines\) from small-business\.journal, creating \d+ accounts \(0 already there\)$/,
      );
    } finally {
      await store.close();
    }
  });

  it('a refused file beside an accepted one: exit 1, the accepted one written', async () => {
    const bad = path.join(dir, 'bad.journal');
    writeFileSync(bad, '2026-07-01 Lunch\n    Expenses:Software  £10.00\n    Assets:Bank:Current Account  £-9.00\n');
    const good = path.join(dir, 'good.journal');
    writeFileSync(good, '2026-07-02 Fee\n    Expenses:Bank Charges  £1.00\n    Assets:Bank:Current Account\n');
    const { code, out, err } = await run(['--org', 'Harbour Lane Design', bad, good]);
    assert.equal(code, 1);
    assert.match(err, /^ledgerline: bad\.journal: refused \(unbalanced\): .*line 1: the transaction does not balance: its postings sum to 1\.00 GBP/);
    assert.doesNotMatch(out, /refused/, 'the refusal is not on standard output');
    assert.match(out, /good\.journal \(journal\): 1 transactions .* added 1/);
  });

  it('usage errors: no --org, no file, an unknown format, a missing file', async () => {
    await assert.rejects(run([`${FIXTURE}.journal`]), UsageError);
    await assert.rejects(run(['--org', 'Harbour Lane Design']), UsageError);
    await assert.rejects(run(['--org', 'Harbour Lane Design', '--format', 'xml', `${FIXTURE}.journal`]), /--format must be one of csv, journal/);
    await assert.rejects(run(['--org', 'Harbour Lane Design', path.join(dir, 'nope.journal')]), /nope\.journal: no such file/);
  });
});
