/**
 * The README's command examples, run as a newcomer would copy them: the demo block against a fresh
 * demo database, and the "Your own organisation" walk-through from an empty one, with the files it
 * names made for it (the journal fixture, a one-account GBP OFX download, the bill and filter JSON
 * shown in the README itself). Every command must exit 0; a README edit that breaks an example fails here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPOSITORY_ROOT } from '../helpers/cli.js';

const OFX = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:USASCII',
  'CHARSET:1252',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
  '',
  '<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>GBP',
  '<BANKACCTFROM><BANKID>204577<ACCTID>41234567<ACCTTYPE>CHECKING</BANKACCTFROM>',
  '<BANKTRANLIST><DTSTART>20260701<DTEND>20260731',
  '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260702<TRNAMT>-54.60<FITID>202607020001<NAME>CARD PAYMENT ADOBE</STMTTRN>',
  '<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260706<TRNAMT>1200.00<FITID>202607060001<NAME>NORTHWIND TRADING</STMTTRN>',
  '</BANKTRANLIST><LEDGERBAL><BALAMT>1145.40<DTASOF>20260731</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
].join('\r\n');

const README = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'ledgerline-readme-'));
// the built command is node bin/ledgerline.js; tests run the same CLI from source (tsx found from
// here, since the examples run in a folder of their own; neither path has a space, so $L splits right)
const CLI = `node --import ${import.meta.resolve('tsx')} ${join(REPOSITORY_ROOT, 'src/cli/run.ts')}`;

/** The README's shell blocks, in order. */
function shellBlocks(): string[] {
  return [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** A block as a script: the ledgerline command pointed at the source, comments and non-CLI lines kept out. */
function script(block: string): string {
  const lines = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .filter((l) => /^(L=|\$L |node bin\/ledgerline\.js |echo .*\| \$L )/.test(l));
  return ['set -euo pipefail', ...lines.map((l) => l.replace(/^L=.*$/, `L=${JSON.stringify(CLI)}`).replace(/^node bin\/ledgerline\.js /, '$L '))].join('\n');
}

function run(body: string, sqlite: string) {
  const r = spawnSync('bash', ['-c', `L=${JSON.stringify(CLI)}\n${body}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, LEDGERLINE_SQLITE_PATH: join(dir, sqlite), DATABASE_URL: '', PORT: '0' },
    timeout: 120_000,
  });
  return r;
}

describe('the README examples', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the ledgerline examples after `npm start` answer on the demo', () => {
    const block = shellBlocks().find((b) => b.includes('node bin/ledgerline.js call reports.profit_and_loss'));
    assert.ok(block, 'the README shows the demo examples');
    const body = script(block);
    assert.ok(body.split('\n').length >= 6, body);
    const r = run(`$L demo --date 2026-11-21 >/dev/null\n${body}`, 'demo.sqlite');
    assert.equal(r.status, 0, `${body}\n${r.stderr}`);
    assert.match(r.stdout, /Northwind Studio Ltd/);
  });

  it('"Your own organisation" from an empty database, step by step', () => {
    const block = shellBlocks().find((b) => b.includes('$L migrate'));
    assert.ok(block, 'the README shows the walk-through');
    const bill = /`bill\.json` holds[\s\S]*?```json\n([\s\S]*?)```/.exec(README)?.[1];
    const filter = /`filter\.json` its criteria: `([^`]+)`/.exec(README)?.[1];
    assert.ok(bill && filter, 'the README shows bill.json and filter.json');
    writeFileSync(join(dir, 'bill.json'), bill);
    writeFileSync(join(dir, 'filter.json'), filter);
    writeFileSync(join(dir, 'invoice-1042.pdf'), '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    copyFileSync(join(REPOSITORY_ROOT, 'test/fixtures/journal/small-business.journal'), join(dir, 'books.journal'));
    // a bank's OFX download of one GBP account, as the walk-through's statement
    writeFileSync(join(dir, 'statement.ofx'), OFX);
    const body = script(block);
    for (const step of [
      'orgs create',
      'users create',
      'members add',
      'import ledger',
      'import bank',
      'documents.create',
      'bills.create_saved_filter',
      'clients create',
      'reports.balance_sheet',
    ])
      assert.ok(body.includes(step), `the walk-through runs ${step}`);
    const r = run(body, 'own.sqlite');
    assert.equal(r.status, 0, `${body}\n--- stderr\n${r.stderr}\n--- stdout\n${r.stdout.slice(-2000)}`);
    assert.match(r.stdout, /"number": "1042"/, 'the bill was created');
    assert.match(r.stdout, /"report": "Balance Sheet"/);
  });
});
