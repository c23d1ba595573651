/**
 * OAuth clients as the service keeps them: an organisation's own API clients (client credentials,
 * secret shown once and stored hashed), apps an admin registered (verified), apps that registered
 * themselves (unverified), and Client ID Metadata Document clients. oidc-provider reads them
 * through the adapter; the admin pages and CLI list and revoke them here.
 */
import { clientsOfOrganisation, unownedClientRow } from '../store/connections.js';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newId, nowIso } from '../store/ids.js';
import type { Database, OAuthClientRow } from '../store/schema.js';
import { sha256 } from '../store/hash.js';
import { CLIENT_LAST_USED, later, stampsOf } from '../store/deferred-stamps.js';
import { isLoopbackHost } from '../domain/loopback.js';

export type ClientKind = 'api_client' | 'app' | 'dynamic' | 'metadata_document';

export const SERVICE_SCOPES = ['service.read', 'service.write'] as const;

/**
 * What an app that registered itself (or is known by its metadata document) may ask for: every
 * scope. The person's consent decides what it gets (write starts unticked), not what the app named
 * when it registered: an assistant that registered asking to read must still be able to ask for
 * changes later (the 403 insufficient_scope step-up) and be refused or allowed by the person.
 */
export const SELF_REGISTERED_SCOPE = [...SERVICE_SCOPES, 'offline_access'].join(' ');

/** What oidc-provider sees of a client: its stored metadata, plus the secret's hash for API clients. */
export function clientMetadataFromRow(row: OAuthClientRow): Record<string, unknown> {
  const metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  return {
    ...metadata,
    ...(row.kind === 'dynamic' || row.kind === 'metadata_document' ? { scope: SELF_REGISTERED_SCOPE } : {}),
    client_id: row.client_id,
    ...(row.secret_hash ? { client_secret: row.secret_hash } : {}),
  };
}

/** A client that registered itself (RFC 7591): public and unverified until an admin says otherwise. */
export async function insertDynamicClient(db: Kysely<Database>, payload: Record<string, unknown>): Promise<void> {
  const { client_id, client_secret: _secret, ...metadata } = payload;
  const name = typeof metadata.client_name === 'string' && metadata.client_name.trim() ? metadata.client_name.trim() : 'Unnamed app';
  await db
    .insertInto('oauth_clients')
    .values(unownedClientRow(String(client_id), 'dynamic', name, metadata))
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ metadata: JSON.stringify(metadata), name }))
    .execute();
}

export interface CreatedApiClient {
  clientId: string;
  clientSecret: string;
  organisationId: string;
  name: string;
  scopes: string[];
}

/** An organisation's own client for client_credentials; the secret exists only in the return value. */
export async function createApiClient(
  db: Kysely<Database>,
  input: { organisationId: string; name: string; scopes?: string[]; createdBy?: string | null },
): Promise<CreatedApiClient> {
  const scopes = input.scopes?.length ? input.scopes : ['service.read'];
  for (const s of scopes)
    if (!(SERVICE_SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope "${s}" (allowed: ${SERVICE_SCOPES.join(', ')})`);
  const name = input.name.trim();
  if (!name) throw new Error('the client needs a name');
  const clientId = newId('cli');
  const clientSecret = `lls_${randomBytes(32).toString('base64url')}`;
  await db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      kind: 'api_client',
      organisation_id: input.organisationId,
      name,
      verified: 1,
      blocked: 0,
      metadata: JSON.stringify({
        client_name: name,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_post',
        scope: scopes.join(' '),
      }),
      secret_hash: sha256(clientSecret),
      created_by: input.createdBy ?? null,
      created_at: nowIso(),
      last_used_at: null,
    })
    .execute();
  return { clientId, clientSecret, organisationId: input.organisationId, name, scopes };
}

/** Redirect URIs must be https, or http on the loopback address (desktop apps). */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not a URL`;
  }
  if (url.hash) return `"${uri}" must not have a fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return `"${uri}" must be https, or http on the loopback address`;
}

/**
 * A registered app: a public client (PKCE). Registered by the operator (no organisation), it is
 * verified for everyone; registered by an organisation's admin, it is not operator-verified, and
 * the caller records that organisation's own verification (src/store/client-verifications.ts).
 */
export async function registerApp(
  db: Kysely<Database>,
  input: { name: string; redirectUris: string[]; createdBy?: string | null; organisationId?: string | null },
): Promise<{ clientId: string; name: string; redirectUris: string[] }> {
  const name = input.name.trim();
  if (!name) throw new Error('the app needs a name');
  if (input.redirectUris.length === 0) throw new Error('the app needs at least one redirect URI');
  const problems = input.redirectUris.map(redirectUriProblem).filter((p): p is string => p !== null);
  if (problems.length) throw new Error(problems.join('; '));
  const clientId = newId('app');
  await db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      kind: 'app',
      organisation_id: input.organisationId ?? null,
      name,
      verified: input.organisationId ? 0 : 1,
      blocked: 0,
      metadata: JSON.stringify({
        client_name: name,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: input.redirectUris,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
      }),
      secret_hash: null,
      created_by: input.createdBy ?? null,
      created_at: nowIso(),
      last_used_at: null,
    })
    .execute();
  return { clientId, name, redirectUris: input.redirectUris };
}

export async function getClient(db: Kysely<Database>, clientId: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** An organisation's API clients, each with its last use as this process knows it (a use noted but not yet written counts: touchClient). */
export async function listApiClients(db: Kysely<Database>, organisationId: string): Promise<OAuthClientRow[]> {
  const stamps = stampsOf(db, CLIENT_LAST_USED);
  return (await clientsOfOrganisation(db, organisationId, 'api_client')).map((row) => ({
    ...row,
    last_used_at: later(row.last_used_at, stamps.stamped(row.client_id)),
  }));
}

/**
 * Revokes a client at once: the client, every token, code and grant it holds, and its consents.
 * The token check also looks the client up on every call, so nothing it issued works afterwards.
 */
export async function revokeClient(db: Kysely<Database>, clientId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('oauth_clients').where('client_id', '=', clientId).executeTakeFirst();
    await trx.deleteFrom('oauth_store').where('client_id', '=', clientId).execute();
    const grants = await trx.selectFrom('oauth_consents').select('grant_id').where('client_id', '=', clientId).execute();
    if (grants.length) {
      const ids = grants.map((g) => g.grant_id);
      await trx.deleteFrom('oauth_store').where('model', '=', 'Grant').where('id', 'in', ids).execute();
      await trx.deleteFrom('oauth_consents').where('grant_id', 'in', ids).execute();
    }
    return Number(deleted.numDeletedRows) > 0;
  });
}

/**
 * Records use at most once a minute, so a busy client does not write on every call; and never on
 * the request's path: the stamp is noted in memory and written a moment later, best effort
 * (store/deferred-stamps.ts), so a call never waits for a write (issue 36 item 7: a client's first
 * call in a minute waited behind an import's transaction and answered 503).
 */
export async function touchClient(db: Kysely<Database>, row: Pick<OAuthClientRow, 'client_id' | 'last_used_at'>): Promise<void> {
  const now = Date.now();
  const stamps = stampsOf(db, CLIENT_LAST_USED);
  const last = later(row.last_used_at, stamps.stamped(row.client_id));
  if (last && now - Date.parse(last) < 60_000) return;
  stamps.stamp(row.client_id, new Date(now).toISOString());
}
