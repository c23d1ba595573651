/**
 * The vendors' OAuth 2.0 token endpoints as a client, for a stored connection: the refresh token
 * grant and revocation. Client authentication is HTTP Basic, as both vendors ask. (The sign-in, its
 * authorization code grant with the PKCE verifier, is openid-client's: connect.ts.)
 */
import type { VendorClient } from '../../domain/accounting-vendors.js';
import type { VendorDescriptor } from '../vendor-descriptor.js';

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

async function post(descriptor: VendorDescriptor, client: VendorClient, url: string, form: Record<string, string>, fetchImpl: typeof fetch): Promise<Response> {
  try {
    return await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: basic(client), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new VendorUnavailable(`${descriptor.name}'s token endpoint could not be reached (${(error as Error).message})`);
  }
}

export async function requestTokens(
  descriptor: VendorDescriptor,
  client: VendorClient,
  form: Record<string, string>,
  fetchImpl: typeof fetch = fetch,
): Promise<TokenSet> {
  const res = await post(descriptor, client, client.tokenUrl, form, fetchImpl);
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.status === 400 || res.status === 401) {
    const code = typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`;
    throw new GrantRefused(`${descriptor.name} refused the ${form.grant_type === 'refresh_token' ? 'refresh token' : 'authorization code'} (${code})`);
  }
  if (!res.ok) throw new VendorUnavailable(`${descriptor.name}'s token endpoint answered HTTP ${res.status}`);
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, scope } = body ?? {};
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number')
    throw new VendorUnavailable(`${descriptor.name}'s token endpoint answered without an access token, refresh token and expiry`);
  return { accessToken, refreshToken, expiresIn, ...(typeof scope === 'string' ? { scope } : {}) };
}

/** Revokes a refresh token at the vendor; true when the vendor accepted it. */
export async function revokeToken(descriptor: VendorDescriptor, client: VendorClient, refreshToken: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  if (!client.revokeUrl) return false;
  try {
    const res = await post(descriptor, client, client.revokeUrl, descriptor.oauth.revokeForm(refreshToken), fetchImpl);
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
