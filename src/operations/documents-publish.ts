import { z } from 'zod';
import { publishToLedger } from '../accounting/builtin/publish.js';
import { AccountingRefused, type DocumentToPublish, type PublishedTransaction } from '../accounting/types.js';
import { listBankAccounts } from '../store/bank-accounts.js';
import { CAPABILITIES, dialectOf } from '../store/dialect.js';
import { abandonPublish, finishPublish, startPublish, type PublishPlanStored } from '../store/document-publish.js';
import { getDocumentFileData, getDocumentFileInfo, getDocuments, listCodedLines } from '../store/documents.js';
import type { DocumentCodedLineRow, DocumentRow } from '../store/schema.js';
import { auditChange } from './changes.js';
import type { OperationContext } from './context.js';
import { changedDocument, changedDocumentSchema } from './documents/answer.js';
import { publishPlan, rowDocument, type PublishChoices } from './documents/publish-plan.js';
import { invalidParameter, OperationError } from './errors.js';
import { changeOf, defineOperation } from './operation.js';
import { refreshSuggestionsAfter } from './banking/after-change.js';

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` });

/** Where the books' refusal points, in the names of the document's own fields. */
function refusedField(field: string | null): string {
  if (field === null) return '(document)';
  const line = /^lines\[(\d+)\]\.(\w+)$/.exec(field);
  if (line) return `codedLines.${line[1]}.${line[2] === 'accountId' ? 'account' : line[2]}`;
  return ({ paidFromAccountId: 'paidFrom', contact: 'supplier' } as Record<string, string>)[field] ?? field;
}

const NOT_WRITABLE: Record<string, string> = {
  gnucash:
    "this organisation's books are a GnuCash file, which the service reads and never writes: enter the bill in GnuCash itself; the service shows it from there",
};

export const documentsPublish = defineOperation({
  kind: 'organisation',
  name: 'documents.publish',
  tool: 'documents_publish',
  title: 'Publish a document to the books',
  summary: 'Writes a complete document to the accounting system as the transaction its type is, with its file attached.',
  description: [
    "Publishes the document with the given id to the organisation's books: a bill as a bill owed to the supplier, an expense claim as a bill owed to " +
      'the employee,',
    'a receipt as money spent from a bank or card account (paidFrom), a supplier credit as a credit note; the original file is attached where the ' +
      'system takes attachments.',
    'The document must be complete: every coded line on an active account, and the supplier (or employee) known to the books, or createContact: true ' +
      'to create it.',
    'Give exchangeRate (home currency per unit of the document currency) for a foreign document in the builtin ledger; Xero and QuickBooks use their ' +
      'own rate when it is left out.',
    "taxAccount: the builtin ledger puts tax on the chart's single VAT, GST or tax liability unless this names another.",
    'What is missing answers 422 document_incomplete naming each field; a refusal by the accounting system (a closed period, an archived account) ' +
      'answers 422 accounting_refused naming the field, with nothing written.',
    'Answers the document with publishedAt, accountingId (the transaction as ledger.account_transactions shows it) and accountingLink; its lines then ' +
      'appear in the ledger with their document.',
    'Exactly once: a publish retried after a timeout (send the same Idempotency-Key over REST) never makes a second transaction. A document already ' +
      'published answers 409 document_published;',
    'a GnuCash book, read from its file, answers 409 publishing_not_supported.',
  ].join(' '),
  input: z
    .object({
      id: text(200).describe('the document to publish (documents.create answered it)'),
      paidFrom: text(300)
        .optional()
        .describe("receipts: the bank or card account it was paid from: a bank account id (banking.accounts), or the ledger account's id, number or name"),
      // decimal text, so the rate stays exact; a number is taken as its text
      exchangeRate: z.coerce
        .string()
        .trim()
        .max(40, { message: 'must be at most 40 characters' })
        .optional()
        .describe('a foreign document: home currency units per unit of its currency, e.g. 1.0842'),
      taxAccount: text(300).optional().describe('builtin ledger: the account tax goes to, when the chart has no single tax account'),
      createContact: z.boolean().default(false).describe('create the supplier (or employee) in the books when it is not there yet'),
    })
    .strict(),
  output: changedDocumentSchema,
  ...changeOf('create', ['super_admin', 'admin']),
  async run(ctx, input) {
    const orgId = ctx.organisation.id;
    const [row] = await getDocuments(ctx.db, orgId, [input.id]);
    if (!row) throw new OperationError('not_found', `no document ${input.id} in this organisation`);
    if (row.published_at !== null) throw alreadyPublished(row.id, row.published_at, row.accounting_transaction_id);
    const ownLedger = ctx.accounting.kind === 'builtin';
    if (!ownLedger && !ctx.accounting.publish)
      throw new OperationError(
        'publishing_not_supported',
        NOT_WRITABLE[ctx.accounting.kind] ?? `the ${ctx.accounting.kind} books cannot be written through the service`,
      );

    const choices: PublishChoices = {
      paidFrom: input.paidFrom,
      exchangeRate: input.exchangeRate,
      taxAccount: input.taxAccount,
      createContact: input.createContact,
    };
    const [chart, contacts, bankAccounts] = await Promise.all([
      ctx.accounting.chartOfAccounts(),
      ctx.accounting.contacts(),
      listBankAccounts(ctx.db, orgId, null),
    ]);
    const planFor = (current: DocumentRow, lines: DocumentCodedLineRow[], file: DocumentToPublish['file'], key: string, given: PublishChoices) =>
      publishPlan({ row: current, lines, file, chart, contacts, bankAccounts, homeCurrency: ctx.organisation.homeCurrency, ownLedger, key }, given);

    if (ownLedger) {
      // the builtin ledger is this database: the document is claimed, read, written to the books and
      // marked published in one transaction, so a change made meanwhile is either all in or refused
      const dialect = CAPABILITIES[dialectOf(ctx.db)];
      const answer = await ctx.db.transaction().execute(async (trx) => {
        const claim = await startPublish(trx, orgId, row.id, { paidFrom: null, exchangeRate: null });
        if (claim.state !== 'new') throw alreadyPublished(row.id, null, null);
        const [current] = await getDocuments(trx, orgId, [row.id]);
        const plan = planFor(current!, await listCodedLines(trx, orgId, [row.id]), null, claim.key, choices);
        const result = await publishToLedger(trx, dialect, { id: orgId, homeCurrency: ctx.organisation.homeCurrency }, plan.doc, {
          payableId: plan.payableId,
          taxId: plan.taxAccountId,
          paidFromType: plan.paidFromType,
        });
        await finishPublish(trx, orgId, row.id, claim.key, result, plan.doc);
        return answerPublished({ ...ctx, db: trx }, plan.doc, result);
      });
      await refreshSuggestionsAfter(ctx);
      return answer;
    }

    // another system: the intent first, then the call, then the result
    const started = await startPublish(ctx.db, orgId, row.id, { paidFrom: input.paidFrom ?? null, exchangeRate: input.exchangeRate ?? null });
    if (started.state === 'gone') throw new OperationError('not_found', `no document ${input.id} in this organisation`);
    if (started.state === 'published') throw alreadyPublished(row.id, started.row.published_at, started.row.accounting_transaction_id);
    if (started.state === 'retry') sameAsFirstTry(input, started.plan);
    // read once the intent holds the document: its content cannot change from here on
    const [current] = await getDocuments(ctx.db, orgId, [row.id]);
    const given =
      started.state === 'retry' ? { ...choices, paidFrom: started.plan.paidFrom ?? undefined, exchangeRate: started.plan.exchangeRate ?? undefined } : choices;
    let doc: DocumentToPublish;
    try {
      doc = planFor(current!, await listCodedLines(ctx.db, orgId, [row.id]), await documentFile(ctx, row.id), started.key, given).doc;
    } catch (error) {
      // an earlier try may still have written (the books changed since, so the plan no longer holds): look, then let go
      const found =
        started.state === 'retry' && ctx.accounting.findPublished
          ? await ctx.accounting.findPublished(rowDocument(current!, started.key, ctx.organisation.homeCurrency))
          : null;
      if (found) return finish(ctx, started.key, rowDocument(current!, started.key, ctx.organisation.homeCurrency), found);
      await abandonPublish(ctx.db, orgId, row.id, started.key);
      throw error;
    }
    let result: PublishedTransaction | null = null;
    try {
      // a try whose outcome was not known may have written: look before writing again
      if (started.state === 'retry' && ctx.accounting.findPublished) result = await ctx.accounting.findPublished(doc);
      result ??= await ctx.accounting.publish!(doc);
    } catch (error) {
      if (!(error instanceof AccountingRefused)) throw error; // unknown outcome: the intent stays, a retry looks it up
      await abandonPublish(ctx.db, orgId, row.id, started.key);
      const field = refusedField(error.field);
      throw new OperationError('accounting_refused', `${ctx.accounting.kind} refused document ${row.id}: ${error.message}. Nothing was written.`, [
        { parameter: field, message: error.message },
      ]);
    }
    return finish(ctx, started.key, doc, result);
  },
});

/** The result recorded, audited and answered in one transaction; suggestions scored again after it. */
async function finish(ctx: OperationContext, key: string, doc: DocumentToPublish, written: PublishedTransaction) {
  const answer = await ctx.db.transaction().execute(async (trx) => {
    // another try may have finished first with the same transaction: the answer is the same
    await finishPublish(trx, ctx.organisation.id, doc.documentId, key, written, doc);
    return answerPublished({ ...ctx, db: trx }, doc, written);
  });
  await refreshSuggestionsAfter(ctx);
  return answer;
}

/** A retry is sent as the first try was: a different account or rate would be another publish. */
function sameAsFirstTry(input: { paidFrom?: string | undefined; exchangeRate?: string | undefined }, first: PublishPlanStored): void {
  for (const [name, given, stored] of [
    ['paidFrom', input.paidFrom, first.paidFrom],
    ['exchangeRate', input.exchangeRate, first.exchangeRate],
  ] as const) {
    if (given !== undefined && stored !== null && given !== stored)
      throw invalidParameter(name, `the publish under way was sent with ${name} ${stored}: send the same (or leave it out) to finish it`);
  }
}

function alreadyPublished(id: string, at: string | null, accountingId: string | null): OperationError {
  return new OperationError(
    'document_published',
    `document ${id} is already published${at ? ` (${at.slice(0, 10)}${accountingId ? `, ${accountingId}` : ''})` : ''}: nothing more was written`,
  );
}

async function documentFile(ctx: OperationContext, documentId: string): Promise<DocumentToPublish['file']> {
  const info = await getDocumentFileInfo(ctx.db, ctx.organisation.id, documentId);
  if (!info?.file) return null;
  const data = await getDocumentFileData(ctx.db, ctx.organisation.id, documentId);
  return data ? { fileName: info.file.fileName, contentType: info.file.contentType, data } : null;
}

/** The audit entry and the answer, in the transaction that marks the document published; kept with an Idempotency-Key. */
async function answerPublished(ctx: OperationContext, doc: DocumentToPublish, result: PublishedTransaction) {
  await auditChange(ctx, 'document.published', doc.documentId, {
    type: doc.type,
    number: doc.number,
    supplier: doc.contact.name,
    system: ctx.accounting.kind,
    accountingId: result.transactionId,
    ...(doc.contact.id === null ? { contactCreated: true } : {}),
  });
  const answer = changedDocumentSchema.parse(await changedDocument(ctx, doc.documentId));
  await ctx.keepAnswer?.(ctx.db, answer);
  return answer;
}
