/** Who changed what, and when, through the web pages or the command line; read back per organisation by its admins. */
import type { Kysely } from 'kysely';
import { newId, nowIso } from './ids.js';
import type { Database } from './schema.js';
import type { AuditLogRow } from './schema-web.js';

/** The `via` of an entry made by the operator at the command line (who has no user row). */
export const VIA_COMMAND_LINE = 'command line';

export interface AuditEntry {
  organisationId: string | null;
  actorUserId: string | null;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId('aud'),
      organisation_id: entry.organisationId,
      actor_user_id: entry.actorUserId,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: nowIso(),
    })
    .execute();
}

export interface AuditListing extends AuditLogRow {
  actor_email: string | null;
  actor_name: string | null;
}

/** Newest first; `before` (a created_at, id pair) pages back through older entries. */
export async function listAudit(
  db: Kysely<Database>,
  organisationId: string,
  options: { limit: number; before?: { createdAt: string; id: string } },
): Promise<AuditListing[]> {
  let q = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .selectAll('a')
    .select(['u.email as actor_email', 'u.name as actor_name'])
    .where('a.organisation_id', '=', organisationId);
  const before = options.before;
  if (before) {
    q = q.where((eb) => eb.or([eb('a.created_at', '<', before.createdAt), eb.and([eb('a.created_at', '=', before.createdAt), eb('a.id', '<', before.id)])]));
  }
  return q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(options.limit).execute();
}
