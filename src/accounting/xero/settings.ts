/**
 * An organisation's Xero settings (organisations.accounting_config, JSON), parsed and checked: the
 * access token and tenant id as given (tests). An organisation connected from its settings has
 * none; the connector then reads through its connection (src/accounting/connections/).
 */
import { z } from 'zod';
import { mirrorMaxAgeSchema, parseVendorSettings, rateLimitWaitSchema } from '../vendor-settings.js';

export const XERO_API = 'https://api.xero.com/api.xro/2.0';

export const xeroConfigSchema = z
  .object({
    tenantId: z.string().trim().min(1, { message: 'must name the Xero tenant (organisation) id' }).describe('the xero-tenant-id of the organisation in Xero'),
    accessToken: z.string().min(1, { message: 'must hold an access token' }).describe('an OAuth 2.0 access token for the tenant'),
    baseUrl: z.string().url().optional().describe(`the Accounting API's base, ${XERO_API} when omitted`),
    rateLimitWaitMs: rateLimitWaitSchema("Xero's"),
    mirrorMaxAgeMs: mirrorMaxAgeSchema,
  })
  .strict();

export type XeroConfig = z.infer<typeof xeroConfigSchema>;

/** The settings from the stored JSON text, or an AccountingSystemError saying what is wrong. */
export function parseXeroConfig(text: string | null): XeroConfig {
  return parseVendorSettings(xeroConfigSchema, 'Xero', text);
}
