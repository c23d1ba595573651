import type { Kysely } from 'kysely';
import { HASHED_MODELS, storablePayload } from '../oauth-rows.js';
import { sha256 } from '../hash.js';
import type { DialectCapabilities } from '../dialect.js';

/**
 * No usable credential at rest in oauth_store (issue 13): rows written before kept the token or code
 * itself in their payload (jti), sign-in sessions were keyed by their cookie value, and
 * interactions kept a copy of it. Payloads are rewritten as the adapter now stores them, and a
 * session's id becomes its hash (the adapter looks sessions up by the hash of the cookie's value).
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  const rows = (await db
    .selectFrom('oauth_store')
    .select(['model', 'id', 'payload'])
    .where('model', 'in', [...HASHED_MODELS, 'Interaction'])
    .execute()) as { model: string; id: string; payload: string }[];
  for (const row of rows) {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(row.payload) as Record<string, unknown>;
    } catch {
      continue; // a damaged row is no token either way; the adapter never answers it
    }
    // sessions were the one hashed model keyed by the raw id; every other one is keyed by its hash already
    const id = row.model === 'Session' ? sha256(row.id) : row.id;
    await db
      .updateTable('oauth_store')
      .set({ id, payload: JSON.stringify(storablePayload(row.model, payload)) })
      .where('model', '=', row.model)
      .where('id', '=', row.id)
      .execute();
  }
}
