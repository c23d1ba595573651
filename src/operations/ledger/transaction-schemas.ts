/** The shapes of ledger.account_transactions' answer: its lines, their documents, and the whole-entry view. */
import { z } from 'zod';
import { linkSchema } from '../links.js';

const documentSchema = z.object({
  id: z.string(),
  number: z.string(),
  type: z.string(),
  supplier: z.string(),
  date: z.string(),
  currency: z.string(),
  total: z.number(),
  lines: z.array(
    z.object({
      description: z.string(),
      account: z.string().nullable(),
      quantity: z.number(),
      subtotal: z.number(),
      tax: z.number(),
      total: z.number(),
    }),
  ),
});

export const transactionSchema = z.object({
  date: z.string(),
  type: z.string(),
  number: z.string().nullable(),
  supplier: z.string().nullable(),
  description: z.string(),
  account: z.string().describe('full name of the account the line is coded to (the account or one of its sub-accounts)'),
  amount: z.number().describe("home currency; positive increases the account's balance"),
  currency: z.string().describe("the transaction's own currency"),
  amountInCurrency: z.number(),
  accountingSystemId: z.string(),
  link: linkSchema.nullable(),
  document: documentSchema
    .nullable()
    .describe(
      "the service document this transaction was published from, else the accounting system's own document behind it (a GnuCash bill: id " +
        'gnucash:<guid>; a Xero bill: xero:<InvoiceID>); null when there is none',
    ),
});

export const entrySchema = z.object({
  date: z.string(),
  type: z.string(),
  number: z.string().nullable(),
  description: z.string(),
  account: z.string(),
  amount: z.number(),
  accountingSystemId: z.string(),
});
