/** banking.accounts: the bank and card accounts the caller can see, with counts and balances. */
import { z } from 'zod';
import type { SystemBankAccount } from '../accounting/types.js';
import { toMajor } from '../domain/money.js';
import { bankAccountStats } from '../store/bank-accounts.js';
import type { BankAccountRow } from '../store/schema.js';
import type { OperationContext } from './context.js';
import { defineOperation } from './operation.js';
import { textParam } from './params.js';
import { bankAccountSchema, bankAccountView, visibleBankAccounts, bankViewOf } from './banking/visible-accounts.js';

const input = z
  .object({
    search: textParam()
      .optional()
      .describe('Words matching the account name, number or bank (case-insensitive); every word must match one of them.'),
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
          "sum of all the account's imported transactions, in the account's currency; for an account of the connected books nothing has been imported into yet (id <system>:<account id>), its balance in the books",
        ),
    }),
  ),
});

type ListedAccount = z.infer<typeof output>['accounts'][number];

/**
 * The connected books' bank and card accounts. Books that cannot be read fail the call (502
 * accounting_unavailable) rather than leave their accounts out unsaid: the answer has no place to say so.
 */
async function bookAccounts(ctx: OperationContext): Promise<SystemBankAccount[]> {
  return ctx.accounting.bankAccounts ? ctx.accounting.bankAccounts() : [];
}

/**
 * One rule links a bank account to the books, whatever the system: a service account whose
 * ledger_account_id is a ledger account (builtin or connected). A book account no service account
 * links to is listed on its own, as `<system>:<account id>`, with no imported transactions yet.
 */
function unlinkedBookAccount(kind: string, a: SystemBankAccount): ListedAccount {
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
    // nothing imported into it yet: the balance is the one the books give
    balance: toMajor(a.balance, a.currency),
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
    '(the sum of all its imported transactions, in the account currency). The default account comes first, then the others by name. ' +
    'Submitters and custom roles see only the accounts they hold. Use an id, number or name from here as the account of banking.transactions. ' +
    'With a connected accounting system (GnuCash, QuickBooks, Xero), its bank and card accounts are listed too: an account the service imports into is linked to its book account ' +
    'and listed once; a book account with nothing imported into it yet has an id like gnucash:<guid> or xero:<AccountID> and its balance in the books ' +
    '(Xero: accounts kept in the home currency).',
  input,
  output,
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  // the accounts a caller sees depend on who they are (visible-accounts.ts)
  reuse: bankViewOf,
  async run(ctx, args) {
    const visible = await visibleBankAccounts(ctx.db, ctx.organisation.id, ctx.principal);
    const accounts = visible.accounts.filter((a) => matchesWords(a, args.search));
    const everyAccount = !visible.narrowed && accounts.length === visible.accounts.length;
    const [stats, books] = await Promise.all([
      bankAccountStats(ctx.db, ctx.organisation.id, everyAccount ? null : accounts.map((a) => a.id)),
      // a caller who sees only the accounts they hold is shown no book account: the books are not read
      visible.narrowed ? Promise.resolve([]) : bookAccounts(ctx),
    ]);
    // a book account a service account links to is listed once, as that account; only callers who see every account see the others
    const linked = new Set(visible.accounts.map((a) => a.ledger_account_id).filter((id): id is string => id !== null));
    const unlinked = books.filter((b) => !linked.has(b.accountId) && matchesWords({ name: b.name, number: b.number, bank: '' }, args.search));
    const listed: ListedAccount[] = [
      ...accounts.map((a) => {
        const s = stats.get(a.id);
        return {
          ...bankAccountView(a),
          isDefault: a.is_default === 1,
          toReconcile: s?.toReconcile ?? 0,
          transactions: s?.transactions ?? 0,
          lastTransactionDate: s?.lastTransactionDate ?? null,
          balance: toMajor(s?.balance ?? 0, a.currency),
        };
      }),
      ...unlinked.map((b) => unlinkedBookAccount(ctx.accounting.kind, b)),
    ];
    return { count: listed.length, accounts: listed.sort(listingOrder) };
  },
});
