/**
 * A small set of books with amounts chosen by hand, so report and ledger tests can assert exact
 * figures. GBP, Europe/London, financial year starting in April. All amounts in pence.
 */
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { nowIso } from '../../src/store/ids.js';
import { createUser, setMembership } from '../../src/store/users.js';

export const TODAY = '2026-11-21';

export async function buildBooks(store: Store) {
  const org = await provisionOrganisation(store.db, { name: 'Test Books Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
  const w = new LedgerWriter(store.db, store.dialect, org.id, 'GBP');
  const a = async (name: string, number: string, type: Parameters<typeof w.createAccount>[0]['type'], parentId?: string, active = true) =>
    (await w.createAccount({ name, number, type, parentId: parentId ?? null, active })).id;
  const bank = await a('Current Account', '1000', 'Bank');
  const receivable = await a('Accounts Receivable', '1100', 'Accounts Receivable');
  const equipment = await a('Equipment', '1500', 'Fixed Asset');
  const accDep = await a('Accumulated Depreciation', '1510', 'Fixed Asset', equipment);
  const payable = await a('Accounts Payable', '2000', 'Accounts Payable');
  const card = await a('Company Card', '2100', 'Credit Card');
  const vat = await a('VAT', '2200', 'Other Current Liability');
  const capital = await a('Share Capital', '3000', 'Equity');
  await a('Retained Earnings', '3100', 'Equity');
  const sales = await a('Sales', '4000', 'Income');
  const interest = await a('Interest Income', '4100', 'Other Income');
  const cogs = await a('Cost of Sales', '5000', 'Cost of Goods Sold');
  const office = await a('Office', '6000', 'Expense');
  const software = await a('Software', '6010', 'Expense', office);
  const stationery = await a('Stationery', '6020', 'Expense', office);
  const rent = await a('Rent', '6100', 'Expense');
  const depreciation = await a('Depreciation', '6200', 'Expense');
  const wages = await a('Wages', '6300', 'Expense');
  await a('Old Expenses', '6900', 'Expense', undefined, false);
  const fees = await a('Bank Fees', '7000', 'Other Expense');

  const acme = (await w.createContact('Acme Software', 'supplier')).id;
  const paper = (await w.createContact('Paper Co', 'supplier')).id;
  const landlord = (await w.createContact('Landlord Ltd', 'supplier')).id;
  const client = (await w.createContact('Big Client plc', 'customer')).id;

  const post = w.post.bind(w);
  await post({
    type: 'journal',
    date: '2024-01-01',
    description: 'Opening balances',
    lines: [
      { accountId: bank, amount: 5_000_000 },
      { accountId: capital, amount: -5_000_000 },
    ],
  });
  await post({
    type: 'expense',
    date: '2024-02-29',
    description: 'Leap day fee',
    lines: [
      { accountId: fees, amount: 100 },
      { accountId: bank, amount: -100 },
    ],
  });
  await post({
    type: 'invoice',
    date: '2025-06-15',
    number: 'INV-1',
    contactId: client,
    description: 'Consulting',
    lines: [
      { accountId: receivable, amount: 1_200_000 },
      { accountId: sales, amount: -1_000_000 },
      { accountId: vat, amount: -200_000 },
    ],
  });
  await post({
    type: 'payment',
    date: '2025-07-10',
    contactId: client,
    description: 'INV-1 paid',
    lines: [
      { accountId: bank, amount: 1_200_000 },
      { accountId: receivable, amount: -1_200_000 },
    ],
  });
  await post({
    type: 'journal',
    date: '2025-11-30',
    description: 'November payroll',
    lines: [
      { accountId: wages, amount: 300_000 },
      { accountId: bank, amount: -300_000 },
    ],
  });
  await post({
    type: 'bill',
    date: '2026-02-28',
    number: 'L-26-02',
    contactId: landlord,
    description: 'February rent',
    lines: [
      { accountId: rent, amount: 200_000 },
      { accountId: payable, amount: -200_000 },
    ],
  });
  await post({
    type: 'journal',
    date: '2026-03-31',
    description: 'Depreciation FY 2026',
    lines: [
      { accountId: depreciation, amount: 50_000 },
      { accountId: accDep, amount: -50_000 },
    ],
  });
  await post({
    type: 'expense',
    date: '2026-04-01',
    number: 'R-77',
    contactId: paper,
    description: 'Printer paper',
    lines: [
      { accountId: stationery, amount: 4_550 },
      { accountId: vat, amount: 910 },
      { accountId: bank, amount: -5_460 },
    ],
  });
  const acmeBill = await post({
    type: 'bill',
    date: '2026-08-15',
    number: 'AS-2026-08',
    contactId: acme,
    description: 'Design suite, annual',
    currency: 'USD',
    exchangeRate: '0.8',
    lines: [
      { accountId: software, amount: 9_600, amountInCurrency: 12_000 },
      { accountId: payable, amount: -9_600, amountInCurrency: -12_000 },
    ],
  });
  await post({
    type: 'card_charge',
    date: '2026-09-02',
    contactId: acme,
    description: 'Plugin',
    lines: [
      { accountId: software, amount: 3_000 },
      { accountId: card, amount: -3_000 },
    ],
  });
  await post({
    type: 'card_refund',
    date: '2026-09-20',
    contactId: acme,
    description: 'Plugin refund',
    lines: [
      { accountId: software, amount: -1_000 },
      { accountId: card, amount: 1_000 },
    ],
  });
  await post({
    type: 'supplier_credit',
    date: '2026-10-05',
    number: 'CN-5',
    contactId: acme,
    description: 'Credit for outage',
    lines: [
      { accountId: payable, amount: 2_000 },
      { accountId: software, amount: -2_000 },
    ],
  });
  await post({
    type: 'bill',
    date: '2026-10-31',
    number: 'L-26-10',
    contactId: landlord,
    description: 'October rent',
    lines: [
      { accountId: rent, amount: 200_000 },
      { accountId: payable, amount: -200_000 },
    ],
  });
  await post({
    type: 'cheque',
    date: '2026-11-03',
    number: '000123',
    contactId: paper,
    description: 'Desk organisers',
    lines: [
      { accountId: office, amount: 1_500 },
      { accountId: bank, amount: -1_500 },
    ],
  });
  await post({
    type: 'deposit',
    date: '2026-11-10',
    description: 'Interest',
    lines: [
      { accountId: bank, amount: 525 },
      { accountId: interest, amount: -525 },
    ],
  });
  await post({
    type: 'journal',
    date: '2026-11-15',
    number: 'J-9',
    description: 'Reclass stationery to software',
    lines: [
      { accountId: software, amount: 400 },
      { accountId: stationery, amount: -400 },
    ],
  });
  await post({
    type: 'invoice',
    date: '2026-11-20',
    number: 'INV-2',
    contactId: client,
    description: 'Consulting',
    lines: [
      { accountId: receivable, amount: 360_000 },
      { accountId: sales, amount: -300_000 },
      { accountId: vat, amount: -60_000 },
    ],
  });
  await post({
    type: 'bill',
    date: '2026-11-20',
    number: 'P-1',
    contactId: paper,
    description: 'Printed goods for resale',
    lines: [
      { accountId: cogs, amount: 120_000 },
      { accountId: payable, amount: -120_000 },
    ],
  });
  await post({
    type: 'expense',
    date: '2026-11-21',
    description: 'Monthly fee',
    lines: [
      { accountId: fees, amount: 200 },
      { accountId: bank, amount: -200 },
    ],
  });

  // the Acme bill was published from a service document
  await store.db
    .insertInto('documents')
    .values({
      id: 'doc_acme',
      organisation_id: org.id,
      number: 'AS-2026-08',
      type: 'bill',
      supplier: 'Acme Software',
      date: '2026-08-15',
      due_date: '2026-09-14',
      currency: 'USD',
      subtotal: 12_000,
      tax: 0,
      total: 12_000,
      accounting_transaction_id: acmeBill,
      published_at: '2026-08-16T09:00:00.000Z',
      created_at: nowIso(),
    })
    .execute();
  await store.db
    .insertInto('document_coded_lines')
    .values({
      id: 'dcl_1',
      document_id: 'doc_acme',
      organisation_id: org.id,
      line_no: 1,
      description: 'Design suite seat',
      account_id: software,
      account_name: 'Office:Software',
      tax_code_id: null,
      class: null,
      customer: null,
      quantity: '1',
      subtotal: 12_000,
      tax: 0,
      total: 12_000,
    })
    .execute();

  const submitter = await createUser(store.db, { email: `sub-${org.id}@example.test`, name: 'Sam Submitter' });
  await setMembership(store.db, org.id, submitter.id, 'submitter');
  const admin = await createUser(store.db, { email: `admin-${org.id}@example.test`, name: 'Ada Admin' });
  await setMembership(store.db, org.id, admin.id, 'admin');

  return { org, ids: { bank, software, stationery, office, rent, payable, acme, paper, landlord, acmeBill }, users: { submitter, admin } };
}
