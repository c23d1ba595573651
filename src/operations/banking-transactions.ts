/** banking.transactions: imported bank and card transactions, paged, with period totals. */
import { z } from 'zod';
import { fromMajor, toMajor } from '../domain/money.js';
import { balanceStates } from '../store/bank-balances.js';
import { linkedDocuments } from '../store/bank-linked-documents.js';
import { periodSums, transactionPage, type AccountPeriodSums } from '../store/banking.js';
import { readSuggestion, type StoredSuggestion } from '../store/bank-suggestions.js';
import type { BankAccountRow } from '../store/schema.js';
import type { OperationContext } from './context.js';
import { consistentRead } from './consistent-read.js';
import { invalidParameter, invalidRequest, OperationError, type ParameterError } from './errors.js';
import { defineOperation } from './operation.js';
import { dateParam, intParam, periodParam, textParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';
import { unimportedBookAccount } from './banking/book-account.js';
import { findBankAccount } from './banking/find-account.js';
import { linkedDocumentSchema, linkedDocumentView, systemLinkedDocumentView } from './banking/linked-document.js';
import { systemDocuments, systemIdOf } from './documents-system.js';
import { basisWords, incompleteWords } from './banking/balance-words.js';
import { runningBalances, withOpeningBalances } from './banking/running-balances.js';
import { bankAccountSchema, bankAccountView, visibleBankAccounts, bankViewOf } from './banking/visible-accounts.js';

const amountBound = (what: string) =>
  z
    .number({ message: 'must be a number of at least 0' })
    .min(0, { message: 'must be a number of at least 0' })
    .optional()
    .describe(
      `${what} on the size of the amount, money in and out alike, in major units of the account's currency (of the home currency when several accounts ` +
        `are listed).`,
    );

const input = z
  .object({
    account: textParam()
      .optional()
      .describe("One account's id, number or name (case-insensitive), from banking.accounts. Omitted means every account the caller can see."),
    status: z
      .enum(['all', 'to_reconcile', 'reconciled'], { message: 'must be all, to_reconcile or reconciled' })
      .default('all')
      .describe('all (default), to_reconcile or reconciled.'),
    period: periodParam('Omitted means the three months up to today.').optional(),
    from: dateParam('First day, yyyy-MM-dd (period custom).').optional(),
    to: dateParam('Last day, yyyy-MM-dd (period custom).').optional(),
    search: textParam().optional().describe('Text contained in the bank narration or in the supplier of the matched document (case-insensitive).'),
    amountMin: amountBound('Lower bound'),
    amountMax: amountBound('Upper bound'),
    order: z.enum(['newest', 'oldest'], { message: 'must be newest or oldest' }).default('newest').describe('newest (default) or oldest first.'),
    limit: intParam(1, 500)
      .default(100)
      .describe('Transactions per page, 1 to 500; default 100 (the MCP tool: 1 to 100, default 25, pages a model reads well).'),
    page: z
      .number({ message: 'must be a whole number of at least 1' })
      .int({ message: 'must be a whole number of at least 1' })
      .min(1, { message: 'must be a whole number of at least 1' })
      .default(1)
      .describe('Page number, from 1 (default).'),
  })
  .strict();

const suggestionSchema = z.object({
  documentId: z
    .string()
    .describe(
      "the document's id: a service document's (doc_…), or an open bill the connected system holds (xero:<id>, quickbooks:<id>, gnucash:<id>), for " +
        'banking.match',
    ),
  score: z.number().int().describe('0 to 100'),
  reasons: z.array(z.string()).describe('why, in words: the amount, the supplier name or number found in the narration, the dates'),
  number: z.string(),
  supplier: z.string(),
  total: z.number().describe("what the line pays of it, in the document currency: its total, or an open bill's amount due"),
  currency: z.string(),
});

const transactionSchema = z.object({
  id: z.string(),
  date: z.string(),
  description: z.string().describe('the bank narration'),
  amount: z.number().describe('in the account currency, negative for money spent'),
  direction: z.enum(['in', 'out']),
  currency: z.string(),
  account: z.object({ id: z.string(), name: z.string() }),
  status: z.string().describe('to_reconcile or reconciled'),
  reconciledIn: z.string().nullable().describe('service, accounting_system or outside_service; null while to_reconcile'),
  suggestedMatch: z.boolean().describe('true when one document stands clearly above the rest for this line (suggestion); confirm it with banking.match'),
  suggestion: suggestionSchema
    .nullable()
    .describe(
      "the document the service suggests this line pays (or, money in, refunds), scored against the unmatched published documents and the system's " +
        'open bills; null when none scores enough or the line is reconciled. With suggestedMatch false it is only the likeliest candidate, its last ' +
        'reason saying why it is not suggested',
    ),
  report: z.string().describe('the statement or feed the transaction came from'),
  runningBalance: z.number().describe("the account's balance just after this transaction, in the account currency"),
  linked: linkedDocumentSchema.nullable().describe('the document the transaction is matched to in the service; null when it is not matched'),
});

const output = z.object({
  account: bankAccountSchema.nullable().describe('the selected account; null when every visible account is listed'),
  period: z.object({ from: z.string(), to: z.string() }),
  status: z.string(),
  totals: z
    .object({
      openingBalance: z.number(),
      moneyIn: z.number(),
      moneyOut: z.number().describe('positive'),
      closingBalance: z.number(),
      transactions: z.number().int(),
      toReconcile: z.number().int(),
      reconciled: z.number().int(),
    })
    .describe(
      'the whole period for the account(s), whatever the status, search and amount filters; account currency for one account, home currency for ' +
        "several. openingBalance is the balance before the period, counted from each account's earliest statement opening balance (or the opening " +
        'balance entered for it) plus the transactions since; closingBalance is it plus moneyIn less moneyOut',
    ),
  balanceNote: z
    .string()
    .nullable()
    .describe('for one account: what its balances are counted from, and from when they miss what the statements show; null for several accounts'),
  count: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  transactions: z.array(transactionSchema),
});

type Input = z.infer<typeof input>;

function suggestionView(s: StoredSuggestion | null): z.infer<typeof suggestionSchema> | null {
  if (!s) return null;
  return {
    documentId: s.documentId,
    score: s.score,
    reasons: s.reasons,
    number: s.number,
    supplier: s.supplier,
    total: toMajor(s.amount, s.currency),
    currency: s.currency,
  };
}

/** Amount bounds in minor units of the currency they are compared in. */
function amountBounds(args: Input, currency: string): { min: number | null; max: number | null } {
  const errors: ParameterError[] = [];
  const convert = (parameter: 'amountMin' | 'amountMax') => {
    const value = args[parameter];
    if (value === undefined) return null;
    const minor = fromMajor(value, currency);
    if (minor === null) errors.push({ parameter, message: `has more decimals than ${currency} allows` });
    return minor;
  };
  const min = convert('amountMin');
  const max = convert('amountMax');
  if (errors.length) throw invalidRequest(errors);
  if (min !== null && max !== null && min > max) throw invalidParameter('amountMax', `must not be less than amountMin (${args.amountMin})`);
  return { min, max };
}

function combineTotals(sums: Map<string, AccountPeriodSums>, single: boolean) {
  // one account: its own currency; several: home currency, the only one they share
  let opening = 0;
  let moneyIn = 0;
  let moneyOut = 0;
  const counts = { transactions: 0, toReconcile: 0, reconciled: 0 };
  for (const s of sums.values()) {
    opening += single ? s.openingAmount : s.openingHome;
    moneyIn += single ? s.inAmount : s.inHome;
    moneyOut += single ? s.outAmount : s.outHome;
    counts.transactions += s.transactions;
    counts.toReconcile += s.toReconcile;
    counts.reconciled += s.reconciled;
  }
  return { opening, moneyIn, moneyOut, closing: opening + moneyIn - moneyOut, ...counts };
}

/**
 * An account not found among the service's own, which may be one of the connected books' own with
 * nothing imported (book-account.ts): the books are asked after the page's reads have ended, since
 * reading them may write (a vendor's local mirror), and a snapshot, when the reads take one
 * (consistent-read.ts), holds a connection on SQLite.
 */
class MaybeBookAccount extends Error {
  constructor(readonly notFound: OperationError) {
    super(notFound.message);
  }
}

function findOrDefer(accounts: readonly BankAccountRow[], term: string, narrowed: boolean): BankAccountRow {
  try {
    return findBankAccount(accounts, term);
  } catch (error) {
    if (error instanceof OperationError && error.code === 'account_not_found' && !narrowed) throw new MaybeBookAccount(error);
    throw error;
  }
}

async function run(ctx: OperationContext, args: Input): Promise<z.infer<typeof output>> {
  const period = resolvePeriodInput(args, ctx, 'last_three_months');
  const term = args.account?.trim();
  if (term === '') throw invalidParameter('account', 'must not be empty');
  const offset = (args.page - 1) * args.limit;
  try {
    return await withSystemLinks(ctx, await pageAtOneVersion(ctx, args, period, term, offset));
  } catch (error) {
    if (error instanceof MaybeBookAccount) throw (await unimportedBookAccount(ctx, term!)) ?? error.notFound;
    throw error;
  }
}

/**
 * A line of the page matched to a document the connected system holds, to that document's id, for
 * withSystemLinks: kept beside the line, not on it, so every line keeps the one shape it was made
 * with (a property deleted from an object makes it a slower dictionary of its properties).
 */
const systemLinks = new WeakMap<object, string>();
type Answer = z.infer<typeof output>;

/**
 * Lines matched to an open bill the connected system holds itself are linked from the system, read
 * after the page's reads have ended (a connector reads and writes its mirror through the database,
 * which a snapshot would hold), and only when the page holds such a line.
 */
async function withSystemLinks(ctx: OperationContext, answer: Answer): Promise<Answer> {
  const ids = [...new Set(answer.transactions.flatMap((t) => systemLinks.get(t) ?? []))];
  if (ids.length === 0) return answer;
  const theirs = await systemDocuments(ctx, ids);
  for (const t of answer.transactions) {
    const id = systemLinks.get(t);
    if (id === undefined) continue;
    const doc = theirs.get(id);
    if (doc) t.linked = systemLinkedDocumentView(id, doc);
  }
  return answer;
}

async function pageAtOneVersion(
  ctx: OperationContext,
  args: Input,
  period: ReturnType<typeof resolvePeriodInput>,
  term: string | undefined,
  offset: number,
): Promise<z.infer<typeof output>> {
  // totals, the page and its running balances agree while imports go on (one version of the books)
  return consistentRead(ctx, async (db) => {
    const organisationId = ctx.organisation.id;
    // what is kept at the call's version serves its first reading, never the snapshot read again after the version moved
    const version = db === ctx.db ? ctx.dataVersion : undefined;
    const visible = await visibleBankAccounts(db, organisationId, ctx.principal, version);
    const account = term ? findOrDefer(visible.accounts, term, visible.narrowed) : null;
    const currency = account?.currency ?? ctx.organisation.homeCurrency;
    const bounds = amountBounds(args, currency);
    const accountIds = account ? [account.id] : visible.narrowed ? visible.accounts.map((a) => a.id) : null;

    const [sums, states] = await Promise.all([
      periodSums(db, organisationId, accountIds, period.from, period.to),
      balanceStates(db, organisationId, accountIds, version),
    ]);
    // balances count from each account's opening balance (its earliest statement's, or the one entered)
    withOpeningBalances(sums, states);
    const state = account ? states.get(account.id) : undefined;
    const totals = combineTotals(sums, account !== null);
    // no row can sit past the exact integer range, and the databases would not take such an offset
    const fetched = !Number.isSafeInteger(offset)
      ? []
      : await transactionPage(
          db,
          {
            organisationId,
            accountIds,
            from: period.from,
            to: period.to,
            status: args.status === 'all' ? null : args.status,
            search: args.search?.trim().toLowerCase() || null,
            amountMin: bounds.min,
            amountMax: bounds.max,
            amountColumn: account ? 'amount' : 'home_amount',
          },
          args.order,
          args.limit + 1,
          offset,
          version,
        );
    const rows = fetched.slice(0, args.limit);
    const balances = await runningBalances(db, organisationId, rows, sums, period, args.order);
    const linkedIds = [...new Set(rows.flatMap((r) => (r.document_id ? [r.document_id] : [])))];
    const documents = await linkedDocuments(db, organisationId, linkedIds);

    const accountsById = new Map<string, BankAccountRow>(visible.accounts.map((a) => [a.id, a]));

    return {
      account: account ? bankAccountView(account) : null,
      period: { from: period.from, to: period.to },
      status: args.status,
      totals: {
        openingBalance: toMajor(totals.opening, currency),
        moneyIn: toMajor(totals.moneyIn, currency),
        moneyOut: toMajor(totals.moneyOut, currency),
        closingBalance: toMajor(totals.closing, currency),
        transactions: totals.transactions,
        toReconcile: totals.toReconcile,
        reconciled: totals.reconciled,
      },
      balanceNote: state ? [`Balances are ${basisWords(state, currency)}.`, incompleteWords(state, currency)].filter(Boolean).join(' ') : null,
      count: rows.length,
      page: args.page,
      pageSize: args.limit,
      hasMore: fetched.length > args.limit,
      transactions: rows.map((row) => {
        const rowAccount = accountsById.get(row.bank_account_id);
        if (!rowAccount) throw new Error(`bank transaction ${row.id} belongs to an account outside the caller's view`);
        const linked = row.document_id ? documents.get(row.document_id) : undefined;
        const view = {
          id: row.id,
          date: row.date,
          description: row.description,
          amount: toMajor(Number(row.amount), rowAccount.currency),
          direction: Number(row.amount) < 0 ? ('out' as const) : ('in' as const),
          currency: rowAccount.currency,
          account: { id: rowAccount.id, name: rowAccount.name },
          status: row.status,
          reconciledIn: row.status === 'to_reconcile' ? null : row.reconciled_in,
          suggestedMatch: Number(row.suggested_match) === 1,
          suggestion: row.status === 'to_reconcile' ? suggestionView(readSuggestion(row)) : null,
          report: row.source,
          runningBalance: toMajor(balances.get(row.id)!, rowAccount.currency),
          linked: linked ? linkedDocumentView(linked) : null,
        };
        // matched to an open bill of the system's own: filled in after the page's reads (withSystemLinks)
        if (row.document_id && !linked && systemIdOf(ctx, row.document_id) !== undefined) systemLinks.set(view, row.document_id);
        return view;
      }),
    };
  });
}

export const bankingTransactions = defineOperation({
  kind: 'organisation',
  name: 'banking.transactions',
  tool: 'banking_transactions',
  title: 'Bank and card transactions',
  summary: 'Imported bank and card transactions, paged, with totals for the period.',
  description:
    'Lists the bank and card transactions imported into the service for one account (account: id, number or name from banking.accounts) or for ' +
    'every account the caller can see, newest first by default, a page at a time (limit 1-500, default 100; page from 1; hasMore says whether another ' +
    'page exists). The period defaults to the three months up to today; period presets follow the financial year, or give from and to. ' +
    'Filters: status (all, to_reconcile, reconciled), search (text in the narration or the matched supplier), amountMin/amountMax (bounds on the size ' +
    'of the amount, money in and out alike). totals give the opening balance (everything before the period), money in, money out and the closing ' +
    "balance for the whole period regardless of the filters: in the account's currency for one account, in home currency for several. Each " +
    "transaction carries its amount (negative for money spent), status, where it was reconciled, the account's running balance after it, and, " +
    'when it is matched to a document in the service, that document (linked). A line to reconcile may carry a suggestion: the document the service ' +
    'finds it pays (documentId, score 0-100, reasons in words, number, supplier, total); suggestedMatch true means that document stands clearly ' +
    'above every other candidate. Suggestions are never applied by themselves: show them, and confirm one with banking.match, giving the line and ' +
    "the suggestion's documentId. Submitters and custom roles see only the accounts they hold. " +
    'An account of the connected books nothing has been imported into yet (an id like quickbooks:<id> or xero:<AccountID> from banking.accounts) has ' +
    'no bank transactions: ' +
    'it is answered account_not_found saying so; its lines in the books are in ledger.account_transactions.',
  input,
  output,
  // a model reads the totals and about 25 lines well; it can ask for more with limit or page
  toolDefaults: { limit: 25 },
  // about 77 KB of answer (structured JSON and its text) at 100 lines, where 500 could pass 280 KB: npm run bench:mcp-sizes
  toolMaximums: { limit: 100 },
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  // the accounts a caller sees depend on who they are (visible-accounts.ts)
  reuse: bankViewOf,
  run,
});
