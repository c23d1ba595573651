/**
 * Setting up one demo organisation before its activity: the organisation with its role policy,
 * the chart of accounts, contacts (more suppliers and customers at larger scales), bank accounts
 * with their card holders, and the context the activity generators share.
 */
import { insertChunked, LedgerWriter } from '../accounting/builtin/writer.js';
import { addDays, daysBetween } from '../domain/dates.js';
import { provisionOrganisation } from '../provision.js';
import type { Store } from '../store/db.js';
import type { BankAccountRow } from '../store/schema.js';
import { bankAccountRows, bankHolderRows, narrator } from './banking.js';
import type { BankDef, CustomerDef, DemoOrganisationDef, SupplierDef } from './catalog.js';
import { chartEntries, createChart } from './chart.js';
import { Scheduler, type OrgContext } from './context.js';
import { DocumentFiles } from './documents.js';
import { Books } from './ledger.js';
import { seededIds, type Random } from './random.js';

/** Documents the demo aims to stay under for the benchmark organisation. */
const DOCUMENT_TARGET = 50_000;

function town(def: DemoOrganisationDef): string {
  return (def.address[1] ?? '').split(/[ ,]/)[0] ?? '';
}

/** Made-up suppliers for the larger scales, each from a trade of the organisation's kind. */
function moreSuppliers(def: DemoOrganisationDef, rng: Random, count: number, taken: Set<string>): SupplierDef[] {
  const out: SupplierDef[] = [];
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const trade = rng.pick(def.trades);
    const name = `${rng.pick(def.supplierNames.first)} ${trade.word} ${rng.pick(def.supplierNames.suffixes)}`;
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({ name, category: trade.category, terms: rng.pick([14, 30, 30, 45]), city: town(def), items: trade.items });
  }
  return out;
}

function moreCustomers(def: DemoOrganisationDef, rng: Random, count: number, taken: Set<string>): CustomerDef[] {
  const out: CustomerDef[] = [];
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const name = `${rng.pick(def.customerNames.first)} ${rng.pick(def.customerNames.suffixes)}`;
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({ name, terms: rng.pick([14, 30, 30, 45]), items: [] });
  }
  return out;
}

/** Expected share of optional documents kept, so the total lands near DOCUMENT_TARGET at large scales. */
function documentShare(def: DemoOrganisationDef, volume: number, months: number): number {
  const v = def.volumes;
  const recurring = def.recurring.length * months;
  const optional = months * volume * (v.bills + 0.7 * v.cardCharges + 0.5 * v.directSpend + v.expenseClaims + v.supplierCredits);
  return Math.max(0.01, Math.min(1, (DOCUMENT_TARGET - recurring) / optional));
}

export interface SetupOptions {
  asOf: string;
  start: string;
  volume: number;
  /** bank and card feed items, times what the ledger alone would mirror (1: none added) */
  bankScale: number;
  rng: Random;
  userIds: Map<string, string>;
  createdAt: string;
}

export async function setupOrganisation(store: Store, def: DemoOrganisationDef, options: SetupOptions): Promise<OrgContext> {
  const { rng, volume } = options;
  const makeId = seededIds(rng.fork('ids'));
  const data = rng.fork('activity');
  const names = rng.fork('names');

  const org = await provisionOrganisation(store.db, {
    id: makeId('org'),
    name: def.name,
    homeCurrency: def.homeCurrency,
    timeZone: def.timeZone,
    fyStartMonth: def.fyStartMonth,
    createdAt: options.createdAt,
  });

  const writer = new LedgerWriter(store.db, store.dialect, org.id, def.homeCurrency, makeId, () => options.createdAt);
  const chart = await createChart(writer, chartEntries(def.chart));

  const taken = new Set<string>([...def.suppliers.map((s) => s.name), ...def.customers.map((c) => c.name)]);
  const growth = Math.sqrt(Math.max(1, volume));
  const suppliers = [...def.suppliers, ...moreSuppliers(def, names, Math.round(4 * growth), taken)];
  const customers = [...def.customers, ...moreCustomers(def, names, Math.round(3 * growth), taken)];

  const contacts = new Map<string, string>();
  const addContact = async (name: string, kind: 'supplier' | 'customer' | 'employee') => {
    if (!contacts.has(name)) contacts.set(name, (await writer.createContact(name, kind)).id);
  };
  for (const r of def.recurring) await addContact(r.supplier.name, 'supplier');
  for (const s of suppliers) await addContact(s.name, 'supplier');
  for (const m of [...def.merchants, ...def.directMerchants]) await addContact(m.name, 'supplier');
  for (const name of [def.tax.authority, def.payroll.authority, def.loan.lender]) await addContact(name, 'supplier');
  for (const c of customers) await addContact(c.name, 'customer');
  for (const e of def.employees) await addContact(e, 'employee');

  const bankRows = bankAccountRows(def, org.id, chart, makeId, options.createdAt);
  await insertChunked(store.db, 'bank_accounts', bankRows, store.dialect);
  await insertChunked(store.db, 'bank_account_holders', bankHolderRows(def, bankRows, options.userIds), store.dialect);
  const banks = new Map<BankDef['key'], BankAccountRow>(def.banks.map((b, i) => [b.key, bankRows[i]!]));

  const books = new Books(store, writer, def.homeCurrency, new Map(bankRows.map((b) => [b.ledger_account_id!, b])), {
    organisationId: org.id,
    asOf: options.asOf,
    rng: rng.fork('bank'),
    makeId,
    sources: new Map(def.banks.map((b, i) => [bankRows[i]!.id, b.source])),
  });
  const months = daysBetween(options.start, options.asOf) / 30.4 + 1;
  return {
    def,
    organisationId: org.id,
    home: def.homeCurrency,
    asOf: options.asOf,
    start: options.start,
    volume,
    size: Math.max(1, volume),
    bankScale: options.bankScale,
    rng: data,
    makeId,
    chart,
    books,
    files: new DocumentFiles(volume <= 1, addDays(options.asOf, -31)),
    narrate: narrator(def.bankStyle),
    banks,
    contacts,
    suppliers,
    customers,
    documentShare: documentShare(def, volume, months),
    counters: new Map(),
    state: { overdueForced: false, prepaid: { remaining: 0, months: 0 } },
    scheduler: new Scheduler(options.asOf),
    gathered: new Map(),
  };
}
