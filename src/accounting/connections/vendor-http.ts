/**
 * The vendors' OAuth 2.0 token endpoints as a client: the authorization code (with the PKCE
 * verifier) and refresh token grants, revocation, and what a new token covers: Xero's GET
 * /connections, QuickBooks' CompanyInfo of the realm the sign-in named. Client authentication is
 * HTTP Basic, as both vendors ask.
 */
import type { Vendor, VendorClient } from '../../domain/accounting-vendors.js';
import { VENDOR_NAMES } from '../../domain/accounting-vendors.js';
import { MINOR_VERSION, QUICKBOOKS_API } from '../quickbooks/settings.js';

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** seconds */
  expiresIn: number;
  /** the scopes granted, space-separated, when the vendor says (Xero's token answer does; Intuit's does not) */
  scope?: string;
}

/** The vendor refused the grant (invalid_grant and the like): the connection must be made again. */
export class GrantRefused extends Error {
  override name = 'GrantRefused';
}

/** The vendor could not be asked (network, 5xx, an answer that is not a token set). */
export class VendorUnavailable extends Error {
  override name = 'VendorUnavailable';
}

const basic = (c: VendorClient) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

async function post(vendor: Vendor, client: VendorClient, url: string, form: Record<string, string>, fetchImpl: typeof fetch): Promise<Response> {
  try {
    return await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: basic(client), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new VendorUnavailable(`${VENDOR_NAMES[vendor]}'s token endpoint could not be reached (${(error as Error).message})`);
  }
}

export async function requestTokens(vendor: Vendor, client: VendorClient, form: Record<string, string>, fetchImpl: typeof fetch = fetch): Promise<TokenSet> {
  const res = await post(vendor, client, client.tokenUrl, form, fetchImpl);
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.status === 400 || res.status === 401) {
    const code = typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`;
    throw new GrantRefused(`${VENDOR_NAMES[vendor]} refused the ${form.grant_type === 'refresh_token' ? 'refresh token' : 'authorization code'} (${code})`);
  }
  if (!res.ok) throw new VendorUnavailable(`${VENDOR_NAMES[vendor]}'s token endpoint answered HTTP ${res.status}`);
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, scope } = body ?? {};
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number')
    throw new VendorUnavailable(`${VENDOR_NAMES[vendor]}'s token endpoint answered without an access token, refresh token and expiry`);
  return { accessToken, refreshToken, expiresIn, ...(typeof scope === 'string' ? { scope } : {}) };
}

/** Revokes a refresh token at the vendor; true when the vendor accepted it. */
export async function revokeToken(vendor: Vendor, client: VendorClient, refreshToken: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  if (!client.revokeUrl) return false;
  const form: Record<string, string> = vendor === 'xero' ? { token: refreshToken, token_type_hint: 'refresh_token' } : { token: refreshToken };
  try {
    const res = await post(vendor, client, client.revokeUrl, form, fetchImpl);
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

export interface XeroTenant {
  tenantId: string;
  tenantName: string;
  tenantType: string;
}

/** Xero: the tenants (organisations) the access token covers. */
export async function xeroTenants(client: VendorClient, accessToken: string, fetchImpl: typeof fetch = fetch): Promise<XeroTenant[]> {
  let res: Response;
  try {
    res = await fetchImpl(client.connectionsUrl!, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new VendorUnavailable(`Xero's connections could not be read (${(error as Error).message})`);
  }
  if (!res.ok) throw new VendorUnavailable(`Xero's connections answered HTTP ${res.status}`);
  const list = (await res.json()) as { tenantId?: string; tenantName?: string; tenantType?: string }[];
  return list
    .filter((t) => typeof t.tenantId === 'string' && (t.tenantType ?? 'ORGANISATION') === 'ORGANISATION')
    .map((t) => ({ tenantId: t.tenantId!, tenantName: t.tenantName ?? t.tenantId!, tenantType: t.tenantType ?? 'ORGANISATION' }));
}

/**
 * QuickBooks: the company a new access token is for, by reading that company's CompanyInfo (GET
 * /v3/company/{realmId}/companyinfo/{realmId}) with it. The realm comes in the callback's query
 * string, which anyone can change; Intuit's token is for the one company chosen at sign-in and is
 * refused (401 or 403) for any other, answered here as GrantRefused, so an organisation is never tied
 * to a company its token cannot read. Answers the company's name from its record.
 */
export async function quickBooksCompany(
  client: VendorClient,
  realmId: string,
  accessToken: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ tenantId: string; tenantName: string }> {
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
