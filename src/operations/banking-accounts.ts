/** banking.accounts: the bank and card accounts the caller can see, with counts and balances. */
import { z } from 'zod';
import type { SystemBankAccount } from '../accounting/types.js';
import { formatMoney, toMajor } from '../domain/money.js';
import { NO_STATEMENTS } from '../domain/statement-balances.js';
import { balanceStates } from '../store/bank-balances.js';
import { bankAccountStats } from '../store/bank-accounts.js';
import type { BankAccountRow } from '../store/schema.js';
import type { OperationContext } from './context.js';
import { defineOperation } from './operation.js';
import { textParam } from './params.js';
import { figuresWords } from './banking/balance-words.js';
import { bookBalances } from './banking/book-balances.js';
import { bankAccountSchema, bankAccountView, visibleBankAccounts, bankViewOf } from './banking/visible-accounts.js';

const input = z
  .object({
    search: textParam().optional().describe('Words matching the account name, number or bank (case-insensitive); every word must match one of them.'),
  })
  .strict();

const output = z.object({
  count: z.number().int(),
  accounts: z.array(
    bankAccountSchema.extend({
      isDefault: z.boolean(),
      toReconcile: z.number().int().describe('transactions still to reconcile'),
      transactions: z.number().int().describe('all transactions'),
      lastTransactionDate: z.string().nullable().describe('date of the latest transaction, null when there is none'),
      balance: z
        .number()
        .describe(
          "the bank's balance of the account at balanceDate, in the account's currency: counted from the earliest imported statement's opening balance " +
            "(or the opening balance entered for the account) plus every imported transaction, so it equals the bank's closing balance when nothing is " +
            'missing (see balanceBasis, balanceIncompleteFrom); for an account of the connected books nothing has been imported into yet (id ' +
            '<system>:<account id>), its balance in the books at balanceDate (today): nothing dated later is counted',
        ),
      balanceDate: z
        .string()
        .nullable()
        .describe(
          'the day balance is at: the later of the last transaction and the last day a statement covers; null when there is neither; today for an ' +
            'account of the connected books nothing has been imported into yet',
        ),
      balanceBasis: z
        .enum(['statements', 'opening_balance', 'transactions', 'books'])
        .describe(
          "what balance is counted from: statements (a statement's own opening balance), opening_balance (entered for the account), transactions (only " +
            "the imported lines: no balance known, it may not be the bank's), books (nothing imported: the books' balance)",
        ),
      bankStatementBalance: z
        .object({ amount: z.number(), date: z.string(), source: z.string() })
        .nullable()
        .describe('the latest closing balance an imported statement gives, as the bank gave it, with its date and statement; null when none gives one'),
      balanceIncompleteFrom: z
        .string()
        .nullable()
        .describe(
          'the first day from which balance misses what the statements show (transactions missing between statements, or a statement whose lines do ' +
            'not reach its closing balance); null when the balance is complete',
        ),
      balanceUnexplained: z
        .number()
        .describe("the bank's latest statement balance less the balance the transactions give at its date: what is missing in all; 0 when complete"),
      ledgerAccount: z
        .object({ id: z.string(), name: z.string(), fullName: z.string() })
        .nullable()
        .describe("the books' account this bank account mirrors (builtin chart account, or the connected system's bank account); null when not linked"),
      bookBalance: z
        .number()
        .nullable()
        .describe(
          "the linked ledger account's balance in the books at balanceDate, in the account's currency, money held positive; null when not linked or " +
            'not readable',
        ),
      differenceToReconcile: z
        .number()
        .nullable()
        .describe('balance less bookBalance: what is still to reconcile between the bank and the books at balanceDate; null without a book balance'),
      note: z.string().describe('what each figure above is, in words'),
    }),
  ),
});

type ListedAccount = z.infer<typeof output>['accounts'][number];

/** A book account with its full name in the chart (Assets:Current Assets:Business Current Account). */
type BookAccount = SystemBankAccount & { fullName: string };

/**
 * The connected books' bank and card accounts, with their balances at `asAt` (nothing dated after
 * it) and their full names from the chart. Books that cannot be read fail the call (502
 * accounting_unavailable) rather than leave their accounts out unsaid: the answer has no place to say so.
 */
async function bookAccounts(ctx: OperationContext, asAt: string): Promise<BookAccount[]> {
  if (!ctx.accounting.bankAccounts) return [];
  const [accounts, chart] = await Promise.all([ctx.accounting.bankAccounts(asAt), ctx.accounting.chartOfAccounts()]);
  const fullNames = new Map(chart.map((a) => [a.id, a.fullName]));
  return accounts.map((a) => ({ ...a, fullName: fullNames.get(a.accountId) ?? a.name }));
}

/**
 * One rule links a bank account to the books, whatever the system: a service account whose
 * ledger_account_id is a ledger account (builtin or connected). A book account no service account
 * links to is listed on its own, as `<system>:<account id>`, with no imported transactions yet.
 */
function unlinkedBookAccount(kind: string, a: BookAccount, today: string): ListedAccount {
  return {
    id: `${kind}:${a.accountId}`,
    name: a.name,
    number: a.number,
    type: a.type,
    bank: '',
    currency: a.currency,
    isDefault: false,
    toReconcile: 0,
    transactions: 0,
    lastTransactionDate: null,
    // nothing imported into it yet: the balance is the one the books give at balanceDate (bookAccounts asked them at today)
    balance: toMajor(a.balance, a.currency),
    balanceDate: today,
    balanceBasis: 'books',
    bankStatementBalance: null,
    balanceIncompleteFrom: null,
    balanceUnexplained: 0,
    ledgerAccount: { id: a.accountId, name: a.name, fullName: a.fullName },
    bookBalance: toMajor(a.balance, a.currency),
    differenceToReconcile: null,
    note:
      `No statement has been imported into this account: ${formatMoney(a.balance, a.currency)} is its balance in the books (${kind}) at ${today} ` +
      `(today, nothing dated later counted), not the bank's.`,
  };
}

/** Default first, then by name as people read it (as visible-accounts.ts orders the service's own). */
function listingOrder(a: ListedAccount, b: ListedAccount): number {
  const byLower = a.name.toLowerCase().localeCompare(b.name.toLowerCase(), 'en');
  return Number(b.isDefault) - Number(a.isDefault) || byLower || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Every word must be found in the name, number or bank. */
function matchesWords(account: Pick<BankAccountRow, 'name' | 'number' | 'bank'>, search: string | undefined): boolean {
  const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const fields = [account.name, account.number, account.bank].map((f) => f.toLowerCase());
  return words.every((w) => fields.some((f) => f.includes(w)));
}

export const bankingAccounts = defineOperation({
  kind: 'organisation',
  name: 'banking.accounts',
  tool: 'banking_accounts',
  title: 'Bank and card accounts',
  summary: 'Bank and card accounts with their transaction counts and balances.',
  description:
    'Lists the bank and credit card accounts whose transactions the service imports: id, name, number, type (bank or credit_card), bank, currency, ' +
    'whether it is the default account, how many transactions it has and how many are still to reconcile, the date of the latest one, and its balance ' +
    "in the account currency: the bank's balance at balanceDate, counted from the earliest imported statement's opening balance (or an opening balance " +
    'entered for the account) plus the imported transactions, ' +
    'with balanceIncompleteFrom saying from when it misses what the statements show. An account linked to the books gives the linked ledger account ' +
    '(ledgerAccount), its bookBalance at the same date and ' +
    'differenceToReconcile (bank less books); note says what each figure is in words. The default account comes first, then the others by name. ' +
    'Submitters and custom roles see only the accounts they hold. Use an id, number or name from here as the account of banking.transactions. ' +
    'With a connected accounting system (GnuCash, QuickBooks, Xero), its bank and card accounts are listed too: an account the service imports into is ' +
    'linked to its book account ' +
    'and listed once; a book account with nothing imported into it yet has an id like gnucash:<guid> or xero:<AccountID> and its balance in the books ' +
    '(Xero: accounts kept in the home currency).',
  input,
  output,
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  // the accounts a caller sees depend on who they are (visible-accounts.ts)
  reuse: bankViewOf,
  async run(ctx, args) {
    const visible = await visibleBankAccounts(ctx.db, ctx.organisation.id, ctx.principal, ctx.dataVersion);
    const accounts = visible.accounts.filter((a) => matchesWords(a, args.search));
    const everyAccount = !visible.narrowed && accounts.length === visible.accounts.length;
    const [stats, books] = await Promise.all([
      bankAccountStats(ctx.db, ctx.organisation.id, everyAccount ? null : accounts.map((a) => a.id)),
      // a caller who sees only the accounts they hold is shown no book account: the books are not read
      visible.narrowed ? Promise.resolve([]) : bookAccounts(ctx, ctx.today),
    ]);
    // a book account a service account links to is listed once, as that account; only callers who see every account see the others
    const linked = new Set(visible.accounts.map((a) => a.ledger_account_id).filter((id): id is string => id !== null));
    const unlinked = books.filter((b) => !linked.has(b.accountId) && matchesWords({ name: b.name, number: b.number, bank: '' }, args.search));
    const states = await balanceStates(
      ctx.db,
      ctx.organisation.id,
      accounts.map((a) => a.id),
      ctx.dataVersion,
    );
    const figures = accounts.map((a) => {
      const s = stats.get(a.id);
      const state = states.get(a.id) ?? NO_STATEMENTS;
      const lastDay =
        [s?.lastTransactionDate ?? null, state.lastStatementDay]
          .filter((d): d is string => d !== null)
          .sort()
          .pop() ?? null;
      return { a, s, state, balance: (s?.balance ?? 0) + state.offset, balanceDate: lastDay };
    });
    const linkedBooks = await bookBalances(
      ctx,
      figures.flatMap((f) =>
        f.a.ledger_account_id ? [{ id: f.a.id, ledgerAccountId: f.a.ledger_account_id, currency: f.a.currency, date: f.balanceDate ?? ctx.today }] : [],
      ),
    );
    const listed: ListedAccount[] = [
      ...figures.map(({ a, s, state, balance, balanceDate }) => {
        const book = linkedBooks.byAccount.get(a.id) ?? null;
        const money = (minor: number) => toMajor(minor, a.currency);
        return {
          ...bankAccountView(a),
          isDefault: a.is_default === 1,
          toReconcile: s?.toReconcile ?? 0,
          transactions: s?.transactions ?? 0,
          lastTransactionDate: s?.lastTransactionDate ?? null,
          balance: money(balance),
          balanceDate,
          balanceBasis: state.basis,
          bankStatementBalance: state.bankBalance && {
            amount: money(state.bankBalance.amount),
            date: state.bankBalance.date,
            source: state.bankBalance.source,
          },
          balanceIncompleteFrom: state.incompleteFrom,
          balanceUnexplained: money(state.unexplained),
          ledgerAccount: book?.ledgerAccount ?? null,
          bookBalance: book?.balance == null ? null : money(book.balance),
          differenceToReconcile: book?.balance == null ? null : money(balance - book.balance),
          note: figuresWords({
            currency: a.currency,
            balance,
            balanceDate,
            state,
            book: book && { name: book.ledgerAccount.fullName, balance: book.balance, why: book.why ?? linkedBooks.unreadable },
            noBook: a.ledger_account_id ? linkedBooks.unreadable : 'Not linked to an account of the books, so there is no book balance to compare with.',
          }),
        };
      }),
      ...unlinked.map((b) => unlinkedBookAccount(ctx.accounting.kind, b, ctx.today)),
    ];
    return { count: listed.length, accounts: listed.sort(listingOrder) };
  },
});
