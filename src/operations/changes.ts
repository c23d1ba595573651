/** What every operation that changes records shares: who is changing, whose records they may change, and the audit entry. */
import { writeAudit, VIA_COMMAND_LINE } from '../store/audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { OperationError } from './errors.js';

/** The command line runs as this client (cli/call.ts); its changes are the operator's. */
export const COMMAND_LINE_CLIENT = 'cli';

/** How a record remembers who made it: a user id, or client:<id> for an API client. */
export function creatorOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : `client:${principal.clientId}`;
}

/**
 * Admins (and an organisation's own API clients) change any document; a submitter, or a custom
 * role allowed to, only the ones they created.
 */
export function requireMayChange(principal: Principal, createdBy: string | null, documentId: string): void {
  if (principal.kind !== 'user' || principal.role === 'super_admin' || principal.role === 'admin') return;
  if (createdBy !== principal.userId)
    throw new OperationError('not_document_owner', `document ${documentId} was not created by you; your role (${principal.role}) may change only your own`);
}

/** One audit entry for a change made through an operation, from whichever transport. */
export async function auditChange(ctx: OperationContext, action: string, target: string, detail: Record<string, unknown>): Promise<void> {
  const p = ctx.principal;
  const via = p.kind === 'user' ? {} : p.clientId === COMMAND_LINE_CLIENT ? { via: VIA_COMMAND_LINE } : { client: p.clientId };
  await writeAudit(ctx.db, {
    organisationId: ctx.organisation.id,
    actorUserId: p.kind === 'user' ? p.userId : null,
    action,
    target,
    detail: { ...detail, ...via },
  });
}
