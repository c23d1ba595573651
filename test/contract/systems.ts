/**
 * The books systems the contract suite holds to one contract (issue 39): the builtin ledger, a
 * GnuCash book, Xero and QuickBooks Online (their contract-checked fakes), each on every test
 * dialect, the way describeEachDialect runs over databases. Each system brings its books as the
 * existing tests build them (helpers/books.ts, fixtures/gnucash/book.gnucash, the fakes' default
 * books), one organisation, one server and one API client's token per system and dialect, and says
 * in `capabilities` which checks cannot apply to it and why, so a check never skips in silence.
 */
import { after, before, describe } from 'node:test';
import { join } from 'node:path';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { provisionOrganisation } from '../../src/provision.js';
import { billRow } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import type { DialectName } from '../../src/store/dialect.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { buildBooks } from '../helpers/books.js';
import { startFakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { documentsFakeCompany } from '../helpers/fake-quickbooks-documents.js';
import { startFakeXero } from '../helpers/fake-xero.js';
import { defaultFakeBook, fakeId } from '../helpers/fake-xero-book.js';
import { GNUCASH_FIXTURES, readGnuCashReport } from '../helpers/gnucash-reports.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

// the suite calls each vendor faster than its published budget allows; that budget is call-budget.test.ts's
useCallBudget(NO_BUDGET);

export type SystemName = 'builtin' | 'gnucash' | 'xero' | 'quickbooks';
/** A check that cannot apply to a system, and why: asserted as declared, never skipped in silence. */
export interface NotApplicable {
  notApplicable: string;
}
export type BalanceSheetTotals = { label: string; amount: number }[];

export interface Capabilities {
  /** the dates the system's own balance sheet is read at (BooksSystem.ownTotals), or why it has none */
  ownBalanceSheet: { dates: string[] } | NotApplicable;
  /**
   * docs/sales-and-aging.md, Aged payables: `ledger` (builtin: the Accounts Payable lines aged, so the
   * aged total is the payable accounts' balance plus the service's bills not yet in the books), or
   * `bills` (systems that hold bills: the aged total is bills.list_to_pay's bills, which leave out
   * what the books hold on the payable account beside open bills, such as an unapplied credit note)
   */
  agedPayables: 'ledger' | 'bills';
  /** documents with a file: at least one document on the ledger lines has one, or why none can */
  files: true | NotApplicable;
  /** banking.accounts lists the books' own bank and card accounts (id <system>:<account id>), or why not */
  bookBankAccounts: true | NotApplicable;
  /** the chart's Bank accounts banking.accounts leaves out by the system's stated rule, and that rule */
  unlistedBankAccounts?: { accounts: string[]; rule: string };
}

/** What a suite knows of the system it runs for while its tests are declared. */
export interface Which {
  name: SystemName;
  dialect: DialectName;
  capabilities: Capabilities;
}

export interface SystemFixture {
  name: SystemName;
  today: string;
  /** the first day of the financial year holding `today` */
  fyStart: string;
  /** two balance dates in that financial year, the later one last */
  balanceDates: [string, string];
  /** an account with several listed lines in [from, to] (its name as typed, resolved by the service) */
  busy: { account: string; from: string; to: string };
  /** the first day the books hold anything, for reading every line */
  booksFrom: string;
  capabilities: Capabilities;
}

export interface BooksSystem extends SystemFixture {
  dialect: DialectName;
  store: Store;
  /** the system's own balance sheet totals at a date (minor units, under Ledgerline's labels), where it has a report of its own */
  ownTotals: ((date: string) => Promise<BalanceSheetTotals>) | undefined;
  baseUrl: string;
  organisationId: string;
  /** an API client token of the organisation (service.read) */
  token: string;
  /** another organisation of the same service, and its own client's token */
  other: { organisationId: string; token: string };
  /** GET /v1/operations/NAME with the token (the organisation's unless given): status and body */
  get(name: string, args?: Record<string, string | number | boolean>, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** the same, asserting 200 */
  ok(name: string, args?: Record<string, string | number | boolean>): Promise<any>;
}

/** a small PDF, so a file's bytes are checked end to end */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The service's own bills to pay that no books hold (not yet published): every system merges them into its bills to pay. */
export const SERVICE_BILLS = [
  { number: 'CC-1', date: '2026-01-05', due: '2026-02-04', amount: 12_345 },
  { number: 'CC-2', date: '2026-02-05', due: '2026-03-07', amount: 6_789 },
];
export const SERVICE_SUPPLIER = 'Contract Cleaning Co';

async function unpublishedBill(store: Store, organisationId: string, currency: string): Promise<void> {
  const rows = SERVICE_BILLS.map((b) =>
    billRow({
      id: `bill_contract_${b.number}_${organisationId}`,
      organisation_id: organisationId,
      document_id: null,
      kind: 'bill',
      supplier: SERVICE_SUPPLIER,
      invoice_number: b.number,
      date: b.date,
      due_date: b.due,
      scheduled_date: null,
      tags: '',
      currency,
      original_amount: b.amount,
      amount_due: b.amount,
      latest_note: null,
      created_at: `${b.date}T09:00:00.000Z`,
    }),
  );
  await store.db.insertInto('bills').values(rows).execute();
}

type Setup = (store: Store) => Promise<{ organisationId: string; ownTotals?: (date: string) => Promise<BalanceSheetTotals>; close?: () => Promise<void> }>;

/** The system's own BalanceSheet read live through its connector (what `ledgerline check-books` compares). */
async function connectorTotals(store: Store, organisationId: string) {
  const row = (await getOrganisation(store.db, organisationId))!;
  const system = accountingSystemFor(store.db, row);
  return (date: string) => system.ownBalanceSheetTotals!(date);
}

const SYSTEMS: (SystemFixture & { setup: Setup })[] = [
  {
    name: 'builtin',
    today: '2026-11-21',
    fyStart: '2026-04-01',
    balanceDates: ['2026-09-30', '2026-11-21'],
    busy: { account: 'Office', from: '2026-04-01', to: '2026-11-21' },
    booksFrom: '2024-01-01',
    capabilities: {
      ownBalanceSheet: { notApplicable: "the builtin ledger is Ledgerline's own books: its reports are the only ones there are (check-books refuses it)" },
      agedPayables: 'ledger',
      files: true,
      bookBankAccounts: {
        notApplicable: "the builtin chart's bank accounts are listed once a statement is imported and linked (docs/import.md); the books alone list none",
      },
    },
    async setup(store) {
      const { org } = await buildBooks(store);
      // the Acme bill's service document with its scan, so documents.file has a file to answer
      await store.db
        .insertInto('document_files')
        .values({ document_id: 'doc_acme', organisation_id: org.id, file_name: 'AS-2026-08.pdf', content_type: 'application/pdf', size: PDF.length, data: PDF })
        .execute();
      await unpublishedBill(store, org.id, 'GBP');
      return { organisationId: org.id };
    },
  },
  {
    name: 'gnucash',
    today: '2026-12-15',
    fyStart: '2026-01-01',
    // the dates GnuCash's own Balance Sheet was saved at (fixtures/gnucash/reports, make-reports.sh)
    balanceDates: ['2026-06-30', '2026-11-30'],
    busy: { account: 'Assets:Current Assets:Business Current Account', from: '2026-01-01', to: '2026-12-15' },
    booksFrom: '2025-01-01',
    capabilities: {
      ownBalanceSheet: { dates: ['2026-06-30', '2026-11-30'] },
      agedPayables: 'bills',
      files: { notApplicable: 'GnuCash keeps no file for a document (a document link is not fetched): docs/gnucash.md, documents.file' },
      bookBankAccounts: true,
      unlistedBankAccounts: {
        accounts: ['Assets:Current Assets:Petty Cash'],
        rule: 'GnuCash CASH accounts have no statements (src/accounting/gnucash/bank-accounts.ts)',
      },
    },
    async setup(store) {
      const place = { homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 };
      const row = await provisionOrganisation(store.db, { name: 'Contract GnuCash Ltd', ...place, accountingSystem: 'gnucash' });
      const config = { bookPath: join(GNUCASH_FIXTURES, 'book.gnucash') };
      await store.db
        .updateTable('organisations')
        .set({ accounting_config: JSON.stringify(config) })
        .where('id', '=', row.id)
        .execute();
      await unpublishedBill(store, row.id, 'GBP');
      return { organisationId: row.id, ownTotals: async (date) => gnucashOwnTotals(date) };
    },
  },
  {
    name: 'xero',
    today: '2026-06-15',
    fyStart: '2026-01-01',
    balanceDates: ['2026-03-31', '2026-06-15'],
    busy: { account: '800', from: '2025-01-01', to: '2026-06-15' },
    booksFrom: '2025-01-01',
    capabilities: { ownBalanceSheet: { dates: ['2026-03-31', '2026-06-15'] }, agedPayables: 'bills', files: true, bookBankAccounts: true },
    async setup(store) {
      const book = defaultFakeBook();
      // one bill with its scan attached in Xero, so documents.file has a file to answer
      const scan = { id: fakeId('attachment PC-7781'), fileName: 'PC-7781.pdf', mimeType: 'application/pdf', bytes: PDF };
      book.invoices.find((i) => i.number === 'PC-7781')!.attachments = [scan];
      const xero = await startFakeXero({ limits: false, today: '2026-06-15', book });
      const id = await vendorOrganisation(store, 'xero', 'Contract Xero Ltd', { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl });
      await unpublishedBill(store, id, 'GBP');
      return { organisationId: id, ownTotals: await connectorTotals(store, id), close: () => vendorClose(xero) };
    },
  },
  {
    name: 'quickbooks',
    today: '2026-06-15',
    fyStart: '2026-01-01',
    balanceDates: ['2026-03-31', '2026-06-15'],
    busy: { account: 'Accounts Payable (A/P)', from: '2025-01-01', to: '2026-06-15' },
    booksFrom: '2025-01-01',
    capabilities: { ownBalanceSheet: { dates: ['2026-03-31', '2026-06-15'] }, agedPayables: 'bills', files: true, bookBankAccounts: true },
    async setup(store) {
      const qb = await startFakeQuickBooks({ limits: false, company: documentsFakeCompany(), today: '2026-06-15' });
      const id = await vendorOrganisation(store, 'quickbooks', 'Contract QuickBooks Inc', { realmId: qb.realmId, accessToken: qb.token, baseUrl: qb.baseUrl });
      await unpublishedBill(store, id, 'USD');
      return { organisationId: id, ownTotals: await connectorTotals(store, id), close: () => vendorClose(qb) };
    },
  },
];

/** A fake's close, failing when it saw a request or answered outside the vendor's contract. */
async function vendorClose(fake: { violations: string[]; close(): Promise<void> }): Promise<void> {
  await fake.close();
  if (fake.violations.length) throw new Error(`outside the vendor's contract: ${fake.violations.join('; ')}`);
}

/** GnuCash's own Balance Sheet of the fixture book at a date, its totals under Ledgerline's labels. */
function gnucashOwnTotals(date: string): BalanceSheetTotals {
  const report = readGnuCashReport(`bs-${date}`);
  const labels: [string, string][] = [
    ['Total Assets', 'Total Assets'],
    ['Total Liabilities', 'Total Liabilities'],
    ['Total Equity', 'Total Equity'],
    ['Total Liabilities and Equity', 'Total Liabilities & Equity'],
  ];
  return labels.map(([label, theirs]) => {
    const amount = report.lines.get(theirs);
    if (amount === undefined) throw new Error(`GnuCash's balance sheet of ${date} has no "${theirs}"`);
    return { label, amount };
  });
}

/** The systems the suite runs over: all four unless LEDGERLINE_TEST_SYSTEMS names some (quick local runs). */
export const SYSTEM_NAMES: SystemName[] = (process.env.LEDGERLINE_TEST_SYSTEMS ?? 'builtin,gnucash,xero,quickbooks').split(',') as SystemName[];

/**
 * Runs `body` once per books system and dialect, with that system's organisation served over HTTP.
 * The system is set up before the suite's tests (one store, server, organisation and token each).
 */
export function describeEachSystem(name: string, body: (system: () => BooksSystem, which: Which) => void): void {
  for (const fixture of SYSTEMS.filter((s) => SYSTEM_NAMES.includes(s.name))) {
    for (const dialect of DIALECTS) {
      describe(`${name} — ${fixture.name} [${dialect}]`, () => {
        let system: BooksSystem | undefined;
        const closing: (() => Promise<void>)[] = [];
        before(async () => {
          const store = await openTestStore(dialect);
          closing.push(() => store.close());
          const made = await fixture.setup(store);
          if (made.close) closing.push(made.close);
          const other = await provisionOrganisation(store.db, { name: 'Someone Else Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
          const server = await startServer(store, { today: fixture.today });
          closing.push(() => server.close());
          const { baseUrl } = server;
          const get = async (op: string, args: Record<string, string | number | boolean> = {}, token = system!.token, headers: Record<string, string> = {}) => {
            const query = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, String(v)])).toString();
            const r = await sendJson(baseUrl, 'GET', `/v1/operations/${op}${query ? `?${query}` : ''}`, token, undefined, headers);
            return { status: r.status, body: r.body };
          };
          system = {
            ...fixture,
            ownTotals: made.ownTotals,
            dialect,
            store,
            baseUrl,
            organisationId: made.organisationId,
            token: await clientToken(store, baseUrl, made.organisationId, ['service.read']),
            other: { organisationId: other.id, token: await clientToken(store, baseUrl, other.id, ['service.read']) },
            get,
            async ok(op, args = {}) {
              const r = await get(op, args);
              if (r.status !== 200) throw new Error(`${op} ${JSON.stringify(args)}: ${r.status} ${JSON.stringify(r.body).slice(0, 600)}`);
              return r.body;
            },
          };
        });
        after(async () => {
          const failures: unknown[] = [];
          for (const close of closing.reverse()) await close().catch((e: unknown) => failures.push(e));
          if (failures.length) throw failures[0];
        });
        body(
          () => {
            if (!system) throw new Error('system not set up yet');
            return system;
          },
          { name: fixture.name, dialect, capabilities: fixture.capabilities },
        );
      });
    }
  }
}
