/**
 * Changes made from the command line go into the same audit log as the pages' changes, so an
 * organisation's admins see every change whoever made it. The operator has no user row; the entry
 * says it came from the command line instead.
 */
import type { Kysely } from 'kysely';
import { VIA_COMMAND_LINE, writeAudit, type AuditEntry } from '../store/audit-log.js';
import type { Database } from '../store/schema.js';

export function auditFromCommandLine(db: Kysely<Database>, entry: Omit<AuditEntry, 'actorUserId'>): Promise<void> {
  return writeAudit(db, { ...entry, actorUserId: null, detail: { ...entry.detail, via: VIA_COMMAND_LINE } });
}
