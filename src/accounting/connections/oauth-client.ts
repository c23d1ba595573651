/**
 * Ledgerline as a vendor's OAuth 2.0 client for a sign-in, with openid-client: the authorization
 * request (state, PKCE S256) and the authorization code grant. Neither vendor's endpoints are found
 * by discovery here (Intuit's and Xero's sign-ins are partly OpenID Connect, the fakes not at all),
 * so the server's metadata is the descriptor's endpoints as this deployment configured them.
 *
 * Client authentication is HTTP Basic with the client id and secret as they are, as both vendors'
 * documents write it (Xero: `"Basic " + base64encode(client_id + ":" + client_secret)`; Intuit:
 * `Basic base64(client_id:client_secret)`). openid-client's ClientSecretBasic form-urlencodes both
 * first (RFC 6749 §2.3.1), which changes a `-` or `_` in them (`%2D`, `%5F`), and neither vendor says
 * it decodes them; so the header is made here as the vendors write it.
 */
import * as oidc from 'openid-client';
import type { AccountingConnectionSettings, VendorClient } from '../../domain/accounting-vendors.js';
import { isLoopbackHost } from '../../domain/loopback.js';
import type { VendorDescriptor } from '../vendor-descriptor.js';
import { GrantRefused, VendorUnavailable, type TokenSet } from './vendor-http.js';

/** HTTP Basic as the vendors document it: the client id and secret joined by a colon, base64, not form-encoded first. */
const vendorBasic =
  (clientSecret: string): oidc.ClientAuth =>
  (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${client.client_id}:${clientSecret}`).toString('base64')}`);
  };

/** The openid-client configuration of one vendor's client, from its descriptor and this deployment's registration with it. */
export function vendorConfiguration(descriptor: VendorDescriptor, client: VendorClient, settings: AccountingConnectionSettings): oidc.Configuration {
  const metadata: oidc.ServerMetadata = {
    issuer: descriptor.oauth.issuer,
    authorization_endpoint: client.authorizeUrl,
    token_endpoint: client.tokenUrl,
    ...(client.revokeUrl ? { revocation_endpoint: client.revokeUrl } : {}),
  };
  const config = new oidc.Configuration(metadata, client.clientId, undefined, vendorBasic(client.clientSecret));
  config.timeout = 15;
  if (settings.fetch) {
    const fetchImpl = settings.fetch;
    config[oidc.customFetch] = (url, options) => fetchImpl(url, options as RequestInit);
  }
  // tests only (the fakes on 127.0.0.1): http to the loopback address, never to anywhere else
  const endpoints = [client.authorizeUrl, client.tokenUrl, ...(client.revokeUrl ? [client.revokeUrl] : [])].map((u) => new URL(u));
  if (settings.allowInsecureRequests && endpoints.every((u) => u.protocol === 'https:' || isLoopbackHost(u.hostname))) oidc.allowInsecureRequests(config);
  return config;
}

/** A new sign-in: the address of the vendor's authorize page, with the state and the PKCE verifier to keep until the callback. */
export async function authorizationRequest(
  config: oidc.Configuration,
  client: VendorClient,
  redirectUri: string,
): Promise<{ url: URL; state: string; verifier: string }> {
  const state = oidc.randomState();
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: client.scopes,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, state, verifier };
}

/**
 * The callback's code exchanged for tokens (the state checked, the PKCE verifier sent). The
 * redirect_uri sent is the callback's address without its query, as it was registered. A grant the
 * vendor refuses is GrantRefused; a vendor that cannot be asked, or answers without a refresh token,
 * VendorUnavailable.
 */
export async function exchangeCode(
  descriptor: VendorDescriptor,
  config: oidc.Configuration,
  redirectUri: string,
  callback: URLSearchParams,
  checks: { state: string; verifier: string },
): Promise<TokenSet> {
  const current = new URL(redirectUri);
  for (const [name, value] of callback) current.searchParams.append(name, value);
  let answer: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    answer = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: checks.verifier, expectedState: checks.state });
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if ((status === 400 || status === 401) && error instanceof Error) {
      const code = (error as { error?: unknown }).error;
      throw new GrantRefused(`${descriptor.name} refused the authorization code (${typeof code === 'string' ? code : `HTTP ${status}`})`);
    }
    const why = typeof status === 'number' ? `answered HTTP ${status}` : `could not be asked (${(error as Error).message})`;
    throw new VendorUnavailable(`${descriptor.name}'s token endpoint ${why}`);
  }
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, scope } = answer;
  if (typeof refreshToken !== 'string' || typeof expiresIn !== 'number')
    throw new VendorUnavailable(`${descriptor.name}'s token endpoint answered without an access token, refresh token and expiry`);
  return { accessToken, refreshToken, expiresIn, ...(typeof scope === 'string' ? { scope } : {}) };
}
