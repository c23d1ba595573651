/** Routes under /orgs/:orgId/…: signed in, (for posts) same origin and CSRF, then admin of that organisation. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Form } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { formSession, organisationAdmin, pageSession, type OrgAccess } from './guards.js';

type Params = Record<string, string>;

export interface OrgRouter {
  page(path: string, handler: (a: OrgAccess, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void;
  action(path: string, handler: (a: OrgAccess & { form: Form }, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void;
}

export function orgRouter(app: FastifyInstance, w: WebContext): OrgRouter {
  return {
    page(path, handler) {
      app.get(`/orgs/:orgId${path}`, async (request, reply) => {
        const signed = await pageSession(w, request, reply);
        if (!signed) return reply;
        const params = request.params as Params;
        const access = await organisationAdmin(w, signed, params.orgId!, reply);
        if (!access) return reply;
        return handler(access, params, request, reply);
      });
    },
    action(path, handler) {
      app.post(`/orgs/:orgId${path}`, async (request, reply) => {
        const signed = await formSession(w, request, reply);
        if (!signed) return reply;
        const params = request.params as Params;
        const access = await organisationAdmin(w, signed, params.orgId!, reply);
        if (!access) return reply;
        return handler({ ...access, form: signed.form }, params, request, reply);
      });
    },
  };
}

/** A fixed message chosen by a code in the query, so nothing from the URL is echoed. */
export function noticeFrom(request: FastifyRequest, notices: Record<string, string>): { notice?: string } {
  const code = (request.query as { done?: string }).done;
  const notice = code && Object.hasOwn(notices, code) ? notices[code] : undefined;
  return notice ? { notice } : {};
}
