/**
 * Accounting system: the settings page of an organisation's books, and the pages of connecting it to
 * Xero or QuickBooks Online and disconnecting it. The use case is the accounting floor's
 * (accounting/connections/connect.ts: the sign-in with state and PKCE, the callback, the choice of
 * books, the disconnect); these routes check who asks, call it and render what it answers.
 *
 * Connect is a form post (CSRF-checked) that starts the sign-in and redirects to the vendor. The
 * vendor redirects back to /accounting/callback/{vendor}, a fixed address to register with it; the
 * state finds the sign-in, which must be the same person's, still an admin of the organisation.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  chooseTenant,
  completeSignIn,
  disconnect,
  findSignIn,
  startSignIn,
  tenantsToChoose,
  type ConnectOutcome,
} from '../../accounting/connections/connect.js';
import { accountingStatus } from '../../accounting/connections/status.js';
import type { AccountingConnectionSettings } from '../../domain/accounting-vendors.js';
import { html } from '../html.js';
import { formatInstant } from '../words.js';
import { confirmPage, messagePage, type Viewer } from '../pages/chrome.js';
import { accountingPage, chooseTenantPage } from '../pages/org-accounting.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { organisationAdmin, pageSession } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerAccountingConnectionRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const settings = (): AccountingConnectionSettings | undefined => w.service.env.accountingConnections;
  const redirectUri = (vendor: string) => `${w.service.baseUrl}/accounting/callback/${vendor}`;
  const back = (orgId: string) => ({ href: `/orgs/${orgId}/accounting`, label: 'Back to the accounting system' });
  const failed = (reply: FastifyReply, viewer: Viewer, orgId: string, message: string, status = 502) =>
    sendPage(reply, messagePage('Not connected', message, back(orgId), viewer), status);
  const expired = (organisationId: string): ConnectOutcome => ({
    outcome: 'refused',
    organisationId,
    message: 'This sign-in has expired or was finished already. Start again.',
    status: 404,
  });
  /** The page for how a sign-in ended. */
  const answer = (reply: FastifyReply, viewer: Viewer, o: ConnectOutcome) =>
    o.outcome === 'connected'
      ? seeOther(reply, `/orgs/${o.organisationId}/accounting?done=connected`)
      : o.outcome === 'choose'
        ? seeOther(reply, `/orgs/${o.organisationId}/accounting/choose/${o.requestId}`)
        : failed(reply, viewer, o.organisationId, o.message, o.status);

  r.page('/accounting', async (a, _p, request, reply) => {
    const status = await accountingStatus(db, settings(), a.org.id);
    const f = status.failing;
    // the copy's passes failing (backed off: mirror.ts): said, with when Ledgerline tries again by
    // itself; a connection to make again already says why in its row
    const attempts = f && (f.failures === 1 ? 'the last attempt' : `the last ${f.failures} attempts`);
    const failing = f
      ? {
          error:
            `Ledgerline could not bring its copy of the books up to date (${attempts} failed): ${f.problem} It tries again by itself` +
            `${f.retryAt ? ` after ${formatInstant(f.retryAt)}` : ''}; a call that reads the books tries at once.`,
        }
      : {};
    return sendPage(reply, accountingPage(a.viewer, a.org, status, { ...noticeFrom(request, NOTICES.accounting), ...failing }));
  });

  r.action('/accounting/connect/:vendor', async (a, p, _request, reply) => {
    const started = await startSignIn(db, settings(), {
      vendor: p.vendor,
      organisationId: a.org.id,
      userId: a.session.user.id,
      redirectUri: redirectUri(p.vendor!),
    });
    return 'url' in started ? seeOther(reply, started.url.href) : failed(reply, a.viewer, a.org.id, started.refused, started.status);
  });

  app.get('/accounting/callback/:vendor', async (request, reply) => {
    const signed = await pageSession(w, request, reply);
    if (!signed) return reply;
    const vendor = (request.params as { vendor: string }).vendor;
    const callback = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) if (typeof value === 'string') callback.set(name, value);
    const signIn = await findSignIn(db, settings(), { vendor, state: callback.get('state') ?? undefined, userId: signed.session.user.id });
    if (!signIn) {
      return sendPage(
        reply,
        messagePage(
          'Not connected',
          'This sign-in is not one this service started for you, or it has expired (ten minutes). Start again from the organisation settings.',
          { href: '/account', label: 'Back to your account' },
          signed.viewer,
        ),
        400,
      );
    }
    const a = await organisationAdmin(w, signed, signIn.organisationId, reply);
    if (!a) return reply;
    const outcome = await completeSignIn(db, settings()!, signIn, { callback, redirectUri: redirectUri(vendor), userId: signed.session.user.id });
    return answer(reply, a.viewer, outcome);
  });

  r.page('/accounting/choose/:request', async (a, p, _request, reply) => {
    const choice = await tenantsToChoose(db, settings(), { requestId: p.request!, userId: a.session.user.id, organisationId: a.org.id });
    if (!choice) return failed(reply, a.viewer, a.org.id, 'This sign-in has expired or was finished already. Start again.', 404);
    return sendPage(reply, chooseTenantPage(a.viewer, a.org, p.request!, choice));
  });

  r.action('/accounting/choose/:request', async (a, p, _request, reply) => {
    const input = { requestId: p.request!, userId: a.session.user.id, organisationId: a.org.id };
    const outcome = await chooseTenant(db, settings(), { ...input, tenantId: one(a.form.tenant) });
    const choice = outcome ? undefined : await tenantsToChoose(db, settings(), input);
    if (outcome || !choice) return answer(reply, a.viewer, outcome ?? expired(a.org.id));
    return sendPage(reply, chooseTenantPage(a.viewer, a.org, p.request!, choice), 400);
  });

  r.page('/accounting/disconnect', async (a, _p, _request, reply) => {
    const c = (await accountingStatus(db, settings(), a.org.id)).connection;
    if (!c) return seeOther(reply, `/orgs/${a.org.id}/accounting`);
    const name = c.descriptor?.name ?? c.vendor;
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Disconnect ${name} from ${a.org.name}?`,
        explanation: html`<p>Ledgerline stops reading “${c.tenant_name}” in ${name} at once, and asks ${name} to revoke its access. Calls for
          ${a.org.name}'s books fail until it is connected again.</p>`,
        action: `/orgs/${a.org.id}/accounting/disconnect`,
        button: 'Disconnect',
        back: `/orgs/${a.org.id}/accounting`,
      }),
    );
  });

  r.action('/accounting/disconnect', async (a, _p, _request, reply) => {
    const done = await disconnect(db, settings(), { organisationId: a.org.id, userId: a.session.user.id });
    return seeOther(reply, `/orgs/${a.org.id}/accounting${done ? '?done=disconnected' : ''}`);
  });
}
