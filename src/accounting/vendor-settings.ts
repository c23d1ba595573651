/** A vendor connector's settings (organisations.accounting_config) read against its schema, or an AccountingSystemError saying what is wrong. */
import { z } from 'zod';
import { AccountingSystemError } from './types.js';

export function parseVendorSettings<S extends z.ZodType>(schema: S, vendor: string, text: string | null): z.infer<S> {
  let raw: unknown;
  try {
    raw = text === null ? null : JSON.parse(text);
  } catch {
    throw new AccountingSystemError(`The organisation's ${vendor} settings are not valid JSON.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ');
    throw new AccountingSystemError(`The organisation's ${vendor} settings are invalid (${detail}).`);
  }
  return parsed.data;
}

/** How old the organisation's local mirror may be before a call brings it up to date (mirror/mirror.ts). */
export const mirrorMaxAgeSchema = z
  .number()
  .int()
  .min(0)
  .max(86_400_000)
  .optional()
  .describe('how old the local mirror may be before a call asks the vendor what changed (ms, default 60000; 0: every call)');

/** How long one call may wait in all for the vendor's Retry-After before it fails (vendor-get.ts; 5000 ms by default). */
export function rateLimitWaitSchema(vendorPossessive: string) {
  return z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe(`how long one call may wait in all for ${vendorPossessive} Retry-After before it fails (default 5000 ms)`);
}
