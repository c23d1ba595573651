/**
 * `ledgerline import bank` end to end on a SQLite file: creating the account, the JSON summary in
 * major units, re-running, a refused file beside an accepted one, the size limit checked before a
 * file is read, and usage errors.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCommand } from '../../src/cli/import.js';
import { UsageError } from '../../src/cli/io.js';
import { captureStdout } from '../helpers/cli.js';
import { DEFAULT_MAX_BYTES } from '../../src/import/parse.js';
import { provisionOrganisation } from '../../src/provision.js';
import { listAudit } from '../../src/store/audit-log.js';
import { openStore } from '../../src/store/db.js';
import { auditActor, auditSentence } from '../../src/web/words.js';
import { migrate } from '../../src/store/migrate.js';
import { FIXTURES } from '../helpers/bank-statements.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-import-'));
const saved = { sqlite: process.env.LEDGERLINE_SQLITE_PATH, url: process.env.DATABASE_URL };

/** Runs the command, returning its exit code and what it printed. */
const run = (args: string[]) => captureStdout(() => importCommand(args));

describe('ledgerline import bank', () => {
  before(async () => {
    process.env.LEDGERLINE_SQLITE_PATH = path.join(dir, 'cli.sqlite');
    process.env.DATABASE_URL = '';
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH });
    await migrate(store);
    await provisionOrganisation(store.db, { id: 'org_cli', name: 'Cli GmbH', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
    await store.close();
  });
  after(() => {
    if (saved.sqlite === undefined) delete process.env.LEDGERLINE_SQLITE_PATH;
    else process.env.LEDGERLINE_SQLITE_PATH = saved.sqlite;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    rmSync(dir, { recursive: true, force: true });
  });

  const vr = path.join(FIXTURES, 'camt053/vr-bank-de-camt053-v02-zka-codes.xml');

  it('creates the account, imports, and prints the summary in major units', async () => {
    const { code, out } = await run([
      'bank',
      '--org',
      'cli gmbh',
      '--create-account',
      '--name',
      'Giro',
      '--type',
      'bank',
      '--currency',
      'eur',
      '--bank',
      'VR-Bank',
      '--json',
      vr,
    ]);
    assert.equal(code, 0);
    const result = JSON.parse(out);
    assert.deepEqual([result.organisation, result.imported, result.refused], ['org_cli', 1, 0]);
    const file = result.files[0];
    assert.equal(file.status, 'imported');
    assert.deepEqual([file.account.name, file.account.number, file.account.currency, file.account.created], ['Giro', 'DE14740618130000033626', 'EUR', true]);
    // the account's balance is the statement's closing balance: it counts from the statement's opening
    assert.deepEqual([file.new, file.alreadyPresent, file.accountBalance], [4, 0, 23.06]);
    assert.deepEqual(file.statements[0].balances, {
      statementOpening: 33.06,
      statementClosing: 23.06,
      computedClosing: 23.06,
      difference: 0,
      available: null,
      check: 'reconciled',
      problems: [],
      ledgerlineOpening: 33.06,
      ledgerlineClosing: 23.06,
    });
    assert.equal(file.balanceState.basis, 'statements');
    assert.equal(file.balanceState.incompleteFrom, null);
    assert.deepEqual([file.statements[0].moneyIn, file.statements[0].moneyOut], [1, 11]);
  });

  it('adds nothing on a second run, and the same command with --create-account finds the account instead of making another', async () => {
    const again = await run(['bank', '--org', 'org_cli', '--account', 'Giro', '--json', vr]);
    assert.equal(again.code, 0);
    assert.deepEqual([JSON.parse(again.out).files[0].new, JSON.parse(again.out).files[0].alreadyPresent], [0, 4]);
    const recreate = await run(['bank', '--org', 'org_cli', '--create-account', '--name', 'Giro', '--type', 'bank', '--currency', 'EUR', '--json', vr]);
    const file = JSON.parse(recreate.out).files[0];
    assert.deepEqual([file.account.created, file.new], [false, 0]);
    await assert.rejects(
      importCommand(['bank', '--org', 'org_cli', '--create-account', '--name', 'Giro', '--type', 'credit_card', '--currency', 'EUR', vr]),
      /account "Giro" exists already as a bank account in EUR, not a credit_card account in EUR/,
    );
    // each run that wrote (or found everything present) is in the organisation's audit log, in words
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH! });
    try {
      const said = (await listAudit(store.db, 'org_cli', { limit: 10 }))
        .reverse()
        .map((e) => `${auditActor(e, JSON.parse(e.detail))}: ${auditSentence(e.action, JSON.parse(e.detail))}`);
      const file = path.basename(vr);
      assert.deepEqual(said, [
        `Operator (command line): Imported 4 new lines into “Giro” from ${file} (0 already there)`,
        `Operator (command line): Imported 0 new lines into “Giro” from ${file} (4 already there)`,
        `Operator (command line): Imported 0 new lines into “Giro” from ${file} (4 already there)`,
      ]);
    } finally {
      await store.close();
    }
  });

  it('imports the good file and reports the refused one, exiting 1', async () => {
    const abn = path.join(FIXTURES, 'mt940/abnamro-two-statements.sta');
    const genkgo = path.join(FIXTURES, 'camt053/genkgo-camt053-v02-multi-statement.xml');
    const { code, out } = await run([
      'bank',
      '--org',
      'org_cli',
      '--create-account',
      '--name',
      'Other',
      '--type',
      'bank',
      '--currency',
      'EUR',
      '--refuse-unbalanced',
      '--json',
      abn,
      genkgo,
    ]);
    assert.equal(code, 1);
    const result = JSON.parse(out);
    assert.deepEqual(
      result.files.map((f: any) => [f.file, f.status, f.code ?? f.new]),
      [
        ['abnamro-two-statements.sta', 'refused', 'unbalanced'],
        ['genkgo-camt053-v02-multi-statement.xml', 'imported', 2],
      ],
    );
    assert.equal(result.files[0].problems.length, 2);
    // the refused file came first, so the account was created with the second one
    assert.equal(result.files[1].account.created, true);
    // 'Other' took the number of the genkgo account, so the ABN AMRO statement is not its own
    const wrong = await run(['bank', '--org', 'org_cli', '--account', 'Other', '--allow-unbalanced', abn]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.out, /refused \(wrong_account\): the file is not about account "Other" \(number NL26VAYB8060476890\)/);
    // without --refuse-unbalanced it is imported, each statement's difference and the account's incomplete balance said
    const imported = await run(['bank', '--org', 'org_cli', '--create-account', '--name', 'ABN', '--type', 'bank', '--currency', 'EUR', '--dry-run', abn]);
    assert.equal(imported.code, 0, imported.out);
    assert.match(imported.out, /would import 10 new, 0 already present, 0 skipped/);
    assert.match(imported.out, /\[unbalanced_allowed\] difference -2,038\.00 EUR/);
    assert.match(imported.out, /! The balance is incomplete from 2011-05-23: a statement's own lines do not take its opening balance to its closing balance/);
  });

  it('lists the imports into an account and takes one back whole, audited (import batches, import remove)', async () => {
    const csv = path.join(dir, 'later.csv');
    writeFileSync(csv, 'Date,Description,Amount\n2014-01-10,COFFEE,-3.50\n2014-01-11,BOOKS,-20.00\n');
    const added = JSON.parse((await run(['bank', '--org', 'org_cli', '--account', 'Giro', '--json', csv])).out).files[0];
    assert.equal(added.new, 2);
    const listed = await run(['batches', '--org', 'org_cli', '--account', 'Giro', '--json']);
    assert.equal(listed.code, 0);
    const imports = JSON.parse(listed.out).imports;
    assert.deepEqual(
      imports.map((b: any) => [
        b.id === added.importId,
        b.file,
        b.lines,
        b.alreadyPresent,
        b.by,
        b.removable,
        b.statements.map((s: any) => [s.opening, s.closing]),
      ]),
      [
        // a statement without balances is kept with its days and lines, and gives the balance nothing
        [true, 'later.csv', 2, 0, 'command line', true, [[null, null]]],
        [false, 'vr-bank-de-camt053-v02-zka-codes.xml', 4, 0, 'command line', true, [[33.06, 23.06]]],
      ],
    );
    const text = await run(['batches', '--org', 'org_cli', '--account', 'Giro']);
    assert.match(
      text.out,
      new RegExp(
        String.raw`vr-bank-de-camt053-v02-zka-codes\.xml \(camt\.053\.001\.02\): 4 lines added, 0 a` +
          String.raw`lready present; by command line\n {4}CAMT\.053 statement [^:]+: opening 33\.06 E` +
          String.raw`UR, closing 23\.06 EUR`,
      ),
    );
    const removed = await run(['remove', '--org', 'org_cli', added.importId]);
    assert.equal(removed.code, 0);
    assert.match(removed.out, new RegExp(`removed import ${added.importId} \\(later\\.csv\\): 2 lines and 1 statement\\n`));
    const after = JSON.parse((await run(['batches', '--org', 'org_cli', '--account', 'Giro', '--json'])).out).imports;
    assert.deepEqual(
      after.map((b: any) => b.file),
      ['vr-bank-de-camt053-v02-zka-codes.xml'],
    );
    const again = await run(['remove', '--org', 'org_cli', '--json', added.importId]);
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.out).refused.code, 'not_found');
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH! });
    try {
      const [last] = await listAudit(store.db, 'org_cli', { limit: 1 });
      assert.equal(
        `${auditActor(last!, JSON.parse(last!.detail))}: ${auditSentence(last!.action, JSON.parse(last!.detail))}`,
        'Operator (command line): Removed the import of later.csv: 2 lines and 1 statement taken out',
      );
    } finally {
      await store.close();
    }
    await assert.rejects(importCommand(['remove', '--org', 'org_cli']), UsageError);
  });

  it('refuses an oversized file without reading it', async () => {
    const big = path.join(dir, 'big.csv');
    const fd = openSync(big, 'w');
    closeSync(fd);
    // a sparse file: its size is over the limit, its bytes are never read
    await import('node:fs/promises').then((fs) => fs.truncate(big, DEFAULT_MAX_BYTES + 1));
    const { code, out } = await run(['bank', '--org', 'org_cli', '--account', 'Giro', big]);
    assert.equal(code, 1);
    assert.match(out, new RegExp(`big\\.csv: refused \\(too_large\\): the file is ${DEFAULT_MAX_BYTES + 1} bytes, over the import limit`));
    assert.match(out, /nothing from big\.csv was written/);
  });

  it('explains its usage', async () => {
    await assert.rejects(importCommand(['bank', '--account', 'Giro', vr]), UsageError);
    await assert.rejects(importCommand(['bank', '--org', 'org_cli', vr]), /--account is needed/);
    await assert.rejects(
      importCommand(['bank', '--org', 'org_cli', '--create-account', '--name', 'X', vr]),
      /--create-account needs --type bank or --type credit_card/,
    );
    await assert.rejects(
      importCommand(['bank', '--org', 'org_cli', '--account', 'Giro', '--format', 'pdf', vr]),
      /--format must be one of ofx, camt, csv, mt940, qif/,
    );
    await assert.rejects(importCommand(['bank', '--org', 'org_cli', '--account', 'Giro', '--column', 'when=Date', vr]), /--column takes ROLE=NAME/);
    await assert.rejects(importCommand(['bank', '--org', 'nobody', '--account', 'Giro', vr]), /no organisation "nobody"/);
    const csv = path.join(dir, 'x.csv');
    writeFileSync(csv, 'Date,Description,Amount\n2026-01-02,Coffee,-3.50\n');
    await assert.rejects(importCommand(['bank', '--org', 'org_cli', '--account', 'Missing', csv]), /no bank account "Missing"/);
  });
});
