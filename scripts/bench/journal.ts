/**
 * Times loading books from a generated journal of at least 100,000 ledger lines (an hledger journal,
 * then the same books as general-journal CSV) into a fresh organisation, and loading it again (which
 * must add nothing), on SQLite and, when it answers, PostgreSQL (a schema of its own, dropped after).
 * Prints seconds and the process's peak memory after each step. Run: npm run bench:journal [lines]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { importJournal } from '../../src/import/journal/load.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';

const LINES = Number(process.argv[2] ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const EXPENSES = ['Rent', 'Software', 'Travel', 'Meals', 'Office', 'Marketing', 'Insurance', 'Utilities'];
const pounds = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
const day = (i: number) => new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 30) * 86_400_000).toISOString().slice(0, 10);

/** Sales with VAT (three lines) and purchases (two lines), deterministic, in date order. */
function transactions(lines: number): Array<{ date: string; payee: string; postings: Array<[string, number]> }> {
  const out = [];
  let written = 0;
  for (let i = 0; written < lines; i++) {
    const net = ((i * 7919) % 250_000) + 100;
    if (i % 3 === 0) {
      const vat = Math.round(net / 5);
      out.push({
        date: day(i),
        payee: `Customer ${i % 211}`,
        postings: [
          ['Assets:Accounts Receivable', net + vat],
          ['Income:Sales', -net],
          ['Liabilities:VAT', -vat],
        ] as Array<[string, number]>,
      });
      written += 3;
    } else {
      out.push({
        date: day(i),
        payee: `Supplier ${i % 307}`,
        postings: [
          [`Expenses:${EXPENSES[i % EXPENSES.length]}`, net],
          ['Assets:Bank:Current', -net],
        ] as Array<[string, number]>,
      });
      written += 2;
    }
  }
  return out;
}

function journal(txns: ReturnType<typeof transactions>): Buffer {
  const parts = ['account Assets:Bank:Current  ; type: C\n\n'];
  txns.forEach((t, i) => {
    parts.push(`${t.date} (T${i}) ${t.payee} | Entry ${i}\n`);
    for (const [account, pence] of t.postings) parts.push(`    ${account}  ${pence < 0 ? '-' : ''}£${pounds(Math.abs(pence))}\n`);
    parts.push('\n');
  });
  return Buffer.from(parts.join(''));
}

function csv(txns: ReturnType<typeof transactions>): Buffer {
  const parts = ['Date,Number,Account,Contact,Description,Debit,Credit\n'];
  txns.forEach((t, i) => {
    for (const [account, pence] of t.postings)
      parts.push(`${t.date},T${i},${account},${t.payee},Entry ${i},${pence > 0 ? pounds(pence) : ''},${pence < 0 ? pounds(-pence) : ''}\n`);
  });
  return Buffer.from(parts.join(''));
}

const mb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function pgStore(): Promise<Store | null> {
  const admin = openStore({ databaseUrl: PG_URL, poolSize: 1 });
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  try {
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  } catch {
    return null;
  } finally {
    await admin.close();
  }
  const store = openStore({ databaseUrl: PG_URL, pgSchema: schema, poolSize: 2 });
  return {
    ...store,
    async close() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
      await store.close();
    },
  };
}

async function bench(dialect: string, store: Store, name: string, bytes: Buffer): Promise<string[]> {
  await migrate(store);
  const org = await provisionOrganisation(store.db, { name: `Bench ${name}`, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  const t0 = performance.now();
  const first = await importJournal(store, { organisation: org, fileName: name, bytes, allowNewAccounts: true });
  const t1 = performance.now();
  const again = await importJournal(store, { organisation: org, fileName: name, bytes });
  const t2 = performance.now();
  if (again.new !== 0) throw new Error('importing again added transactions');
  return [
    dialect,
    name,
    String(first.lines),
    `${(bytes.length / 1e6).toFixed(1)} MB`,
    `${((t1 - t0) / 1000).toFixed(2)} s`,
    `${((t2 - t1) / 1000).toFixed(2)} s`,
    `${mb()} MB`,
  ];
}

const txns = transactions(LINES);
const files: Array<[string, Buffer]> = [
  ['books.journal', journal(txns)],
  ['books.csv', csv(txns)],
];
const rows = [['database', 'file', 'ledger lines', 'size', 'import', 'import again', 'peak RSS so far']];
const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-bench-journal-'));
try {
  for (const [name, bytes] of files) {
    const sqlite = openStore({ sqlitePath: path.join(dir, `${name}.sqlite`) });
    rows.push(await bench('SQLite', sqlite, name, bytes));
    await sqlite.close();
  }
  for (const [name, bytes] of files) {
    const pg = await pgStore();
    if (!pg) {
      rows.push(['PostgreSQL', name, 'not reachable', '', '', '', '']);
      continue;
    }
    try {
      rows.push(await bench('PostgreSQL', pg, name, bytes));
    } finally {
      await pg.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
