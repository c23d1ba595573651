/**
 * What the web pages share: the service, the key their CSRF tokens and sealed cookies are signed
 * with, cookie names and attributes (Secure and the __Host- prefix when the service is on https),
 * the external identity provider when one is configured, and the signed-in person.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteForLog } from '../calls/request-log.js';
import type { ServiceContext } from '../calls/service.js';
import { findWebSession, SESSION_ABSOLUTE_SECONDS, type WebSession } from '../store/web-sessions.js';
import { clearedCookie, cookieName, readCookie, serializeCookie } from './cookies.js';
import { csrfToken, formRefusal } from './csrf.js';
import type { ExternalIdentity } from './external-identity.js';

export interface WebContext {
  service: ServiceContext;
  key: string;
  secure: boolean;
  external: ExternalIdentity | undefined;
  cookies: {
    session: string;
    /** a random value the signed-out sign-in form's CSRF token is bound to */
    signIn: string;
    /** an external sign-in in progress (state, nonce, PKCE verifier) */
    external: string;
    /** an external sign-in finished for an OAuth interaction */
    externalDone: string;
  };
}

/** The pages' session cookie: its name (with the __Host- prefix on https) and a Set-Cookie value for a new session. */
export function sessionCookieName(secure: boolean): string {
  return cookieName('ledgerline_session', secure, '/');
}

export function sessionCookieValue(secure: boolean, token: string): string {
  // the browser may keep it no longer than the session's absolute end; idle expiry is checked on the server
  return serializeCookie(sessionCookieName(secure), token, { path: '/', secure, maxAge: SESSION_ABSOLUTE_SECONDS });
}

export function createWebContext(service: ServiceContext, external: ExternalIdentity | undefined): WebContext {
  const secure = new URL(service.baseUrl).protocol === 'https:';
  return {
    service,
    key: service.secrets.cookieKeys[0]!,
    secure,
    external,
    cookies: {
      session: sessionCookieName(secure),
      signIn: cookieName('ledgerline_signin', secure, '/'),
      external: 'ledgerline_external',
      externalDone: 'ledgerline_external_done',
    },
  };
}

export async function currentSession(w: WebContext, request: FastifyRequest): Promise<WebSession | undefined> {
  const token = readCookie(request.headers.cookie, w.cookies.session);
  const session = token ? await findWebSession(w.service.db, token) : undefined;
  if (session) noteForLog(request, { userId: session.user.id }); // the person on the request's log line (an id, never the email)
  return session;
}

export function sessionToken(w: WebContext, request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, w.cookies.session);
}

/** The CSRF token of every form a signed-in person sends. */
export function sessionCsrf(w: WebContext, session: WebSession): string {
  return csrfToken(w.key, `session:${session.idHash}`);
}

export function setSessionCookie(w: WebContext, reply: FastifyReply, token: string): void {
  reply.header('set-cookie', sessionCookieValue(w.secure, token));
}

export function clearSessionCookie(w: WebContext, reply: FastifyReply): void {
  reply.header('set-cookie', clearedCookie(w.cookies.session, { path: '/', secure: w.secure }));
}

/**
 * The CSRF token of a signed-out form (sign-in, accepting an invitation with a new password): bound
 * to a random value in its own cookie, set here when the browser has none yet.
 */
export function signedOutCsrf(w: WebContext, request: FastifyRequest, reply: FastifyReply): string {
  let binding = readCookie(request.headers.cookie, w.cookies.signIn);
  if (!binding || !/^[\w-]{20,100}$/.test(binding)) {
    binding = randomBytes(18).toString('base64url');
    reply.header('set-cookie', serializeCookie(w.cookies.signIn, binding, { path: '/', secure: w.secure, maxAge: 3600 }));
  }
  return csrfToken(w.key, `signin:${binding}`);
}

/** Why a signed-out form's post is refused (another origin, a wrong or missing token), or null. */
export function signedOutRefusal(w: WebContext, request: FastifyRequest, token: unknown): string | null {
  const binding = readCookie(request.headers.cookie, w.cookies.signIn) ?? '';
  return formRefusal(w.service.baseUrl, w.key, `signin:${binding}`, request.headers as { origin?: string; referer?: string }, token);
}
