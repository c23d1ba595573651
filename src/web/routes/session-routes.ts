/** Signing in with a password, signing out, and the front door. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createWebSession, endWebSession } from '../../store/web-sessions.js';
import { checkPassword } from '../password-check.js';
import { signInPage, type SignInView } from '../pages/signin.js';
import { localPath, one, seeOther, sendPage, type Form } from '../respond.js';
import { clearSessionCookie, currentSession, sessionToken, setSessionCookie, signedOutCsrf, signedOutRefusal, type WebContext } from '../web-context.js';
import { formSession } from './guards.js';

export function registerSessionRoutes(app: FastifyInstance, w: WebContext): void {
  const { service } = w;

  function renderSignIn(request: FastifyRequest, reply: FastifyReply, view: Partial<SignInView>, status = 200) {
    const next = localPath(view.next, '');
    return sendPage(
      reply,
      signInPage({
        action: '/signin',
        csrf: signedOutCsrf(w, request, reply),
        ...view,
        ...(next ? { next } : {}),
        ...(w.external ? { external: { href: `/signin/external${next ? `?next=${encodeURIComponent(next)}` : ''}`, label: w.external.label } } : {}),
      }),
      status,
    );
  }

  app.get('/', async (request, reply) => seeOther(reply, (await currentSession(w, request)) ? '/account' : '/signin'));

  app.get('/signin', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (await currentSession(w, request)) return seeOther(reply, localPath(query.next));
    return renderSignIn(request, reply, {
      ...(query.next ? { next: query.next } : {}),
      ...(query.signed_out ? { notice: 'You have signed out.' } : {}),
      ...(query.ended ? { notice: 'Your session ended. Sign in again to continue.' } : {}),
    });
  });

  app.post('/signin', async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const email = (one(form.email) ?? '').trim().toLowerCase();
    const next = one(form.next);
    const again = (error: string, status: number) => renderSignIn(request, reply, { email, error, ...(next ? { next } : {}) }, status);
    const refused = signedOutRefusal(w, request, one(form.csrf));
    if (refused) return again(refused, 403);
    const result = await checkPassword(
      { db: service.db, limiter: service.limiter, limits: { perAccount: service.limits.signInPerAccount, perAddress: service.limits.signInPerAddress } },
      { email, password: one(form.password) ?? '', address: request.ip },
    );
    if (!result.ok) {
      if (result.retryAfter) reply.header('retry-after', String(result.retryAfter));
      return again(result.message, result.status);
    }
    // a fresh session id on every sign-in, and the one before it ended (no fixation)
    const previous = sessionToken(w, request);
    if (previous) await endWebSession(service.db, previous);
    const { token } = await createWebSession(service.db, result.user.id, 'password');
    setSessionCookie(w, reply, token);
    return seeOther(reply, localPath(next));
  });

  app.post('/signout', async (request, reply) => {
    if (!(await currentSession(w, request))) {
      clearSessionCookie(w, reply);
      return seeOther(reply, '/signin');
    }
    const signed = await formSession(w, request, reply);
    if (!signed) return reply;
    const token = sessionToken(w, request);
    if (token) await endWebSession(service.db, token);
    clearSessionCookie(w, reply);
    return seeOther(reply, '/signin?signed_out=1');
  });
}
