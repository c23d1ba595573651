/**
 * The vocabulary of the demo's organisation definitions: what a supplier, a customer, a recurring
 * bill or a line on an invoice looks like. The data itself is in organisations.ts.
 */
import type { AccountKey, ChartNames } from './chart.js';

/** How a line is taxed; each organisation maps these to its own rates and tax codes. */
export type TaxKind = 'standard' | 'zero' | 'none' | 'exempt';

export interface ItemTemplate {
  /** may hold {month}, {prevMonth}, {nextMonth} or {year}, filled in from the document date */
  description: string;
  account: AccountKey;
  productCode?: string;
  unit?: string;
  /** unit price range, minor units of the document's currency */
  price: readonly [number, number];
  /** quantity range in hundredths (100 = 1); default exactly 1 */
  quantity?: readonly [number, number];
  /** quantities are multiples of this many hundredths; default 100 (whole units) */
  step?: number;
  /** default: the organisation's usual kind for purchases (or sales) */
  tax?: TaxKind;
}

export type SupplierCategory =
  | 'rent'
  | 'utilities'
  | 'software'
  | 'professional'
  | 'legal'
  | 'insurance'
  | 'marketing'
  | 'office'
  | 'materials'
  | 'freight'
  | 'subcontractors'
  | 'equipment'
  | 'travel';

export const CATEGORY_TAGS: Record<SupplierCategory, string> = {
  rent: 'rent,premises',
  utilities: 'utilities',
  software: 'software,subscriptions',
  professional: 'professional-fees',
  legal: 'professional-fees,legal',
  insurance: 'insurance',
  marketing: 'marketing',
  office: 'office',
  materials: 'materials,cost-of-sales',
  freight: 'freight,cost-of-sales',
  subcontractors: 'subcontractors,cost-of-sales',
  equipment: 'equipment,capital',
  travel: 'travel',
};

export interface SupplierDef {
  name: string;
  category: SupplierCategory;
  /** default: the home currency */
  currency?: string;
  /** payment terms in days */
  terms: number;
  items: readonly ItemTemplate[];
  /** how many of the items a bill lists; default 1 to 2 */
  lines?: readonly [number, number];
  city?: string;
}

export interface RecurringBill {
  supplier: SupplierDef;
  /** day of the month it is dated */
  day: number;
  /** months (1–12) it is billed in; default every month */
  months?: readonly number[];
  /** bank account it is paid from; default the current account */
  payFrom?: 'current' | 'foreignBank';
  /** paid by cheque */
  cheque?: boolean;
  /** an annual premium held in prepayments and released to expense month by month */
  prepaid?: boolean;
}

/** A shop or service paid at the till: by the company card, or from the current account. */
export interface Merchant {
  name: string;
  city: string;
  items: readonly ItemTemplate[];
  /** sometimes refunds a purchase */
  refundable?: boolean;
}

export interface CustomerDef {
  name: string;
  currency?: string;
  terms: number;
  items: readonly ItemTemplate[];
}

/** Word lists from which more suppliers or customers are made up at larger scales. */
export interface NameParts {
  first: readonly string[];
  suffixes: readonly string[];
}

export interface SyntheticTrade {
  /** the second word of the name, e.g. "Print" */
  word: string;
  category: SupplierCategory;
  items: readonly ItemTemplate[];
}

export interface BankDef {
  key: 'current' | 'savings' | 'card' | 'foreignBank';
  number: string;
  bank: string;
  currency: string;
  type: 'bank' | 'credit_card';
  isDefault?: boolean;
  /** demo user keys that hold this account (a submitter sees only the accounts they hold) */
  holders?: readonly string[];
  /** how its transactions arrive: a live feed or imported statements */
  source: 'feed' | 'statement';
}

export type BankStyle = 'uk' | 'us' | 'au';

export interface DemoOrganisationDef {
  key: string;
  name: string;
  homeCurrency: string;
  timeZone: string;
  fyStartMonth: number;
  address: readonly string[];
  bankStyle: BankStyle;
  chart: ChartNames;
  banks: readonly BankDef[];
  tax: {
    /** millionths: 200000 = 20% */
    rates: Record<TaxKind, number>;
    codes: Record<TaxKind, string>;
    label: string;
    purchaseDefault: TaxKind;
    salesDefault: TaxKind;
    authority: string;
    /** months whose end closes a tax period */
    periodEndMonths: readonly number[];
    payAfterDays: number;
  };
  payroll: {
    /** gross pay per month at scale 1, minor units */
    gross: number;
    /** millionths of gross */
    employerRate: number;
    withholdingRate: number;
    day: number;
    authority: string;
    liabilitiesDay: number;
  };
  opening: {
    current: number;
    savings: number;
    equipmentCost: number;
    accumulatedDepreciation: number;
    rentDeposit: number;
    loan: number;
    capital: number;
  };
  loan: { lender: string; monthlyPrincipal: number; annualRate: number };
  bankFee: number;
  /** annual rate in millionths */
  savingsRate: number;
  invoicePrefix: string;
  classes: readonly [string, string];
  recurring: readonly RecurringBill[];
  suppliers: readonly SupplierDef[];
  supplierNames: NameParts;
  trades: readonly SyntheticTrade[];
  merchants: readonly Merchant[];
  directMerchants: readonly Merchant[];
  customers: readonly CustomerDef[];
  customerNames: NameParts;
  customerItems: readonly ItemTemplate[];
  /** takings paid out by a card processor (deposits), when the business sells over the counter */
  cashSales?: { processor: string; items: readonly ItemTemplate[]; feeRate: number };
  employees: readonly string[];
  claimTitles: readonly string[];
  claimItems: readonly ItemTemplate[];
  /** expected events per month at scale 1; the benchmark organisation multiplies them */
  volumes: {
    bills: number;
    cardCharges: number;
    cardRefunds: number;
    directSpend: number;
    cheques: number;
    invoices: number;
    cashSales: number;
    sundryDeposits: number;
    supplierCredits: number;
    expenseClaims: number;
  };
}
