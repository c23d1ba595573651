/**
 * The demo charts of accounts. One shape for all three organisations (so the generators can code to
 * the same keys) with local names: VAT in London, Sales Tax Payable in New York, GST in Sydney. It
 * has every account type, sub-accounts, numbers, a Retained Earnings account, an inactive account
 * and an Accumulated Depreciation sub-account under the fixed assets.
 */
import { z } from 'zod';
import type { LedgerWriter } from '../accounting/builtin/writer.js';
import type { AccountType } from '../accounting/types.js';
import type { AcctAccountRow } from '../store/schema.js';

/** Every account of the demo chart, by the key the generators code to (and the organisations' data files name). */
export const ACCOUNT_KEYS = [
  'current',
  'savings',
  'card',
  'foreignBank',
  'receivable',
  'prepayments',
  'equipment',
  'equipmentCost',
  'accumulatedDepreciation',
  'rentDeposit',
  'payable',
  'tax',
  'payrollLiabilities',
  'wagesPayable',
  'loan',
  'capital',
  'retainedEarnings',
  'sales',
  'salesA',
  'salesB',
  'interestIncome',
  'cogs',
  'cogsA',
  'cogsB',
  'rent',
  'utilities',
  'electricity',
  'internet',
  'office',
  'software',
  'supplies',
  'smallEquipment',
  'professional',
  'accountancy',
  'legal',
  'travel',
  'transport',
  'meals',
  'accommodation',
  'salaries',
  'employerCosts',
  'depreciation',
  'bankFees',
  'marketing',
  'insurance',
  'entertainment',
  'interestExpense',
  'fx',
] as const;

export type AccountKey = (typeof ACCOUNT_KEYS)[number];

export interface ChartEntry {
  key: AccountKey;
  name: string;
  number: string;
  type: AccountType;
  parent?: AccountKey;
  active?: boolean;
}

/** The names that differ from one organisation to the next. */
export const chartNamesSchema = z.object({
  current: z.string(),
  savings: z.string(),
  card: z.string(),
  /** a bank account in a foreign currency, when the organisation has one */
  foreignBank: z.string().optional(),
  tax: z.string(),
  payrollLiabilities: z.string(),
  capital: z.string(),
  salesA: z.string(),
  salesB: z.string(),
  cogs: z.string(),
  cogsA: z.string(),
  cogsB: z.string(),
  salaries: z.string(),
  employerCosts: z.string(),
  internet: z.string(),
});

export type ChartNames = z.infer<typeof chartNamesSchema>;

export function chartEntries(names: ChartNames): ChartEntry[] {
  const entries: ChartEntry[] = [
    { key: 'current', name: names.current, number: '1200', type: 'Bank' },
    { key: 'savings', name: names.savings, number: '1210', type: 'Bank' },
    ...(names.foreignBank ? [{ key: 'foreignBank', name: names.foreignBank, number: '1220', type: 'Bank' } satisfies ChartEntry] : []),
    { key: 'receivable', name: 'Accounts Receivable', number: '1100', type: 'Accounts Receivable' },
    { key: 'prepayments', name: 'Prepayments', number: '1300', type: 'Other Current Asset' },
    { key: 'equipment', name: 'Equipment', number: '1500', type: 'Fixed Asset' },
    { key: 'equipmentCost', name: 'Cost', number: '1510', type: 'Fixed Asset', parent: 'equipment' },
    { key: 'accumulatedDepreciation', name: 'Accumulated Depreciation', number: '1520', type: 'Fixed Asset', parent: 'equipment' },
    { key: 'rentDeposit', name: 'Rent Deposit', number: '1700', type: 'Other Asset' },
    { key: 'payable', name: 'Accounts Payable', number: '2100', type: 'Accounts Payable' },
    { key: 'card', name: names.card, number: '2200', type: 'Credit Card' },
    { key: 'tax', name: names.tax, number: '2300', type: 'Other Current Liability' },
    { key: 'payrollLiabilities', name: names.payrollLiabilities, number: '2310', type: 'Other Current Liability' },
    { key: 'wagesPayable', name: 'Net Wages Payable', number: '2320', type: 'Other Current Liability' },
    { key: 'loan', name: 'Bank Loan', number: '2500', type: 'Long Term Liability' },
    { key: 'capital', name: names.capital, number: '3000', type: 'Equity' },
    { key: 'retainedEarnings', name: 'Retained Earnings', number: '3100', type: 'Equity' },
    { key: 'sales', name: 'Sales', number: '4000', type: 'Income' },
    { key: 'salesA', name: names.salesA, number: '4010', type: 'Income', parent: 'sales' },
    { key: 'salesB', name: names.salesB, number: '4020', type: 'Income', parent: 'sales' },
    { key: 'interestIncome', name: 'Interest Income', number: '4900', type: 'Other Income' },
    { key: 'cogs', name: names.cogs, number: '5000', type: 'Cost of Goods Sold' },
    { key: 'cogsA', name: names.cogsA, number: '5010', type: 'Cost of Goods Sold', parent: 'cogs' },
    { key: 'cogsB', name: names.cogsB, number: '5020', type: 'Cost of Goods Sold', parent: 'cogs' },
    { key: 'rent', name: 'Rent', number: '6000', type: 'Expense' },
    { key: 'utilities', name: 'Utilities', number: '6100', type: 'Expense' },
    { key: 'electricity', name: 'Electricity', number: '6110', type: 'Expense', parent: 'utilities' },
    { key: 'internet', name: names.internet, number: '6120', type: 'Expense', parent: 'utilities' },
    { key: 'office', name: 'Office', number: '6200', type: 'Expense' },
    { key: 'software', name: 'Software', number: '6210', type: 'Expense', parent: 'office' },
    { key: 'supplies', name: 'Supplies', number: '6220', type: 'Expense', parent: 'office' },
    { key: 'smallEquipment', name: 'Small Equipment', number: '6230', type: 'Expense', parent: 'office' },
    { key: 'professional', name: 'Professional Fees', number: '6300', type: 'Expense' },
    { key: 'accountancy', name: 'Accountancy', number: '6310', type: 'Expense', parent: 'professional' },
    { key: 'legal', name: 'Legal', number: '6320', type: 'Expense', parent: 'professional' },
    { key: 'travel', name: 'Travel', number: '6400', type: 'Expense' },
    { key: 'transport', name: 'Transport', number: '6410', type: 'Expense', parent: 'travel' },
    { key: 'meals', name: 'Meals', number: '6420', type: 'Expense', parent: 'travel' },
    { key: 'accommodation', name: 'Accommodation', number: '6430', type: 'Expense', parent: 'travel' },
    { key: 'salaries', name: names.salaries, number: '6500', type: 'Expense' },
    { key: 'employerCosts', name: names.employerCosts, number: '6510', type: 'Expense' },
    { key: 'depreciation', name: 'Depreciation', number: '6600', type: 'Expense' },
    { key: 'bankFees', name: 'Bank Fees', number: '6700', type: 'Expense' },
    { key: 'marketing', name: 'Advertising & Marketing', number: '6800', type: 'Expense' },
    { key: 'insurance', name: 'Insurance', number: '6900', type: 'Expense' },
    { key: 'entertainment', name: 'Entertainment (old)', number: '6950', type: 'Expense', active: false },
    { key: 'interestExpense', name: 'Interest Expense', number: '7000', type: 'Other Expense' },
    { key: 'fx', name: 'Foreign Exchange Gains and Losses', number: '7100', type: 'Other Expense' },
  ];
  return entries;
}

export type Chart = Map<AccountKey, AcctAccountRow>;

/** Creates the accounts, parents first, and returns them by key. */
export async function createChart(writer: LedgerWriter, entries: ChartEntry[]): Promise<Chart> {
  const chart: Chart = new Map();
  const pending = [...entries];
  while (pending.length) {
    const index = pending.findIndex((e) => !e.parent || chart.has(e.parent));
    if (index < 0) throw new Error(`chart entries with missing parents: ${pending.map((e) => e.key).join(', ')}`);
    const [entry] = pending.splice(index, 1) as [ChartEntry];
    const row = await writer.createAccount({
      name: entry.name,
      number: entry.number,
      type: entry.type,
      parentId: entry.parent ? chart.get(entry.parent)!.id : null,
      active: entry.active !== false,
    });
    chart.set(entry.key, row);
  }
  return chart;
}

export function account(chart: Chart, key: AccountKey): AcctAccountRow {
  const row = chart.get(key);
  if (!row) throw new Error(`the demo chart has no ${key} account`);
  return row;
}
