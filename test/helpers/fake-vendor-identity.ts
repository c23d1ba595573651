/**
 * The vendors' identity endpoints, as the fakes of Xero and QuickBooks serve them on 127.0.0.1
 * beside their Accounting APIs: an authorize page that redirects straight back with a code (the
 * person is taken to have signed in and allowed access), a token endpoint with the
 * authorization_code grant (PKCE S256 checked) and the refresh_token grant with rotation (the old
 * refresh token stops working at once, as both vendors do), revocation, and Xero's GET /connections.
 * Every call of the token endpoint is counted; `refuseRefresh` answers invalid_grant.
 *
 * QuickBooks: as at Intuit, a sign-in is for one company, the one the person picks on the authorize
 * page (here the first of `tenants`), named in the callback's realmId; the tokens it gives (and
 * those their refresh tokens give) are for that realm only (`realmOf`), and the API refuses them for
 * any other.
 *
 * Scopes (Xero): the authorize page takes the `scope` asked for; a scope the vendor does not know
 * (for Xero, one its contract's security scheme does not list, nor openid, profile, email,
 * offline_access) is refused with invalid_scope, as Xero's sign-in refuses it. The tokens carry the
 * scopes granted: those asked for, less any the test has withheld (`withhold`: an app Xero has not
 * allowed a scope), and Xero's token answer says which (`scope`); a refresh keeps them. The API
 * checks them (`scopesOf`) against what each operation needs.
 *
 * The vendor's clock: each access token expires `expiresIn` seconds after it was issued by the
 * vendor's clock, which a test can move ahead (`advance`), so a token Ledgerline still takes to be
 * valid is refused as expired (`tokenProblem`), as when the vendor's clock is ahead of ours.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULTS } from '../../src/domain/accounting-vendors.js';

export interface FakeTenant {
  tenantId: string;
  tenantName: string;
}

export interface FakeIdentity {
  clientId: string;
  clientSecret: string;
  /** every call of the token endpoint, in order */
  tokenCalls: { grant: string; status: number }[];
  /** refresh tokens revoked */
  revoked: string[];
  /** Xero: the tenants a sign-in covers (GET /connections); QuickBooks: the first is the realm */
  tenants: FakeTenant[];
  /** lifetime of the access tokens issued, in seconds */
  expiresIn: number;
  /** answer every refresh with invalid_grant while on */
  refuseRefresh(on: boolean): void;
  /** scopes not granted from now on, even when asked for (an app the vendor has not allowed them); [] grants all again */
  withhold(scopes: string[]): void;
  /** the scope asked for at each authorize, in order */
  scopeRequests: string[];
  /**
   * a live token pair minted directly, as if a sign-in had just happened (QuickBooks: for this
   * realm, the first tenant's by default), granted these scopes (every scope the vendor knows by default)
   */
  issue(realmId?: string, scopes?: string[]): { accessToken: string; refreshToken: string; expiresIn: number };
  /** the endpoints' paths on the fake's origin */
  paths: { authorize: string; token: string; revoke: string; connections?: string };
  /** a bearer token the identity issued (and that is still live, by the vendor's clock) */
  accepts(authorization: string | undefined): boolean;
  /** why a bearer token is not accepted: never issued (or revoked, or replaced), or expired by the vendor's clock */
  tokenProblem(authorization: string | undefined): 'unknown' | 'expired' | undefined;
  /** QuickBooks: the realm a live bearer token was issued for; undefined when it is not a live token */
  realmOf(authorization: string | undefined): string | undefined;
  /** the scopes a live bearer token was granted; undefined when it is not a live token */
  scopesOf(authorization: string | undefined): ReadonlySet<string> | undefined;
  /** the vendor's clock (epoch ms): ours, plus what `advance` added */
  now(): number;
  /** moves the vendor's clock ahead of ours by ms more */
  advance(ms: number): void;
  /** true when the request was for an identity endpoint (and is being answered) */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean;
}

const PATHS = {
  xero: { authorize: '/identity/connect/authorize', token: '/identity/connect/token', revoke: '/identity/connect/revocation', connections: '/connections' },
  quickbooks: { authorize: '/connect/oauth2', token: '/oauth2/v1/tokens/bearer', revoke: '/v2/oauth2/tokens/revoke' },
};

const b64url = (buf: Buffer) => buf.toString('base64url');
const token = (prefix: string) => `${prefix}-${b64url(randomBytes(18))}`;

/** What a token was issued for. */
interface Grant {
  /** QuickBooks: the realm; Xero's tokens cover the sign-in's tenants ('' here) */
  realmId: string;
  scopes: ReadonlySet<string>;
}

/** The scopes each vendor's sign-in knows beyond those of its API (OpenID Connect's, and a refresh token). */
const IDENTITY_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

export function fakeIdentity(vendor: 'xero' | 'quickbooks', tenants: FakeTenant[], options: { scopes?: readonly string[] } = {}): FakeIdentity {
  const clientId = `${vendor}-client-${b64url(randomBytes(6))}`;
  const clientSecret = b64url(randomBytes(24));
  const known = new Set([...IDENTITY_SCOPES, ...(options.scopes ?? (vendor === 'quickbooks' ? ['com.intuit.quickbooks.accounting'] : []))]);
  const codes = new Map<string, { challenge: string; redirectUri: string; realmId: string; scopes: ReadonlySet<string> }>();
  // each live access token with what it is for and when it expires by the vendor's clock
  const access = new Map<string, Grant & { expiresAt: number }>();
  const refresh = new Map<string, Grant>();
  const withheld = new Set<string>();
  let ahead = 0;
  const signInRealm = () => (vendor === 'quickbooks' ? tenants[0]!.tenantId : '');
  const bearer = (authorization: string | undefined) => (authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined);
  let refusing = false;
  const paths = PATHS[vendor];
  const mint = (grant: Grant) => {
    const pair = { accessToken: token(`${vendor}-access`), refreshToken: token(`${vendor}-refresh`), expiresIn: identity.expiresIn };
    access.set(pair.accessToken, { ...grant, expiresAt: identity.now() + identity.expiresIn * 1000 });
    refresh.set(pair.refreshToken, grant);
    return pair;
  };
  const live = (authorization: string | undefined) => {
    const found = access.get(bearer(authorization) ?? '');
    return found && found.expiresAt > identity.now() ? found : undefined;
  };
  const identity: FakeIdentity = {
    clientId,
    clientSecret,
    tokenCalls: [],
    revoked: [],
    tenants,
    expiresIn: 1800,
    scopeRequests: [],
    refuseRefresh(on) {
      refusing = on;
    },
    withhold(scopes) {
      withheld.clear();
      for (const s of scopes) withheld.add(s);
    },
    paths,
    issue(realmId = signInRealm(), scopes = [...known]) {
      return mint({ realmId, scopes: new Set(scopes) });
    },
    accepts: (authorization) => live(authorization) !== undefined,
    tokenProblem(authorization) {
      const found = access.get(bearer(authorization) ?? '');
      return !found ? 'unknown' : found.expiresAt <= identity.now() ? 'expired' : undefined;
    },
    realmOf: (authorization) => live(authorization)?.realmId,
    scopesOf: (authorization) => live(authorization)?.scopes,
    now: () => Date.now() + ahead,
    advance(ms) {
      ahead += ms;
    },
    handle(req, res, url) {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === paths.authorize) {
        const q = url.searchParams;
        const redirect = URL.parse(q.get('redirect_uri') ?? '');
        if (
          q.get('client_id') !== clientId ||
          !redirect ||
          q.get('response_type') !== 'code' ||
          q.get('code_challenge_method') !== 'S256' ||
          !q.get('code_challenge') ||
          !q.get('state')
        ) {
          json(400, { error: 'invalid_request' });
          return true;
        }
        const asked = (q.get('scope') ?? '').split(/\s+/).filter(Boolean);
        identity.scopeRequests.push(q.get('scope') ?? '');
        if (asked.length === 0 || asked.some((s) => !known.has(s))) {
          json(400, { error: 'invalid_scope', error_description: `unknown scope: ${asked.filter((s) => !known.has(s)).join(' ') || '(none asked for)'}` });
          return true;
        }
        const code = token('code');
        const realmId = signInRealm();
        codes.set(code, { challenge: q.get('code_challenge')!, redirectUri: redirect.href, realmId, scopes: new Set(asked.filter((s) => !withheld.has(s))) });
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', q.get('state')!);
        if (vendor === 'quickbooks') redirect.searchParams.set('realmId', realmId);
        res.writeHead(302, { location: redirect.href });
        res.end();
        return true;
      }
      if (req.method === 'GET' && vendor === 'xero' && url.pathname === PATHS.xero.connections) {
        if (!identity.accepts(req.headers.authorization)) json(401, { Title: 'Unauthorized' });
        else
          json(
            200,
            tenants.map((t, i) => ({
              id: `conn-${i}`,
              authEventId: 'auth',
              tenantId: t.tenantId,
              tenantType: 'ORGANISATION',
              tenantName: t.tenantName,
              createdDateUtc: '2026-01-01T00:00:00',
              updatedDateUtc: '2026-01-01T00:00:00',
            })),
          );
        return true;
      }
      if (req.method === 'POST' && (url.pathname === paths.token || url.pathname === paths.revoke)) {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
          const authorised = req.headers.authorization === `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
          if (url.pathname === paths.revoke) {
            const t = form.get('token') ?? '';
            if (!authorised) return json(401, { error: 'invalid_client' });
            if (refresh.delete(t)) identity.revoked.push(t);
            res.writeHead(200);
            return res.end();
          }
          const grant = form.get('grant_type') ?? '';
          const answer = (status: number, body: unknown) => {
            identity.tokenCalls.push({ grant, status });
            // a little latency, so racing refreshes overlap as they would across instances
            setTimeout(() => json(status, body), 40);
          };
          if (!authorised) return answer(401, { error: 'invalid_client' });
          let grantFor: Grant;
          if (grant === 'authorization_code') {
            const issued = codes.get(form.get('code') ?? '');
            codes.delete(form.get('code') ?? '');
            const verifier = form.get('code_verifier') ?? '';
            if (!issued || issued.redirectUri !== form.get('redirect_uri') || b64url(createHash('sha256').update(verifier).digest()) !== issued.challenge)
              return answer(400, { error: 'invalid_grant' });
            grantFor = { realmId: issued.realmId, scopes: issued.scopes };
          } else if (grant === 'refresh_token') {
            const old = form.get('refresh_token') ?? '';
            const before = refresh.get(old);
            if (refusing || before === undefined || !refresh.delete(old)) return answer(400, { error: 'invalid_grant' });
            grantFor = before;
          } else return answer(400, { error: 'unsupported_grant_type' });
          const pair = mint(grantFor);
          answer(200, {
            access_token: pair.accessToken,
            refresh_token: pair.refreshToken,
            token_type: 'Bearer',
            expires_in: identity.expiresIn,
            // Xero's token answer names the scopes granted; Intuit's gives the refresh token's lifetime instead
            ...(vendor === 'quickbooks' ? { x_refresh_token_expires_in: 8_726_400 } : { scope: [...grantFor.scopes].join(' ') }),
          });
        });
        return true;
      }
      return false;
    },
  };
  return identity;
}

/** The connection settings for one fake vendor (its identity endpoints and API base on its origin), asking for the scopes the service asks for. */
export function fakeVendorClient(fake: { identity: FakeIdentity; origin: string; baseUrl: string }, vendor: 'xero' | 'quickbooks') {
  const p = fake.identity.paths;
  return {
    clientId: fake.identity.clientId,
    clientSecret: fake.identity.clientSecret,
    authorizeUrl: `${fake.origin}${p.authorize}`,
    tokenUrl: `${fake.origin}${p.token}`,
    revokeUrl: `${fake.origin}${p.revoke}`,
    ...(p.connections ? { connectionsUrl: `${fake.origin}${p.connections}` } : {}),
    apiBaseUrl: fake.baseUrl,
    scopes: DEFAULTS[vendor].scopes,
  };
}
