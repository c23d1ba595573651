/** OAuth flows for tests, through openid-client (a standard client) and the real pages. */
import * as oidc from 'openid-client';
import { Browser } from './browser.js';

export interface Connect {
  config: oidc.Configuration;
  redirectUri: string;
  email: string;
  password: string;
  scope?: string;
  resource?: string;
  /** organisations to tick, 'all' for "all my organisations", undefined when not asked */
  organisations?: string[] | 'all';
  write?: boolean;
  decision?: 'approve' | 'deny';
}

export async function discover(baseUrl: string, clientId: string, secret?: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(baseUrl), clientId, undefined, secret ? oidc.ClientSecretPost(secret) : oidc.None(), {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });
}

/** An authorization request with PKCE (S256): its URL, and the verifier and state to redeem it with. */
export async function authorizationRequest(config: oidc.Configuration, redirectUri: string, scope = 'service.read', extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url, verifier, state };
}

/** Runs the browser part of the flow; answers the redirect back to the app. */
export async function authorizeInBrowser(baseUrl: string, c: Connect, extra: Record<string, string> = {}) {
  const { url, verifier, state } = await authorizationRequest(c.config, c.redirectUri, c.scope ?? 'service.read offline_access', {
    ...(c.resource ? { resource: c.resource } : {}),
    ...extra,
  });
  const browser = new Browser(baseUrl);
  let page = await browser.follow(url.href);
  if (page.body.includes('name="password"')) {
    page = await browser.submit({ email: c.email, password: c.password });
  }
  if (page.body.includes('name="decision"')) {
    const fields: Record<string, string | string[]> = { decision: c.decision ?? 'approve' };
    if (c.organisations === 'all') fields.all_organisations = '1';
    else if (c.organisations) fields.organisation = c.organisations;
    if (c.write) fields.write = '1';
    page = await browser.submit(fields);
  }
  return { verifier, state, callback: page.url, page, browser };
}

/** The whole authorization code flow with PKCE: answers the tokens. */
export async function connect(baseUrl: string, c: Connect) {
  const { verifier, state, callback, page } = await authorizeInBrowser(baseUrl, c);
  if (!callback.startsWith(c.redirectUri)) throw new Error(`flow did not return to the app: ${page.response.status} ${page.body.slice(0, 300)}`);
  const tokens = await oidc.authorizationCodeGrant(c.config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state });
  return { tokens, callback, verifier, state };
}

export async function api(baseUrl: string, path: string, token: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export { oidc };
