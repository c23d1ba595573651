/** A person's own page: their connected apps across organisations, each revocable. */
import type { FastifyInstance } from 'fastify';
import { revokeConsent } from '../../auth/consents.js';
import { writeAudit } from '../../store/audit-log.js';
import { consentsOfUser } from '../../store/connections.js';
import { verificationsOf } from '../../store/client-verifications.js';
import { organisationNames } from '../../store/organisations.js';
import { organisationsOfUser } from '../../store/users.js';
import { trustOf } from '../app-trust.js';
import { html } from '../html.js';
import { accountPage } from '../pages/account.js';
import { confirmPage } from '../pages/chrome.js';
import { seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { formSession, notFoundPage, pageSession } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom } from './org-routing.js';

export function registerAccountRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;

  app.get('/account', async (request, reply) => {
    const signed = await pageSession(w, request, reply);
    if (!signed) return reply;
    const userId = signed.session.user.id;
    const [organisations, consents] = await Promise.all([organisationsOfUser(db, userId), consentsOfUser(db, userId)]);
    // verified as the consent screen says it: by the operator, or by every organisation the connection acts for
    const verifying = await verificationsOf(
      db,
      consents.map((c) => c.clientId),
    );
    const connections = consents.map((c) => {
      const actsFor = c.allOrganisations ? organisations : c.organisationIds.map((id) => ({ id, name: '' }));
      return { ...c, verified: trustOf(c.verified, verifying.get(c.clientId) ?? new Set(), actsFor).verified };
    });
    const named = [...new Set(connections.flatMap((c) => c.organisationIds))];
    const names = await organisationNames(db, named);
    return sendPage(
      reply,
      accountPage({
        viewer: signed.viewer,
        organisations,
        connections,
        organisationNames: new Map(names.map((o) => [o.id, o.name])),
        ...noticeFrom(request, NOTICES.account),
      }),
    );
  });

  const own = async (userId: string, grantId: string) => (await consentsOfUser(db, userId)).find((c) => c.grantId === grantId);

  app.get('/account/connections/:grantId/disconnect', async (request, reply) => {
    const signed = await pageSession(w, request, reply);
    if (!signed) return reply;
    const { grantId } = request.params as { grantId: string };
    const consent = await own(signed.session.user.id, grantId);
    if (!consent) return notFoundPage(reply, signed.viewer, 'That connection', '/account');
    return sendPage(
      reply,
      confirmPage(signed.viewer, {
        title: `Disconnect ${consent.clientName}?`,
        explanation: html`<p>${consent.clientName} will no longer be able to use your books in any organisation. Its tokens stop working at once. You
          can connect it again later from the app.</p>`,
        action: `/account/connections/${grantId}/disconnect`,
        button: 'Disconnect',
        back: '/account',
      }),
    );
  });

  app.post('/account/connections/:grantId/disconnect', async (request, reply) => {
    const signed = await formSession(w, request, reply);
    if (!signed) return reply;
    const { grantId } = request.params as { grantId: string };
    const userId = signed.session.user.id;
    const consent = await own(userId, grantId);
    if (!consent) return notFoundPage(reply, signed.viewer, 'That connection', '/account');
    await revokeConsent(db, grantId);
    // each organisation it acted for sees the disconnection in its own log
    const organisations = consent.allOrganisations ? (await organisationsOfUser(db, userId)).map((o) => o.id) : consent.organisationIds;
    for (const organisationId of organisations.length ? organisations : [null]) {
      await writeAudit(db, {
        organisationId,
        actorUserId: userId,
        action: 'account.connection_revoked',
        target: consent.clientId,
        detail: { app: consent.clientName, user: consent.userEmail, clientId: consent.clientId },
      });
    }
    return seeOther(reply, '/account?done=disconnected');
  });
}
