/** Connections: every consent and live token acting for the organisation, each revocable. */
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { listApiClients } from '../../auth/clients.js';
import { removeOrganisationFromConsent } from '../../auth/consents.js';
import { clientsVerifiedBy } from '../../store/client-verifications.js';
import { consentForOrganisation, consentsForOrganisation, liveTokens } from '../../store/connections.js';
import { memberIds } from '../../store/users.js';
import { html } from '../html.js';
import { confirmPage } from '../pages/chrome.js';
import { connectionsPage } from '../pages/org-connections.js';
import { seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerConnectionRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);

  r.page('/connections', async (a, _p, request, reply) => {
    const [listed, clients, members, verifiedHere] = await Promise.all([
      consentsForOrganisation(db, a.org.id),
      listApiClients(db, a.org.id),
      memberIds(db, a.org.id),
      clientsVerifiedBy(db, a.org.id),
    ]);
    // verified for this organisation: by the operator, or by its own admins
    const consents = listed.map((c) => ({ ...c, verified: c.verified || verifiedHere.has(c.clientId) }));
    const [byGrant, byClient] = await Promise.all([
      liveTokens(db, { grantIds: consents.map((c) => c.grantId) }),
      liveTokens(db, { clientIds: clients.map((c) => c.client_id) }),
    ]);
    return sendPage(
      reply,
      connectionsPage(
        a.viewer,
        a.org,
        consents.map((consent) => ({ consent, tokens: byGrant.get(consent.grantId), member: members.has(consent.userId) })),
        clients.map((row) => ({ row, tokens: byClient.get(row.client_id) })),
        noticeFrom(request, NOTICES.connections),
      ),
    );
  });

  r.page('/connections/:grantId/revoke', async (a, p, _request, reply) => {
    const consent = await consentForOrganisation(db, a.org.id, p.grantId!);
    if (!consent) return notFoundPage(reply, a.viewer, 'That connection', `/orgs/${a.org.id}/connections`);
    const elsewhere = consent.allOrganisations || consent.organisationIds.length > 1;
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Disconnect ${consent.clientName} for ${consent.userEmail}?`,
        explanation: html`<p>${consent.clientName} stops acting for ${a.org.name} for ${consent.userEmail} at once: its tokens are refused for
          ${a.org.name} from the next call.</p>
${
  elsewhere
    ? html`<p class="muted">This connection also covers ${
        consent.allOrganisations ? 'their other organisations' : 'other organisations of theirs'
      }; it goes on working there, as their admins and they decide.</p>`
    : ''
}`,
        action: `/orgs/${a.org.id}/connections/${consent.grantId}/revoke`,
        button: 'Disconnect',
        back: `/orgs/${a.org.id}/connections`,
      }),
    );
  });

  r.action('/connections/:grantId/revoke', async (a, p, _request, reply) => {
    const consent = await consentForOrganisation(db, a.org.id, p.grantId!);
    if (!consent) return notFoundPage(reply, a.viewer, 'That connection', `/orgs/${a.org.id}/connections`);
    const outcome = await removeOrganisationFromConsent(db, consent.grantId, a.org.id);
    await auditAs(db, a, 'connection.revoked', consent.clientId, {
      app: consent.clientName,
      user: consent.userEmail,
      userId: consent.userId,
      clientId: consent.clientId,
      connection: outcome,
    });
    return seeOther(reply, `/orgs/${a.org.id}/connections?done=revoked`);
  });
}
