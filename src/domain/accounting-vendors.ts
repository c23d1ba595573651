/**
 * The two vendors' OAuth 2.0 endpoints and this deployment's client registration with each
 * (XERO_CLIENT_ID/XERO_CLIENT_SECRET, QUICKBOOKS_CLIENT_ID/QUICKBOOKS_CLIENT_SECRET), with the
 * sealing keys (LEDGERLINE_CONNECTION_KEYS). The endpoint settings exist for tests and sandboxes;
 * each must be https, or http on the loopback address outside production.
 */
import { isLoopbackHost } from './loopback.js';
import { ConnectionKeys } from './connection-keys.js';
import { XERO_SCOPES } from './xero-scopes.js';

export type Vendor = 'xero' | 'quickbooks';
export const VENDORS: readonly Vendor[] = ['xero', 'quickbooks'];

/**
 * One company at a vendor, `<vendor>:<tenant or realm id>`: what a mirror is a copy of (a copy of
 * another company is cleared) and what a call budget is counted for.
 */
export function companyKey(vendor: Vendor, tenantId: string): string {
  return `${vendor}:${tenantId}`;
}
export const VENDOR_NAMES: Record<Vendor, string> = { xero: 'Xero', quickbooks: 'QuickBooks' };

export interface VendorClient {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** where a refresh token is revoked (both vendors have one) */
  revokeUrl?: string;
  /** Xero: GET /connections, the tenants a token covers */
  connectionsUrl?: string;
  /** the Accounting API's base the connector reads */
  apiBaseUrl?: string;
  scopes: string;
}

export interface AccountingConnectionSettings {
  keys: ConnectionKeys;
  xero?: VendorClient;
  quickbooks?: VendorClient;
  /** the vendors' HTTP (tests may count or fail calls) */
  fetch?: typeof fetch;
  /** how long a refresh may hold its claim before another instance may take over (ms) */
  leaseMs?: number;
  /** how old a connected organisation's local mirror may be before a call brings it up to date (ms; LEDGERLINE_MIRROR_MAX_AGE_SECONDS) */
  mirrorMaxAgeMs?: number;
  /**
   * Tests only, never from the environment: let the sign-in's OAuth client (openid-client, which
   * refuses http) talk http to vendors' endpoints on the loopback address (the fakes).
   */
  allowInsecureRequests?: boolean;
}

export const DEFAULTS: Record<Vendor, Omit<VendorClient, 'clientId' | 'clientSecret'>> = {
  xero: {
    authorizeUrl: 'https://login.xero.com/identity/connect/authorize',
    tokenUrl: 'https://identity.xero.com/connect/token',
    revokeUrl: 'https://identity.xero.com/connect/revocation',
    connectionsUrl: 'https://api.xero.com/connections',
    apiBaseUrl: 'https://api.xero.com/api.xro/2.0',
    // what the connector calls, per Xero's contract (src/domain/xero-scopes.ts)
    scopes: XERO_SCOPES,
  },
  quickbooks: {
    authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
    tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
    apiBaseUrl: 'https://quickbooks.api.intuit.com/v3',
    scopes: 'com.intuit.quickbooks.accounting',
  },
};

const PREFIX: Record<Vendor, string> = { xero: 'XERO', quickbooks: 'QUICKBOOKS' };
const URL_SETTINGS = {
  authorizeUrl: 'AUTHORIZE_URL',
  tokenUrl: 'TOKEN_URL',
  revokeUrl: 'REVOKE_URL',
  connectionsUrl: 'CONNECTIONS_URL',
  apiBaseUrl: 'API_URL',
} as const;

/**
 * The settings from the environment, with the problems found. None when no vendor is configured and
 * no keys are given; a vendor without LEDGERLINE_CONNECTION_KEYS is refused in production and gets
 * random keys (lost at restart) otherwise.
 */
export function readAccountingConnections(
  env: NodeJS.ProcessEnv,
  production: boolean,
): { settings: AccountingConnectionSettings | undefined; problems: string[] } {
  const problems: string[] = [];
  const vendors: Partial<Record<Vendor, VendorClient>> = {};
  for (const vendor of VENDORS) {
    const p = PREFIX[vendor];
    const clientId = env[`${p}_CLIENT_ID`]?.trim() || undefined;
    const clientSecret = env[`${p}_CLIENT_SECRET`] || undefined;
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      problems.push(`${p}_CLIENT_ID and ${p}_CLIENT_SECRET go together: set both, or neither`);
      continue;
    }
    const client: VendorClient = { clientId, clientSecret, ...DEFAULTS[vendor] };
    for (const [field, suffix] of Object.entries(URL_SETTINGS) as [keyof typeof URL_SETTINGS, string][]) {
      const value = env[`${p}_${suffix}`]?.trim();
      if (!value) continue;
      const url = URL.parse(value);
      if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname) && !production)))
        problems.push(`${p}_${suffix} must be an https URL (http only on the loopback address, outside production)`);
      else client[field] = value;
    }
    vendors[vendor] = client;
  }
  let keys: ConnectionKeys | undefined;
  if (env.LEDGERLINE_CONNECTION_KEYS) {
    try {
      keys = ConnectionKeys.parse(env.LEDGERLINE_CONNECTION_KEYS);
    } catch (error) {
      problems.push((error as Error).message);
    }
  } else if (Object.keys(vendors).length) {
    if (production) problems.push('LEDGERLINE_CONNECTION_KEYS is required in production when Xero or QuickBooks is configured (keyid:base64key, first seals)');
    else keys = ConnectionKeys.random();
  }
  let mirrorMaxAgeMs: number | undefined;
  const maxAge = env.LEDGERLINE_MIRROR_MAX_AGE_SECONDS?.trim();
  if (maxAge) {
    if (!/^\d+$/.test(maxAge) || Number(maxAge) > 86_400) problems.push('LEDGERLINE_MIRROR_MAX_AGE_SECONDS must be a whole number of seconds from 0 to 86400');
    else mirrorMaxAgeMs = Number(maxAge) * 1000;
  }
  if (problems.length || !keys) return { settings: undefined, problems };
  return { settings: { keys, ...vendors, ...(mirrorMaxAgeMs === undefined ? {} : { mirrorMaxAgeMs }) }, problems };
}
