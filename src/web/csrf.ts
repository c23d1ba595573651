/**
 * CSRF protection for every form: a token bound to what the form acts on (an interaction uid, a
 * session) and signed with the service's cookie key, plus a same-origin check on Origin/Referer.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../auth/hash.js';

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

/** Why a form post must be refused (another origin, or a missing or wrong token), or null. */
export function formRefusal(
  baseUrl: string,
  key: string,
  binding: string,
  headers: { origin?: string | undefined; referer?: string | undefined },
  token: unknown,
): string | null {
  if (!sameOrigin(baseUrl, headers)) return 'This form must be sent from Ledgerline itself.';
  if (!csrfValid(key, binding, token)) return 'This form has expired. Go back, reload the page and try again.';
  return null;
}
