/**
 * Cookie keys and token-signing keys. Production takes them from the environment; the embedded
 * default generates them once and keeps them in the database, so restarts keep sessions valid.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import { nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';

export interface ServiceSecrets {
  cookieKeys: string[];
  jwks: { keys: JWK[] };
}

async function stored(db: Kysely<Database>, name: string, make: () => Promise<string>): Promise<string> {
  const existing = await db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.value;
  const value = await make();
  await db
    .insertInto('service_secrets')
    .values({ name, value, created_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  // another instance may have won the race: read what was kept
  return (await db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
}

export async function loadSecrets(
  db: Kysely<Database>,
  env: { cookieSecrets?: string[] | undefined; signingJwks?: { keys: JWK[] } | undefined },
): Promise<ServiceSecrets> {
  const cookieKeys =
    env.cookieSecrets ?? (JSON.parse(await stored(db, 'cookie_keys', async () => JSON.stringify([randomBytes(32).toString('base64url')]))) as string[]);
  const jwks =
    env.signingJwks ??
    (JSON.parse(
      await stored(db, 'signing_jwks', async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        const jwk = { ...(await exportJWK(privateKey)), kid: `k${Date.now().toString(36)}`, alg: 'ES256', use: 'sig' };
        return JSON.stringify({ keys: [jwk] });
      }),
    ) as { keys: JWK[] });
  return { cookieKeys, jwks };
}
