/**
 * The web pages for people: password and single sign-on sign-in with a session cookie, their
 * connected apps, and organisation pages for super admins and admins (the books overview, API
 * clients, apps, role permissions, connections, members, audit log). Server-rendered, working without JavaScript.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ExternalIdentityConfig } from '../config.js';
import type { ServiceContext } from '../calls/service.js';
import { ExternalIdentity } from './external-identity.js';
import { registerAccountRoutes } from './routes/account-routes.js';
import { registerNewOrganisationRoutes } from './routes/new-organisation-routes.js';
import { registerExternalRoutes } from './routes/external-routes.js';
import { registerApiClientRoutes } from './routes/org-api-clients-routes.js';
import { registerAppRoutes } from './routes/org-apps-routes.js';
import { registerAuditRoutes } from './routes/org-audit-routes.js';
import { registerBankImportRoutes } from './routes/org-bank-import-routes.js';
import { registerReconcileRoutes } from './routes/org-reconcile-routes.js';
import { registerLedgerImportRoutes } from './routes/org-ledger-import-routes.js';
import { registerBillFilterRoutes } from './routes/org-bill-filters-routes.js';
import { registerDocumentRoutes } from './routes/org-documents-routes.js';
import { registerConnectionRoutes } from './routes/org-connections-routes.js';
import { registerAccountingConnectionRoutes } from './routes/org-accounting-routes.js';
import { registerInvitationRoutes } from './routes/invitation-routes.js';
import { registerMemberRoutes } from './routes/org-members-routes.js';
import { registerOverviewRoutes } from './routes/org-overview-routes.js';
import { registerRoleRoutes } from './routes/org-roles-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { createWebContext } from './web-context.js';

// read from the source tree, like the stylesheet, so the compiled server serves the same file
const asset = (name: string) => readFileSync(new URL(`../../src/web/assets/${name}`, import.meta.url));
const COPY_SCRIPT = asset('copy.js');
const TABS_SCRIPT = asset('tabs.js');
// the icon: SVG for browsers (layout.ts links it), and the same drawn at 16, 32 and 48 px in an ICO
// for whatever asks for /favicon.ico by habit (bookmarks, feed readers, older browsers)
const FAVICON_SVG = asset('favicon.svg');
const FAVICON_ICO = asset('favicon.ico');
const DAY = 'public, max-age=86400';

/** external: the identity provider for single sign-on (config.ts: OIDC_ISSUER and the rest), if any */
export function registerWebPages(app: FastifyInstance, service: ServiceContext, external: ExternalIdentityConfig | undefined): void {
  const w = createWebContext(service, external ? new ExternalIdentity(external, service.baseUrl) : undefined);
  app.get('/assets/copy.js', async (_req, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(COPY_SCRIPT),
  );
  app.get('/assets/tabs.js', async (_req, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(TABS_SCRIPT),
  );
  app.get('/assets/favicon.svg', async (_req, reply) => reply.header('content-type', 'image/svg+xml').header('cache-control', DAY).send(FAVICON_SVG));
  app.get('/favicon.ico', async (_req, reply) => reply.header('content-type', 'image/x-icon').header('cache-control', DAY).send(FAVICON_ICO));
  registerSessionRoutes(app, w);
  registerExternalRoutes(app, w);
  registerAccountRoutes(app, w);
  registerNewOrganisationRoutes(app, w);
  registerOverviewRoutes(app, w);
  registerApiClientRoutes(app, w);
  registerAppRoutes(app, w);
  registerRoleRoutes(app, w);
  registerConnectionRoutes(app, w);
  registerAccountingConnectionRoutes(app, w);
  registerMemberRoutes(app, w);
  registerInvitationRoutes(app, w);
  registerDocumentRoutes(app, w);
  registerBillFilterRoutes(app, w);
  registerBankImportRoutes(app, w);
  registerReconcileRoutes(app, w);
  registerLedgerImportRoutes(app, w);
  registerAuditRoutes(app, w);
}
