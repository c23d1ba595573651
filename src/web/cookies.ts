/**
 * Cookies for the web pages, written by hand (three attributes and a parser need no plugin), and
 * sealed values: JSON signed with the service's cookie key, for short-lived state kept in the
 * browser (an external sign-in in progress) that must come back unaltered.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../store/hash.js';

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieOptions {
  path: string;
  secure: boolean;
  /** seconds; omitted makes a cookie that ends with the browser session */
  maxAge?: number;
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (o.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAge))}`);
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearedCookie(name: string, o: Omit<CookieOptions, 'maxAge'>): string {
  return `${serializeCookie(name, '', { ...o, maxAge: 0 })}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** On https the __Host- prefix pins a cookie to this host and path /, with Secure. */
export function cookieName(base: string, secure: boolean, path: string): string {
  return secure && path === '/' ? `__Host-${base}` : base;
}

function mac(key: string, payload: string): string {
  return createHmac('sha256', key).update(`sealed:${payload}`).digest('base64url');
}

export function seal(key: string, value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

export function unseal<T>(key: string, sealed: string | undefined): T | undefined {
  if (!sealed) return undefined;
  const dot = sealed.lastIndexOf('.');
  if (dot < 0) return undefined;
  const payload = sealed.slice(0, dot);
  if (!constantTimeEqual(mac(key, payload), sealed.slice(dot + 1))) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
