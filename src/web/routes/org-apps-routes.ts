/**
 * Apps: register one (verified for this organisation); verify for this organisation, block or
 * unblock self-registered apps members connected; remove a registered one. An admin's verification
 * and block hold for their organisation only (src/web/app-trust.ts, src/store/client-blocks.ts); a
 * block for every organisation is the operator's (`ledgerline apps block`), which no admin can clear.
 */
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { getClient, registerApp, revokeClient } from '../../auth/clients.js';
import { clientsVerifiedBy, verifyForOrganisation } from '../../store/client-verifications.js';
import { blockForOrganisation, clientsBlockedBy, unblockForOrganisation } from '../../store/client-blocks.js';
import { appsRegisteredByOrganisation, selfRegisteredAppsInOrganisation } from '../../store/connections.js';
import { html } from '../html.js';
import { confirmPage } from '../pages/chrome.js';
import { appsPage, redirectUrisOf } from '../pages/org-apps.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerAppRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const back = (a: OrgAccess) => `/orgs/${a.org.id}/apps`;

  async function render(a: OrgAccess, options: Parameters<typeof appsPage>[6] = {}) {
    const [registered, connected, verifiedHere, blockedHere] = await Promise.all([
      appsRegisteredByOrganisation(db, a.org.id),
      selfRegisteredAppsInOrganisation(db, a.org.id),
      clientsVerifiedBy(db, a.org.id),
      clientsBlockedBy(db, a.org.id),
    ]);
    return appsPage(a.viewer, a.org, registered, connected, verifiedHere, blockedHere, options);
  }

  r.page('/apps', async (a, _p, request, reply) => sendPage(reply, await render(a, noticeFrom(request, NOTICES.apps))));

  r.action('/apps', async (a, _p, _request, reply) => {
    const name = (one(a.form.name) ?? '').trim();
    const text = one(a.form.redirect_uris) ?? '';
    const redirectUris = [
      ...new Set(
        text
          .split(/\r?\n/)
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    let problem: string | null = name.length > 100 ? 'The name can be up to 100 characters.' : null;
    if (!problem) {
      try {
        // registered by this organisation's admin, so verified for this organisation only, not by the operator
        const created = await db.transaction().execute(async (trx) => {
          const app = await registerApp(trx, { name, redirectUris, createdBy: a.session.user.id, organisationId: a.org.id });
          await verifyForOrganisation(trx, { clientId: app.clientId, organisationId: a.org.id, userId: a.session.user.id });
          return app;
        });
        await auditAs(db, a, 'app.registered', created.clientId, { name, redirectUris });
        return seeOther(reply, `${back(a)}?done=registered`);
      } catch (error) {
        const message = (error as Error).message;
        problem = `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
      }
    }
    return sendPage(reply, await render(a, { error: problem, name, redirectUris: text }), 400);
  });

  /** A self-registered app is actionable here only if members of this organisation connected it. */
  const connectedApp = async (a: OrgAccess, clientId: string) => (await selfRegisteredAppsInOrganisation(db, a.org.id, clientId))[0]?.client;

  const trust = (path: string, change: (a: OrgAccess, clientId: string) => Promise<void>, action: string, done: keyof typeof NOTICES.apps) =>
    r.action(`/apps/:clientId/${path}`, async (a, p, _request, reply) => {
      const client = await connectedApp(a, p.clientId!);
      if (!client) return notFoundPage(reply, a.viewer, 'That app', back(a));
      await change(a, client.client_id);
      await auditAs(db, a, action, client.client_id, { name: client.name });
      return seeOther(reply, `${back(a)}?done=${done}`);
    });
  trust('verify', (a, clientId) => verifyForOrganisation(db, { clientId, organisationId: a.org.id, userId: a.session.user.id }), 'app.verified', 'verified');
  trust('block', (a, clientId) => blockForOrganisation(db, { clientId, organisationId: a.org.id, userId: a.session.user.id }), 'app.blocked', 'blocked');
  trust('unblock', (a, clientId) => unblockForOrganisation(db, { clientId, organisationId: a.org.id }), 'app.unblocked', 'unblocked');

  r.page('/apps/:clientId/block', async (a, p, _request, reply) => {
    const client = await connectedApp(a, p.clientId!);
    if (!client) return notFoundPage(reply, a.viewer, 'That app', back(a));
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Block ${client.name}?`,
        explanation: html`<p>Every token of <strong>${client.name}</strong> is refused for ${a.org.name} from the next call, for everyone who
          connected it, and no one can connect it to ${a.org.name} until it is unblocked here. Other organisations decide for themselves.</p>`,
        action: `/orgs/${a.org.id}/apps/${client.client_id}/block`,
        button: 'Block app',
        back: back(a),
      }),
    );
  });

  const ownApp = async (a: OrgAccess, clientId: string) => {
    const row = await getClient(db, clientId);
    return row && row.kind === 'app' && row.organisation_id === a.org.id ? row : undefined;
  };

  r.page('/apps/:clientId/remove', async (a, p, _request, reply) => {
    const row = await ownApp(a, p.clientId!);
    if (!row) return notFoundPage(reply, a.viewer, 'That app', back(a));
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Remove ${row.name}?`,
        explanation: html`<p><strong>${row.name}</strong> (<code>${row.client_id}</code>, redirecting to ${redirectUrisOf(row).join(', ')}) is
          removed: every connection people made with it, and its tokens, stop working at once. This cannot be undone.</p>`,
        action: `/orgs/${a.org.id}/apps/${row.client_id}/remove`,
        button: 'Remove app',
        back: back(a),
      }),
    );
  });

  r.action('/apps/:clientId/remove', async (a, p, _request, reply) => {
    const row = await ownApp(a, p.clientId!);
    if (!row) return notFoundPage(reply, a.viewer, 'That app', back(a));
    await revokeClient(db, row.client_id);
    await auditAs(db, a, 'app.removed', row.client_id, { name: row.name });
    return seeOther(reply, `${back(a)}?done=removed`);
  });
}
