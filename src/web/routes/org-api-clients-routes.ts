/** API clients: create (the secret shown once), list with last use, revoke. */
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { createApiClient, getClient, listApiClients, revokeClient } from '../../auth/clients.js';
import { userEmails } from '../../store/users.js';
import { html } from '../html.js';
import { apiClientCreatedPage, apiClientsPage, scopesOf } from '../pages/org-api-clients.js';
import { confirmPage } from '../pages/chrome.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

const RETURN_TABS = new Set(['api-clients', 'connections']);

export function registerApiClientRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);

  async function listing(a: OrgAccess) {
    const rows = await listApiClients(db, a.org.id);
    const creators = rows.map((c) => c.created_by).filter((x): x is string => !!x);
    const emails = await userEmails(db, creators);
    return rows.map((row) => ({ row, createdBy: (row.created_by && emails.get(row.created_by)) ?? null }));
  }

  const ownClient = async (organisationId: string, clientId: string) => {
    const row = await getClient(db, clientId);
    return row && row.kind === 'api_client' && row.organisation_id === organisationId ? row : undefined;
  };

  r.page('/api-clients', async (a, _p, request, reply) =>
    sendPage(reply, apiClientsPage(a.viewer, a.org, await listing(a), noticeFrom(request, NOTICES.apiClients))),
  );

  r.action('/api-clients', async (a, _p, _request, reply) => {
    const name = (one(a.form.name) ?? '').trim();
    if (!name || name.length > 100) {
      return sendPage(reply, apiClientsPage(a.viewer, a.org, await listing(a), { error: 'Give the API client a name (up to 100 characters).', name }), 400);
    }
    const scopes = one(a.form.write) === '1' ? ['service.read', 'service.write'] : ['service.read'];
    const created = await createApiClient(db, { organisationId: a.org.id, name, scopes, createdBy: a.session.user.id });
    await auditAs(db, a, 'api_client.created', created.clientId, { name, scopes });
    // shown in this answer and nowhere else; the page is sent with no-store
    return sendPage(reply, apiClientCreatedPage(a.viewer, a.org, created, w.service.baseUrl));
  });

  r.page('/api-clients/:clientId/revoke', async (a, p, request, reply) => {
    const row = await ownClient(a.org.id, p.clientId!);
    if (!row) return notFoundPage(reply, a.viewer, 'That API client', `/orgs/${a.org.id}/api-clients`);
    const from = String((request.query as { from?: string }).from ?? 'api-clients');
    const back = `/orgs/${a.org.id}/${RETURN_TABS.has(from) ? from : 'api-clients'}`;
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Revoke ${row.name}?`,
        explanation: html`<p>Anything that uses API client <strong>${row.name}</strong> (<code>${row.client_id}</code>) stops working at once: its
          tokens are refused from the next call, and its secret can no longer get new ones. This cannot be undone.</p>
<p class="muted">Access: ${scopesOf(row).includes('service.write') ? 'read and change' : 'read only'}.</p>`,
        action: `/orgs/${a.org.id}/api-clients/${row.client_id}/revoke${RETURN_TABS.has(from) && from !== 'api-clients' ? `?from=${from}` : ''}`,
        button: 'Revoke API client',
        back,
      }),
    );
  });

  r.action('/api-clients/:clientId/revoke', async (a, p, request, reply) => {
    const row = await ownClient(a.org.id, p.clientId!);
    if (!row) return notFoundPage(reply, a.viewer, 'That API client', `/orgs/${a.org.id}/api-clients`);
    await revokeClient(db, row.client_id);
    await auditAs(db, a, 'api_client.revoked', row.client_id, { name: row.name });
    const from = String((request.query as { from?: string }).from ?? '');
    return seeOther(reply, `/orgs/${a.org.id}/${from === 'connections' ? 'connections' : 'api-clients'}?done=revoked`);
  });
}
