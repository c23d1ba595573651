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
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

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
  /** a live token pair minted directly, as if a sign-in had just happened (QuickBooks: for this realm, the first tenant's by default) */
  issue(realmId?: string): { accessToken: string; refreshToken: string; expiresIn: number };
  /** the endpoints' paths on the fake's origin */
  paths: { authorize: string; token: string; revoke: string; connections?: string };
  /** a bearer token the identity issued (and that is still live) */
  accepts(authorization: string | undefined): boolean;
  /** QuickBooks: the realm a live bearer token was issued for; undefined when it is not a live token */
  realmOf(authorization: string | undefined): string | undefined;
  /** true when the request was for an identity endpoint (and is being answered) */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean;
}

const PATHS = {
  xero: { authorize: '/identity/connect/authorize', token: '/identity/connect/token', revoke: '/identity/connect/revocation', connections: '/connections' },
  quickbooks: { authorize: '/connect/oauth2', token: '/oauth2/v1/tokens/bearer', revoke: '/v2/oauth2/tokens/revoke' },
};

const b64url = (buf: Buffer) => buf.toString('base64url');
const token = (prefix: string) => `${prefix}-${b64url(randomBytes(18))}`;

export function fakeIdentity(vendor: 'xero' | 'quickbooks', tenants: FakeTenant[]): FakeIdentity {
  const clientId = `${vendor}-client-${b64url(randomBytes(6))}`;
  const clientSecret = b64url(randomBytes(24));
  const codes = new Map<string, { challenge: string; redirectUri: string; realmId: string }>();
  // each live token with the realm it is for (QuickBooks; Xero's cover the sign-in's tenants, '' here)
  const access = new Map<string, string>();
  const refresh = new Map<string, string>();
  const signInRealm = () => (vendor === 'quickbooks' ? tenants[0]!.tenantId : '');
  const bearer = (authorization: string | undefined) => (authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined);
  let refusing = false;
  const paths = PATHS[vendor];
  const identity: FakeIdentity = {
    clientId,
    clientSecret,
    tokenCalls: [],
    revoked: [],
    tenants,
    expiresIn: 1800,
    refuseRefresh(on) {
      refusing = on;
    },
    paths,
    issue(realmId = signInRealm()) {
      const pair = { accessToken: token(`${vendor}-access`), refreshToken: token(`${vendor}-refresh`), expiresIn: identity.expiresIn };
      access.set(pair.accessToken, realmId);
      refresh.set(pair.refreshToken, realmId);
      return pair;
    },
    accepts: (authorization) => access.has(bearer(authorization) ?? ''),
    realmOf: (authorization) => access.get(bearer(authorization) ?? ''),
    handle(req, res, url) {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === paths.authorize) {
        const q = url.searchParams;
        const redirect = URL.parse(q.get('redirect_uri') ?? '');
        if (q.get('client_id') !== clientId || !redirect || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('state')) {
          json(400, { error: 'invalid_request' });
          return true;
        }
        const code = token('code');
        const realmId = signInRealm();
        codes.set(code, { challenge: q.get('code_challenge')!, redirectUri: redirect.href, realmId });
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', q.get('state')!);
        if (vendor === 'quickbooks') redirect.searchParams.set('realmId', realmId);
        res.writeHead(302, { location: redirect.href });
        res.end();
        return true;
      }
      if (req.method === 'GET' && vendor === 'xero' && url.pathname === PATHS.xero.connections) {
        if (!identity.accepts(req.headers.authorization)) json(401, { Title: 'Unauthorized' });
        else json(200, tenants.map((t, i) => ({ id: `conn-${i}`, authEventId: 'auth', tenantId: t.tenantId, tenantType: 'ORGANISATION', tenantName: t.tenantName, createdDateUtc: '2026-01-01T00:00:00', updatedDateUtc: '2026-01-01T00:00:00' })));
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
          let realmId: string;
          if (grant === 'authorization_code') {
            const issued = codes.get(form.get('code') ?? '');
            codes.delete(form.get('code') ?? '');
            const verifier = form.get('code_verifier') ?? '';
            if (!issued || issued.redirectUri !== form.get('redirect_uri') || b64url(createHash('sha256').update(verifier).digest()) !== issued.challenge)
              return answer(400, { error: 'invalid_grant' });
            realmId = issued.realmId;
          } else if (grant === 'refresh_token') {
            const old = form.get('refresh_token') ?? '';
            const oldRealm = refresh.get(old);
            if (refusing || oldRealm === undefined || !refresh.delete(old)) return answer(400, { error: 'invalid_grant' });
            realmId = oldRealm;
          } else return answer(400, { error: 'unsupported_grant_type' });
          const pair = { access_token: token(`${vendor}-access`), refresh_token: token(`${vendor}-refresh`) };
          access.set(pair.access_token, realmId);
          refresh.set(pair.refresh_token, realmId);
          answer(200, { ...pair, token_type: 'Bearer', expires_in: identity.expiresIn, ...(vendor === 'quickbooks' ? { x_refresh_token_expires_in: 8_726_400 } : { scope: 'offline_access accounting.transactions.read' }) });
        });
        return true;
      }
      return false;
    },
  };
  return identity;
}

/** The connection settings for one fake vendor (its identity endpoints and API base on its origin). */
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
    scopes: vendor === 'xero' ? 'offline_access accounting.transactions.read' : 'com.intuit.quickbooks.accounting',
  };
}
