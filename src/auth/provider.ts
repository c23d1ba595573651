/**
 * The OAuth 2.0 authorization server: oidc-provider configured for the spec's surface. Its known
 * traps (DESIGN.md, "OAuth") are handled here, each where it arises, with the reason beside it.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import Provider, { errors, type Configuration, type KoaContextWithOIDC, type TokenEndpointGrantContext } from 'oidc-provider';
import type { Database } from '../store/schema.js';
import { createAdapterClass } from './adapter.js';
import { redirectUriProblem, SELF_REGISTERED_SCOPE, SERVICE_SCOPES } from './clients.js';
import { redirectUriAllowed } from './redirect-uris.js';
import { withSingleUseCode } from './code-reuse.js';
import { withRefreshReplay, type GrantHandler } from './refresh-replay.js';
import { constantTimeEqual, sha256 } from '../store/hash.js';
import type { ServiceSecrets } from './secrets.js';

/**
 * Client credentials with a scope the service does not know (`scope=read`) are refused
 * invalid_scope (RFC 6749 §5.2), where oidc-provider would leave it out and issue a token with no
 * scope at all; a request that names no scope gets the client's own scopes (its registered ones),
 * the "pre-defined default" of RFC 6749 §3.3, rather than a token that can call nothing.
 */
function withKnownScopes<C extends KoaContextWithOIDC>(handler: GrantHandler<C>): GrantHandler<C> {
  const known = new Set<string>(SERVICE_SCOPES);
  return async (ctx) => {
    const params = ctx.oidc.params as { scope?: string };
    const asked = (params.scope ?? '').split(' ').filter(Boolean);
    const unknown = asked.filter((s) => !known.has(s));
    if (unknown.length) throw new errors.InvalidScope(`unknown scope "${unknown[0]}": this service's scopes are ${SERVICE_SCOPES.join(' and ')}`, unknown[0]!);
    if (!asked.length) params.scope = ctx.oidc.client?.scope ?? SERVICE_SCOPES[0];
    return handler(ctx);
  };
}

export const TOKEN_TTL = {
  accessToken: 3600,
  authorizationCode: 300,
  refreshToken: 30 * 24 * 3600,
} as const;

type RegisterGrantTypeRest = Parameters<Provider['registerGrantType']> extends [unknown, unknown, ...infer Rest] ? Rest : never;

export interface AuthServerOptions {
  db: Kysely<Database>;
  baseUrl: string;
  secrets: ServiceSecrets;
  /** seconds in which a just-rotated refresh token, presented again, gets the same answer (default 10) */
  refreshGraceSeconds?: number;
  /** how Client ID Metadata Documents are fetched (tests point this at loopback) */
  fetch?: typeof fetch;
  /** the page shown when an error cannot be sent back to the app (the pages live above this layer) */
  errorPage: (out: Record<string, string>) => string;
}

export interface Resources {
  api: string;
  mcp: string;
}

export function resourcesFor(baseUrl: string): Resources {
  return { api: `${baseUrl}/v1`, mcp: `${baseUrl}/mcp` };
}

/** The resource a token is for, with the MCP resource accepted with or without a trailing slash. */
export function canonicalResource(resource: string, resources: Resources): string | undefined {
  const trimmed = resource.replace(/\/+$/, '');
  return trimmed === resources.api || trimmed === resources.mcp ? trimmed : undefined;
}

export function createAuthServer(options: AuthServerOptions): Provider {
  const { db, baseUrl, secrets } = options;
  const resources = resourcesFor(baseUrl);
  const refreshGraceSeconds = options.refreshGraceSeconds ?? 10;
  const Adapter = createAdapterClass(db, { refreshGraceSeconds });
  const replays = new Adapter('RefreshReplay');

  const configuration: Configuration = {
    adapter: Adapter as any,
    jwks: secrets.jwks as any,
    cookies: { keys: secrets.cookieKeys, long: { signed: true, httpOnly: true, sameSite: 'lax' }, short: { signed: true, httpOnly: true, sameSite: 'lax' } },
    async findAccount(_ctx, id) {
      const user = await db.selectFrom('users').select(['id']).where('id', '=', id).executeTakeFirst();
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      revocation: '/oauth/revoke',
      registration: '/oauth/register',
      jwks: '/oauth/jwks',
      introspection: '/oauth/introspect',
      end_session: '/oauth/logout',
      pushed_authorization_request: '/oauth/par',
      userinfo: '/oauth/userinfo',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      challenge: '/oauth/challenge',
    },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    // no openid scope: this is an OAuth server for an API, not a sign-in provider for apps
    scopes: ['offline_access', ...SERVICE_SCOPES],
    claims: {},
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      clientCredentials: { enabled: true },
      // a client may revoke only its own tokens
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        idFactory: () => `dyn_${randomBytes(12).toString('hex')}`,
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // oidc-provider fetches only https client ids, through its SSRF-guarded fetch
        allowFetch: async () => true,
        allowClient: async (_ctx, client) => (client.redirectUris ?? []).every((u: string) => redirectUriProblem(u) === null),
      },
      resourceIndicators: {
        enabled: true,
        // a request that names no resource gets the REST API
        defaultResource: async (_ctx, _client, oneOf) => (oneOf ? oneOf[0]! : resources.api),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource, client) => {
          const canonical = canonicalResource(resource, resources);
          if (!canonical) throw new errors.InvalidTarget(`unknown resource; use ${resources.api} or ${resources.mcp}`);
          const allowed = client.scope ? SERVICE_SCOPES.filter((s) => client.scope!.split(' ').includes(s)) : [...SERVICE_SCOPES];
          return { scope: allowed.join(' '), audience: canonical, accessTokenFormat: 'opaque', accessTokenTTL: TOKEN_TTL.accessToken };
        },
      },
    },
    extraClientMetadata: {
      properties: ['x_ledgerline'],
      validator(ctx, key, _value, metadata) {
        if (key !== 'x_ledgerline') return;
        delete metadata.x_ledgerline;
        // self-registration can never make a confidential, pre-trusted or machine-to-machine client
        if ((ctx as KoaContextWithOIDC | undefined)?.oidc?.route === 'registration') {
          metadata.token_endpoint_auth_method = 'none';
          // a public client has no secret (RFC 7591 §3.2.1); oidc-provider made one when the request named no auth method
          delete metadata.client_secret;
          delete metadata.client_secret_expires_at;
          metadata.application_type = 'web'; // no custom-scheme redirects; loopback ports are matched in redirect-uris.ts
          metadata.scope = SELF_REGISTERED_SCOPE; // what it may ask for; consent decides what it gets
          const grants = (metadata.grant_types as string[] | undefined) ?? ['authorization_code'];
          if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
            throw new errors.InvalidClientMetadata('only authorization_code and refresh_token grants can be registered');
          for (const uri of (metadata.redirect_uris as string[] | undefined) ?? []) {
            const problem = redirectUriProblem(uri);
            if (problem) throw new errors.InvalidRedirectUri(problem);
          }
        }
      },
    },
    ttl: {
      AccessToken: TOKEN_TTL.accessToken,
      ClientCredentials: TOKEN_TTL.accessToken,
      AuthorizationCode: TOKEN_TTL.authorizationCode,
      // every rotation issues a token with a fresh 30 days: a rolling lifetime
      RefreshToken: TOKEN_TTL.refreshToken,
      // extended on every refresh (below), so a connection in use never expires under its tokens
      Grant: TOKEN_TTL.refreshToken,
      Interaction: 3600,
      Session: 24 * 3600,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    clientBasedCORS(_ctx, origin, client) {
      // browser-based public clients (e.g. MCP inspectors) call the token endpoint from their own origin
      if (origin === 'null') return false;
      return client.clientAuthMethod === 'none' && (client.redirectUris ?? []).some((uri: string) => URL.parse(uri)?.origin === origin);
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = options.errorPage(out as unknown as Record<string, string>);
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  } as Configuration;

  // oidc-provider registers its grant handlers while it is constructed: they are wrapped as they are
  // registered, so a refresh token replayed inside the grace window gets the same answer
  // (refresh-replay.ts), and a code redeemed by concurrent requests is redeemed once (code-reuse.ts)
  const wrap = <C extends KoaContextWithOIDC>(name: string, handler: GrantHandler<C>): GrantHandler<C> => {
    if (name === 'refresh_token') return withRefreshReplay(handler, replays, refreshGraceSeconds);
    if (name === 'authorization_code') return withSingleUseCode(handler);
    if (name === 'client_credentials') return withKnownScopes(handler);
    return handler;
  };
  class ServiceProvider extends Provider {
    override registerGrantType<Params extends object>(
      name: string,
      handler: GrantHandler<TokenEndpointGrantContext<Params>>,
      ...rest: RegisterGrantTypeRest
    ): void {
      super.registerGrantType(name, wrap(name, handler), ...rest);
    }
  }
  const provider: Provider = new ServiceProvider(baseUrl, configuration);
  provider.proxy = true; // reads X-Forwarded-For/-Proto, which src/http/auth-server-handoff.ts pins to the trusted address and BASE_URL's scheme

  // API clients' secrets are stored as SHA-256 hashes; compare the hash of what was sent, in constant time
  (provider.Client.prototype as any).compareClientSecret = async function (this: { clientSecret?: string }, actual: unknown) {
    return typeof actual === 'string' && typeof this.clientSecret === 'string' && constantTimeEqual(sha256(actual), this.clientSecret);
  };

  // loopback redirect URIs of native apps match on any port; every other one exactly (redirect-uris.ts).
  // Self-registered clients stay application_type web, so oidc-provider's own native rules never apply
  (provider.Client.prototype as any).redirectUriAllowed = function (this: { redirectUris?: string[] }, value: unknown) {
    return typeof value === 'string' && redirectUriAllowed(value, this.redirectUris ?? []);
  };

  provider.use(async (ctx, next) => {
    // oidc-provider applies OpenID Connect's "offline_access needs prompt=consent" rule to plain OAuth
    // requests and silently drops offline_access; our consent screen always runs, so ask for it
    if (ctx.method === 'GET' && ctx.path === '/oauth/authorize') {
      const q = new URLSearchParams(ctx.querystring);
      if (q.get('scope')?.split(' ').includes('offline_access') && !q.has('prompt')) {
        q.set('prompt', 'consent');
        ctx.querystring = q.toString();
      }
    }
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') {
      // API scopes reach tokens through resource indicators, so the provider does not list them itself
      (ctx.body as Record<string, unknown>).scopes_supported = [...SERVICE_SCOPES, 'offline_access'];
    }
    if (ctx.oidc?.route === 'token' && ctx.status === 200 && ctx.oidc.params?.grant_type === 'refresh_token') {
      // rolling 30 days: the grant lives as long as its newest refresh token
      const grant = ctx.oidc.entities.Grant;
      if (grant) {
        (grant as any).exp = undefined;
        await grant.save(TOKEN_TTL.refreshToken);
      }
    }
  });

  return provider;
}
