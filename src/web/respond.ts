/** How every page is sent: HTML, never cached, never framed, scripts and styles only from here. */
import type { FastifyReply } from 'fastify';

const CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function sendPage(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('content-security-policy', CSP)
    .send(body);
}

/** A redirect after a form post (303: the browser follows with GET). */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
}

export type Form = Record<string, string | string[] | undefined>;

export const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
export const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** A local path to go back to after signing in; anything that could lead elsewhere is ignored. */
export function localPath(value: unknown, fallback = '/account'): string {
  if (typeof value !== 'string' || value.length > 500 || !value.startsWith('/')) return fallback;
  // browsers drop tabs and newlines and read a backslash as a slash, so "/\t/x" or "/\\x" would leave the site
  if (value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  return value;
}
