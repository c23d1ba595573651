/**
 * The reads behind the bearer check of every call (authenticate() in verify.ts): the token row by
 * its hashed id, joined to its client and the client's organisation, in one indexed lookup (two
 * more for a person's token). It answers what oidc-provider's own models would (test/token-check
 * holds them as the reference) without reading the token twice (as an AccessToken, then as
 * ClientCredentials), then the client, then the organisation (measured in docs/performance.md).
 * Nothing is cached: a revocation applies to the next call.
 *
 * What oidc-provider's find() and isValid check is checked here from the same stored row: the record
 * kind (the row's model), the opaque format, the adapter's expiry, the payload's exp (valid while
 * exp > now), iat and nbf against the provider's 15 s clock tolerance, and for a token bound to a
 * sign-in session, that session.
 */
import { sql, type Kysely } from 'kysely';
import { allOrganisationsCovers } from '../store/consent-cover.js';
import { preparedQuery } from '../store/prepared.js';
import { prefixedOrganisation, prefixedOrganisationColumns } from '../store/organisations.js';
import type { Database, OAuthClientRow, OrganisationRow } from '../store/schema.js';
const CLOCK_TOLERANCE_SECONDS = 15;

export interface BearerToken {
  kind: 'AccessToken' | 'ClientCredentials';
  clientId: string;
  aud: string | string[] | undefined;
  scope: string;
  grantId: string | undefined;
  accountId: string | undefined;
  client: Pick<OAuthClientRow, 'client_id' | 'kind' | 'organisation_id' | 'blocked' | 'last_used_at'> | null;
  /**
   * the client's own organisation (API clients), when it still exists: its whole row, as read with
   * the token, so the call it authorises need not read it again
   */
  organisation: OrganisationRow | null;
}

interface StoredPayload {
  kind?: string;
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
  format?: string;
  jwt?: unknown;
  aud?: string | string[];
  scope?: string;
  clientId?: string;
  grantId?: string;
  accountId?: string;
  expiresWithSession?: boolean;
  sessionUid?: string;
  [key: string]: unknown;
}

function payloadValid(p: StoredPayload, nowSeconds: number): boolean {
  if ('jwt' in p || 'jwt-ietf' in p || 'paseto' in p) return false;
  if (p.format !== undefined && p.format !== 'opaque') return false;
  if (p.nbf !== undefined && (typeof p.nbf !== 'number' || p.nbf > nowSeconds + CLOCK_TOLERANCE_SECONDS)) return false;
  if (p.iat !== undefined && typeof p.iat !== 'number') return false;
  if (p.exp === undefined) return typeof p.iat !== 'number' || p.iat <= nowSeconds + CLOCK_TOLERANCE_SECONDS;
  // find() tolerates the clock; isValid then wants exp strictly in the future
  return typeof p.exp === 'number' && p.exp > nowSeconds;
}

/**
 * A stored row's payload while the row lives: not past the adapter's expiry, and JSON of an
 * object. A damaged row is no token (refused, 401), never an error.
 */
function livePayload<T extends object>(payload: string, expiresAt: number | string | null, now: number): T | undefined {
  if (expiresAt !== null && Number(expiresAt) < now) return undefined;
  try {
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === 'object' && parsed !== null ? (parsed as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The token row by its hashed id, with its client and the client's organisation: compiled once per
 * database handle (prepared.ts), as is every read of the bearer check, so a call builds no query.
 */
const tokenRow = preparedQuery((db, v: { tokenKey: string }) =>
  db
    .selectFrom('oauth_store as s')
    .leftJoin('oauth_clients as c', 'c.client_id', 's.client_id')
    .leftJoin('organisations as o', 'o.id', 'c.organisation_id')
    .select([
      's.model',
      's.payload',
      's.expires_at',
      'c.client_id as client_client_id',
      'c.kind as client_kind',
      'c.organisation_id as client_organisation_id',
      'c.blocked as client_blocked',
      'c.last_used_at as client_last_used_at',
      ...prefixedOrganisationColumns('o'),
    ])
    .where('s.model', 'in', ['AccessToken', 'ClientCredentials'])
    .where('s.id', '=', v.tokenKey)
    .compile(),
);

/** The token a bearer value names, with its client and the client's organisation; undefined when not valid. */
export async function findBearerToken(db: Kysely<Database>, tokenKey: string, now = Date.now()): Promise<BearerToken | undefined> {
  const [row] = await tokenRow(db, { tokenKey });
  if (!row) return undefined;
  const payload = livePayload<StoredPayload>(row.payload, row.expires_at, now);
  if (!payload || !payloadValid(payload, Math.floor(now / 1000))) return undefined;
  const kind = row.model as BearerToken['kind'];
  // a stored row whose payload says it is something else is not this kind of token
  if (payload.kind !== undefined && payload.kind !== kind) return undefined;
  if (kind === 'AccessToken' && payload.expiresWithSession && !(await sessionStillBinds(db, payload, now))) return undefined;
  return {
    kind,
    clientId: String(payload.clientId ?? ''),
    aud: payload.aud,
    scope: String(payload.scope ?? ''),
    grantId: payload.grantId,
    accountId: payload.accountId,
    client: row.client_client_id
      ? {
          client_id: row.client_client_id,
          kind: row.client_kind!,
          organisation_id: row.client_organisation_id,
          blocked: Number(row.client_blocked),
          last_used_at: row.client_last_used_at,
        }
      : null,
    organisation: prefixedOrganisation(row),
  };
}

const sessionRow = preparedQuery((db, v: { uid: string }) =>
  db.selectFrom('oauth_store').select(['payload', 'expires_at']).where('model', '=', 'Session').where('uid', '=', v.uid).compile(),
);

/** A token bound to a sign-in session lives only while that session still holds its grant. */
async function sessionStillBinds(db: Kysely<Database>, token: StoredPayload, now: number): Promise<boolean> {
  if (!token.sessionUid) return false;
  const [session] = await sessionRow(db, { uid: token.sessionUid });
  const s =
    session &&
    livePayload<{ accountId?: string; exp?: number; authorizations?: Record<string, { grantId?: string }> }>(session.payload, session.expires_at, now);
  if (!s) return false;
  if (typeof s.exp === 'number' && s.exp <= Math.floor(now / 1000) - CLOCK_TOLERANCE_SECONDS) return false;
  return s.accountId === token.accountId && s.authorizations?.[token.clientId ?? '']?.grantId === token.grantId;
}

export interface GrantAndConsent {
  userId: string;
  email: string;
  clientId: string;
  allOrganisations: boolean;
  /** organisations the consent names (empty when it covers all of them) */
  organisationIds: string[];
  /**
   * the user's live memberships; blocked: this organisation's admins blocked the consent's app;
   * inAll: an "all organisations" consent covers it (store/consent-cover.ts)
   */
  memberships: { id: string; name: string; role: string; blocked: boolean; inAll: boolean }[];
}

const consentRow = preparedQuery((db, v: { grantId: string }) =>
  db
    .selectFrom('oauth_consents as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .innerJoin('oauth_store as g', (join) => join.on('g.model', '=', 'Grant').onRef('g.id', '=', 'k.grant_id'))
    .select(['k.user_id', 'k.client_id', 'k.all_organisations', 'u.email', 'g.payload as grant_payload', 'g.expires_at as grant_expires_at'])
    .where('k.grant_id', '=', v.grantId)
    .compile(),
);

// memberships, and the consent's organisations, in one read: a consent organisation without a
// membership row is one the user has left; a membership whose organisation blocked the app is
// marked, and so is one an "all organisations" consent covers (store/consent-cover.ts)
const membershipRows = preparedQuery((db, v: { grantId: string; userId: string; clientId: string }) =>
  sql<{ id: string; name: string | null; role: string | null; named: number; blocked: number; in_all: number }>`
    select x.id, x.name, x.role, x.named, x.blocked, x.in_all from (
      select m.organisation_id as id, o.name as name, m.role as role, case when c.organisation_id is null then 0 else 1 end as named,
        case when b.organisation_id is null then 0 else 1 end as blocked,
        case when ${allOrganisationsCovers} then 1 else 0 end as in_all
      from memberships m
      join organisations o on o.id = m.organisation_id
      join oauth_consents k on k.grant_id = ${v.grantId}
      left join oauth_consent_organisations c on c.grant_id = ${v.grantId} and c.organisation_id = m.organisation_id
      left join oauth_client_blocks b on b.client_id = ${v.clientId} and b.organisation_id = m.organisation_id
      where m.user_id = ${v.userId}
      union all
      select c.organisation_id as id, null as name, null as role, 1 as named, 0 as blocked, 0 as in_all
      from oauth_consent_organisations c
      where c.grant_id = ${v.grantId}
        and not exists (select 1 from memberships m where m.user_id = ${v.userId} and m.organisation_id = c.organisation_id)
    ) as x
    order by x.name`.compile(db),
);

/**
 * For a person's token: the consent behind its grant (only while the grant itself is still valid),
 * the user, and their live memberships with the consent's organisations — two indexed reads.
 */
export async function findGrantAndConsent(db: Kysely<Database>, grantId: string, now = Date.now()): Promise<GrantAndConsent | undefined> {
  const [row] = await consentRow(db, { grantId });
  if (!row) return undefined;
  const grant = livePayload<StoredPayload>(row.grant_payload, row.grant_expires_at, now);
  if (!grant || !payloadValid(grant, Math.floor(now / 1000))) return undefined;
  const rows = await membershipRows(db, { grantId, userId: row.user_id, clientId: row.client_id });
  // in the database's own order by name, as organisationsOfUser lists them
  const memberships = rows
    .filter((r) => r.role !== null)
    .map((r) => ({ id: r.id, name: r.name!, role: r.role!, blocked: Number(r.blocked) === 1, inAll: Number(r.in_all) === 1 }));
  return {
    userId: row.user_id,
    email: row.email,
    clientId: row.client_id,
    allOrganisations: Number(row.all_organisations) === 1,
    organisationIds: rows.filter((r) => Number(r.named) === 1).map((r) => r.id),
    memberships,
  };
}
