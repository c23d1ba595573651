/** Routes under /orgs/:orgId/…: signed in, (for posts) same origin and CSRF, then admin of that organisation. */
import type { Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkBeforeBody } from '../../calls/before-body.js';
import type { Form } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { formSession, organisationAdmin, pageSession, postSession, tokenAccepted, type OrgAccess } from './guards.js';

type Params = Record<string, string>;

export interface OrgRouter {
  page(path: string, handler: (a: OrgAccess, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void;
  action(path: string, handler: (a: OrgAccess & { form: Form }, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void;
  /** A multipart post (the scope must register @fastify/multipart without attachFieldsToBody); the handler reads the parts after the CSRF field. */
  upload(
    path: string,
    handler: (a: OrgAccess & { parts: AsyncIterableIterator<Multipart> }, params: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void;
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
    upload(path, handler) {
      app.post(`/orgs/:orgId${path}`, async (request, reply) => {
        const params = request.params as Params;
        // Session, origin and role come from the headers, so a refusal is sent before any of the
        // body is read, and closes the connection so the rest is not read either (http/before-body.ts).
        const admitted = await checkBeforeBody(reply, async () => {
          const signed = await postSession(w, request, reply);
          if (!signed) return undefined;
          const access = await organisationAdmin(w, signed, params.orgId!, reply);
          if (!access) return undefined;
          // The token is in the form, so it must be its first part (our page puts it first, and
          // browsers send fields in document order): nothing after it, a file least of all, is read
          // before it is checked.
          const parts = request.parts();
          const first = await parts.next();
          const token = !first.done && first.value.type === 'field' && first.value.fieldname === 'csrf' ? first.value.value : undefined;
          return tokenAccepted(w, signed, reply, token) ? { ...access, parts } : undefined;
        });
        if (!admitted) return reply;
        return handler(admitted, params, request, reply);
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
