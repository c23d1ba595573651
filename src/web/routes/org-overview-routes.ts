/** The organisation overview for admins (GET /orgs/:orgId/overview): read only, so a page and no form. */
import type { FastifyInstance } from 'fastify';
import { booksOverview } from '../books-overview.js';
import { overviewPage } from '../pages/org-overview.js';
import { sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { orgRouter } from './org-routing.js';

export function registerOverviewRoutes(app: FastifyInstance, w: WebContext): void {
  const r = orgRouter(app, w);
  r.page('/overview', async (a, _p, _request, reply) => {
    const user = a.session.user;
    const overview = await booksOverview(w, { userId: user.id, email: user.email, role: a.role }, a.org.id);
    return sendPage(reply, overviewPage(a.viewer, a.org, overview));
  });
}
