/**
 * The official MCP SDK client, connected the way a real assistant connects: from nothing but the
 * /mcp URL, with an OAuth client provider whose "redirect" is a browser that walks through the real
 * sign-in and consent pages and hands back the authorization code.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Browser } from './browser.js';

export interface User {
  email: string;
  password: string;
  /** organisations to tick on the consent screen; undefined when the user is not asked */
  organisations?: string[] | 'all';
  /** tick "also allow it to make changes" when the consent screen offers it */
  write?: boolean;
}

/** An OAuthClientProvider that keeps everything in memory and signs in through the real pages. */
export class BrowserAuth implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  savedTokens: OAuthTokens | undefined;
  verifier = '';
  expectedState = '';
  /** every authorization URL the SDK sent the "user" to */
  authorizationUrls: URL[] = [];
  /** the code the last sign-in produced */
  code: string | undefined;
  /** the issuer the authorization response named (RFC 9207), which v2 clients check */
  iss: string | undefined;
  /** when false, a redirect is recorded but not followed (a user who does not come back) */
  interactive = true;

  constructor(
    readonly baseUrl: string,
    readonly redirect: string,
    readonly user: User,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(12).toString('base64url');
    return this.expectedState;
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  /** as a real client does: a refresh token the server refused (revoked) is dropped, and sign-in starts again */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    if (!this.interactive) return;
    const browser = new Browser(this.baseUrl);
    let page = await browser.follow(url.href);
    if (page.body.includes('name="password"')) page = await browser.submit({ email: this.user.email, password: this.user.password });
    if (page.body.includes('name="decision"')) {
      const fields: Record<string, string | string[]> = { decision: 'approve' };
      if (this.user.organisations === 'all') fields.all_organisations = '1';
      else if (this.user.organisations) fields.organisation = this.user.organisations;
      if (this.user.write && page.body.includes('name="write"')) fields.write = '1';
      page = await browser.submit(fields);
    }
    if (!page.url.startsWith(this.redirect)) throw new Error(`sign-in did not come back to the client: ${page.response.status} ${page.body.slice(0, 300)}`);
    const callback = new URL(page.url);
    if (callback.searchParams.get('state') !== this.expectedState) throw new Error('state mismatch');
    const code = callback.searchParams.get('code');
    if (!code) throw new Error(`no code: ${callback.search}`);
    this.code = code;
    this.iss = callback.searchParams.get('iss') ?? undefined;
  }
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** headers of every HTTP answer the transport received, in order */
  responses: { status: number; headers: Headers }[];
}

function recordingFetch(responses: Connected['responses']): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    responses.push({ status: response.status, headers: response.headers });
    return response;
  };
}

/**
 * What an MCP client does with an OAuth-protected server: connect, get 401, discover, register,
 * send the user to sign in, exchange the code (finishAuth), connect again with the token.
 */
export async function connectWithOAuth(mcpUrl: string, auth: BrowserAuth): Promise<Connected> {
  const responses: Connected['responses'] = [];
  const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: auth, fetch: recordingFetch(responses) });
  const probe = new Client({ name: 'ledgerline-test', version: '1.0.0' });
  let refused: unknown;
  await probe.connect(first).catch((error: unknown) => (refused = error));
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connection to need authorization, got ${String(refused)}`);
  await first.finishAuth(auth.code!);
  return connectWithProvider(mcpUrl, auth, responses);
}

export async function connectWithProvider(mcpUrl: string, auth: OAuthClientProvider, responses: Connected['responses'] = []): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: auth, fetch: recordingFetch(responses) });
  const client = new Client({ name: 'ledgerline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, responses };
}

export async function connectWithToken(mcpUrl: string, token: string): Promise<Connected> {
  const responses: Connected['responses'] = [];
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: recordingFetch(responses),
  });
  const client = new Client({ name: 'ledgerline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, responses };
}

/** A client credentials token for a resource (the MCP endpoint, or /v1), as an organisation's own client gets one. */
export async function clientCredentialsToken(base: string, clientId: string, secret: string, resource: string, scope = 'service.read'): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope, resource }),
  });
  const body = (await response.json()) as { access_token: string };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.access_token;
}
