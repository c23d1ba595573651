import { z } from 'zod';
import { toMajor } from '../domain/money.js';
import { getAnsweredDocuments, type AnsweredCodedLine, type AnsweredInvoiceLine } from '../store/documents.js';
import { systemDocumentOutput, systemDocuments } from './documents-system.js';
import { invalidParameter } from './errors.js';
import { documentFileLink, linkSchema } from './links.js';
import { defineOperation } from './operation.js';

/** spec, Limits: document ids per call */
export const MAX_DOCUMENT_IDS = 50;

/** The distinct, trimmed ids of a comma-separated list, in the order first given. */
export function parseDocumentIds(text: string): string[] {
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  if (ids.length === 0) throw invalidParameter('ids', 'must name at least one document id');
  if (ids.length > MAX_DOCUMENT_IDS) throw invalidParameter('ids', `at most ${MAX_DOCUMENT_IDS} document ids per call (got ${ids.length} distinct ids)`);
  return ids;
}

/**
 * Quantities are stored as decimal text so they stay exact; the JSON edge makes them numbers. A line
 * written before quantities were bounded (documents/input.ts) may hold one in exponent form (1e-7,
 * 1e+308): it is still a number, and given as one.
 */
function quantityOf(text: string, lineId: string): number {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(text.trim())) throw new Error(`document line ${lineId} has a quantity that is not a decimal: "${text}"`);
  return Number(text);
}

/** A stored amount (minor units; bigint columns come back as text on PostgreSQL) in major units of the document's currency. */
const major = (minor: number | string, currency: string) => toMajor(Number(minor), currency);

/** The amounts of a document and of a coded line: kept in minor units, answered in major units of the document's currency. */
const totalsSchema = { subtotal: z.number(), tax: z.number(), total: z.number() };

const codedLineSchema = z.object({
  id: z.string(),
  description: z.string(),
  account: z.string().nullable().describe('the account the line was published to'),
  accountId: z.string().nullable(),
  taxCodeId: z.string().nullable(),
  class: z.string().nullable(),
  customer: z.string().nullable(),
  quantity: z.number(),
  ...totalsSchema,
});

const invoiceLineSchema = z.object({
  id: z.string(),
  description: z.string(),
  productCode: z.string().nullable(),
  unit: z.string().nullable(),
  quantity: z.number(),
  unitPrice: z.number(),
  tax: z.number(),
  amount: z.number(),
});

export const documentSchema = z.object({
  id: z.string(),
  number: z.string(),
  type: z.string().describe('bill, receipt, expense_claim or supplier_credit'),
  supplier: z.string(),
  date: z.string(),
  dueDate: z.string().nullable(),
  currency: z.string().describe("the document's own currency; every amount of the document is in it"),
  accountingId: z.string().nullable().describe('the transaction id in the accounting system, when published'),
  publishedAt: z.string().nullable(),
  accountingLink: z
    .string()
    .nullable()
    .describe("the published transaction in the accounting system's own interface, where it has one (Xero, QuickBooks); null otherwise"),
  link: linkSchema.nullable().describe('where to fetch the original file (documents.file); null when there is none'),
  ...totalsSchema,
  codedLines: z.array(codedLineSchema).describe('what each line was published with'),
  invoiceLines: z.array(invoiceLineSchema).describe("what the supplier's invoice listed"),
});

type DocumentOutput = z.infer<typeof documentSchema>;

// each line written as one object literal, in the answer's order: built at its final shape at once
const toCodedLine = (line: AnsweredCodedLine, currency: string): DocumentOutput['codedLines'][number] => ({
  id: line.id,
  description: line.description,
  account: line.account_name,
  accountId: line.account_id,
  taxCodeId: line.tax_code_id,
  class: line.class,
  customer: line.customer,
  quantity: quantityOf(line.quantity, line.id),
  subtotal: major(line.subtotal, currency),
  tax: major(line.tax, currency),
  total: major(line.total, currency),
});

const toInvoiceLine = (line: AnsweredInvoiceLine, currency: string): DocumentOutput['invoiceLines'][number] => ({
  id: line.id,
  description: line.description,
  productCode: line.product_code,
  unit: line.unit,
  quantity: quantityOf(line.quantity, line.id),
  unitPrice: major(line.unit_price, currency),
  tax: major(line.tax, currency),
  amount: major(line.amount, currency),
});

const NAME = 'documents.get';

export const documentsGet = defineOperation({
  kind: 'organisation',
  name: NAME,
  tool: 'documents_get',
  title: 'Documents by id',
  summary: 'Documents (bills, receipts, expense claims, supplier credits) by id, with coded lines and invoice lines.',
  description: [
    'Returns the documents with the given ids, in the order asked, each once.',
    `ids (required): one or more document ids, comma separated, at most ${MAX_DOCUMENT_IDS}; these are the document ids ledger.account_transactions returns.`,
    'Each document: id, number, type, supplier, date, dueDate, currency, accountingId (the accounting system transaction, null if unpublished),',
    "publishedAt, accountingLink (the transaction in the accounting system's own interface), link (fetch the original file with documents.file; null " +
      'when there is no file), subtotal, tax, total,',
    'codedLines (what each line was published with: account, accountId, taxCodeId, class, customer, quantity, subtotal, tax, total)',
    'and invoiceLines (what the supplier invoice listed: productCode, unit, quantity, unitPrice, tax, amount).',
    "Amounts are in the document's own currency, major units. Ids that are not documents of this organisation are listed under notFound.",
    "Documents the connected accounting system holds (a GnuCash book's vendor bills, credit notes and expense vouchers) have ids like gnucash:<guid>:",
    'their coded lines are the posted splits (tax on its own line), their invoice lines the bill entries, and link is null (GnuCash keeps no files).',
    "A connected QuickBooks company's bills and vendor credits have ids like quickbooks:Bill:<id>; link is documents.file's when a PDF or image is " +
      'attached in QuickBooks.',
    "A connected Xero organisation's bills and supplier credit notes have ids like xero:<InvoiceID>: coded lines per line item net of tax, the tax on " +
      'its own line on the VAT/GST account;',
    "invoice lines with quantity, unit price and tax; link is documents.file's when the document has an attachment in Xero.",
  ].join(' '),
  input: z
    .object({
      ids: z
        .string({ message: 'is required: one or more document ids, comma separated' })
        .max(10_000, { message: 'must be at most 10000 characters' })
        .describe(`document ids, comma separated, at most ${MAX_DOCUMENT_IDS}`),
    })
    .strict(),
  output: z.object({
    documents: z.array(documentSchema),
    notFound: z.array(z.string()).describe('requested ids that are not documents of this organisation'),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const ids = parseDocumentIds(input.ids);
    const orgId = ctx.organisation.id;
    // one read for all the ids asked, never one per document (store/documents.ts), beside the connected system's own
    const [rows, fromSystem] = await Promise.all([getAnsweredDocuments(ctx.db, orgId, ids), systemDocuments(ctx, ids)]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const documents: DocumentOutput[] = [];
    const notFound: string[] = [];
    for (const id of ids) {
      const doc = byId.get(id);
      const system = fromSystem.get(id);
      if (!doc && system) {
        documents.push(systemDocumentOutput(id, system, documentFileLink(id)));
        continue;
      }
      if (!doc) {
        notFound.push(id);
        continue;
      }
      documents.push({
        id: doc.id,
        number: doc.number,
        type: doc.type,
        supplier: doc.supplier,
        date: doc.date,
        dueDate: doc.due_date,
        currency: doc.currency,
        accountingId: doc.accounting_transaction_id,
        publishedAt: doc.published_at,
        accountingLink: doc.accounting_link ?? null,
        link: doc.has_file ? documentFileLink(doc.id) : null,
        subtotal: major(doc.subtotal, doc.currency),
        tax: major(doc.tax, doc.currency),
        total: major(doc.total, doc.currency),
        codedLines: doc.coded_lines.map((l) => toCodedLine(l, doc.currency)),
        invoiceLines: doc.invoice_lines.map((l) => toInvoiceLine(l, doc.currency)),
      });
    }
    return { documents, notFound };
  },
});
