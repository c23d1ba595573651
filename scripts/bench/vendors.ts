/**
 * `npm run bench:vendors`: a Xero and a QuickBooks organisation under 50 concurrent connections,
 * read through the local mirror, against the contract-checked fakes (test/helpers) holding a book
 * larger than the tests' and answering after 40 ms, as a vendor across the internet does. The real
 * server on 127.0.0.1 computes every call (no kept answers) within the published call budget
 * (Xero 60 a minute and 5 at once, QuickBooks 500 a minute and 10 at once). Printed per vendor: the
 * first copy (time, vendor calls), then per operation requests/s, p50, p99, failures and the vendor
 * calls made meanwhile, with the mirror's default age (60 s) and with 2 s (passes during the load);
 * and, counted at the fake over the whole run, the most calls at once and in any 60 seconds against
 * the limits (MISSED, exit 1, when one was exceeded). The server runs in a process of its own
 * (server-process.ts); the fakes and the load generator in this one. Loopback only, bounded: about
 * 3 minutes.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QUICKBOOKS_LIMITS, XERO_LIMITS, type VendorLimits } from '../../src/accounting/call-budget.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { defaultFakeCompany, settle } from '../../test/helpers/fake-quickbooks-book.js';
import { startFakeQuickBooks } from '../../test/helpers/fake-quickbooks.js';
import { defaultFakeBook, fakeId } from '../../test/helpers/fake-xero-book.js';
import { startFakeXero } from '../../test/helpers/fake-xero.js';
import type { VendorLoad } from '../../test/helpers/fake-vendor-load.js';
import { clientToken, sendJson } from '../../test/helpers/rest-calls.js';
import { measure } from './load.js';
import { startServer } from './processes.js';

const TODAY = '2026-06-15';
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const LATENCY_MS = 40;
const OUTPUT = process.env.BENCH_OUTPUT ?? 'bench-output';
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Vendor {
  name: 'Xero' | 'QuickBooks';
  limits: VendorLimits;
  start(): Promise<{
    config: (maxAgeMs: number) => object;
    system: string;
    currency: string;
    load: VendorLoad;
    violations: string[];
    close(): Promise<void>;
    size: string;
  }>;
}

/** Xero: the tests' book and 1,200 more spends and receipts, 300 more bills (half of them paid). */
async function xero(): ReturnType<Vendor['start']> {
  const book = defaultFakeBook();
  const supplier = book.contacts.find((c) => c.name === 'Paper Co')!.id;
  const customer = book.contacts.find((c) => c.name === 'Harbour Cafe')!.id;
  const day = (i: number) => `2026-0${1 + (i % 5)}-${String(1 + (i % 28)).padStart(2, '0')}`;
  for (let i = 0; i < 1_200; i++) {
    const spend = i % 3 !== 0;
    book.bankTransactions.push({
      id: fakeId(`bench bt ${i}`),
      type: spend ? 'SPEND' : 'RECEIVE',
      contactId: spend ? supplier : customer,
      bankCode: i % 4 === 0 ? '091' : '090',
      date: day(i),
      reference: `BT-${i}`,
      lines: [{ description: spend ? 'Supplies' : 'Takings', accountCode: spend ? (i % 2 ? '429' : '461') : '200', amount: 1_000 + (i % 97) * 13 }],
      updated: `2026-0${1 + (i % 5)}-28T10:00:00Z`,
    });
  }
  for (let i = 0; i < 300; i++) {
    const amount = 5_000 + (i % 53) * 101;
    book.invoices.push({
      id: fakeId(`bench bill ${i}`),
      type: 'ACCPAY',
      number: `B-${1000 + i}`,
      contactId: supplier,
      date: day(i),
      dueDate: '2026-07-31',
      lines: [{ description: 'Coffee beans', accountCode: '310', amount }],
      payments: i % 2 ? [{ id: fakeId(`bench payment ${i}`), date: '2026-06-01', amount, bankCode: '090' }] : [],
      updated: `2026-0${1 + (i % 5)}-28T11:00:00Z`,
    });
  }
  const fake = await startFakeXero({ book, today: TODAY, latencyMs: LATENCY_MS });
  return {
    system: 'xero',
    currency: 'GBP',
    size: `${book.bankTransactions.length} bank transactions, ${book.invoices.length} invoices`,
    config: (mirrorMaxAgeMs) => ({ tenantId: fake.tenantId, accessToken: fake.token, baseUrl: fake.baseUrl, mirrorMaxAgeMs }),
    load: fake.load,
    violations: fake.violations,
    close: fake.close,
  };
}

/** QuickBooks: the tests' company and 2,000 more purchases. */
async function quickBooks(): ReturnType<Vendor['start']> {
  const company = defaultFakeCompany();
  const template = company.entities.Purchase.find((p) => p.Id === '163')!;
  for (let i = 0; i < 2_000; i++) {
    const date = `2026-0${1 + (i % 5)}-${String(1 + (i % 28)).padStart(2, '0')}`;
    company.entities.Purchase.push({
      ...structuredClone(template),
      Id: String(10_000 + i),
      TxnDate: date,
      MetaData: { CreateTime: `${date}T10:00:00-07:00`, LastUpdatedTime: `${date}T10:00:00-07:00` },
      Line: [{ ...structuredClone(template.Line[0]), Amount: 10 + (i % 97) }],
    });
  }
  settle(company);
  const fake = await startFakeQuickBooks({ company, today: TODAY, latencyMs: LATENCY_MS });
  return {
    system: 'quickbooks',
    currency: 'USD',
    size: `${company.entities.Purchase.length} purchases, ${company.entities.Bill.length} bills`,
    config: (mirrorMaxAgeMs) => ({ realmId: fake.realmId, accessToken: fake.token, baseUrl: fake.baseUrl, mirrorMaxAgeMs }),
    load: fake.load,
    violations: fake.violations,
    close: fake.close,
  };
}

const VENDORS: Vendor[] = [
  { name: 'Xero', limits: XERO_LIMITS, start: xero },
  { name: 'QuickBooks', limits: QUICKBOOKS_LIMITS, start: quickBooks },
];

interface CaseRow {
  vendor: string;
  age: string;
  operation: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
  vendorCalls: number;
}

async function run(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-bench-vendors-'));
  const rows: CaseRow[] = [];
  const summaries: Record<string, unknown>[] = [];
  let missed = false;
  try {
    for (const vendor of VENDORS) {
      const fake = await vendor.start();
      // the server in a process of its own (server-process.ts, as `npm run bench` runs it), so the load
      // generator and the fake do not share its event loop; it computes every call, with the published
      // call budget of its own
      const sqlitePath = path.join(dir, `${fake.system}.sqlite`);
      const store: Store = openStore({ sqlitePath });
      await migrate(store);
      const org = await provisionOrganisation(store.db, {
        name: `${vendor.name} bench`,
        homeCurrency: fake.currency,
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: fake.system,
      });
      const child = await startServer({ sqlitePath, today: TODAY, maxSeconds: 600, resultCacheMb: 0 }, path.join(dir, `${fake.system}.log`));
      const server = { baseUrl: `http://127.0.0.1:${child.port}` };
      try {
        const setAge = (ms: number) =>
          store.db
            .updateTable('organisations')
            .set({ accounting_config: JSON.stringify(fake.config(ms)) })
            .where('id', '=', org.id)
            .execute();
        await setAge(60_000);
        const token = await clientToken(store, server.baseUrl, org.id, ['service.read']);
        const headers = { authorization: `Bearer ${token}` };

        const started = Date.now();
        const first = await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', token);
        if (first.status !== 200) throw new Error(`${vendor.name}: the first copy failed: ${first.status} ${JSON.stringify(first.body)}`);
        const firstCopy = { ms: Date.now() - started, calls: fake.load.arrivals.length };
        log(`${vendor.name} (${fake.size}): first copy ${firstCopy.ms} ms, ${firstCopy.calls} vendor calls`);

        const accounts = await sendJson(server.baseUrl, 'GET', '/v1/operations/accounts.list', token);
        const expense = accounts.body.accounts.find((a: { classification: string }) => a.classification === 'Expense')?.id as string;
        const ledger = await sendJson(
          server.baseUrl,
          'GET',
          `/v1/operations/ledger.account_transactions?account=${encodeURIComponent(expense)}&from=2026-01-01&to=2026-06-30`,
          token,
        );
        const documentId = (ledger.body.transactions ?? []).find((t: { document: { id: string } | null }) => t.document)?.document.id as string | undefined;
        const cases: [string, string][] = [
          ['accounts.list', ''],
          ['ledger.account_transactions', `account=${encodeURIComponent(expense)}&from=2026-01-01&to=2026-06-30`],
          ['reports.profit_and_loss', 'period=custom&from=2026-06-01&to=2026-06-30&compareBy=month&comparePeriods=12'],
          ['reports.balance_sheet', `asAt=${TODAY}&compareBy=month&comparePeriods=12`],
          ['reports.trial_balance', `date=${TODAY}`],
          ['bills.list_to_pay', ''],
          ['banking.accounts', ''],
          ['contacts.search', ''],
          ...(documentId ? ([['documents.get', `ids=${encodeURIComponent(documentId)}`]] as [string, string][]) : []),
        ];
        for (const [age, ms, only] of [
          ['60 s', 60_000, null],
          ['2 s', 2_000, new Set(['ledger.account_transactions', 'reports.profit_and_loss', 'bills.list_to_pay'])],
        ] as const) {
          await setAge(ms);
          for (const [operation, query] of cases) {
            if (only && !only.has(operation)) continue;
            const before = fake.load.arrivals.length;
            const url = `${server.baseUrl}/v1/operations/${operation}${query ? `?${query}` : ''}`;
            const r = await measure(url, { connections: CONNECTIONS, durationSeconds: DURATION, warmupSeconds: 1, headers });
            const row = {
              vendor: vendor.name,
              age,
              operation,
              requestsPerSecond: r.requestsPerSecond,
              p50: r.p50,
              p99: r.p99,
              failed: r.non2xx + r.errors,
              vendorCalls: fake.load.arrivals.length - before,
            };
            rows.push(row);
            log(
              `${vendor.name} ${age.padEnd(4)} ${operation.padEnd(28)} ${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${row.p50} ms  ` +
                `p99 ${row.p99} ms  failed ${row.failed}  vendor calls ${row.vendorCalls}`,
            );
          }
        }
        const perMinute = fake.load.maxPerMinute();
        const atOnce = fake.load.maxInFlight;
        const within = atOnce <= vendor.limits.concurrent && perMinute <= vendor.limits.perMinute && fake.violations.length === 0;
        if (!within) missed = true;
        const summary = {
          vendor: vendor.name,
          size: fake.size,
          firstCopy,
          vendorCalls: fake.load.arrivals.length,
          mostAtOnce: atOnce,
          mostInSixtySeconds: perMinute,
          limits: vendor.limits,
          contractViolations: fake.violations.length,
          within,
        };
        summaries.push(summary);
        log(
          `${vendor.name}: ${fake.load.arrivals.length} vendor calls in all; most at once ${atOnce} (limit ${vendor.limits.concurrent}), most in any ` +
            `60 s ${perMinute} (limit ${vendor.limits.perMinute}); contract violations ${fake.violations.length}: ${within ? 'within the budget' : 'MISSED'}`,
        );
      } finally {
        await child.stop();
        await store.close();
        await fake.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(
    path.join(OUTPUT, 'vendors.json'),
    JSON.stringify(
      { date: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION, latencyMs: LATENCY_MS, summaries, cases: rows },
      null,
      2,
    ),
  );
  log(`\n| vendor | mirror age | operation | req/s | p50 ms | p99 ms | failed | vendor calls |\n| --- | --- | --- | --- | --- | --- | --- | --- |`);
  for (const r of rows)
    log(`| ${r.vendor} | ${r.age} | ${r.operation} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.failed} | ${r.vendorCalls} |`);
  log(`\nwritten: ${path.join(OUTPUT, 'vendors.json')}`);
  return missed ? 1 : 0;
}

// a bounded run: it stops itself whatever happens
const deadline = setTimeout(() => {
  process.stderr.write('bench:vendors: over its time limit (10 minutes), stopped\n');
  process.exit(2);
}, 600_000);
deadline.unref();
run().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench:vendors failed: ${(error as Error).stack}\n`);
    process.exit(1);
  },
);
