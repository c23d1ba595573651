/**
 * The command line helps a newcomer: `--help` on every command (never running it: `serve --help`
 * starts no server), `--version`, and one-line errors that say what to do, never a stack trace.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPOSITORY_ROOT, runLedgerline } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ledgerline-cli-help-'));
const env = { ...process.env, LEDGERLINE_SQLITE_PATH: join(dir, 'cli.sqlite'), DATABASE_URL: '', PORT: '0' };
const ledgerline = (args: string[]) => runLedgerline(args, { env });

describe('ledgerline help and errors', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('every command named in the overview answers --help with its own usage, without running', () => {
    const overview = ledgerline(['--help']);
    assert.equal(overview.status, 0);
    const commands = [...new Set([...overview.stdout.matchAll(/^ {2}ledgerline ([\w-]+)/gm)].map((m) => m[1]!))];
    assert.deepEqual(commands.slice(0, 4), ['serve', 'migrate', 'demo', 'call']);
    assert.ok(commands.length >= 10, commands.join());
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        const help = ledgerline([command, flag]);
        assert.equal(help.status, 0, `${command} ${flag}: ${help.stderr}`);
        assert.match(help.stdout, new RegExp(`^ {2}ledgerline ${command}\\b`), `${command} ${flag}`);
        assert.doesNotMatch(help.stdout, new RegExp(`ledgerline (?!${command}\\b)[\\w-]+ `), `${command} ${flag} shows only its own lines`);
        assert.equal(help.stderr, '');
      }
    }
    // help ran nothing: no database was made
    assert.throws(() => readFileSync(env.LEDGERLINE_SQLITE_PATH), /ENOENT/);
  });

  it('call --help lists the operations, and an operation help its parameters', () => {
    const list = ledgerline(['call', '--help']);
    assert.match(list.stdout, /^ {2}bills\.list_to_pay +Outstanding bills/m);
    const one = ledgerline(['call', 'banking.transactions', '--help']);
    assert.match(one.stdout, /parameters \(name=value\):\n {2}account\n {6}One account/);
    assert.match(ledgerline(['import', '--help']).stdout, /--create-account --name N/);
    // every parameter says what it takes and what it is, as the OpenAPI document does
    const pl = ledgerline(['call', 'reports.profit_and_loss', '--help']).stdout;
    assert.match(pl, /^ {2}period \(one of this_month, last_month, this_quarter, last_quarter, ytd, last_year, custom\)\n {6}Period preset/m);
    assert.match(pl, /^ {2}comparePeriods \(a whole number 1 to 12\)\n {6}How many earlier periods/m);
    for (const [, name, description] of pl.matchAll(/^ {2}(\w+)[^\n]*\n {6}([^\n]*)$/gm))
      assert.ok(description!.trim().length > 10, `${name} has a description`);
    const create = ledgerline(['call', 'documents.create', '--help']).stdout;
    assert.match(create, /^ {2}tax \(a number; default 0\)\n {6}total tax/m);
    assert.match(create, /^ {2}file\n {6}the original file/m);
  });

  it('an operation parameter written as an option is answered with the way to write it', () => {
    const asOption = ledgerline(['call', 'reports.profit_and_loss', '--org', 'Anything', '--period', 'ytd']);
    assert.equal(asOption.status, 2);
    assert.equal(asOption.stderr, 'ledgerline: parameters are name=value: write period=ytd, not --period ytd\n');
    const unknown = ledgerline(['call', 'reports.profit_and_loss', '--bogus']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^ledgerline: unknown option --bogus; the options are --org, --as, --today, --input, --file/);
  });

  it('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) assert.equal(ledgerline([flag]).stdout, `ledgerline ${version}\n`);
  });

  it('a missing file, an unknown account and a taken name are one line each, saying what to do', () => {
    const create = ['orgs', 'create', '--name', 'Help Ltd', '--currency', 'GBP', '--timezone', 'Europe/London', '--financial-year-start', '1', '--json'];
    assert.equal(ledgerline(create).status, 0);
    const taken = ledgerline(create.map((a) => (a === 'Help Ltd' ? 'help ltd' : a)));
    assert.equal(taken.status, 2);
    assert.match(taken.stderr, /^ledgerline: an organisation named "Help Ltd" exists already \(org_\w+\); choose another name\n$/);

    const file = join(dir, 'statement.csv');
    writeFileSync(file, 'Date,Description,Amount\n2026-01-02,Coffee,-3.20\n');
    const unknown = ledgerline(['import', 'bank', '--org', 'Help Ltd', '--account', 'Current', file]);
    assert.equal(unknown.status, 2);
    assert.equal(
      unknown.stderr,
      'ledgerline: no bank account "Current" (it has none yet); to create it, add --create-account --name "Current" --type bank|credit_card --currency C\n',
    );

    const missing = join(dir, 'no-such.ofx');
    const gone = ledgerline([
      'import',
      'bank',
      '--org',
      'Help Ltd',
      '--account',
      'Current',
      '--create-account',
      '--type',
      'bank',
      '--currency',
      'GBP',
      missing,
    ]);
    assert.equal(gone.status, 1);
    assert.equal(gone.stderr, `ledgerline: ${missing}: no such file\n`);
    assert.equal(JSON.parse(ledgerline(['call', 'banking.accounts', '--org', 'Help Ltd']).stdout).count, 0, 'nothing was created');
  });
});
