/**
 * The sign-in and consent steps of the authorization code flow. oidc-provider hands the browser
 * here (/oauth/interaction/:uid); we show the page, check the form, and hand the result back.
 */
import { createWebSession, endWebSession } from '../store/web-sessions.js';
import { readCookie } from './cookies.js';
import { sessionCookieName, sessionCookieValue } from './web-context.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import { getClient } from '../auth/clients.js';
import { saveConsent } from '../auth/consents.js';
import type { Database } from '../store/schema.js';
import { insertMetadataDocumentClient } from '../store/connections.js';
import { normaliseEmail, organisationsOfUser, userEmails } from '../store/users.js';
import type { ExternalIdentityConfig } from '../config.js';
import type { Limit } from '../config.js';
import type { RateLimiter } from '../calls/rate-limit.js';
import { csrfToken, csrfValid, sameOrigin } from './csrf.js';
import { consentPage, type ConsentView } from './pages/consent.js';
import { appTrustFor } from './app-trust.js';
import { organisationsBlocking } from '../store/client-blocks.js';
import { checkPassword } from './password-check.js';
import { signInPage } from './pages/signin.js';
import { list, one, type Form } from './respond.js';

export interface InteractionOptions {
  provider: Provider;
  db: Kysely<Database>;
  baseUrl: string;
  csrfKey: string;
  limiter: RateLimiter;
  signInLimits: { perAccount: Limit; perAddress: Limit };
  /** the identity provider for single sign-on, if any */
  external: ExternalIdentityConfig | undefined;
}

export function registerInteractions(app: FastifyInstance, o: InteractionOptions): void {
  // single sign-on beside the password when an external identity provider is configured (src/web/routes/external-routes.ts)
  const externalConfig = o.external;
  const external = (uid: string) =>
    externalConfig ? { external: { href: `/oauth/interaction/${uid}/external`, label: new URL(externalConfig.issuer).host } } : {};
  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header('content-security-policy', "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' *; frame-ancestors 'none'; base-uri 'none'")
      .send(body);

  async function clientView(clientId: string) {
    const client = await o.provider.Client.find(clientId);
    const row = await getClient(o.db, clientId);
    const name = row?.name ?? client?.clientName ?? clientId;
    return { client, row, name };
  }

  app.get('/oauth/interaction/:uid', async (request, reply) => {
    const details = await o.provider.interactionDetails(request.raw, reply.raw);
    const uid = details.uid;
    const { name } = await clientView(String(details.params.client_id));
    if (details.prompt.name === 'login') {
      return html(reply, signInPage({ action: `/oauth/interaction/${uid}/login`, csrf: csrfToken(o.csrfKey, uid), clientName: name, ...external(uid) }));
    }
    return html(reply, await renderConsent(details));
  });

  /** The person's organisations the app may be connected to: not those whose admins blocked it. */
  async function connectableOrganisations(accountId: string, clientId: string) {
    const memberships = await organisationsOfUser(o.db, accountId);
    const blocking = await organisationsBlocking(
      o.db,
      clientId,
      memberships.map((m) => m.id),
    );
    return memberships.filter((m) => !blocking.has(m.id));
  }

  /** The consent page; after an error, `form` is what the person sent, so their ticks stay as they left them. */
  async function renderConsent(details: Awaited<ReturnType<Provider['interactionDetails']>>, error?: string, form: Form = {}): Promise<string> {
    const accountId = String(details.session?.accountId);
    const userEmail = (await userEmails(o.db, [accountId])).get(accountId) ?? '';
    const orgs = (await connectableOrganisations(accountId, String(details.params.client_id))).map((g) => ({ id: g.id, name: g.name }));
    const { client, row, name } = await clientView(String(details.params.client_id));
    const trust = await appTrustFor(o.db, row, orgs);
    const requested = new Set(String(details.params.scope ?? '').split(' '));
    const redirect = String(details.params.redirect_uri ?? client?.redirectUris?.[0] ?? '');
    const view: ConsentView = {
      action: `/oauth/interaction/${details.uid}/consent`,
      csrf: csrfToken(o.csrfKey, details.uid),
      clientName: name,
      ...trust,
      redirectHost: URL.parse(redirect)?.host ?? redirect,
      userEmail,
      organisations: orgs.length > 1 ? orgs : null,
      ...(orgs.length === 1 ? { singleOrganisation: orgs[0]!.name } : {}),
      readRequested: requested.has('service.read') || !requested.has('service.write'),
      writeRequested: requested.has('service.write'),
      offline: requested.has('offline_access'),
      chosen: { write: one(form.write) === '1', allOrganisations: one(form.all_organisations) === '1', organisations: list(form.organisation) },
      ...(error ? { error } : {}),
    };
    return consentPage(view);
  }

  function checkForm(request: FastifyRequest, uid: string, form: Form): string | null {
    if (!sameOrigin(o.baseUrl, request.headers as { origin?: string; referer?: string })) return 'This form must be sent from Ledgerline itself.';
    if (!csrfValid(o.csrfKey, uid, one(form.csrf))) return 'This form has expired. Go back to the app and start again.';
    return null;
  }

  app.post('/oauth/interaction/:uid/login', async (request, reply) => {
    const details = await o.provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name !== 'login') return reply.redirect(`/oauth/interaction/${details.uid}`, 303);
    const form = (request.body ?? {}) as Form;
    const { name } = await clientView(String(details.params.client_id));
    const email = normaliseEmail(one(form.email) ?? '');
    const again = (error: string, status: number) =>
      html(
        reply,
        signInPage({
          action: `/oauth/interaction/${details.uid}/login`,
          csrf: csrfToken(o.csrfKey, details.uid),
          clientName: name,
          email,
          error,
          ...external(details.uid),
        }),
        status,
      );
    const refused = checkForm(request, details.uid, form);
    if (refused) return again(refused, 403);
    const result = await checkPassword(
      { db: o.db, limiter: o.limiter, limits: o.signInLimits },
      { email, password: one(form.password) ?? '', address: request.ip },
    );
    if (!result.ok) {
      if (result.retryAfter) reply.header('retry-after', String(result.retryAfter));
      return again(result.message, result.status);
    }
    const user = result.user;
    // signing in to connect an app signs in to the pages too, so /account needs no second sign-in;
    // a session the browser had before ends (a fresh session id on every sign-in)
    const secure = new URL(o.baseUrl).protocol === 'https:';
    const previous = readCookie(request.headers.cookie, sessionCookieName(secure));
    if (previous) await endWebSession(o.db, previous);
    const { token } = await createWebSession(o.db, user.id, 'password');
    reply.raw.setHeader('set-cookie', sessionCookieValue(secure, token));
    reply.hijack();
    await o.provider.interactionFinished(request.raw, reply.raw, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });

  app.post('/oauth/interaction/:uid/consent', async (request, reply) => {
    const details = await o.provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name !== 'consent') return reply.redirect(`/oauth/interaction/${details.uid}`, 303);
    const form = (request.body ?? {}) as Form;
    const refused = checkForm(request, details.uid, form);
    if (refused) return html(reply, await renderConsent(details, refused), 403);
    if (one(form.decision) !== 'approve') {
      reply.hijack();
      await o.provider.interactionFinished(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'the user did not allow access' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = String(details.session!.accountId);
    const clientId = String(details.params.client_id);
    const memberships = await connectableOrganisations(accountId, clientId);
    if (memberships.length === 0)
      return html(
        reply,
        await renderConsent(details, 'You are not a member of any organisation this app may be connected to, so there is nothing to connect.'),
        400,
      );
    let all = false;
    let chosen: string[];
    if (memberships.length === 1) chosen = [memberships[0]!.id];
    else {
      all = one(form.all_organisations) === '1';
      chosen = all ? [] : [...new Set(list(form.organisation))];
      if (!all && chosen.length === 0) return html(reply, await renderConsent(details, 'Pick at least one organisation.', form), 400);
      if (chosen.some((id) => !memberships.some((m) => m.id === id)))
        return html(
          reply,
          await renderConsent(details, 'You can only pick organisations you belong to and whose admins have not blocked this app.', form),
          400,
        );
    }
    const allowWrite = one(form.write) === '1';

    const grant = details.grantId ? await o.provider.Grant.find(details.grantId) : new o.provider.Grant({ accountId, clientId });
    if (!grant) return html(reply, await renderConsent(details, 'This request has expired. Go back to the app and start again.'), 400);
    const prompt = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    // a scope the user unticks must be rejected, not just left out, or the provider asks again
    const oidcScopes = (prompt.missingOIDCScope ?? []).filter((s) => s !== 'service.write' || allowWrite);
    if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
    if (!allowWrite && prompt.missingOIDCScope?.includes('service.write')) grant.rejectOIDCScope('service.write');
    const granted: string[] = [];
    for (const [resource, scopes] of Object.entries(prompt.missingResourceScopes ?? {})) {
      const allowed = scopes.filter((s) => s !== 'service.write' || allowWrite);
      if (allowed.length) grant.addResourceScope(resource, allowed.join(' '));
      if (!allowWrite && scopes.includes('service.write')) grant.rejectResourceScope(resource, 'service.write');
      granted.push(...allowed);
    }
    const grantId = await grant.save();
    await ensureClientRow(o.db, clientId, await o.provider.Client.find(clientId));
    await saveConsent(o.db, {
      grantId,
      userId: accountId,
      clientId,
      allOrganisations: all,
      organisationIds: chosen,
      scope: [...new Set([...granted, ...oidcScopes])].join(' '),
    });
    reply.hijack();
    await o.provider.interactionFinished(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });
}

/**
 * A Client ID Metadata Document client exists only as a URL until a user connects it; keep a row
 * so it shows up among connected apps, can be revoked, and passes the token check.
 */
async function ensureClientRow(db: Kysely<Database>, clientId: string, client: { clientName?: string; metadata(): Record<string, unknown> } | undefined) {
  if (!client) return;
  const existing = await getClient(db, clientId);
  if (existing) return;
  await insertMetadataDocumentClient(db, clientId, client.clientName ?? new URL(clientId).host, client.metadata());
}
