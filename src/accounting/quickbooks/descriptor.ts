/**
 * QuickBooks Online as a books system Ledgerline reads (vendor-descriptor.ts): its limits per
 * company (realm) and app, the settings given by hand, its OAuth 2.0 client (Intuit: a sign-in is
 * for the one company chosen at Intuit, named in the callback's realmId and checked by reading it
 * with the new token), and the reader.
 */
import { companyKey, DEFAULTS, VENDOR_NAMES, type VendorClient } from '../../domain/accounting-vendors.js';
import { QUICKBOOKS_LIMITS } from '../call-budget.js';
import { GrantRefused, VendorUnavailable } from '../connections/vendor-http.js';
import { methodsOf, type VendorDescriptor, type VendorTenant } from '../vendor-descriptor.js';
import { QuickBooksAccounting } from './reader.js';
import { MINOR_VERSION, parseQuickBooksConfig, QUICKBOOKS_API, quickBooksConfigSchema, type QuickBooksConfig } from './settings.js';

/**
 * The company a new access token is for, by reading that company's CompanyInfo (GET
 * /v3/company/{realmId}/companyinfo/{realmId}) with it. The realm comes in the callback's query
 * string, which anyone can change; Intuit's token is for the one company chosen at sign-in and is
 * refused (401 or 403) for any other, answered here as GrantRefused, so an organisation is never tied
 * to a company its token cannot read. Answers the company's name from its record.
 */
async function quickBooksCompany(client: VendorClient, realmId: string, accessToken: string, fetchImpl: typeof fetch = fetch): Promise<VendorTenant> {
  const realm = encodeURIComponent(realmId);
  const url = new URL(`${(client.apiBaseUrl ?? QUICKBOOKS_API).replace(/\/+$/, '')}/company/${realm}/companyinfo/${realm}`);
  url.searchParams.set('minorversion', MINOR_VERSION);
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new VendorUnavailable(`QuickBooks could not be reached to check company ${realmId} (${(error as Error).message})`);
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new GrantRefused(
      `QuickBooks did not let this sign-in read company ${realmId} (HTTP ${res.status}): the company named on the way back is not the one access was given for`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new VendorUnavailable(`QuickBooks answered HTTP ${res.status} when company ${realmId} was checked`);
  }
  const body = (await res.json().catch(() => undefined)) as { CompanyInfo?: { CompanyName?: unknown } } | undefined;
  const info = body?.CompanyInfo;
  if (!info || typeof info !== 'object') throw new VendorUnavailable(`QuickBooks did not answer company ${realmId}'s information`);
  const name = typeof info.CompanyName === 'string' ? info.CompanyName.trim() : '';
  return { tenantId: realmId, tenantName: name || `QuickBooks company ${realmId}` };
}

export const quickBooks: VendorDescriptor<QuickBooksConfig> = {
  vendor: 'quickbooks',
  name: VENDOR_NAMES.quickbooks,
  productName: 'QuickBooks Online',
  booksWord: 'Company',
  envPrefix: 'QUICKBOOKS',
  // QuickBooks' limits are per company (realm) and app
  limits: QUICKBOOKS_LIMITS,
  settings: {
    schema: quickBooksConfigSchema,
    parse: parseQuickBooksConfig,
    tenantOf: (config) => config.realmId,
    ofConnection: (realmId, baseUrl) => ({ realmId, accessToken: 'connection', ...(baseUrl ? { baseUrl } : {}) }),
  },
  oauth: {
    endpoints: DEFAULTS.quickbooks,
    issuer: 'https://oauth.platform.intuit.com/op/v1',
    callbackProblem: (callback) => (/^\d+$/.test(callback.get('realmId') ?? '') ? undefined : 'QuickBooks did not say which company was chosen (realmId)'),
    tenants: async (client, accessToken, callback, fetchImpl) => [await quickBooksCompany(client, callback.get('realmId')!, accessToken, fetchImpl)],
    revokeForm: (refreshToken) => ({ token: refreshToken }),
  },
  company: (realmId) => companyKey('quickbooks', realmId),
  reader: (config, homeCurrency, fetchImpl, place) => new QuickBooksAccounting(config, homeCurrency, fetchImpl, place),
  readerMethods: methodsOf(QuickBooksAccounting.prototype),
};
