/**
 * People's sessions on the web pages. The cookie carries a random value; the table keeps only its
 * SHA-256, so a copy of the database holds no usable session. A session ends after a spell of
 * inactivity or at an absolute time, whichever comes first.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { later, SESSION_LAST_SEEN, stampsOf } from './deferred-stamps.js';
import { sha256 } from './hash.js';
import type { Database, UserRow } from './schema.js';

export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 3600;
/** last_seen_at is written at most this often, so reading pages does not write on every request */
const TOUCH_EVERY_MS = 60_000;

export interface WebSession {
  idHash: string;
  user: Pick<UserRow, 'id' | 'email' | 'name'>;
  method: string;
  expiresAt: string;
}

export async function createWebSession(
  db: Kysely<Database>,
  userId: string,
  method: 'password' | 'external',
  now = new Date(),
): Promise<{ token: string; idHash: string }> {
  const w = db;
  const token = randomBytes(32).toString('base64url');
  const idHash = sha256(token);
  const iso = now.toISOString();
  // sweep what has ended, so the table does not grow without bound
  await w
    .deleteFrom('web_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', iso), eb('last_seen_at', '<', new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000).toISOString())]))
    .execute();
  await w
    .insertInto('web_sessions')
    .values({
      id_hash: idHash,
      user_id: userId,
      method,
      created_at: iso,
      last_seen_at: iso,
      expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_SECONDS * 1000).toISOString(),
    })
    .execute();
  return { token, idHash };
}

/** The live session for a cookie value, or undefined when it is unknown, idle too long or over. */
export async function findWebSession(db: Kysely<Database>, token: string, now = new Date()): Promise<WebSession | undefined> {
  const w = db;
  const idHash = sha256(token);
  const row = await w
    .selectFrom('web_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id_hash', 's.method', 's.last_seen_at', 's.expires_at', 'u.id', 'u.email', 'u.name'])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  // reading a page writes nothing on its way: the session's last sight, and its end, are written
  // just after (deferred-stamps.ts), and until then count from memory
  const stamps = stampsOf(db, SESSION_LAST_SEEN);
  if (!row || stamps.hasEnded(idHash)) return undefined;
  const t = now.getTime();
  const lastSeen = later(row.last_seen_at, stamps.stamped(idHash))!;
  if (Date.parse(row.expires_at) <= t || Date.parse(lastSeen) + SESSION_IDLE_SECONDS * 1000 <= t) {
    stamps.end(idHash);
    return undefined;
  }
  if (t - Date.parse(lastSeen) >= TOUCH_EVERY_MS) stamps.stamp(idHash, now.toISOString());
  return { idHash, user: { id: row.id, email: row.email, name: row.name }, method: row.method, expiresAt: row.expires_at };
}

export async function endWebSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id_hash', '=', sha256(token)).execute();
}
