/**
 * One GET to a vendor's accounting API (Xero, QuickBooks) with the vendor's limits answered as the
 * interface's errors, written once: a kept-alive connection the vendor closed is tried once more; a
 * 429 is waited out for its Retry-After while the call's wait budget allows (at most 3 retries),
 * else 503 accounting_rate_limited with that wait; a refused token, a refused tenant, an outage, a
 * refused request or an answer that is not JSON is accounting_unavailable, naming which.
 */
import { AccountingSystemError } from './types.js';

const MAX_RETRIES = 3;
export const DEFAULT_WAIT_MS = 5_000;

/** Retry-After as seconds (whole seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface VendorWords {
  /** the vendor's name: Xero, QuickBooks */
  vendor: string;
  /** what the vendor calls the books: "organisation's tenant", "company" */
  books: string;
  /** the wait when a 429 gives no Retry-After */
  defaultRetryAfterSeconds: number;
  /** more about a 429, from its headers (Xero names the limit hit) */
  rateLimitDetail?(res: Response): string | undefined;
  /** the vendor's own words for a refused request, from its body */
  refusalDetail?(body: unknown): string | undefined;
  /** what a 401 means when it is not the token (Xero: a scope the token was not granted), from its headers */
  unauthorized?(res: Response, path: string): string | undefined;
}

export async function vendorGet<T>(
  words: VendorWords,
  fetchImpl: typeof fetch,
  url: URL,
  headers: Record<string, string>,
  waitBudgetMs: number,
  path: string,
  /** how the answer is read: JSON (the default), or a file's bytes */
  read?: (res: Response) => Promise<T>,
): Promise<T> {
  const { vendor } = words;
  const vendors = vendor.endsWith('s') ? `${vendor}'` : `${vendor}'s`;
  let waited = 0;
  let retriedNetwork = false;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetchImpl(url, { headers });
    } catch (error) {
      // the connection's call budget (or its token) refused the call before it was sent
      if (error instanceof AccountingSystemError) throw error;
      if (!retriedNetwork) {
        retriedNetwork = true;
        continue;
      }
      throw new AccountingSystemError(`${vendor} could not be reached (${(error as Error).message}).`);
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const seconds = retryAfterSeconds(res.headers.get('retry-after')) ?? words.defaultRetryAfterSeconds;
      if (attempt >= MAX_RETRIES || waited + seconds * 1000 > waitBudgetMs) {
        const detail = words.rateLimitDetail?.(res);
        throw new AccountingSystemError(
          `${vendors} rate limit for this ${words.books === 'company' ? 'company' : 'organisation'} is reached${
            detail ? ` (${detail})` : ''
          }; ${vendor} asks to retry after ${seconds} s.`,
          'accounting_rate_limited',
          seconds,
        );
      }
      waited += seconds * 1000;
      await sleep(seconds * 1000);
      continue;
    }
    if (!res.ok) {
      const detail = words.refusalDetail ? words.refusalDetail(await res.json().catch(() => undefined)) : (await res.body?.cancel(), undefined);
      if (res.status === 401) {
        const why = words.unauthorized?.(res, path);
        throw new AccountingSystemError(
          why
            ? `${why}: the organisation must be connected to ${vendor} again.`
            : `${vendor} refused the access token (expired or revoked): the organisation must be connected to ${vendor} again.`,
        );
      }
      if (res.status === 403)
        throw new AccountingSystemError(`${vendor} refused access to the organisation's ${words.books} (disconnected, or the token does not cover it).`);
      if (res.status >= 500) throw new AccountingSystemError(`${vendor} is unavailable (HTTP ${res.status}).`);
      throw new AccountingSystemError(`${vendor} refused the request ${path} (HTTP ${res.status}${detail ? `: ${detail}` : ''}).`);
    }
    try {
      return read ? await read(res) : ((await res.json()) as T);
    } catch {
      throw new AccountingSystemError(`${vendors} answer to ${path} ${read ? 'could not be read' : 'is not JSON'}.`);
    }
  }
}
