/**
 * The hand-made test books (books.ts) plus what the MCP tests call every tool on: a bank account
 * with four transactions, two bills to pay and a saved filter, an image file on the published Acme
 * bill and a PDF document. Amounts in minor units, chosen so every answer can be checked by hand.
 */
import { refreshBankDailyTotals } from '../../src/store/bank-totals.js';
import { billRow } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import type { BankTransactionRow } from '../../src/store/schema.js';
import { buildBooks } from './books.js';

export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
export const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\n%%EOF\n')]);

export async function buildMcpBooks(store: Store) {
  const books = await buildBooks(store);
  const { db } = store;
  const org = books.org.id;
  const created_at = '2026-10-01T00:00:00.000Z';
  await db
    .insertInto('bank_accounts')
    .values({
      id: 'bac_mcp',
      organisation_id: org,
      name: 'Business Current',
      number: '12345678',
      type: 'bank',
      bank: 'Barclays',
      currency: 'GBP',
      is_default: 1,
      ledger_account_id: books.ids.bank,
      created_at,
    })
    .execute();
  const txn = (id: string, date: string, description: string, amount: number, reconciledIn: string | null): BankTransactionRow => ({
    id,
    organisation_id: org,
    bank_account_id: 'bac_mcp',
    date,
    description,
    amount,
    home_amount: amount,
    status: reconciledIn ? 'reconciled' : 'to_reconcile',
    reconciled_in: reconciledIn,
    suggested_match: 0,
    document_id: null,
    source: 'statement-2026-11',
    external_id: null,
    fingerprint: id,
    created_at,
  });
  await db
    .insertInto('bank_transactions')
    .values([
      txn('btx_1', '2026-10-01', 'OPENING TRANSFER', 100_000, 'accounting_system'),
      txn('btx_2', '2026-11-03', 'CHQ 000123 PAPER CO', -1_500, 'outside_service'),
      txn('btx_3', '2026-11-10', 'INTEREST', 525, null),
      txn('btx_4', '2026-11-21', 'MONTHLY FEE', -200, null),
    ])
    .execute();
  await refreshBankDailyTotals(db, org, 'bac_mcp', ['2026-10-01', '2026-11-03', '2026-11-10', '2026-11-21']);
  const bill = (id: string, supplier: string, invoice: string, dueDate: string, currency: string, original: number, due: number, tags: string) =>
    billRow({
      id,
      organisation_id: org,
      document_id: null,
      kind: 'bill',
      supplier,
      invoice_number: invoice,
      date: '2026-08-15',
      due_date: dueDate,
      scheduled_date: null,
      tags,
      currency,
      original_amount: original,
      amount_due: due,
      latest_note: null,
      created_at,
    });
  await db
    .insertInto('bills')
    .values([
      bill('bil_rent', 'Landlord Ltd', 'L-26-10', '2026-11-30', 'GBP', 200_000, 200_000, 'rent'),
      bill('bil_acme', 'Acme Software', 'AS-2026-08', '2026-09-14', 'USD', 12_000, 9_600, 'software'),
    ])
    .execute();
  await db
    .insertInto('bill_filters')
    .values({ id: 'bfl_overdue', organisation_id: org, name: 'Overdue', description: 'Bills past their due date', criteria: '{"overdue":true}', position: 1 })
    .execute();
  await db
    .insertInto('documents')
    .values({
      id: 'doc_pdf',
      organisation_id: org,
      number: 'P-1',
      type: 'bill',
      supplier: 'Paper Co',
      date: '2026-11-20',
      due_date: '2026-12-20',
      currency: 'GBP',
      subtotal: 100_000,
      tax: 20_000,
      total: 120_000,
      accounting_transaction_id: null,
      published_at: null,
      created_at,
    })
    .execute();
  await db
    .insertInto('document_files')
    .values([
      { document_id: 'doc_acme', organisation_id: org, file_name: 'acme.png', content_type: 'image/png', size: PNG.length, data: PNG },
      { document_id: 'doc_pdf', organisation_id: org, file_name: 'P-1.pdf', content_type: 'application/pdf', size: PDF.length, data: PDF },
    ])
    .execute();
  return books;
}
