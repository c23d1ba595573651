/**
 * CSRF protection for every form: a token bound to what the form acts on (an interaction uid, a
 * session) and signed with the service's cookie key, plus a same-origin check on Origin/Referer.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../store/hash.js';

export function csrfToken(key: string, binding: string): string {
  return createHmac('sha256', key).update(`csrf:${binding}`).digest('base64url');
}

export function csrfValid(key: string, binding: string, token: unknown): boolean {
  return typeof token === 'string' && constantTimeEqual(csrfToken(key, binding), token);
}

/** A browser's form post carries Origin (or at least Referer); either must be this service. */
export function sameOrigin(baseUrl: string, headers: { origin?: string | undefined; referer?: string | undefined }): boolean {
  const expected = new URL(baseUrl).origin;
  if (headers.origin) return headers.origin === expected;
  if (headers.referer) {
    try {
      return new URL(headers.referer).origin === expected;
    } catch {
      return false;
    }
  }
  return false;
}

/** Why a post must be refused for where it comes from (another origin, or none named), or null. */
export function originRefusal(baseUrl: string, headers: { origin?: string | undefined; referer?: string | undefined }): string | null {
  return sameOrigin(baseUrl, headers) ? null : 'This form must be sent from Ledgerline itself.';
}

/** Why a post must be refused for its token (missing or wrong), or null. */
export function tokenRefusal(key: string, binding: string, token: unknown): string | null {
  return csrfValid(key, binding, token) ? null : 'This form has expired. Go back, reload the page and try again.';
}

/** Why a form post must be refused (another origin, or a missing or wrong token), or null. */
export function formRefusal(
  baseUrl: string,
  key: string,
  binding: string,
  headers: { origin?: string | undefined; referer?: string | undefined },
  token: unknown,
): string | null {
  return originRefusal(baseUrl, headers) ?? tokenRefusal(key, binding, token);
}
