/**
 * One write to Xero (PUT or POST), sent once with its Idempotency-Key: Xero answers a repeat of the
 * same key with the first answer and makes nothing new, so the operation may try again after an
 * unknown outcome. What comes back:
 * - 200: the JSON answer;
 * - 400 with Xero's ValidationException (Elements[].ValidationErrors[].Message): XeroRefusal, the
 *   messages in Xero's words, for the caller to name the field (refusals.ts); nothing was written;
 * - 401 with error="insufficient_scope": the connection was made for reading only (before
 *   Ledgerline wrote to Xero), and the problem says to connect Xero again to allow writing;
 * - a 429, a 5xx, a dropped connection or a time-out: AccountingSystemError, the outcome unknown
 *   (the write may have been made): the caller looks it up (findPublished) before trying again.
 * A write is never sent twice here, even on a network error, so that "unknown" stays the
 * operation's to resolve with the same key.
 */
import { createHash } from 'node:crypto';
import { insufficientScopeProblem } from '../../domain/xero-scopes.js';
import { AccountingSystemError } from '../types.js';
import { retryAfterSeconds } from '../vendor-get.js';
import { isInsufficientScope, type XeroClient } from './client.js';

/** How long a write may take before its outcome is called unknown. */
const WRITE_TIMEOUT_MS = 30_000;

/** Xero refused the write: its validation messages, nothing written. */
export class XeroRefusal extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join('; ') || 'Xero refused the change');
    this.name = 'XeroRefusal';
  }
}

/**
 * The Idempotency-Key of one write of a publish or payment: derived from the caller's key, what the
 * write is (the contact, the record, the file) and its body, so a try sending the same thing again
 * gets Xero's first answer, and a document corrected after a refusal is a new request rather than
 * a replay of the refusal. Within Xero's 128 characters.
 */
export function idempotencyKey(key: string, what: string, body: string | Buffer = ''): string {
  return `ll-${createHash('sha256').update(key).update('\n').update(what).update('\n').update(body).digest('base64url')}`;
}

/** A short mark of a key (what a record carries so findPublished can find it again). */
export const keyMark = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 22);

interface XeroErrorBody {
  Type?: string;
  Message?: string;
  Elements?: { ValidationErrors?: { Message?: string }[] }[];
  Detail?: string;
}

export async function xeroWrite<T>(
  client: XeroClient,
  method: 'PUT' | 'POST',
  path: string,
  body: unknown,
  key: string,
  /** for a file: its type (the body is its bytes) */
  contentType?: string,
): Promise<T> {
  const { url, headers, fetchImpl } = client.writeTarget(path, method);
  const raw = Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const sent = { ...headers, 'content-type': contentType ?? 'application/json', 'idempotency-key': key };
  let res: Response;
  try {
    res = await fetchImpl(url, { method, headers: sent, body: raw, signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof AccountingSystemError) throw error;
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new AccountingSystemError(
      `Xero ${timedOut ? 'did not answer in time' : `could not be reached (${(error as Error).message})`}: whether ${method} ${path} was made is not known`,
      timedOut ? 'accounting_timeout' : 'accounting_unavailable',
    );
  }
  if (res.ok) {
    try {
      return (await res.json()) as T;
    } catch {
      throw new AccountingSystemError(`Xero's answer to ${method} ${path} is not JSON: whether it was made is not known`);
    }
  }
  const answer = (await res.json().catch(() => undefined)) as XeroErrorBody | undefined;
  if (res.status === 400) {
    const messages = (answer?.Elements ?? []).flatMap((e) => (e.ValidationErrors ?? []).map((v) => v.Message ?? '')).filter(Boolean);
    throw new XeroRefusal(messages.length ? messages : [answer?.Message ?? answer?.Detail ?? 'Xero refused the request']);
  }
  if (res.status === 401) {
    if (isInsufficientScope(res)) throw new AccountingSystemError(insufficientScopeProblem(path.replace(/\?.*$/, ''), method));
    throw new AccountingSystemError('Xero refused the access token (expired or revoked): the organisation must be connected to Xero again.');
  }
  if (res.status === 403) throw new AccountingSystemError("Xero refused access to the organisation's tenant (disconnected, or the token does not cover it).");
  if (res.status === 429) {
    const seconds = retryAfterSeconds(res.headers.get('retry-after')) ?? 1;
    throw new AccountingSystemError(
      `Xero's rate limit for this organisation is reached; Xero asks to retry after ${seconds} s.`,
      'accounting_rate_limited',
      seconds,
    );
  }
  if (res.status === 404) throw new XeroRefusal([`Xero does not know ${path.split('/').slice(0, 3).join('/')}`]);
  throw new AccountingSystemError(`Xero is unavailable (HTTP ${res.status}): whether ${method} ${path} was made is not known`);
}
