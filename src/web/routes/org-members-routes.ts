/**
 * Members: list, change a role, remove; invite someone (src/store/invitations.ts) or withdraw an
 * invitation. The rules live in src/store/members.ts. Nobody is added without accepting: an
 * invitation answers the same whether or not the address has a Ledgerline sign-in.
 */
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { createInvitation, pendingInvitations, withdrawInvitation } from '../../store/invitations.js';
import { changeMember, isRole, listMembers } from '../../store/members.js';
import { isPlausibleEmail, normaliseEmail } from '../../store/users.js';
import { html } from '../html.js';
import { confirmPage } from '../pages/chrome.js';
import { membersPage } from '../pages/org-members.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { isAdminRole, roleLabel } from '../words.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerMemberRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const back = (a: OrgAccess) => `/orgs/${a.org.id}/members`;

  const render = async (a: OrgAccess, options: Parameters<typeof membersPage>[5] = {}) => {
    const [members, invitations] = await Promise.all([listMembers(db, a.org.id), pendingInvitations(db, a.org.id)]);
    return membersPage(a.viewer, a.org, members, { userId: a.session.user.id, role: a.role }, invitations, options);
  };

  r.page('/members', async (a, _p, request, reply) => sendPage(reply, await render(a, noticeFrom(request, NOTICES.members))));

  r.action('/members/invite', async (a, _p, _request, reply) => {
    const email = normaliseEmail(one(a.form.email) ?? '');
    const role = one(a.form.role);
    if (!isPlausibleEmail(email) || email.length > 254)
      return sendPage(reply, await render(a, { error: 'Enter the email address of the person to invite.' }), 400);
    if (!isRole(role)) return sendPage(reply, await render(a, { error: 'Pick one of the roles listed.' }), 400);
    if (role === 'super_admin' && a.role !== 'super_admin')
      return sendPage(reply, await render(a, { error: 'Only a super admin can invite a super admin.' }), 403);
    // the same answer whether or not the address has a sign-in, or is a member already: the
    // invitation says nothing of the person, and accepting it changes nothing for a member
    const invitation = await createInvitation(db, { organisationId: a.org.id, email, role, invitedBy: a.session.user.id });
    await auditAs(db, a, 'member.invited', invitation.id, { email, role });
    const link = `${w.service.baseUrl}/invitations/${invitation.token}`;
    return sendPage(reply, await render(a, { invited: { email, role, link, expiresAt: invitation.expiresAt } }));
  });

  r.action('/invitations/:invitationId/withdraw', async (a, p, _request, reply) => {
    const withdrawn = await withdrawInvitation(db, a.org.id, p.invitationId!);
    if (!withdrawn) return notFoundPage(reply, a.viewer, 'That invitation', back(a));
    await auditAs(db, a, 'member.invitation_withdrawn', p.invitationId!, { email: withdrawn.email, role: withdrawn.role });
    return seeOther(reply, `${back(a)}?done=withdrawn`);
  });

  r.action('/members/:userId/role', async (a, p, _request, reply) => {
    const role = one(a.form.role);
    if (!isRole(role)) return sendPage(reply, await render(a, { error: 'Pick one of the roles listed.' }), 400);
    const target = (await listMembers(db, a.org.id)).find((m) => m.userId === p.userId);
    if (!target) return notFoundPage(reply, a.viewer, 'That member', back(a));
    const result = await changeMember(db, { organisationId: a.org.id, actorRole: a.role, userId: target.userId, newRole: role });
    if (!result.ok) return sendPage(reply, await render(a, { error: result.problem }), result.status);
    if (result.from === role) return seeOther(reply, `${back(a)}?done=unchanged`);
    await auditAs(db, a, 'member.role_changed', target.userId, { email: target.email, from: result.from, to: role });
    // someone who just gave up their own admin role can no longer see these settings
    if (target.userId === a.session.user.id && !isAdminRole(role)) return seeOther(reply, '/account');
    return seeOther(reply, `${back(a)}?done=changed`);
  });

  r.page('/members/:userId/remove', async (a, p, _request, reply) => {
    const target = (await listMembers(db, a.org.id)).find((m) => m.userId === p.userId);
    if (!target) return notFoundPage(reply, a.viewer, 'That member', back(a));
    const you = target.userId === a.session.user.id;
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: you ? `Leave ${a.org.name}?` : `Remove ${target.name || target.email}?`,
        explanation: html`<p>${you ? 'You' : html`<strong>${target.email}</strong> (${roleLabel(target.role)})`} will no longer be a member of
          ${a.org.name}. Apps ${you ? 'you' : 'they'} connected stop acting for ${a.org.name} from the next call.</p>`,
        action: `/orgs/${a.org.id}/members/${target.userId}/remove`,
        button: you ? 'Leave organisation' : 'Remove member',
        back: back(a),
      }),
    );
  });

  r.action('/members/:userId/remove', async (a, p, _request, reply) => {
    const target = (await listMembers(db, a.org.id)).find((m) => m.userId === p.userId);
    if (!target) return notFoundPage(reply, a.viewer, 'That member', back(a));
    const result = await changeMember(db, { organisationId: a.org.id, actorRole: a.role, userId: target.userId, newRole: null });
    if (!result.ok) return sendPage(reply, await render(a, { error: result.problem }), result.status);
    await auditAs(db, a, 'member.removed', target.userId, { email: target.email, role: result.from });
    if (target.userId === a.session.user.id) return seeOther(reply, '/account');
    return seeOther(reply, `${back(a)}?done=removed`);
  });
}
