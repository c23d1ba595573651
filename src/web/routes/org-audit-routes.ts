/** The audit log, newest first, a page at a time. */
import type { FastifyInstance } from 'fastify';
import { listAudit } from '../../store/audit-log.js';
import { auditPage } from '../pages/org-audit.js';
import { seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { orgRouter } from './org-routing.js';

const PAGE_SIZE = 100;

export function registerAuditRoutes(app: FastifyInstance, w: WebContext): void {
  const r = orgRouter(app, w);
  r.page('', async (a, _p, _request, reply) => seeOther(reply, `/orgs/${a.org.id}/api-clients`));
  r.page('/audit', async (a, _p, request, reply) => {
    // the cursor is "created_at~id" of the last entry shown
    const before = String((request.query as { before?: string }).before ?? '');
    const [createdAt, id] = before.split('~');
    const cursor = createdAt && id && !Number.isNaN(Date.parse(createdAt)) ? { createdAt, id } : undefined;
    const entries = await listAudit(w.service.db, a.org.id, { limit: PAGE_SIZE + 1, ...(cursor ? { before: cursor } : {}) });
    const shown = entries.slice(0, PAGE_SIZE);
    const last = shown[shown.length - 1];
    const older = entries.length > PAGE_SIZE && last ? `/orgs/${a.org.id}/audit?before=${encodeURIComponent(`${last.created_at}~${last.id}`)}` : null;
    return sendPage(reply, auditPage(a.viewer, a.org, shown, older));
  });
}
