/**
 * oidc-provider's persistence on the service store. Tokens, codes, grants, sessions and
 * interactions live in oauth_store, one row per (model, id). The table never holds a usable
 * credential: the ids of bearer secrets (tokens and codes, whose opaque value is their id, and
 * sign-in sessions, whose id is the session cookie's value) are stored as SHA-256 hashes, and the
 * copy of the id oidc-provider keeps in every payload (jti) is left out and put back from the id a
 * lookup was given. Clients live in oauth_clients, the table the admin pages list.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { sha256 } from '../store/hash.js';
import { HASHED_MODELS, storablePayload, type AdapterPayload } from '../store/oauth-rows.js';
import { clientMetadataFromRow, insertDynamicClient } from './clients.js';

export type { AdapterPayload } from '../store/oauth-rows.js';

/** A refresh token another request rotated first (refresh-replay.ts answers with that request's pair). */
export class RefreshTokenConsumedElsewhere extends Error {
  constructor() {
    super('refresh token consumed by a concurrent request');
  }
}

/** An authorization code another request redeemed first (code-reuse.ts fails this one and revokes the grant). */
export class AuthorizationCodeConsumedElsewhere extends Error {
  constructor() {
    super('authorization code consumed by a concurrent request');
  }
}

export interface AdapterOptions {
  /** seconds in which a just-rotated refresh token, presented again, gets the same answer (refresh-replay.ts) */
  refreshGraceSeconds: number;
}

export function createAdapterClass(db: Kysely<Database>, options: AdapterOptions) {
  return class KyselyAdapter {
    constructor(readonly model: string) {}

    private key(id: string): string {
      return HASHED_MODELS.has(this.model) ? sha256(id) : id;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (this.model === 'Client') {
        await insertDynamicClient(db, payload);
        return;
      }
      const row = {
        model: this.model,
        id: this.key(id),
        payload: JSON.stringify(storablePayload(this.model, payload)),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        client_id: typeof payload.clientId === 'string' ? payload.clientId : null,
        account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
        consumed_at: null,
      };
      await db
        .insertInto('oauth_store')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            client_id: row.client_id,
            account_id: row.account_id,
            uid: row.uid,
            user_code: row.user_code,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const client = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', id).executeTakeFirst();
        return client && !client.blocked ? clientMetadataFromRow(client) : undefined;
      }
      const row = await db
        .selectFrom('oauth_store')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where('id', '=', this.key(id))
        .executeTakeFirst();
      // the id the lookup was given is the credential itself: the payload's jti comes back from it
      return row ? this.present(row, HASHED_MODELS.has(this.model) ? id : undefined) : undefined;
    }

    private present(row: { payload: string; expires_at: number | null; consumed_at: number | null }, jti?: string): AdapterPayload | undefined {
      if (row.expires_at !== null && Number(row.expires_at) < Date.now()) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      if (jti !== undefined) payload.jti = jti;
      if (row.consumed_at === null) return payload;
      const consumedAt = Number(row.consumed_at);
      // a refresh token rotated a moment ago is not yet reuse: refresh-replay.ts answers it with the pair it was rotated into
      const inGrace = this.model === 'RefreshToken' && Date.now() / 1000 - consumedAt < options.refreshGraceSeconds;
      return inGrace ? payload : { ...payload, consumed: consumedAt };
    }

    /**
     * A Session by its uid, when oidc-provider checks an interaction's or a token's session. The
     * session's id (its cookie value) is not known here and not stored, so the payload comes without
     * jti; oidc-provider only reads such a session (accountId, authorizations), never saves it.
     */
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oauth_store')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where('uid', '=', uid)
        .executeTakeFirst();
      return row ? this.present(row) : undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oauth_store')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where('user_code', '=', userCode)
        .executeTakeFirst();
      return row ? this.present(row) : undefined;
    }

    async consume(id: string): Promise<void> {
      const result = await db
        .updateTable('oauth_store')
        .set({ consumed_at: Math.floor(Date.now() / 1000) })
        .where('model', '=', this.model)
        .where('id', '=', this.key(id))
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return;
      // oidc-provider checked the record unused before consuming it; a request that lost the race to
      // mark it must not go on to issue tokens: one refresh rotates a refresh token, one request redeems a code
      if (this.model === 'RefreshToken') throw new RefreshTokenConsumedElsewhere();
      if (this.model === 'AuthorizationCode') throw new AuthorizationCodeConsumedElsewhere();
    }

    async destroy(id: string): Promise<void> {
      if (this.model === 'Client') {
        await db.deleteFrom('oauth_clients').where('client_id', '=', id).execute();
        return;
      }
      await db.deleteFrom('oauth_store').where('model', '=', this.model).where('id', '=', this.key(id)).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_store').where('model', '=', this.model).where('grant_id', '=', grantId).execute();
    }
  };
}

/** Removes expired records; run now and then (oidc-provider never deletes what expired). */
export async function purgeExpired(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('oauth_store').where('expires_at', '<', Date.now()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
