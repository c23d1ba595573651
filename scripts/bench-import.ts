/**
 * Times importing a generated 100,000-transaction statement (OFX 1.x SGML, then CSV) into a fresh
 * SQLite file, and re-importing it (which must add nothing). Run: npx tsx scripts/bench-import.ts [count]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { importStatement } from '../src/import/importer.js';
import { parseStatementFile } from '../src/import/parse.js';
import { provisionOrganisation } from '../src/provision.js';
import { openStore } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import type { BankAccountRow } from '../src/store/schema.js';

const COUNT = Number(process.argv[2] ?? 100_000);

function day(i: number): string {
  const d = new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 40) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

function amount(i: number): number {
  // deterministic, mixed signs, up to 9,999.99
  return ((i * 7919) % 999_999) * (i % 5 === 0 ? 1 : -1);
}

const decimal = (minor: number) => `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

function ofx(count: number): Buffer {
  const parts = [
    'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>GBP<BANKACCTFROM><BANKID>200000<ACCTID>41234567<ACCTT' +
      'YPE>CHECKING</BANKACCTFROM>\n',
    `<BANKTRANLIST><DTSTART>${day(0).replaceAll('-', '')}<DTEND>${day(count - 1).replaceAll('-', '')}\n`,
  ];
  for (let i = 0; i < count; i++) {
    parts.push(
      `<STMTTRN><TRNTYPE>${amount(i) < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${day(i).replaceAll('-', '')}<TRNAMT>${decimal(amount(i))}<FITID>B${i}<NAME>Pay` +
        `ee ${i % 997}<MEMO>Invoice ${i}</STMTTRN>\n`,
    );
  }
  parts.push('</BANKTRANLIST><LEDGERBAL><BALAMT>0.00<DTASOF>20260101</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n');
  return Buffer.from(parts.join(''));
}

function csv(count: number): Buffer {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < count; i++) lines.push(`${day(i)},Payee ${i % 997} invoice ${i},${decimal(amount(i))}`);
  return Buffer.from(lines.join('\n') + '\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-bench-'));
  const store = openStore({ sqlitePath: path.join(dir, 'bench.sqlite') });
  try {
    await migrate(store);
    const org = await provisionOrganisation(store.db, { name: 'Bench Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    for (const [label, bytes] of [
      ['OFX 1.x SGML', ofx(COUNT)],
      ['CSV', csv(COUNT)],
    ] as const) {
      const account: BankAccountRow = {
        id: `bac_bench_${label.slice(0, 3).toLowerCase()}`,
        organisation_id: org.id,
        name: `Bench ${label}`,
        number: '',
        type: 'bank',
        bank: 'Bench',
        currency: 'GBP',
        is_default: 0,
        ledger_account_id: null,
        created_at: new Date().toISOString(),
      };
      await store.db.insertInto('bank_accounts').values(account).execute();
      let t = performance.now();
      parseStatementFile(bytes, 'GBP');
      const parseMs = performance.now() - t;
      t = performance.now();
      const first = await importStatement(store, { organisation: org, account, fileName: `bench.${label}`, bytes });
      const importMs = performance.now() - t;
      t = performance.now();
      const again = await importStatement(store, { organisation: org, account, fileName: `bench.${label}`, bytes });
      const againMs = performance.now() - t;
      if (first.new !== COUNT || again.new !== 0) throw new Error(`unexpected counts: ${first.new} then ${again.new}`);
      process.stdout.write(
        `${label}: ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${COUNT} transactions — parse ${parseMs.toFixed(0)} ms; ` +
          `import (parse + checks + one transaction) ${importMs.toFixed(0)} ms; re-import adding nothing ${againMs.toFixed(0)} ms\n`,
      );
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
