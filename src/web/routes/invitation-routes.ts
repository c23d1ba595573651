/**
 * An invitation link (/invitations/<secret>): the page it opens, accepting it signed in as the
 * invited address, and joining through it with a new password for someone new to Ledgerline
 * (src/store/invitations.ts has the rules). A link that is unknown, used, withdrawn or past its
 * end is one answer: not valid any more.
 */
import { hash } from '@node-rs/argon2';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { writeAudit } from '../../store/audit-log.js';
import { acceptInvitation, joinWithInvitation, openInvitation, type Acceptance } from '../../store/invitations.js';
import { createWebSession, endWebSession } from '../../store/web-sessions.js';
import { messagePage, type Viewer } from '../pages/chrome.js';
import { invitationPage, type InvitationView } from '../pages/invitation.js';
import { one, seeOther, sendPage, type Form } from '../respond.js';
import { currentSession, sessionToken, setSessionCookie, signedOutCsrf, signedOutRefusal, type WebContext } from '../web-context.js';
import { formSession, viewerOf } from './guards.js';

export const MIN_PASSWORD = 10;

export function registerInvitationRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;

  const gone = (reply: FastifyReply, viewer?: Viewer) =>
    sendPage(
      reply,
      messagePage(
        'Invitation not valid',
        'This invitation link is not valid any more: it was used, withdrawn or replaced, or it has ended. Ask an admin of the organisation for a new one.',
        viewer ? { href: '/account', label: 'Your account' } : { href: '/signin', label: 'Sign in' },
        viewer,
      ),
      404,
    );

  async function joined(reply: FastifyReply, result: Extract<Acceptance, { ok: true }>, email: string) {
    if (!result.alreadyMember)
      await writeAudit(db, {
        organisationId: result.organisationId,
        actorUserId: result.userId,
        action: 'member.joined',
        target: result.userId,
        detail: { email, role: result.role },
      });
    return seeOther(reply, '/account?done=joined');
  }

  app.get('/invitations/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const path = `/invitations/${token}`;
    const session = await currentSession(w, request);
    const viewer = session ? await viewerOf(w, session) : undefined;
    const invitation = await openInvitation(db, token);
    if (!invitation) return gone(reply, viewer);
    const view: InvitationView = { invitation, path, ...(viewer ? { viewer } : { csrf: signedOutCsrf(w, request, reply) }) };
    // the link is a secret: never sent on to another site, never kept by a cache
    reply.header('referrer-policy', 'no-referrer');
    return sendPage(reply, invitationPage(view));
  });

  app.post('/invitations/:token/accept', async (request, reply) => {
    const { token } = request.params as { token: string };
    const signed = await formSession(w, request, reply);
    if (!signed) return reply;
    const result = await acceptInvitation(db, token, { id: signed.session.user.id, email: signed.session.user.email });
    if (result.ok) return joined(reply, result, signed.session.user.email);
    if (result.reason === 'gone') return gone(reply, signed.viewer);
    const invitation = await openInvitation(db, token);
    if (!invitation) return gone(reply, signed.viewer);
    return sendPage(reply, invitationPage({ invitation, path: `/invitations/${token}`, viewer: signed.viewer }), 403);
  });

  app.post('/invitations/:token/join', async (request, reply) => {
    const { token } = request.params as { token: string };
    const path = `/invitations/${token}`;
    const form = (request.body ?? {}) as Form;
    const invitation = await openInvitation(db, token);
    if (!invitation) return gone(reply);
    const name = (one(form.name) ?? '').trim();
    const again = (error: string, status: number) =>
      sendPage(reply, invitationPage({ invitation, path, csrf: signedOutCsrf(w, request, reply), name, error }), status);
    const refused = signedOutRefusal(w, request, one(form.csrf));
    if (refused) return again(refused, 403);
    const password = one(form.password) ?? '';
    if (!name || name.length > 200) return again('Enter your name (up to 200 characters).', 400);
    if (password.length < MIN_PASSWORD || password.length > 1024) return again(`Choose a password of at least ${MIN_PASSWORD} characters.`, 400);
    const result = await joinWithInvitation(db, token, { name, passwordHash: await hash(password) });
    if (!result.ok) {
      if (result.reason === 'has_sign_in') return again(`${invitation.email} has a Ledgerline sign-in already: sign in with it to accept.`, 409);
      return gone(reply);
    }
    // signed in as the new person, in a fresh session (any earlier one in this browser ended)
    const previous = sessionToken(w, request);
    if (previous) await endWebSession(db, previous);
    const { token: session } = await createWebSession(db, result.userId, 'password');
    setSessionCookie(w, reply, session);
    return joined(reply, result, invitation.email);
  });
}
