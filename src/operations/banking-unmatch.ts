import type { Transaction } from 'kysely';
import { z } from 'zod';
import { removeTransactions } from '../accounting/builtin/remove-transactions.js';
import { AccountingRefused } from '../accounting/types.js';
import { toMajor } from '../domain/money.js';
import { bankLines, matchById, matchLines, removeMatch, setBillAmountDue } from '../store/bank-matches.js';
import { billOf } from '../store/document-writes.js';
import { CAPABILITIES, dialectOf } from '../store/dialect.js';
import { getDocuments } from '../store/documents.js';
import type { Database } from '../store/schema.js';
import { refreshSuggestionsAfter } from './banking/after-change.js';
import { lastDate, lineState, lineStateSchema, namedLines, reference } from './banking/match-lines.js';
import { auditChange } from './changes.js';
import { contactNameOf } from './documents/publish-plan.js';
import { systemIdOf } from './documents-system.js';
import { OperationError, invalidParameter } from './errors.js';
import { changeOf, defineOperation } from './operation.js';

export const bankingUnmatch = defineOperation({
  kind: 'organisation',
  name: 'banking.unmatch',
  tool: 'banking_unmatch',
  title: 'Undo a bank match',
  summary:
    'Undoes the match a bank line is in: every line of it is to reconcile again, and what the match booked (a payment, a fee) is taken out of the books.',
  description: [
    'Takes apart the match (banking.match) that transactionId belongs to: all its lines go back to to_reconcile with no linked document,',
    'the payment and any fee or rounding it booked are removed from the books (the builtin ledger, Xero or QuickBooks), and a bill it paid is owed ' +
      'again in bills.list_to_pay,',
    'so every figure is as it was before the match; the document stays published. A line not matched in the service answers 400 naming transactionId.',
  ].join(' '),
  input: z
    .object({
      transactionId: z.string().trim().min(1, { message: 'must not be empty' }).max(200).describe('any bank line of the match (banking.transactions)'),
    })
    .strict(),
  output: z.object({
    documentId: z.string().describe('the document the lines were matched to; it stays published'),
    transactions: z.array(lineStateSchema),
    bill: z.object({ id: z.string(), amountDue: z.number() }).nullable().describe('the Bills to Pay entry the match had paid, owed again'),
  }),
  ...changeOf('delete', ['super_admin', 'admin']),
  async run(ctx, input) {
    const orgId = ctx.organisation.id;
    const { lines, accounts } = await namedLines(ctx, [input.transactionId]);
    const line = lines[0]!;
    if (!line.match_id)
      throw invalidParameter(
        'transactionId',
        `${line.id} is not matched in the service${
          line.reconciled_in === 'outside_service' ? ' (it is marked reconciled outside the service: banking.mark_reconciled with reconciled false)' : ''
        }`,
      );
    const match = (await matchById(ctx.db, orgId, line.match_id))!;
    const account = accounts.get(line.bank_account_id)!;
    const builtin = ctx.accounting.kind === 'builtin';
    if (!builtin && match.kind === 'payment') {
      // the system's payment first: if it refuses, nothing here changes
      let paymentId = match.payment_id;
      if (paymentId === null && ctx.accounting.findPayment) {
        // the payment's outcome was not known: look for it by its key before taking the match apart
        const [doc] = await getDocuments(ctx.db, orgId, [match.document_id]);
        const held = await matchLines(ctx.db, orgId, match.id);
        const billDocumentId = systemIdOf(ctx, match.document_id) ?? doc?.accounting_document_id ?? doc?.accounting_transaction_id ?? null;
        const found = billDocumentId
          ? await ctx.accounting.findPayment({
              key: match.payment_key!,
              billDocumentId,
              contact: { id: null, name: doc ? contactNameOf(doc) : '' },
              bankAccountId: account.ledger_account_id!,
              date: lastDate(held),
              amount: Math.abs(Number(match.amount)),
              currency: account.currency,
              reference: reference(held),
            })
          : null;
        paymentId = found?.paymentId ?? null;
      }
      if (paymentId !== null) {
        if (!ctx.accounting.removePayment)
          throw new OperationError('publishing_not_supported', `the ${ctx.accounting.kind} books cannot remove payments through the service`);
        try {
          await ctx.accounting.removePayment(paymentId);
        } catch (error) {
          if (!(error instanceof AccountingRefused)) throw error;
          throw new OperationError('accounting_refused', `${ctx.accounting.kind} refused to remove the payment: ${error.message}. Nothing was changed.`, [
            { parameter: 'transactionId', message: error.message },
          ]);
        }
      }
    }
    const answer = await ctx.db.transaction().execute(async (trx: Transaction<Database>) => {
      const matched = await matchLines(trx, orgId, match.id);
      if (builtin && match.payment_id) await removeTransactions(trx, CAPABILITIES[dialectOf(ctx.db)], orgId, [match.payment_id]);
      await removeMatch(trx, orgId, match.id);
      if (match.bill_id && match.bill_amount_due_before !== null) await setBillAmountDue(trx, orgId, match.bill_id, Number(match.bill_amount_due_before));
      const [doc] = await getDocuments(trx, orgId, [match.document_id]);
      const bill = doc ? await billOf(trx, orgId, doc.id) : undefined;
      const after = await bankLines(
        trx,
        orgId,
        matched.map((l) => l.id),
      );
      const named = doc ? { type: doc.type, number: doc.number, supplier: contactNameOf(doc) } : { number: match.document_id };
      await auditChange({ ...ctx, db: trx }, 'bank.unmatched', match.document_id, { ...named, lines: matched.map((l) => l.id), payment: match.payment_id });
      return {
        documentId: match.document_id,
        transactions: after.map((l) => lineState(l, account.currency)),
        bill: bill ? { id: bill.id, amountDue: toMajor(Number(bill.amount_due), bill.currency) } : null,
      };
    });
    await refreshSuggestionsAfter(ctx);
    return answer;
  },
});
