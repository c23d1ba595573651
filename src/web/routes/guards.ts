/**
 * The checks in front of every page and form: a live session (else to /signin), for a form the
 * same origin and the session's CSRF token, and for organisation settings a super admin or admin
 * role in that organisation, read live.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../operations/context.js';
import { getOrganisation } from '../../store/organisations.js';
import { getMembership, organisationsOfUser } from '../../store/users.js';
import type { WebSession } from '../../store/web-sessions.js';
import { originRefusal, tokenRefusal } from '../csrf.js';
import { messagePage, type Viewer } from '../pages/chrome.js';
import { one, sendPage, type Form } from '../respond.js';
import { currentSession, sessionCsrf, type WebContext } from '../web-context.js';
import { isAdminRole } from '../words.js';

export interface Signed {
  session: WebSession;
  viewer: Viewer;
}

export interface OrgAccess extends Signed {
  org: { id: string; name: string };
  role: Role;
}

export async function viewerOf(w: WebContext, session: WebSession): Promise<Viewer> {
  const orgs = await organisationsOfUser(w.service.db, session.user.id);
  return {
    name: session.user.name,
    email: session.user.email,
    csrf: sessionCsrf(w, session),
    adminOrganisations: orgs.filter((o) => isAdminRole(o.role)).map((o) => ({ id: o.id, name: o.name })),
  };
}

/** For a page: the signed-in person, or a redirect to sign-in that comes back here. */
export async function pageSession(w: WebContext, request: FastifyRequest, reply: FastifyReply): Promise<Signed | null> {
  const session = await currentSession(w, request);
  if (!session) {
    const next = request.url.split('#')[0]!;
    reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `/signin?next=${encodeURIComponent(next)}`)
      .send();
    return null;
  }
  return { session, viewer: await viewerOf(w, session) };
}

/**
 * For a post, from its headers alone: a live session and the same origin; else a 403 page. Nothing
 * of the body is needed, so an upload is refused before it is read (src/web/routes/org-routing.ts).
 */
export async function postSession(w: WebContext, request: FastifyRequest, reply: FastifyReply): Promise<Signed | null> {
  const session = await currentSession(w, request);
  if (!session) {
    sendPage(
      reply,
      messagePage('Signed out', 'Your session has ended, so nothing was changed. Sign in and try again.', { href: '/signin', label: 'Sign in' }),
      403,
    );
    return null;
  }
  const viewer = await viewerOf(w, session);
  const refused = originRefusal(w.service.baseUrl, request.headers as { origin?: string; referer?: string });
  if (refused) return refuse(reply, viewer, refused);
  return { session, viewer };
}

/** The session's CSRF token, from the form: true when it is right, else the 403 page is sent. */
export function tokenAccepted(w: WebContext, signed: Signed, reply: FastifyReply, token: unknown): boolean {
  const refused = tokenRefusal(w.key, `session:${signed.session.idHash}`, token);
  if (refused) refuse(reply, signed.viewer, refused);
  return !refused;
}

/** For a form post: same origin, a live session, and that session's CSRF token; else a 403 page. */
export async function formSession(w: WebContext, request: FastifyRequest, reply: FastifyReply): Promise<(Signed & { form: Form }) | null> {
  const signed = await postSession(w, request, reply);
  if (!signed) return null;
  const form = (request.body ?? {}) as Form;
  return tokenAccepted(w, signed, reply, one(form.csrf)) ? { ...signed, form } : null;
}

function refuse(reply: FastifyReply, viewer: Viewer, message: string): null {
  sendPage(reply, messagePage('Nothing was changed', message, { href: '/account', label: 'Back to your account' }, viewer), 403);
  return null;
}

/** Organisation settings are for its super admins and admins; everyone else gets the same 403. */
export async function organisationAdmin(w: WebContext, signed: Signed, organisationId: string, reply: FastifyReply): Promise<OrgAccess | null> {
  const [org, membership] = await Promise.all([
    getOrganisation(w.service.db, organisationId),
    getMembership(w.service.db, organisationId, signed.session.user.id),
  ]);
  if (!org || !membership || !isAdminRole(membership.role)) {
    sendPage(
      reply,
      messagePage(
        'Not allowed',
        "Only an organisation's super admins and admins can see and change its settings.",
        { href: '/account', label: 'Back to your account' },
        signed.viewer,
      ),
      403,
    );
    return null;
  }
  return { ...signed, org: { id: org.id, name: org.name }, role: membership.role };
}

export function notFoundPage(reply: FastifyReply, viewer: Viewer, what: string, back: string): FastifyReply {
  return sendPage(
    reply,
    messagePage('Not found', `${what} does not exist, or is not part of this organisation.`, { href: back, label: 'Go back' }, viewer),
    404,
  );
}
