/**
 * Who is connected to what, for the web pages: consents (and their live tokens) acting for an
 * organisation, the apps its members connected, and one person's own connections. A consent acts
 * for an organisation when it names it, or covers "all" of a user who is a member of it as
 * store/consent-cover.ts says.
 * Token ids are never read here: only which grant or client a token belongs to, and when it ends.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { allOrganisationsCovers } from './consent-cover.js';
import { nowIso } from './ids.js';
import type { Database, OAuthClientRow } from './schema.js';

type ConsentScope = ExpressionBuilder<Database & { k: Database['oauth_consents'] }, 'k'>;

function coversOrganisation(eb: ConsentScope, organisationId: string) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom('oauth_consent_organisations as co')
        .select('co.grant_id')
        .whereRef('co.grant_id', '=', 'k.grant_id')
        .where('co.organisation_id', '=', organisationId),
    ),
    eb.and([
      eb('k.all_organisations', '=', 1),
      eb.exists(
        eb
          .selectFrom('memberships as m')
          .select('m.user_id')
          .whereRef('m.user_id', '=', 'k.user_id')
          .where('m.organisation_id', '=', organisationId)
          .where(allOrganisationsCovers),
      ),
    ]),
  ]);
}

export interface ConsentListing {
  grantId: string;
  userId: string;
  userEmail: string;
  userName: string;
  clientId: string;
  clientName: string;
  clientKind: string;
  verified: boolean;
  blocked: boolean;
  allOrganisations: boolean;
  scopes: string[];
  createdAt: string;
  /** organisations the consent names (empty when it covers all) */
  organisationIds: string[];
}

async function withOrganisations(
  db: Kysely<Database>,
  rows: {
    grant_id: string;
    user_id: string;
    email: string;
    user_name: string;
    client_id: string;
    client_name: string;
    kind: string;
    verified: number;
    blocked: number;
    all_organisations: number;
    scope: string;
    created_at: string;
  }[],
): Promise<ConsentListing[]> {
  const ids = rows.map((r) => r.grant_id);
  const named = ids.length
    ? await db.selectFrom('oauth_consent_organisations').select(['grant_id', 'organisation_id']).where('grant_id', 'in', ids).execute()
    : [];
  return rows.map((r) => ({
    grantId: r.grant_id,
    userId: r.user_id,
    userEmail: r.email,
    userName: r.user_name,
    clientId: r.client_id,
    clientName: r.client_name,
    clientKind: r.kind,
    verified: r.verified === 1,
    blocked: r.blocked === 1,
    allOrganisations: r.all_organisations === 1,
    scopes: r.scope.split(' ').filter(Boolean),
    createdAt: r.created_at,
    organisationIds: named.filter((n) => n.grant_id === r.grant_id).map((n) => n.organisation_id),
  }));
}

function consentQuery(db: Kysely<Database>) {
  return db
    .selectFrom('oauth_consents as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .innerJoin('oauth_clients as c', 'c.client_id', 'k.client_id')
    .select([
      'k.grant_id',
      'k.user_id',
      'u.email',
      'u.name as user_name',
      'k.client_id',
      'c.name as client_name',
      'c.kind',
      'c.verified',
      'c.blocked',
      'k.all_organisations',
      'k.scope',
      'k.created_at',
    ]);
}

export async function consentsForOrganisation(db: Kysely<Database>, organisationId: string): Promise<ConsentListing[]> {
  const rows = await consentQuery(db)
    .where((eb) => coversOrganisation(eb as unknown as ConsentScope, organisationId))
    .orderBy('u.email')
    .orderBy('c.name')
    .orderBy('k.created_at')
    .execute();
  return withOrganisations(db, rows);
}

/** One consent, only if it acts for this organisation (so an admin can act on it). */
export async function consentForOrganisation(db: Kysely<Database>, organisationId: string, grantId: string): Promise<ConsentListing | undefined> {
  const rows = await consentQuery(db)
    .where('k.grant_id', '=', grantId)
    .where((eb) => coversOrganisation(eb as unknown as ConsentScope, organisationId))
    .execute();
  return (await withOrganisations(db, rows))[0];
}

export async function consentsOfUser(db: Kysely<Database>, userId: string): Promise<ConsentListing[]> {
  const rows = await consentQuery(db).where('k.user_id', '=', userId).orderBy('c.name').orderBy('k.created_at').execute();
  return withOrganisations(db, rows);
}

export interface LiveTokens {
  accessTokens: number;
  refreshTokens: number;
  /** epoch milliseconds: when the last of them ends */
  lastExpiry: number | null;
}

const TOKEN_MODELS = ['AccessToken', 'RefreshToken', 'ClientCredentials'];

/** Live (unexpired, unconsumed) tokens per grant or per client. */
export async function liveTokens(db: Kysely<Database>, by: { grantIds?: string[]; clientIds?: string[] }, now = Date.now()): Promise<Map<string, LiveTokens>> {
  const out = new Map<string, LiveTokens>();
  const key = by.grantIds ? 'grant_id' : 'client_id';
  const ids = by.grantIds ?? by.clientIds ?? [];
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('oauth_store')
    .select(['model', 'grant_id', 'client_id', 'expires_at'])
    .where(key, 'in', ids)
    .where('model', 'in', TOKEN_MODELS)
    .where('expires_at', '>', now)
    .where('consumed_at', 'is', null)
    .execute();
  for (const r of rows) {
    const id = (key === 'grant_id' ? r.grant_id : r.client_id)!;
    const t = out.get(id) ?? { accessTokens: 0, refreshTokens: 0, lastExpiry: null };
    if (r.model === 'RefreshToken') t.refreshTokens++;
    else t.accessTokens++;
    const exp = r.expires_at === null ? null : Number(r.expires_at);
    if (exp !== null && (t.lastExpiry === null || exp > t.lastExpiry)) t.lastExpiry = exp;
    out.set(id, t);
  }
  return out;
}

export interface ConnectedApp {
  client: OAuthClientRow;
  /** members of this organisation who connected it */
  members: number;
}

/** Apps that registered themselves (or are metadata documents) and that members connected for this organisation. */
export async function selfRegisteredAppsInOrganisation(db: Kysely<Database>, organisationId: string, clientId?: string): Promise<ConnectedApp[]> {
  const consentsHere = (eb: ExpressionBuilder<Database & { c: Database['oauth_clients'] }, 'c'>) =>
    eb
      .selectFrom('oauth_consents as k')
      .whereRef('k.client_id', '=', 'c.client_id')
      .where((inner) => coversOrganisation(inner as unknown as ConsentScope, organisationId));
  let q = db
    .selectFrom('oauth_clients as c')
    .selectAll('c')
    .select((eb) =>
      consentsHere(eb)
        .select((inner) => inner.fn.count<number>('k.user_id').distinct().as('n'))
        .as('members'),
    )
    .where('c.kind', 'in', ['dynamic', 'metadata_document'])
    .where((eb) => eb.exists(consentsHere(eb).select('k.grant_id')));
  if (clientId) q = q.where('c.client_id', '=', clientId);
  const rows = await q.orderBy('c.name').execute();
  return rows.map(({ members, ...client }) => ({ client, members: Number(members) }));
}

/** An organisation's own clients of one kind: its API clients (oldest first) or the apps its admins registered (by name). */
export async function clientsOfOrganisation(db: Kysely<Database>, organisationId: string, kind: 'api_client' | 'app'): Promise<OAuthClientRow[]> {
  return db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', kind)
    .orderBy(kind === 'app' ? 'name' : 'created_at')
    .execute();
}

/** Apps an admin of this organisation registered (verified, public clients). */
export const appsRegisteredByOrganisation = (db: Kysely<Database>, organisationId: string) => clientsOfOrganisation(db, organisationId, 'app');

/** A client no organisation owns (self-registered, or known by its metadata document): public, unverified, unblocked. */
export function unownedClientRow(clientId: string, kind: 'dynamic' | 'metadata_document', name: string, metadata: Record<string, unknown>): OAuthClientRow {
  return {
    client_id: clientId,
    kind,
    organisation_id: null,
    name,
    verified: 0,
    blocked: 0,
    metadata: JSON.stringify(metadata),
    secret_hash: null,
    created_by: null,
    created_at: nowIso(),
    last_used_at: null,
  };
}

/**
 * A row for a Client ID Metadata Document client (which exists only as a URL until a user
 * connects it), so it shows among connected apps, can be revoked, and passes the token check.
 * Another connection that made the row first wins.
 */
export async function insertMetadataDocumentClient(db: Kysely<Database>, clientId: string, name: string, metadata: Record<string, unknown>): Promise<void> {
  await db
    .insertInto('oauth_clients')
    .values(unownedClientRow(clientId, 'metadata_document', name, metadata))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
