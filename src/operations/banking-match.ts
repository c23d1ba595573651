import type { Transaction } from 'kysely';
import { z } from 'zod';
import { postSettlement } from '../accounting/builtin/publish.js';
import { AccountingRefused, type BillPayment } from '../accounting/types.js';
import { toMajor } from '../domain/money.js';
import { completeMatch, insertMatch, LinesTaken, matchLines, matchOfDocument, removeMatch, setBillAmountDue } from '../store/bank-matches.js';
import { CAPABILITIES, dialectOf } from '../store/dialect.js';
import { billOf } from '../store/document-writes.js';
import { getDocuments } from '../store/documents.js';
import { newId } from '../store/ids.js';
import type { BankAccountRow, BankMatchRow, BankTransactionRow, Database } from '../store/schema.js';
import { refreshSuggestionsAfter } from './banking/after-change.js';
import { lastDate, lineIdsParam, lineState, lineStateSchema, lineTaken, namedLines, parseLineIds, reference } from './banking/match-lines.js';
import { matchPlan, type MatchPlan } from './banking/match-plan.js';
import { auditChange, creatorOf } from './changes.js';
import type { OperationContext } from './context.js';
import { supplierKey } from '../domain/bill-criteria.js';
import { contactNameOf } from './documents/publish-plan.js';
import { systemIdOf } from './documents-system.js';
import { OperationError, invalidParameter } from './errors.js';
import { changeOf, defineOperation } from './operation.js';

const matchAnswer = z.object({
  match: z.object({
    id: z.string(),
    documentId: z.string(),
    kind: z
      .enum(['payment', 'document'])
      .describe("payment: the lines pay a bill or claim (or are a credit's refund), booked in the books; document: they are the receipt's own spend"),
    amount: z.number().describe("the lines' sum, in the account's currency"),
    difference: z.number().describe('what the lines differ from the document by, booked as a fee or rounding; 0 when they agree'),
    differenceAccount: z.string().nullable(),
    paymentId: z.string().nullable().describe("what the match wrote in the books: the payment (and fee) transaction, or the system's payment id"),
    paymentLink: z.string().nullable(),
  }),
  transactions: z.array(lineStateSchema),
  bill: z
    .object({ id: z.string(), amountDue: z.number().describe("in the bill's currency") })
    .nullable()
    .describe("the document's Bills to Pay entry, paid by the match; null for a receipt or credit"),
});
export type MatchAnswer = z.infer<typeof matchAnswer>;

export const bankingMatch = defineOperation({
  kind: 'organisation',
  name: 'banking.match',
  tool: 'banking_match',
  title: 'Match bank lines to a document',
  summary:
    'Links one or more bank lines to a published document: a bill or claim is paid in the books, a receipt is its spend; the lines become reconciled ' +
    'in the service.',
  description: [
    'Matches the bank lines transactionIds (comma separated, of one account) to documentId, a published document of the service (documents.publish first).',
    "The lines must add up to the document in the account's currency: a bill, expense claim or receipt is money out of its total, a supplier credit's " +
      'refund money in.',
    'A difference is booked only when named: difference { kind: "fee" (the bank took more) or "rounding" (at most one unit of the currency), account ' +
      "(optional: the chart's single bank fees or charges account by default) }.",
    'Matching a bill or expense claim records its payment in the books (the builtin ledger, Xero or QuickBooks), so it leaves bills.list_to_pay; a ' +
      "receipt's spend is already in the books and is only linked.",
    'The lines then show status reconciled, reconciledIn service and linked in banking.transactions. banking.unmatch undoes it, every figure restored.',
    "banking.transactions' suggestion names the document the service would match a line to: confirm it with this call.",
    'Refused: lines already matched or reconciled (409 already_matched), amounts that differ (422 match_amounts_differ).',
    'If Xero or QuickBooks does not answer (a timeout, 502 or 504), the lines stay held for this document: send the same call again to finish it (it ' +
      'looks for the payment before writing one), or banking.unmatch to let go.',
  ].join(' '),
  input: z
    .object({
      transactionIds: lineIdsParam,
      documentId: z.string().trim().min(1, { message: 'must not be empty' }).max(200).describe('the published document the lines settle (documents.get)'),
      difference: z
        .object({
          kind: z.enum(['fee', 'rounding']).describe('fee: money the bank took; rounding: at most one unit of the currency'),
          account: z
            .string()
            .trim()
            .min(1)
            .max(300)
            .optional()
            .describe("the account it is booked to: id, number or name; default the chart's bank fees or charges account"),
        })
        .strict()
        .optional()
        .describe('where the lines differ from the document: book the difference, named'),
    })
    .strict(),
  output: matchAnswer,
  ...changeOf('create', ['super_admin', 'admin']),
  async run(ctx, input) {
    const orgId = ctx.organisation.id;
    const ids = parseLineIds(input.transactionIds);
    const { lines, accounts } = await namedLines(ctx, ids);
    const accountIds = new Set(lines.map((l) => l.bank_account_id));
    if (accountIds.size > 1) throw invalidParameter('transactionIds', 'the lines are of several accounts: match the lines of one account at a time');
    const account = accounts.get(lines[0]!.bank_account_id)!;
    const existing = await matchOfDocument(ctx.db, orgId, input.documentId);
    // a payment whose outcome was not known is finished by the same call sent again, even when the
    // bill it paid is no longer open (the payment went through): the match kept what it needs
    const retry = existing && existing.payment_id === null && existing.kind === 'payment' && ctx.accounting.kind !== 'builtin' ? existing : undefined;
    if (existing && !retry)
      throw new OperationError('already_matched', `document ${input.documentId} is already matched to bank lines (banking.unmatch them first)`);
    const doc = retry && systemIdOf(ctx, input.documentId) !== undefined ? heldTarget(ctx, retry) : await matchTarget(ctx, input.documentId);
    if (retry) {
      const held = (await matchLines(ctx.db, orgId, retry.id)).map((l) => l.id).sort();
      if (held.join() !== [...ids].sort().join())
        throw new OperationError('already_matched', `document ${doc.id} is being matched to other lines (${held.join(', ')})`);
    } else {
      const taken = lines.map(lineTaken).filter((why): why is string => why !== null);
      if (taken.length) throw new OperationError('already_matched', taken.join('; '));
    }
    if (!account.ledger_account_id)
      throw invalidParameter('transactionIds', `the account ${account.name} is not tied to an account of the books yet (its bank import page)`);
    // a receipt is the spend of the account it was paid from: its lines are that account's
    if (doc.paidFrom && doc.paidFrom !== account.ledger_account_id)
      throw invalidParameter('transactionIds', `${doc.type} ${doc.number} was paid from another account of the books: match it to that account's lines`);
    const chart = await ctx.accounting.chartOfAccounts();
    const plan = matchPlan({ lines, account, document: doc, chart, difference: input.difference });
    const answer =
      ctx.accounting.kind === 'builtin'
        ? await matchInLedger(ctx, { lines, account, doc, plan, chart })
        : await matchInSystem(ctx, { lines, account, doc, plan, retry });
    await refreshSuggestionsAfter(ctx);
    return answer;
  },
});

interface Parts {
  lines: BankTransactionRow[];
  account: BankAccountRow;
  doc: Target;
  plan: MatchPlan;
}

/** What the lines settle: a published document of the service, or an open bill the connected system holds itself. */
interface Target {
  /** as the caller names it: doc_…, or the system's (xero:…, quickbooks:…) */
  id: string;
  type: string;
  number: string;
  /** who is paid (an expense claim's employee) */
  contact: string;
  currency: string;
  /** minor units of `currency`: what the lines settle */
  total: number;
  /** the bill as the system knows it, for its payment */
  systemBillId: string | null;
  /** a receipt's account (its ledger account id): its spend is that account's */
  paidFrom: string | null;
}

/** A system bill's pending match, finished from what it kept (the bill may be closed by the payment it is finishing). */
function heldTarget(ctx: OperationContext, match: BankMatchRow): Target {
  return {
    id: match.document_id,
    type: 'bill',
    number: match.document_id,
    contact: '',
    currency: ctx.organisation.homeCurrency,
    total: Math.abs(Number(match.amount)),
    systemBillId: systemIdOf(ctx, match.document_id)!,
    paidFrom: null,
  };
}

async function matchTarget(ctx: OperationContext, id: string): Promise<Target> {
  const systemId = systemIdOf(ctx, id);
  if (systemId === undefined) {
    const [doc] = await getDocuments(ctx.db, ctx.organisation.id, [id]);
    if (!doc) throw new OperationError('not_found', `no document ${id} in this organisation`);
    if (doc.published_at === null) throw invalidParameter('documentId', `document ${doc.id} is not published yet: publish it first (documents.publish)`);
    return {
      id: doc.id,
      type: doc.type,
      number: doc.number,
      contact: contactNameOf(doc),
      currency: doc.currency,
      total: Number(doc.total),
      systemBillId: doc.accounting_document_id ?? doc.accounting_transaction_id,
      paidFrom: doc.type === 'receipt' ? (doc.paid_from ?? null) : null,
    };
  }
  // an open bill of the system's own (banking.transactions may suggest one)
  const bill = ((await ctx.accounting.payables?.()) ?? []).find((b) => b.documentId === systemId);
  if (!bill) throw new OperationError('not_found', `no open bill ${id} in the ${ctx.accounting.kind} books`);
  if (!ctx.accounting.payBill)
    throw new OperationError(
      'publishing_not_supported',
      `the ${ctx.accounting.kind} books are not written through the service: record the payment there, then mark the line reconciled outside the ` +
        `service (banking.mark_reconciled)`,
    );
  if (bill.currency !== ctx.organisation.homeCurrency)
    throw invalidParameter(
      'documentId',
      `bill ${bill.number} is in ${bill.currency}: record its payment in ${ctx.accounting.kind}, then mark the line reconciled outside the service`,
    );
  return {
    id,
    type: bill.kind,
    number: bill.number,
    contact: contactNameOf({ type: bill.kind, supplier: bill.supplier }),
    currency: bill.currency,
    total: bill.amountDue,
    systemBillId: systemId,
    paidFrom: null,
  };
}

/** The builtin ledger: the payment (and difference) written in the transaction that records the match. */
async function matchInLedger(
  ctx: OperationContext,
  { lines, account, doc, plan, chart }: Parts & { chart: { id: string; type: string; active: boolean }[] },
): Promise<MatchAnswer> {
  const orgId = ctx.organisation.id;
  const dialect = CAPABILITIES[dialectOf(ctx.db)];
  const payable = chart.find((a) => a.active && a.type === 'Accounts Payable');
  if (plan.kind === 'payment' && !payable) throw invalidParameter('documentId', 'the chart has no Accounts Payable account to pay the bill from');
  // a payment in another currency than home settles the payable at another rate than the bill's: the
  // realised exchange difference is not booked by the builtin ledger, so such a match is refused
  // rather than leaving a residue on Accounts Payable
  if (plan.kind === 'payment' && account.currency !== ctx.organisation.homeCurrency)
    throw invalidParameter(
      'transactionIds',
      `the account is in ${account.currency}: a payment in another currency than ${ctx.organisation.homeCurrency} books an exchange difference the ` +
        `builtin ledger does not book; record it as a journal, then mark the lines reconciled outside the service (banking.mark_reconciled)`,
    );
  const contacts = await ctx.accounting.contacts();
  const name = doc.contact;
  const contact = contacts.find((c) => supplierKey(c.name) === supplierKey(name)) ?? null;
  const bill = await billOf(ctx.db, orgId, doc.id);
  return inTransaction(ctx, async (trx) => {
    const paymentId = await postSettlement(trx, dialect, ctx.organisation, {
      date: lastDate(lines),
      contact: { id: contact?.id ?? null, name },
      reference: reference(lines),
      currency: account.currency,
      bankAccountId: account.ledger_account_id!,
      payableId: plan.kind === 'payment' ? payable!.id : null,
      // a receipt's spend already moved the bank: only the difference is posted
      bank: { amount: plan.amount, home: plan.home },
      difference: plan.differenceAccount ? { accountId: plan.differenceAccount.id, amount: -plan.difference, home: -plan.differenceHome } : null,
    });
    const match = await insertMatch(
      trx,
      orgId,
      matchRow(ctx, account, doc, plan, { paymentId, key: null, bill }),
      lines.map((l) => l.id),
      true,
    );
    if (bill && plan.kind === 'payment') await setBillAmountDue(trx, orgId, bill.id, 0);
    return answerMatch({ ...ctx, db: trx }, match, account, plan, doc);
  });
}

/** Xero, QuickBooks: the intent recorded, the payment written in the system, then the match completed. */
async function matchInSystem(ctx: OperationContext, { lines, account, doc, plan, retry }: Parts & { retry: BankMatchRow | undefined }): Promise<MatchAnswer> {
  const orgId = ctx.organisation.id;
  const system = ctx.accounting.kind;
  if (plan.difference !== 0)
    throw invalidParameter(
      'difference',
      `${system} books the payment as the document says: book the fee in ${system} itself, then mark the lines reconciled outside the service ` +
        `(banking.mark_reconciled)`,
    );
  if (doc.type === 'supplier_credit')
    throw invalidParameter(
      'documentId',
      `record the supplier's refund in ${system} itself, then mark the line reconciled outside the service (banking.mark_reconciled)`,
    );
  const bill = await billOf(ctx.db, orgId, doc.id);
  if (plan.kind === 'document') {
    return inTransaction(ctx, async (trx) => {
      const match = await insertMatch(
        trx,
        orgId,
        matchRow(ctx, account, doc, plan, { paymentId: null, key: null, bill: null }),
        lines.map((l) => l.id),
        true,
      );
      return answerMatch({ ...ctx, db: trx }, match, account, plan, doc);
    });
  }
  if (!ctx.accounting.payBill) throw new OperationError('publishing_not_supported', `the ${system} books cannot record payments through the service`);
  const match =
    retry ??
    (await inTransaction(ctx, (trx) =>
      insertMatch(
        trx,
        orgId,
        matchRow(ctx, account, doc, plan, { paymentId: null, key: newId('pay'), bill }),
        lines.map((l) => l.id),
        false,
      ),
    ));
  const payment: BillPayment = {
    key: match.payment_key!,
    billDocumentId: doc.systemBillId!,
    contact: { id: null, name: doc.contact },
    bankAccountId: account.ledger_account_id!,
    date: lastDate(lines),
    amount: doc.total,
    currency: doc.currency,
    reference: reference(lines),
  };
  let written: { paymentId: string; link: string | null } | null = null;
  try {
    if (retry && ctx.accounting.findPayment) written = await ctx.accounting.findPayment(payment);
    written ??= await ctx.accounting.payBill(payment);
  } catch (error) {
    if (!(error instanceof AccountingRefused)) throw error; // unknown outcome: the intent stays; the same call again finishes it
    await inTransaction(ctx, (trx) => removeMatch(trx, orgId, match.id));
    // the system names its own fields (date, amount, bankAccountId…): said as this call's parameters
    const parameter = ['date', 'amount', 'bankAccountId', 'reference'].includes(error.field ?? '') ? 'transactionIds' : 'documentId';
    throw new OperationError('accounting_refused', `${system} refused the payment of ${doc.number}: ${error.message}. Nothing was written.`, [
      { parameter, message: error.message },
    ]);
  }
  const paid = written;
  return inTransaction(ctx, async (trx) => {
    await completeMatch(trx, orgId, match, { id: paid.paymentId, link: paid.link });
    if (bill) await setBillAmountDue(trx, orgId, bill.id, 0);
    return answerMatch({ ...ctx, db: trx }, { ...match, payment_id: paid.paymentId, payment_link: paid.link }, account, plan, doc);
  });
}

function matchRow(
  ctx: OperationContext,
  account: BankAccountRow,
  doc: Target,
  plan: MatchPlan,
  w: { paymentId: string | null; key: string | null; bill: { id: string; amount_due: number } | undefined | null },
) {
  return {
    bank_account_id: account.id,
    document_id: doc.id,
    kind: plan.kind,
    amount: plan.amount,
    difference: plan.difference,
    difference_kind: plan.differenceKind,
    difference_account_id: plan.differenceAccount?.id ?? null,
    payment_id: w.paymentId,
    payment_link: null,
    payment_key: w.key,
    bill_id: plan.kind === 'payment' && w.bill ? w.bill.id : null,
    bill_amount_due_before: plan.kind === 'payment' && w.bill ? Number(w.bill.amount_due) : null,
    created_by: creatorOf(ctx.principal),
  };
}

/** Lines taken by another call between the checks and the write answer as already matched. */
async function inTransaction<T>(ctx: OperationContext, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute((trx) => work(trx));
  } catch (error) {
    if (error instanceof LinesTaken)
      throw new OperationError('already_matched', 'a line was matched or reconciled by another call meanwhile; nothing was written');
    throw error;
  }
}

async function answerMatch(ctx: OperationContext, match: BankMatchRow, account: BankAccountRow, plan: MatchPlan, doc: Target): Promise<MatchAnswer> {
  const [lines, bill] = await Promise.all([
    matchLines(ctx.db, ctx.organisation.id, match.id),
    match.bill_id ? billOf(ctx.db, ctx.organisation.id, match.document_id) : undefined,
  ]);
  await auditChange(ctx, 'bank.matched', match.document_id, {
    type: doc.type,
    number: doc.number,
    supplier: doc.contact,
    lines: lines.map((l) => l.id),
    kind: match.kind,
    amount: toMajor(plan.amount, account.currency),
    difference: toMajor(plan.difference, account.currency),
    payment: match.payment_id,
  });
  const answer: MatchAnswer = {
    match: {
      id: match.id,
      documentId: match.document_id,
      kind: match.kind as 'payment' | 'document',
      amount: toMajor(plan.amount, account.currency),
      difference: toMajor(plan.difference, account.currency),
      differenceAccount: plan.differenceAccount?.fullName ?? null,
      paymentId: match.payment_id,
      paymentLink: match.payment_link,
    },
    transactions: lines.map((l) => lineState(l, account.currency)),
    bill: bill ? { id: bill.id, amountDue: toMajor(Number(bill.amount_due), bill.currency) } : null,
  };
  await ctx.keepAnswer?.(ctx.db, answer);
  return answer;
}
