/** banking.accounts: the bank and card accounts the caller can see, with counts and balances. */
import { z } from 'zod';
import { toMajor } from '../domain/money.js';
import { bankAccountStats } from '../store/banking.js';
import type { BankAccountRow } from '../store/schema.js';
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
      balance: z.number().describe("sum of all the account's imported transactions, in the account's currency"),
    }),
  ),
});

/** Every word must be found in the name, number or bank. */
function matchesWords(account: BankAccountRow, search: string | undefined): boolean {
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
    'Submitters and custom roles see only the accounts they hold. Use an id, number or name from here as the account of banking.transactions.',
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
    const stats = await bankAccountStats(ctx.db, ctx.organisation.id, everyAccount ? null : accounts.map((a) => a.id));
    return {
      count: accounts.length,
      accounts: accounts.map((a) => {
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
    };
  },
});
