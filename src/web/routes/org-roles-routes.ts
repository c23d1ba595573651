/** Role permissions: the grid of operations by roles; saving changes the organisation's policy at once. */
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { ROLES, type Role } from '../../operations/context.js';
import { OPERATIONS } from '../../operations/index.js';
import { rolePolicy, setRoleAllowed } from '../../store/role-policy.js';
import { rolesPage, type RoleGridRow } from '../pages/org-roles.js';
import { list, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import type { OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

/** Operations that act for an organisation, the ones a role policy governs. */
const GOVERNED = OPERATIONS.filter((op) => op.kind === 'organisation');

export function registerRoleRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);

  async function grid(a: OrgAccess): Promise<RoleGridRow[]> {
    const policy = await rolePolicy(db, a.org.id);
    return GOVERNED.map((op) => ({ name: op.name, title: op.title, summary: op.summary, allowed: policy.get(op.name) ?? new Set<Role>() }));
  }

  r.page('/roles', async (a, _p, request, reply) => sendPage(reply, rolesPage(a.viewer, a.org, await grid(a), noticeFrom(request, NOTICES.roles))));

  r.action('/roles', async (a, _p, _request, reply) => {
    const ticked = new Set(list(a.form.allow));
    const known = new Set(GOVERNED.flatMap((op) => ROLES.map((role) => `${op.name}:${role}`)));
    const unknown = [...ticked].filter((t) => !known.has(t));
    if (unknown.length)
      return sendPage(
        reply,
        rolesPage(a.viewer, a.org, await grid(a), { error: 'The form named an operation or role that does not exist. Reload the page and try again.' }),
        400,
      );
    const allowed: { operation: string; role: Role }[] = [];
    const refused: { operation: string; role: Role }[] = [];
    await db.transaction().execute(async (trx) => {
      const policy = await rolePolicy(trx, a.org.id);
      for (const op of GOVERNED) {
        for (const role of ROLES) {
          const want = ticked.has(`${op.name}:${role}`);
          const has = policy.get(op.name)?.has(role) ?? false;
          if (want === has) continue;
          await setRoleAllowed(trx, a.org.id, op.name, role, want);
          (want ? allowed : refused).push({ operation: op.name, role });
        }
      }
      if (allowed.length || refused.length) await auditAs(trx, a, 'role_policy.changed', 'role_policy', { allowed, refused });
    });
    return seeOther(reply, `/orgs/${a.org.id}/roles?done=${allowed.length || refused.length ? 'saved' : 'unchanged'}`);
  });
}
