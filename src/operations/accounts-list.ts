import { z } from 'zod';
import { CLASSIFICATIONS } from '../accounting/types.js';
import { defineOperation } from './operation.js';
import { booleanParam, textParam } from './params.js';

/** A text's words, lower-cased: its runs of letters and digits ("Expenses:Rent" is two words, "6100" one). */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export const accountsList = defineOperation({
  kind: 'organisation',
  name: 'accounts.list',
  tool: 'accounts_list',
  title: 'Chart of accounts',
  summary: 'The chart of accounts, read live from the accounting system.',
  description:
    'Lists the accounts of the chart of accounts with id, name, full name (Parent:Child), number, type, classification (Asset, Liability, Equity, ' +
    "Revenue, Expense), whether it is active, and its parent. Use an account's id, number or full name as the `account` of " +
    'ledger_account_transactions. Only active accounts unless includeInactive is true.',
  input: z
    .object({
      search: textParam()
        .describe(
          'Words to look for; an account is listed when each word starts a word of its name, full name or number (case-insensitive): "rent" finds Rent ' +
            'and Rental Income, not Current Account; "61" finds number 6100.',
        )
        .optional(),
      includeInactive: booleanParam.describe('When true, inactive accounts are listed too. Default false.').optional(),
    })
    .strict(),
  output: z.object({
    count: z.number().int(),
    accounts: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        fullName: z.string(),
        number: z.string().nullable(),
        type: z.string(),
        classification: z.enum(CLASSIFICATIONS),
        active: z.boolean(),
        parentId: z.string().nullable(),
      }),
    ),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin', 'submitter', 'custom'],
  reuse: 'organisation',
  async run(ctx, input) {
    const words = wordsOf(input.search ?? '');
    const accounts = (await ctx.accounting.chartOfAccounts())
      .filter((a) => input.includeInactive || a.active)
      .filter((a) => {
        if (!words.length) return true;
        const own = wordsOf(`${a.name} ${a.fullName} ${a.number ?? ''}`);
        return words.every((w) => own.some((o) => o.startsWith(w)));
      })
      .map((a) => ({
        id: a.id,
        name: a.name,
        fullName: a.fullName,
        number: a.number,
        type: a.type,
        classification: a.classification,
        active: a.active,
        parentId: a.parentId,
      }));
    return { count: accounts.length, accounts };
  },
});
