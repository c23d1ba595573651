/**
 * Sign-in through the external identity provider, for a web session (/signin) and inside an OAuth
 * authorization (/oauth/interaction/:uid), both returning to one registered callback. What the
 * round trip needs (state, nonce, PKCE verifier, where to go after) travels in a sealed,
 * short-lived cookie; inside an interaction the result is handed to the interaction's own path
 * (where oidc-provider's interaction cookie is sent) in another sealed cookie, never in the URL.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createWebSession, endWebSession } from '../../store/web-sessions.js';
import { findUserByEmail } from '../../store/users.js';
import { clearedCookie, readCookie, seal, serializeCookie, unseal } from '../cookies.js';
import type { ExternalAttempt } from '../external-identity.js';
import { messagePage } from '../pages/chrome.js';
import { localPath, seeOther, sendPage } from '../respond.js';
import { sessionToken, setSessionCookie, type WebContext } from '../web-context.js';

const ROUND_TRIP_SECONDS = 600;
const HAND_OVER_SECONDS = 120;
const CALLBACK_PATH = '/signin/external';

interface RoundTrip extends ExternalAttempt {
  /** the OAuth interaction this sign-in belongs to, or null for a web session */
  uid: string | null;
  next: string;
  exp: number;
}

interface HandOver {
  uid: string;
  userId: string;
  exp: number;
}

const now = () => Math.floor(Date.now() / 1000);

export function registerExternalRoutes(app: FastifyInstance, w: WebContext): void {
  const external = w.external;
  if (!external) return;
  const { service } = w;

  const failed = (reply: FastifyReply, message: string, status: number, back = '/signin') =>
    sendPage(reply, messagePage('Sign-in did not work', message, { href: back, label: back === '/signin' ? 'Back to sign-in' : 'Go back' }), status);

  async function begin(reply: FastifyReply, uid: string | null, next: string) {
    let started;
    try {
      started = await external!.start();
    } catch {
      return failed(reply, `The identity provider (${external!.label}) could not be reached. Try again in a moment, or sign in with your password.`, 502);
    }
    const trip: RoundTrip = { ...started.attempt, uid, next, exp: now() + ROUND_TRIP_SECONDS };
    reply.header('set-cookie', serializeCookie(w.cookies.external, seal(w.key, trip), { path: CALLBACK_PATH, secure: w.secure, maxAge: ROUND_TRIP_SECONDS }));
    return seeOther(reply, started.url);
  }

  app.get('/signin/external', async (request, reply) => begin(reply, null, localPath((request.query as { next?: string }).next)));

  app.get('/oauth/interaction/:uid/external', async (request, reply) => {
    const details = await service.provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name !== 'login') return seeOther(reply, `/oauth/interaction/${details.uid}`);
    return begin(reply, details.uid, `/oauth/interaction/${details.uid}`);
  });

  app.get('/signin/external/callback', async (request: FastifyRequest, reply) => {
    const trip = unseal<RoundTrip>(w.key, readCookie(request.headers.cookie, w.cookies.external));
    reply.header('set-cookie', clearedCookie(w.cookies.external, { path: CALLBACK_PATH, secure: w.secure }));
    if (!trip || trip.exp < now()) return failed(reply, 'This sign-in took too long or was started in another browser. Start again.', 400);
    const back = trip.uid ? `/oauth/interaction/${trip.uid}` : '/signin';
    let outcome;
    try {
      outcome = await external.finish(new URL(request.url, service.baseUrl), trip);
    } catch (error) {
      const said = (error as { error?: string }).error;
      return failed(
        reply,
        said === 'access_denied'
          ? 'Sign-in was cancelled at the identity provider.'
          : `The identity provider's answer could not be accepted (${said ?? 'invalid response'}). Start again.`,
        400,
        back,
      );
    }
    if (!outcome.ok) return failed(reply, outcome.message, 403, back);
    const user = await findUserByEmail(service.db, outcome.email);
    if (!user) return failed(reply, `No Ledgerline account uses ${outcome.email}. Ask an administrator of your organisation to add you.`, 403, back);

    if (trip.uid) {
      const handOver: HandOver = { uid: trip.uid, userId: user.id, exp: now() + HAND_OVER_SECONDS };
      reply.header(
        'set-cookie',
        serializeCookie(w.cookies.externalDone, seal(w.key, handOver), { path: `/oauth/interaction/${trip.uid}`, secure: w.secure, maxAge: HAND_OVER_SECONDS }),
      );
      return seeOther(reply, `/oauth/interaction/${trip.uid}/external/done`);
    }
    const previous = sessionToken(w, request);
    if (previous) await endWebSession(service.db, previous);
    const { token } = await createWebSession(service.db, user.id, 'external');
    setSessionCookie(w, reply, token);
    return seeOther(reply, localPath(trip.next));
  });

  app.get('/oauth/interaction/:uid/external/done', async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const handOver = unseal<HandOver>(w.key, readCookie(request.headers.cookie, w.cookies.externalDone));
    reply.header('set-cookie', clearedCookie(w.cookies.externalDone, { path: `/oauth/interaction/${uid}`, secure: w.secure }));
    const details = await service.provider.interactionDetails(request.raw, reply.raw);
    if (!handOver || handOver.uid !== uid || details.uid !== uid || handOver.exp < now()) {
      return failed(reply, 'This sign-in could not be matched to the app that asked. Go back to the app and start again.', 400);
    }
    if (details.prompt.name !== 'login') return seeOther(reply, `/oauth/interaction/${uid}`);
    reply.hijack();
    // the cleared hand-over cookie must reach the browser with the provider's redirect
    reply.raw.setHeader('set-cookie', clearedCookie(w.cookies.externalDone, { path: `/oauth/interaction/${uid}`, secure: w.secure }));
    await service.provider.interactionFinished(request.raw, reply.raw, { login: { accountId: handOver.userId } }, { mergeWithLastSubmission: false });
  });
}
