import type { Kysely } from 'kysely';
import { writeAudit } from '../../store/audit-log.js';
import type { Database } from '../../store/schema.js';
import type { OrgAccess } from './guards.js';

/** An audit entry for a change made on an organisation's pages: the organisation and the person come from the page's access. */
export function auditAs(db: Kysely<Database>, a: OrgAccess, action: string, target: string, detail?: Record<string, unknown>): Promise<void> {
  return writeAudit(db, { organisationId: a.org.id, actorUserId: a.session.user.id, action, target, ...(detail ? { detail } : {}) });
}
