/** A copy of a bench dataset holding one live client-credentials token of its organisation, for the bound's servers (bound.ts, bound-varied.ts). */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createApiClient } from '../../src/auth/clients.js';
import { openStore } from '../../src/store/db.js';
import { sha256 } from '../../src/store/hash.js';

export async function boundDatabase(source: string, target: string, organisationId: string): Promise<{ dbPath: string; token: string }> {
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(source, target);
  const store = openStore({ sqlitePath: target });
  try {
    const client = await createApiClient(store.db, { organisationId, name: 'Bound' });
    const token = randomBytes(32).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    await store.db
      .insertInto('oauth_store')
      .values({
        model: 'ClientCredentials',
        id: sha256(token),
        payload: JSON.stringify({ kind: 'ClientCredentials', clientId: client.clientId, scope: 'service.read', iat: now, exp: now + 3600 }),
        grant_id: null,
        client_id: client.clientId,
        account_id: null,
        uid: null,
        user_code: null,
        expires_at: (now + 3600) * 1000,
        consumed_at: null,
      })
      .execute();
    return { dbPath: target, token };
  } finally {
    await store.close();
  }
}
