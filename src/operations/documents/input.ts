/**
 * The fields of a document as a caller sends them to documents.create and documents.update.
 * Amounts are decimals in the document's currency (major units, as every answer gives them);
 * check.ts turns them into exact minor units and checks that they add up.
 */
import { z } from 'zod';
import { isValidDate } from '../../domain/dates.js';
import { isCurrencyCode } from '../../domain/money.js';
import { MAX_DOCUMENT_FILE_BYTES } from './file-type.js';

export const DOCUMENT_TYPES = ['bill', 'receipt', 'expense_claim', 'supplier_credit'] as const;
/** the document types that are something to pay, listed by bills.list_to_pay */
export const PAYABLE_TYPES: ReadonlySet<string> = new Set(['bill', 'expense_claim']);
export const MAX_DOCUMENT_LINES = 500;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` });
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `must be at most ${max} characters` })
    .nullable()
    .optional();
const date = z.string().refine(isValidDate, { message: 'must be a date written yyyy-MM-dd' });
/**
 * A line's quantity: a decimal of at most six places, more than 0 and at most a billion. Stored as its
 * decimal text, which inside these bounds is always plain (1e-7 and 1e21 would print in exponent
 * form), and the answer gives it back as the same number.
 */
export const MAX_QUANTITY = 1_000_000_000;
export const QUANTITY_DECIMALS = 6;

function hasAtMostDecimals(q: number): boolean {
  const text = String(q);
  return !/e/i.test(text) && (text.split('.')[1] ?? '').length <= QUANTITY_DECIMALS;
}

const quantity = z
  .number()
  .positive({ message: 'must be more than 0' })
  .max(MAX_QUANTITY, { message: `must be at most ${MAX_QUANTITY.toLocaleString('en-US')}` })
  .refine(hasAtMostDecimals, { message: `must have at most ${QUANTITY_DECIMALS} decimal places` });

const amount = (what: string) => z.number().describe(`${what}, in the document's currency (major units, e.g. 120.50)`);

const codedLine = z
  .object({
    description: text(500),
    account: optionalText(300).describe('the account to publish the line to: its id, number or full name (accounts.list)'),
    taxCodeId: optionalText(100),
    class: optionalText(200),
    customer: optionalText(200),
    quantity: quantity.default(1),
    subtotal: amount('before tax'),
    tax: amount('tax').default(0),
    total: amount('subtotal plus tax'),
  })
  .strict();

const invoiceLine = z
  .object({
    description: text(500),
    productCode: optionalText(100),
    unit: optionalText(50),
    quantity,
    unitPrice: amount('price of one unit before tax'),
    tax: amount('tax').default(0),
    amount: amount('quantity times unit price, before tax'),
  })
  .strict();

// base64 of at most 10 MB: 4 characters per 3 bytes, and a little room for line breaks
const MAX_BASE64_LENGTH = Math.ceil(MAX_DOCUMENT_FILE_BYTES / 3) * 4 + 1024;

export const fileInput = z
  .object({
    name: text(255).describe('the file name, e.g. invoice-1042.pdf (a label: the type is read from the content)'),
    contentType: z.string().trim().max(100).optional().describe('optional; when given it must be what the content is'),
    data: z
      .string()
      .max(MAX_BASE64_LENGTH, { message: `is over ${MAX_DOCUMENT_FILE_BYTES / 1024 / 1024} MB` })
      .describe('the file content, base64'),
  })
  .strict()
  .describe('the original file: a PDF, PNG, JPEG, WebP or HEIC of at most 10 MB');

const TAGS_DESCRIPTION = 'bills and expense claims: tags that Bills to Pay filters match, comma separated (as bills.list_to_pay shows them)';

export const documentFields = {
  type: z.enum(DOCUMENT_TYPES).describe('bill, receipt, expense_claim or supplier_credit'),
  number: text(100).describe("the supplier's invoice or receipt number"),
  supplier: text(200).describe('the supplier (or, for an expense claim, who is to be repaid)'),
  date: date.describe('the document date, yyyy-MM-dd'),
  dueDate: date.nullable().optional().describe('when it is due, yyyy-MM-dd; a bill without one is due on its date'),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCurrencyCode, { message: 'must be an ISO 4217 currency code such as EUR' })
    .describe('ISO 4217 currency of every amount of the document'),
  subtotal: amount('total before tax'),
  tax: amount('total tax').default(0),
  total: amount('subtotal plus tax'),
  codedLines: z.array(codedLine).max(MAX_DOCUMENT_LINES).default([]).describe('how the document will be published: one line per account'),
  invoiceLines: z.array(invoiceLine).max(MAX_DOCUMENT_LINES).default([]).describe("what the supplier's invoice lists"),
  file: fileInput.nullable().optional(),
  scheduledDate: date.nullable().optional().describe('bills and expense claims: the date payment is planned for'),
  tags: z.string().max(1000, { message: 'must be at most 1000 characters' }).nullable().optional().describe(TAGS_DESCRIPTION),
  note: optionalText(2000).describe('bills and expense claims: a note shown in Bills to Pay'),
};

export const createInput = z.object(documentFields).strict();
export type CreateInput = z.infer<typeof createInput>;

/** documents.update: the id, and any field to change (each replaces the stored one whole; lines and file too). */
export const updateInput = z
  .object({
    id: text(200).describe('the document to change (documents.create answered it)'),
    ...Object.fromEntries(
      Object.entries(documentFields).map(([name, field]) => {
        const bare = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType);
        return [name, bare instanceof z.ZodOptional ? bare : bare.optional()];
      }),
    ),
  })
  .strict() as unknown as z.ZodObject<
  { id: z.ZodString } & { [K in keyof typeof documentFields]: z.ZodOptional<z.ZodType<z.output<(typeof documentFields)[K]>>> }
>;
export type UpdateInput = { id: string } & Partial<CreateInput>;
