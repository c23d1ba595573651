/**
 * An organisation's accounting connection: stored with its tokens sealed (keys.ts), and a valid
 * access token on demand, refreshed when it has (nearly) expired.
 *
 * Refreshing is rotation-safe across instances. Both vendors invalidate a refresh token once it is
 * used, so two instances refreshing with the same one would leave one of them holding a dead token.
 * An instance first claims the refresh: a compare-and-swap on the row's version that also sets a
 * lease (lease_owner, lease_until), succeeding only while no live lease is held. The holder asks the
 * vendor, then writes the rotated refresh token and the new access token (version + 1, lease
 * cleared) before the access token is handed to anyone. Every other caller waits, re-reading the
 * row, and takes the holder's new access token when the version moves. A lease outlives a crashed
 * holder by at most leaseMs, after which another instance may claim it. (docs/decisions.md: why a
 * lease rather than SELECT … FOR UPDATE / BEGIN IMMEDIATE held across the vendor's HTTP call.)
 *
 * A refresh token the vendor refuses marks the connection `reconnect`: every later call fails at
 * once with accounting_unavailable naming it, until an admin connects again. So does a refresh
 * whose new token lacks a scope the connector needs (Xero says what it granted), and a call Xero
 * refuses for want of a scope (connector.ts). A call the vendor answers 401 otherwise (its clock
 * ahead of ours, the token revoked and replaced) refreshes once under the same claim
 * (`refused`) and is tried again (connector.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { nowIso } from '../../store/ids.js';
import type { Database } from '../../store/schema.js';
import { AccountingSystemError } from '../types.js';
import type { ConnectionKeys } from '../../domain/connection-keys.js';
import type { AccountingConnectionRow } from '../../store/schema-accounting.js';
import { GrantRefused, requestTokens, VendorUnavailable, type TokenSet } from './vendor-http.js';
import type { AccountingConnectionSettings, Vendor } from '../../domain/accounting-vendors.js';
import { vendorNamed, vendorOf } from '../vendors.js';

/** an access token this close to its expiry is refreshed first */
const EXPIRY_MARGIN_MS = 60_000;
const DEFAULT_LEASE_MS = 30_000;
const POLL_MS = 25;

const seal = (keys: ConnectionKeys, organisationId: string, field: string, value: string) => keys.seal(value, `${organisationId}:${field}`);
const open = (keys: ConnectionKeys, organisationId: string, field: string, value: string) => keys.open(value, `${organisationId}:${field}`);

export async function getConnection(db: Kysely<Database>, organisationId: string): Promise<AccountingConnectionRow | undefined> {
  return db.selectFrom('accounting_connections').selectAll().where('organisation_id', '=', organisationId).executeTakeFirst();
}

/** Stores (or replaces) the organisation's connection with a fresh token set. */
export async function saveConnection(
  db: Kysely<Database>,
  keys: ConnectionKeys,
  input: { organisationId: string; vendor: Vendor; tenantId: string; tenantName: string; tokens: TokenSet; userId: string | null },
): Promise<void> {
  const now = nowIso();
  const fields = {
    vendor: input.vendor,
    tenant_id: input.tenantId,
    tenant_name: input.tenantName,
    refresh_token: seal(keys, input.organisationId, 'refresh', input.tokens.refreshToken),
    access_token: seal(keys, input.organisationId, 'access', input.tokens.accessToken),
    access_expires_at: new Date(Date.now() + input.tokens.expiresIn * 1000).toISOString(),
    status: 'active',
    problem: null,
    lease_owner: null,
    lease_until: null,
    created_by: input.userId,
    created_at: now,
    updated_at: now,
  };
  // a replaced connection is a new one but for its version, which grows on (a holder of the old
  // tokens sees it move); one statement, so two saves at once cannot both read the same version
  await db
    .insertInto('accounting_connections')
    .values({ organisation_id: input.organisationId, ...fields, version: 1 })
    .onConflict((oc) => oc.column('organisation_id').doUpdateSet((eb) => ({ ...fields, version: eb('accounting_connections.version', '+', 1) })))
    .execute();
}

/** Deletes the connection; answers its refresh token (to revoke at the vendor) when it could be opened. */
export async function deleteConnection(
  db: Kysely<Database>,
  keys: ConnectionKeys,
  organisationId: string,
): Promise<{ row: AccountingConnectionRow; refreshToken: string | undefined } | undefined> {
  const row = await getConnection(db, organisationId);
  if (!row) return undefined;
  await db.deleteFrom('accounting_connections').where('organisation_id', '=', organisationId).execute();
  let refreshToken: string | undefined;
  try {
    refreshToken = open(keys, organisationId, 'refresh', row.refresh_token);
  } catch {
    refreshToken = undefined;
  }
  return { row, refreshToken };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ConnectedToken {
  vendor: Vendor;
  tenantId: string;
  accessToken: string;
}

export const reconnectMessage = (vendor: string, problem: string | null) =>
  `The organisation's ${vendorNamed(vendor)?.name ?? vendor} connection needs reconnecting${problem ? ` (${problem})` : ''}: an admin must ` +
  `connect it again in the organisation's settings (Accounting system).`;

/**
 * Marks the connection as needing to be made again, saying why (a scope the vendor did not grant):
 * every later call fails at once with that problem, and the settings page shows it.
 */
export async function markReconnect(db: Kysely<Database>, organisationId: string, vendor: Vendor, problem: string): Promise<void> {
  await db
    .updateTable('accounting_connections')
    .set({ status: 'reconnect', problem, updated_at: nowIso() })
    .where('organisation_id', '=', organisationId)
    .where('vendor', '=', vendor)
    .execute();
}

/** What a token set lacks of what the connector needs, in words; undefined when nothing (or the vendor does not say what it granted). */
function missingGrant(vendor: Vendor, tokens: TokenSet): string | undefined {
  return tokens.scope === undefined ? undefined : vendorOf(vendor).oauth.grantProblem?.(tokens.scope)?.problem;
}

/**
 * A valid access token for the organisation's connection, refreshing it when it has (nearly)
 * expired: one refresh at a time per connection across every instance sharing the database.
 * `refused`: an access token the vendor has just answered 401 (its clock ahead of ours, or the
 * token revoked): while the connection still holds that one it is refreshed whatever its expiry;
 * one another caller has refreshed meanwhile is taken as it is.
 */
export async function accessTokenFor(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings,
  organisationId: string,
  vendor: Vendor,
  options: { refused?: string } = {},
): Promise<ConnectedToken> {
  const cdb = db;
  const keys = settings.keys;
  const leaseMs = settings.leaseMs ?? DEFAULT_LEASE_MS;
  const me = randomBytes(9).toString('base64url');
  const deadline = Date.now() + leaseMs + 5_000;
  for (;;) {
    const row = await getConnection(db, organisationId);
    if (!row || row.vendor !== vendor)
      throw new AccountingSystemError(
        `The organisation is not connected to ${vendorOf(vendor).name}: an admin connects it in the organisation's settings (Accounting system).`,
      );
    if (row.status !== 'active') throw new AccountingSystemError(reconnectMessage(row.vendor, row.problem));
    const open_ = (field: 'refresh' | 'access', value: string) => {
      try {
        return open(keys, organisationId, field, value);
      } catch (error) {
        throw new AccountingSystemError(
          `The organisation's ${vendorOf(vendor).name} tokens cannot be opened (${(error as Error).message}): check LEDGERLINE_CONNECTION_KEYS, or ` +
            `connect again.`,
        );
      }
    };
    if (Date.parse(row.access_expires_at) - Date.now() > EXPIRY_MARGIN_MS) {
      const accessToken = open_('access', row.access_token);
      if (options.refused === undefined || accessToken !== options.refused) return { vendor, tenantId: row.tenant_id, accessToken };
    }

    const now = new Date();
    const claimed = await cdb
      .updateTable('accounting_connections')
      .set({ lease_owner: me, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('organisation_id', '=', organisationId)
      .where('version', '=', row.version)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      // another instance is refreshing (or just did): wait for its result rather than refresh again
      if (Date.now() > deadline)
        throw new AccountingSystemError(`The organisation's ${vendorOf(vendor).name} token is being refreshed by another instance that has not finished.`);
      await sleep(POLL_MS);
      continue;
    }

    const client = settings[vendor];
    const release = (extra: Partial<AccountingConnectionRow> = {}) =>
      cdb
        .updateTable('accounting_connections')
        .set({ lease_owner: null, lease_until: null, updated_at: nowIso(), ...extra })
        .where('organisation_id', '=', organisationId)
        .where('lease_owner', '=', me)
        .execute();
    if (!client) {
      await release();
      throw new AccountingSystemError(
        `${vendorOf(vendor).name} is not configured on this service (${vendorOf(vendor).envPrefix}_CLIENT_ID), so the organisation's ` +
          `token cannot be refreshed.`,
      );
    }
    let tokens: TokenSet;
    try {
      tokens = await requestTokens(
        vendorOf(vendor),
        client,
        { grant_type: 'refresh_token', refresh_token: open_('refresh', row.refresh_token) },
        settings.fetch,
      );
    } catch (error) {
      if (error instanceof GrantRefused) {
        await release({ status: 'reconnect', problem: error.message });
        throw new AccountingSystemError(reconnectMessage(vendor, error.message));
      }
      await release();
      if (error instanceof VendorUnavailable || error instanceof AccountingSystemError) throw new AccountingSystemError(error.message);
      throw error;
    }
    // the rotated refresh token is written before the new access token is used by anyone
    const written = await cdb
      .updateTable('accounting_connections')
      .set({
        refresh_token: seal(keys, organisationId, 'refresh', tokens.refreshToken),
        access_token: seal(keys, organisationId, 'access', tokens.accessToken),
        access_expires_at: new Date(Date.now() + tokens.expiresIn * 1000).toISOString(),
        version: sql<number>`version + 1`,
        lease_owner: null,
        lease_until: null,
        updated_at: nowIso(),
      })
      .where('organisation_id', '=', organisationId)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1)
      throw new AccountingSystemError(`The organisation's ${vendorOf(vendor).name} connection changed while its token was refreshed; try again.`);
    // the vendor says what the new token covers: a connection made without a scope the connector
    // needs (Xero's, before issue 38) is told to connect again rather than fail call by call
    const lacking = missingGrant(vendor, tokens);
    if (lacking) {
      await markReconnect(db, organisationId, vendor, lacking);
      throw new AccountingSystemError(reconnectMessage(vendor, lacking));
    }
    return { vendor, tenantId: row.tenant_id, accessToken: tokens.accessToken };
  }
}
