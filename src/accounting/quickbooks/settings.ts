/**
 * An organisation's QuickBooks Online settings (organisations.accounting_config, JSON), parsed and
 * checked: the access token and realm (company) id as given (tests). An organisation connected from
 * its settings has none; the connector then reads through its connection (src/accounting/connections/).
 */
import { z } from 'zod';
import { mirrorMaxAgeSchema, parseVendorSettings, rateLimitWaitSchema } from '../vendor-settings.js';

export const QUICKBOOKS_API = 'https://quickbooks.api.intuit.com/v3';
/** the API's minor version every call asks for */
export const MINOR_VERSION = '75';

export const quickBooksConfigSchema = z
  .object({
    realmId: z
      .string()
      .trim()
      .regex(/^\d+$/, { message: 'must be the QuickBooks company (realm) id, digits' })
      .describe('the realm id of the company in QuickBooks Online'),
    accessToken: z.string().min(1, { message: 'must hold an access token' }).describe('an OAuth 2.0 access token for the company'),
    baseUrl: z
      .string()
      .url()
      .optional()
      .describe(`the Accounting API's base, ${QUICKBOOKS_API} when omitted (sandbox: https://sandbox-quickbooks.api.intuit.com/v3)`),
    rateLimitWaitMs: rateLimitWaitSchema("QuickBooks'"),
    pageSize: z.number().int().min(1).max(1000).optional().describe('MAXRESULTS of each query page (QuickBooks: at most 1000, the default)'),
    mirrorMaxAgeMs: mirrorMaxAgeSchema,
  })
  .strict();

export type QuickBooksConfig = z.infer<typeof quickBooksConfigSchema>;

/** The settings from the stored JSON text, or an AccountingSystemError saying what is wrong. */
export function parseQuickBooksConfig(text: string | null): QuickBooksConfig {
  return parseVendorSettings(quickBooksConfigSchema, 'QuickBooks', text);
}
