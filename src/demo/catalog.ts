/**
 * The vocabulary of the demo's organisation definitions: what a supplier, a customer, a recurring
 * bill or a line on an invoice looks like. The data itself is in organisations/*.json, each checked
 * against demoOrganisationSchema as it is loaded (organisations.ts), so a typo in a key or an
 * account fails at once rather than making different books.
 */
import { z } from 'zod';
import { ACCOUNT_KEYS, chartNamesSchema } from './chart.js';

/** How a line is taxed; each organisation maps these to its own rates and tax codes. */
const taxKindSchema = z.enum(['standard', 'zero', 'none', 'exempt']);
export type TaxKind = z.infer<typeof taxKindSchema>;

/** a [lowest, highest] range */
const range = z.tuple([z.number(), z.number()]).readonly();
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const itemTemplateSchema = z.object({
  /** may hold {month}, {prevMonth}, {nextMonth} or {year}, filled in from the document date */
  description: z.string(),
  account: z.enum(ACCOUNT_KEYS),
  productCode: z.string().optional(),
  unit: z.string().optional(),
  /** unit price range, minor units of the document's currency */
  price: range,
  /** quantity range in hundredths (100 = 1); default exactly 1 */
  quantity: range.optional(),
  /** quantities are multiples of this many hundredths; default 100 (whole units) */
  step: z.number().optional(),
  /** default: the organisation's usual kind for purchases (or sales) */
  tax: taxKindSchema.optional(),
});
export type ItemTemplate = z.infer<typeof itemTemplateSchema>;

const supplierCategorySchema = z.enum([
  'rent',
  'utilities',
  'software',
  'professional',
  'legal',
  'insurance',
  'marketing',
  'office',
  'materials',
  'freight',
  'subcontractors',
  'equipment',
  'travel',
]);
export type SupplierCategory = z.infer<typeof supplierCategorySchema>;

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

const supplierDefSchema = z.object({
  name: z.string(),
  category: supplierCategorySchema,
  /** default: the home currency */
  currency: z.string().optional(),
  /** payment terms in days */
  terms: z.number(),
  items: list(itemTemplateSchema),
  /** how many of the items a bill lists; default 1 to 2 */
  lines: range.optional(),
  city: z.string().optional(),
});
export type SupplierDef = z.infer<typeof supplierDefSchema>;

const recurringBillSchema = z.object({
  supplier: supplierDefSchema,
  /** day of the month it is dated */
  day: z.number(),
  /** months (1–12) it is billed in; default every month */
  months: list(z.number()).optional(),
  /** bank account it is paid from; default the current account */
  payFrom: z.enum(['current', 'foreignBank']).optional(),
  /** paid by cheque */
  cheque: z.boolean().optional(),
  /** an annual premium held in prepayments and released to expense month by month */
  prepaid: z.boolean().optional(),
});

/** A shop or service paid at the till: by the company card, or from the current account. */
const merchantSchema = z.object({
  name: z.string(),
  city: z.string(),
  items: list(itemTemplateSchema),
  /** sometimes refunds a purchase */
  refundable: z.boolean().optional(),
});
export type Merchant = z.infer<typeof merchantSchema>;

const customerDefSchema = z.object({
  name: z.string(),
  currency: z.string().optional(),
  terms: z.number(),
  items: list(itemTemplateSchema),
});
export type CustomerDef = z.infer<typeof customerDefSchema>;

/** Word lists from which more suppliers or customers are made up at larger scales. */
const namePartsSchema = z.object({ first: list(z.string()), suffixes: list(z.string()) });

const syntheticTradeSchema = z.object({
  /** the second word of the name, e.g. "Print" */
  word: z.string(),
  category: supplierCategorySchema,
  items: list(itemTemplateSchema),
});

const bankDefSchema = z.object({
  key: z.enum(['current', 'savings', 'card', 'foreignBank']),
  number: z.string(),
  bank: z.string(),
  currency: z.string(),
  type: z.enum(['bank', 'credit_card']),
  isDefault: z.boolean().optional(),
  /** demo user keys that hold this account (a submitter sees only the accounts they hold) */
  holders: list(z.string()).optional(),
  /** how its transactions arrive: a live feed or imported statements */
  source: z.enum(['feed', 'statement']),
});
export type BankDef = z.infer<typeof bankDefSchema>;

const bankStyleSchema = z.enum(['uk', 'us', 'au']);
export type BankStyle = z.infer<typeof bankStyleSchema>;

export const demoOrganisationSchema = z.object({
  key: z.string(),
  name: z.string(),
  homeCurrency: z.string(),
  timeZone: z.string(),
  fyStartMonth: z.number(),
  address: list(z.string()),
  bankStyle: bankStyleSchema,
  chart: chartNamesSchema,
  banks: list(bankDefSchema),
  tax: z.object({
    /** millionths: 200000 = 20% */
    rates: z.record(taxKindSchema, z.number()),
    codes: z.record(taxKindSchema, z.string()),
    label: z.string(),
    purchaseDefault: taxKindSchema,
    salesDefault: taxKindSchema,
    authority: z.string(),
    /** months whose end closes a tax period */
    periodEndMonths: list(z.number()),
    payAfterDays: z.number(),
  }),
  payroll: z.object({
    /** gross pay per month at scale 1, minor units */
    gross: z.number(),
    /** millionths of gross */
    employerRate: z.number(),
    withholdingRate: z.number(),
    day: z.number(),
    authority: z.string(),
    liabilitiesDay: z.number(),
  }),
  opening: z.object({
    current: z.number(),
    savings: z.number(),
    equipmentCost: z.number(),
    accumulatedDepreciation: z.number(),
    rentDeposit: z.number(),
    loan: z.number(),
    capital: z.number(),
  }),
  loan: z.object({ lender: z.string(), monthlyPrincipal: z.number(), annualRate: z.number() }),
  bankFee: z.number(),
  /** annual rate in millionths */
  savingsRate: z.number(),
  invoicePrefix: z.string(),
  classes: z.tuple([z.string(), z.string()]).readonly(),
  recurring: list(recurringBillSchema),
  suppliers: list(supplierDefSchema),
  supplierNames: namePartsSchema,
  trades: list(syntheticTradeSchema),
  merchants: list(merchantSchema),
  directMerchants: list(merchantSchema),
  customers: list(customerDefSchema),
  customerNames: namePartsSchema,
  customerItems: list(itemTemplateSchema),
  /** takings paid out by a card processor (deposits), when the business sells over the counter */
  cashSales: z.object({ processor: z.string(), items: list(itemTemplateSchema), feeRate: z.number() }).optional(),
  employees: list(z.string()),
  claimTitles: list(z.string()),
  claimItems: list(itemTemplateSchema),
  /** expected events per month at scale 1; the benchmark organisation multiplies them */
  volumes: z.object({
    bills: z.number(),
    cardCharges: z.number(),
    cardRefunds: z.number(),
    directSpend: z.number(),
    cheques: z.number(),
    invoices: z.number(),
    cashSales: z.number(),
    sundryDeposits: z.number(),
    supplierCredits: z.number(),
    expenseClaims: z.number(),
  }),
});
export type DemoOrganisationDef = z.infer<typeof demoOrganisationSchema>;
