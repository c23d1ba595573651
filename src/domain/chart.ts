/** The chart of accounts' vocabulary: account types, the classification each belongs to, and an account. */
export const CLASSIFICATIONS = ['Asset', 'Liability', 'Equity', 'Revenue', 'Expense'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/** Account types, each with the classification it belongs to and where reports put it. */
export const ACCOUNT_TYPES = {
  Bank: 'Asset',
  'Accounts Receivable': 'Asset',
  'Other Current Asset': 'Asset',
  'Fixed Asset': 'Asset',
  'Other Asset': 'Asset',
  'Accounts Payable': 'Liability',
  'Credit Card': 'Liability',
  'Other Current Liability': 'Liability',
  'Long Term Liability': 'Liability',
  Equity: 'Equity',
  Income: 'Revenue',
  'Other Income': 'Revenue',
  'Cost of Goods Sold': 'Expense',
  Expense: 'Expense',
  'Other Expense': 'Expense',
} as const satisfies Record<string, Classification>;
export type AccountType = keyof typeof ACCOUNT_TYPES;

export interface ChartAccount {
  id: string;
  name: string;
  /** Parent:Child */
  fullName: string;
  number: string | null;
  type: AccountType;
  classification: Classification;
  active: boolean;
  parentId: string | null;
  /** equity account that holds the profit of earlier years (shown with it on the balance sheet) */
  retainedEarnings?: boolean;
}
