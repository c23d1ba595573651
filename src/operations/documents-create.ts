import { insertDocument } from '../store/document-writes.js';
import { auditChange, creatorOf } from './changes.js';
import { changedDocument, changedDocumentSchema } from './documents/answer.js';
import { checkDocument } from './documents/check.js';
import { createInput, MAX_DOCUMENT_LINES } from './documents/input.js';
import { changeOf, defineOperation } from './operation.js';

export const documentsCreate = defineOperation({
  kind: 'organisation',
  name: 'documents.create',
  tool: 'documents_create',
  title: 'Create a document',
  summary: 'Adds a bill, receipt, expense claim or supplier credit, with its lines and original file; a bill or expense claim joins Bills to Pay.',
  description: [
    'Creates an unpublished document of the organisation: type (bill, receipt, expense_claim, supplier_credit), number, supplier, date,',
    "dueDate, currency, subtotal, tax and total (decimals in the document's currency; subtotal + tax must equal total),",
    `codedLines (how it will be published: description, account as id, number or full name, taxCodeId, class, customer, quantity, subtotal, tax, ` +
      `total; at most ${MAX_DOCUMENT_LINES})`,
    "and invoiceLines (what the supplier's invoice lists: description, productCode, unit, quantity, unitPrice, tax, amount = quantity × unitPrice).",
    'Every amount is at most 10^13 minor units in size (100,000,000,000.00 in a currency of two decimals); a quantity is more than 0, at most ' +
      '1,000,000,000, with at most 6 decimals.',
    'Lines, when given, must add up to the document subtotal and tax. file: { name, data (base64), contentType? } of at most 10 MB,',
    'a PDF, PNG, JPEG, WebP or HEIC read from its content. A bill or expense claim is listed by bills.list_to_pay with all of it due;',
    'scheduledDate, tags and note set its Bills to Pay fields. Answers the document as documents.get shows it and its bill.',
    'Over REST, an Idempotency-Key header makes a retried create return the first answer instead of creating twice.',
  ].join(' '),
  input: createInput,
  output: changedDocumentSchema,
  ...changeOf('create', ['super_admin', 'admin', 'submitter']),
  async run(ctx, input) {
    // lines name accounts by id or name: the chart is read only when some line names one
    const chart = input.codedLines.some((l) => l.account) ? await ctx.accounting.chartOfAccounts() : [];
    const checked = checkDocument(input, chart);
    // the audit entry and the answer are written and read in the document's own transaction, the
    // answer kept there too when the create came with an Idempotency-Key: nothing that can fail runs
    // after the commit, so a retry is answered what was written instead of creating it twice
    return insertDocument(ctx.db, ctx.organisation.id, checked, creatorOf(ctx.principal), async (trx, id) => {
      const written = { ...ctx, db: trx };
      await auditChange(written, 'document.created', id, {
        type: checked.type,
        number: checked.number,
        supplier: checked.supplier,
        total: input.total,
        currency: checked.currency,
        ...(checked.file ? { file: checked.file.fileName } : {}),
      });
      // checked against the declared output here, where a mismatch still undoes the write
      const answer = changedDocumentSchema.parse(await changedDocument(written, id));
      await ctx.keepAnswer?.(trx, answer);
      return answer;
    });
  },
});
