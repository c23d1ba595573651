/**
 * Connecting: the sign-ins in progress (accounting_connection_requests), their payload sealed
 * (the PKCE verifier; after the callback, the tokens and the tenants to choose from), and the
 * switch of an organisation's books to the vendor once the connection is stored.
 */
import type { Kysely } from 'kysely';
import type { ConnectionKeys } from '../../domain/connection-keys.js';
import type { Vendor } from '../../domain/accounting-vendors.js';
import { nowIso } from '../../store/ids.js';
import type { Database } from '../../store/schema.js';
import { clearBackoff } from '../mirror/store.js';
import type { AccountingConnectionRequestRow } from '../../store/schema-accounting.js';
import { saveConnection } from './tokens.js';
import type { TokenSet } from './vendor-http.js';

export interface Pending {
  verifier: string;
  tokens?: TokenSet;
  tenants?: { tenantId: string; tenantName: string }[];
}

const context = (stateHash: string) => `request:${stateHash}`;

/** Keeps a new sign-in for `minutes`, dropping those left unfinished. */
export async function startRequest(
  db: Kysely<Database>,
  keys: ConnectionKeys,
  input: { stateHash: string; organisationId: string; vendor: Vendor; userId: string; verifier: string; minutes: number },
): Promise<void> {
  const cdb = db;
  const now = Date.now();
  await cdb.deleteFrom('accounting_connection_requests').where('expires_at', '<', new Date(now).toISOString()).execute();
  await cdb
    .insertInto('accounting_connection_requests')
    .values({
      state_hash: input.stateHash,
      organisation_id: input.organisationId,
      vendor: input.vendor,
      user_id: input.userId,
      payload: keys.seal(JSON.stringify({ verifier: input.verifier } satisfies Pending), context(input.stateHash)),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + input.minutes * 60_000).toISOString(),
    })
    .execute();
}

/** The live sign-in with this state hash, when it is this person's (and this organisation's, when given). */
export async function findRequest(
  db: Kysely<Database>,
  keys: ConnectionKeys,
  stateHash: string,
  userId: string,
  organisationId?: string,
): Promise<{ row: AccountingConnectionRequestRow; payload: Pending } | undefined> {
  const row = await db.selectFrom('accounting_connection_requests').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  if (!row || row.user_id !== userId || (organisationId && row.organisation_id !== organisationId) || row.expires_at < nowIso()) return undefined;
  try {
    return { row, payload: JSON.parse(keys.open(row.payload, context(stateHash))) as Pending };
  } catch {
    return undefined;
  }
}

export async function updateRequest(db: Kysely<Database>, keys: ConnectionKeys, stateHash: string, payload: Pending): Promise<void> {
  await db
    .updateTable('accounting_connection_requests')
    .set({ payload: keys.seal(JSON.stringify(payload), context(stateHash)) })
    .where('state_hash', '=', stateHash)
    .execute();
}

export async function dropRequest(db: Kysely<Database>, stateHash: string): Promise<void> {
  await db.deleteFrom('accounting_connection_requests').where('state_hash', '=', stateHash).execute();
}

/**
 * Stores the connection and switches the organisation's books to the vendor; the connection's
 * settings replace any given by hand in accounting_config (the connector reads the connection).
 * Answers the system the books were kept in before.
 */
export async function connectOrganisation(
  db: Kysely<Database>,
  keys: ConnectionKeys,
  input: { organisationId: string; vendor: Vendor; tenantId: string; tenantName: string; tokens: TokenSet; userId: string; stateHash: string },
): Promise<{ previousSystem: string | undefined }> {
  const before = await db.selectFrom('organisations').select('accounting_system').where('id', '=', input.organisationId).executeTakeFirst();
  await saveConnection(db, keys, input);
  // connected again: what failed before (a scope, a revoked token) may work now, so no backoff stands
  await clearBackoff(db, input.organisationId);
  await db.updateTable('organisations').set({ accounting_system: input.vendor, accounting_config: null }).where('id', '=', input.organisationId).execute();
  await dropRequest(db, input.stateHash);
  return { previousSystem: before?.accounting_system };
}

/** Deletes the connection row (when the keys to open it are not configured). */
export async function dropConnection(db: Kysely<Database>, organisationId: string): Promise<void> {
  await db.deleteFrom('accounting_connections').where('organisation_id', '=', organisationId).execute();
}
