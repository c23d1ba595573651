/**
 * A journal's account names against the organisation's chart: a full name (Parent:Child) as
 * written, then in any case when only one account matches, then an account number. With new
 * accounts allowed, a name the chart has not is created with its missing parents, its type from
 * the file's `account` directive or else from the words of its name (Assets:Bank → Bank,
 * Liabilities:Credit Card → Credit Card, Liabilities:GST Payable → Other Current Liability,
 * Expenses:Cost of Sales → Cost of Goods Sold, Income → Income …); a name whose type cannot be
 * told is refused rather than guessed into the wrong report section.
 */
import { ACCOUNT_TYPES, type AccountType } from '../../domain/chart.js';
import type { DeclaredAccount } from './entries.js';

export interface ChartEntry {
  id: string;
  fullName: string;
  number: string | null;
}

export type AccountMatch = { id: string } | { missing: string };

export class ChartIndex {
  private readonly byName = new Map<string, ChartEntry>();
  private readonly byLowerName = new Map<string, ChartEntry[]>();
  private readonly byNumber = new Map<string, ChartEntry>();

  constructor(accounts: Iterable<ChartEntry>) {
    for (const a of accounts) this.add(a);
  }

  add(a: ChartEntry): void {
    this.byName.set(a.fullName, a);
    const lower = a.fullName.toLowerCase();
    this.byLowerName.set(lower, [...(this.byLowerName.get(lower) ?? []), a]);
    if (a.number) this.byNumber.set(a.number, a);
  }

  find(text: string): ChartEntry | undefined {
    const name = normaliseAccountName(text);
    const sameCase = this.byLowerName.get(name.toLowerCase());
    return this.byName.get(name) ?? (sameCase?.length === 1 ? sameCase[0] : undefined) ?? this.byNumber.get(text.trim());
  }
}

/** `Assets : Bank` and `Assets:Bank` are one account. */
export function normaliseAccountName(text: string): string {
  return text
    .split(':')
    .map((part) => part.trim())
    .join(':');
}

/**
 * The types a name may make more precise: hledger's A and L letters (any asset, any liability), and
 * X (any expense), which a cost-of-sales name makes Cost of Goods Sold.
 */
const COARSE: ReadonlySet<AccountType> = new Set(['Other Current Asset', 'Other Current Liability', 'Expense']);

const ASSETS = String.raw`(assets?|current assets?)`;
const LIABILITIES = String.raw`(liabilit(y|ies)|current liabilit(y|ies))`;
/**
 * Tax a business collects or pays over, or reclaims: sales taxes (GST, HST, PST, QST, VAT, sales
 * and use tax), payroll deductions (PAYE, NI, withholding), and any "… tax …" account under Assets
 * or Liabilities. Tested before the "payable"/"receivable" rules (after the bank rule):
 * `Liabilities:GST/HST Payable` is owed to the tax authority, not to suppliers.
 */
const TAX = String.raw`(\b(gst|hst|pst|qst|vat|iva|tva|mwst|btw|paye|payg|nic?|withholding)\b|\btax(es)?\b)`;
/** cost of sales in a name; "Purchases" only as a whole part of it (Expenses:Purchases, not Expenses:Office Purchases) */
const COST_OF_SALES = String.raw`([^:]*(cost of (goods|sales|revenue)|cogs\b|direct costs?)|purchases(:|$))`;

const RULES: Array<[RegExp, AccountType]> = [
  [new RegExp(String.raw`^${LIABILITIES}(:.*)?:[^:]*${TAX}`, 'i'), 'Other Current Liability'],
  // a bank account kept for tax (Assets:Bank:Tax Savings) is a bank account
  [/^(assets?|current assets?)(:.*)?:[^:]*(bank|checking|cheque|chequing|current account|savings|cash|petty)/i, 'Bank'],
  [new RegExp(String.raw`^${ASSETS}(:.*)?:[^:]*${TAX}`, 'i'), 'Other Current Asset'],
  [/^(assets?|current assets?)(:.*)?:[^:]*(receivable|debtors)/i, 'Accounts Receivable'],
  [/^(assets?|fixed assets?)(:.*)?:[^:]*(fixed|equipment|property|vehicles?|computers?|furniture)/i, 'Fixed Asset'],
  [/^fixed assets?(:|$)/i, 'Fixed Asset'],
  [/^(assets?|current assets?)(:|$)/i, 'Other Current Asset'],
  [/^(liabilit(y|ies))(:.*)?:[^:]*(payable|creditors)/i, 'Accounts Payable'],
  [/^(liabilit(y|ies))(:.*)?:[^:]*(credit card|card)/i, 'Credit Card'],
  [/^(liabilit(y|ies))(:.*)?:[^:]*(loan|mortgage|long.term)/i, 'Long Term Liability'],
  [/^(liabilit(y|ies))(:|$)/i, 'Other Current Liability'],
  [/^(equity|capital)(:|$)/i, 'Equity'],
  [new RegExp(String.raw`^(expenses?|costs?)(:.*)?:${COST_OF_SALES}`, 'i'), 'Cost of Goods Sold'],
  [new RegExp(String.raw`^${COST_OF_SALES}`, 'i'), 'Cost of Goods Sold'],
  [/^(expenses?|costs?)(:|$)/i, 'Expense'],
  [/^other income(:|$)/i, 'Other Income'],
  [/^(income|revenues?|sales)(:|$)/i, 'Income'],
];

/** The type a name alone gives, or null. */
export function typeFromName(fullName: string): AccountType | null {
  return RULES.find(([pattern]) => pattern.test(fullName))?.[1] ?? null;
}

/** The type a new account gets: declared in the file, else told from its name, else null. */
export function inferAccountType(fullName: string, declared: ReadonlyMap<string, DeclaredAccount>): AccountType | null {
  const named = declared.get(fullName.toLowerCase())?.type;
  const byName = typeFromName(fullName);
  // hledger's types are coarse (A is any asset, L any liability, X any expense): where the name says
  // which kind of the same class it is (Assets:Accounts Receivable, Liabilities:Accounts Payable,
  // Liabilities:GST Payable, Expenses:Cost of Sales:Timber), the name is kept
  if (named && byName && COARSE.has(named) && ACCOUNT_TYPES[byName] === ACCOUNT_TYPES[named]) return byName;
  if (named) return named;
  // a declared parent's type is its children's, unless their own name says more
  if (byName) return byName;
  const parts = fullName.split(':');
  for (let i = parts.length - 1; i > 0; i--) {
    const parent = declared.get(parts.slice(0, i).join(':').toLowerCase())?.type;
    if (parent) return parent;
  }
  return null;
}
