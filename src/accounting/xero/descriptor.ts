/**
 * Xero as a books system Ledgerline reads (vendor-descriptor.ts): its limits per organisation
 * (tenant) and app, the settings given by hand, its OAuth 2.0 client (Xero Identity: the tenants a
 * token covers from GET /connections, the scopes granted from the token answer's `scope`), and the
 * reader.
 */
import { companyKey, DEFAULTS, VENDOR_NAMES } from '../../domain/accounting-vendors.js';
import { insufficientScopeProblem, missingScopeProblem, missingXeroScopes } from '../../domain/xero-scopes.js';
import { XERO_LIMITS } from '../call-budget.js';
import { VendorUnavailable } from '../connections/vendor-http.js';
import { methodsOf, type VendorDescriptor, type VendorTenant } from '../vendor-descriptor.js';
import { isInsufficientScope } from './client.js';
import { XeroAccounting } from './reader.js';
import { parseXeroConfig, xeroConfigSchema, type XeroConfig } from './settings.js';

/** Xero: the tenants (organisations) an access token covers. */
async function xeroTenants(connectionsUrl: string, accessToken: string, fetchImpl: typeof fetch): Promise<VendorTenant[]> {
  let res: Response;
  try {
    res = await fetchImpl(connectionsUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new VendorUnavailable(`Xero's connections could not be read (${(error as Error).message})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new VendorUnavailable(`Xero's connections answered HTTP ${res.status}`);
  }
  const list = (await res.json()) as { tenantId?: string; tenantName?: string; tenantType?: string }[];
  return list
    .filter((t) => typeof t.tenantId === 'string' && (t.tenantType ?? 'ORGANISATION') === 'ORGANISATION')
    .map((t) => ({ tenantId: t.tenantId!, tenantName: t.tenantName ?? t.tenantId! }));
}

export const xero: VendorDescriptor<XeroConfig> = {
  vendor: 'xero',
  name: VENDOR_NAMES.xero,
  productName: 'Xero',
  booksWord: 'Organisation',
  envPrefix: 'XERO',
  // Xero's limits are per organisation (tenant) and app
  limits: XERO_LIMITS,
  settings: {
    schema: xeroConfigSchema,
    parse: parseXeroConfig,
    tenantOf: (config) => config.tenantId,
    ofConnection: (tenantId, baseUrl) => ({ tenantId, accessToken: 'connection', ...(baseUrl ? { baseUrl } : {}) }),
  },
  oauth: {
    endpoints: DEFAULTS.xero,
    issuer: 'https://identity.xero.com',
    grantProblem(granted) {
      const scopes = granted === undefined ? [] : missingXeroScopes(granted);
      return scopes.length ? { scopes, problem: missingScopeProblem(scopes) } : undefined;
    },
    tenants: (client, accessToken, _callback, fetchImpl) => xeroTenants(client.connectionsUrl ?? DEFAULTS.xero.connectionsUrl!, accessToken, fetchImpl),
    revokeForm: (refreshToken) => ({ token: refreshToken, token_type_hint: 'refresh_token' }),
  },
  company: (tenantId) => companyKey('xero', tenantId),
  reader: (config, homeCurrency, fetchImpl, place) => new XeroAccounting(config, homeCurrency, fetchImpl, place),
  readerMethods: methodsOf(XeroAccounting.prototype),
  // a token without the scope an endpoint needs is answered 401 error="insufficient_scope": not a token a refresh would mend
  refusal(res, method, path) {
    if (!isInsufficientScope(res)) return undefined;
    // a write refused so (a connection made for reading): reads go on, the write says to connect again
    if (method === 'PUT' || method === 'POST') return { problem: insufficientScopeProblem(path, method), reconnect: false };
    return { problem: insufficientScopeProblem(path), reconnect: true };
  },
};
