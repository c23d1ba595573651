/**
 * Prompts: ready-made questions an owner asks, each a user message naming the tools that answer it,
 * so a client can offer them as commands. Their arguments complete (completions.ts).
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { INVALID_PARAMS } from '@modelcontextprotocol/server';

const ORGANISATION = { name: 'organisation', description: 'Id of the organisation, when the connection covers several' };

interface PromptDefinition extends Prompt {
  text: (args: Record<string, string | undefined>) => string;
}

/** "for Acme (org id)" when an organisation was given, else nothing. */
function forOrganisation(args: Record<string, string | undefined>): string {
  return args.organisation ? ` for the organisation ${args.organisation} (pass it as the organisation argument of every tool)` : '';
}

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'month_end_review',
    title: 'Month-end review',
    description: 'Review a month: profit and loss against the month before, cash, and bills overdue or due soon.',
    arguments: [{ name: 'month', description: 'The month to review as yyyy-MM; default the last complete month' }, ORGANISATION],
    text: (a) =>
      `Do a month-end review${forOrganisation(a)} of ${a.month ? `the month ${a.month}` : 'last month (period last_month)'}. ` +
      'Use reports_profit_and_loss for that month compared with the month before, reports_balance_sheet at its last day, ' +
      'banking_accounts for cash, and bills_list_to_pay for what is overdue. Report income, costs and profit with the largest changes, ' +
      'cash at the month end, and overdue bills; give every figure with its currency.',
  },
  {
    name: 'explain_variance',
    title: 'Explain a variance',
    description: "Explain why an account's figure moved between two periods, from the entries behind it.",
    arguments: [
      { name: 'account', description: 'The account (name, full name, number or id)', required: true },
      { name: 'period', description: 'The period to explain: this_month, last_month, this_quarter, last_quarter, ytd or last_year; default last_month' },
      ORGANISATION,
    ],
    text: (a) =>
      `Explain the variance of the account "${a.account}"${forOrganisation(a)} in ${a.period ?? 'last_month'} against the period before. ` +
      'Find the account with accounts_list, compare the periods with reports_profit_and_loss (or reports_balance_sheet for a balance sheet account), ' +
      'then list the entries behind the difference with ledger_account_transactions for both periods and name the few that explain most of it.',
  },
  {
    name: 'bills_due_this_week',
    title: 'Bills due this week',
    description: 'The bills and expense claims overdue or due in the next seven days, with the total to pay.',
    arguments: [
      { name: 'filter', description: 'A saved filter of bills_list_saved_filters to narrow the list' },
      { name: 'supplier', description: 'Only this supplier' },
      ORGANISATION,
    ],
    text: (a) =>
      `List the bills to pay${forOrganisation(a)} that are overdue or due within the next seven days${
        a.supplier ? ` from the supplier "${a.supplier}"` : ''
      }${a.filter ? `, using the saved filter "${a.filter}"` : ''}. ` +
      'Use bills_list_saved_filters to see the filters, then bills_list_to_pay; give each bill with supplier, due date and amount due, then the total ' +
      'per currency.',
  },
];

export function listPrompts(): Prompt[] {
  return PROMPTS.map(({ text: _text, ...prompt }) => prompt);
}

export function findPrompt(name: string): Prompt | undefined {
  return PROMPTS.find((p) => p.name === name);
}

export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw Object.assign(new Error(`Unknown prompt: ${name}`), { code: INVALID_PARAMS });
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length)
    throw Object.assign(new Error(`Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`), { code: INVALID_PARAMS });
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] };
}
