/**
 * GET calls to QuickBooks Online's Accounting API v3 for one company: the bearer token on every
 * call, the realm in the path, minorversion on every query, JSON answers, and QuickBooks' limits
 * answered as the interface's errors. A 429 is waited out for its Retry-After (Intuit asks for 60 s
 * when it sends none) when the call's wait budget allows (rateLimitWaitMs, 5 s by default, at most 3
 * retries), else the call fails at once saying when to retry; an outage (5xx), a refused token
 * (401/403) or a network failure (after one more try) is accounting_unavailable.
 */
import { AccountingSystemError } from '../types.js';
import { MINOR_VERSION, QUICKBOOKS_API, type QuickBooksConfig } from './settings.js';

const DEFAULT_WAIT_MS = 5_000;
const MAX_RETRIES = 3;
/** Intuit: "on 429, wait 60 seconds" when no Retry-After is given */
const DEFAULT_RETRY_AFTER_S = 60;

/** Retry-After as seconds (whole seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first error message of a QuickBooks Fault body, if the body is one. */
function faultMessage(body: unknown): string | undefined {
  const fault = (body as { Fault?: { Error?: { Message?: string; Detail?: string }[] } } | null)?.Fault;
  const first = fault?.Error?.[0];
  return first ? [first.Message, first.Detail].filter(Boolean).join(': ') : undefined;
}

export class QuickBooksClient {
  private readonly base: string;

  constructor(
    private readonly config: QuickBooksConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = `${(config.baseUrl ?? QUICKBOOKS_API).replace(/\/+$/, '')}/company/${config.realmId}`;
  }

  async get<T>(path: string, query: Record<string, string | undefined> = {}): Promise<T> {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries({ ...query, minorversion: MINOR_VERSION })) if (v !== undefined) url.searchParams.set(k, v);
    const budget = this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS;
    let waited = 0;
    let retriedNetwork = false;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, { headers: { authorization: `Bearer ${this.config.accessToken}`, accept: 'application/json' } });
      } catch (error) {
        // the connection's call budget refused the call before it was sent
        if (error instanceof AccountingSystemError) throw error;
        if (!retriedNetwork) {
          retriedNetwork = true;
          continue;
        }
        throw new AccountingSystemError(`QuickBooks could not be reached (${(error as Error).message}).`);
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const seconds = retryAfterSeconds(res.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_S;
        if (attempt >= MAX_RETRIES || waited + seconds * 1000 > budget) {
          throw new AccountingSystemError(`QuickBooks' rate limit for this company is reached; QuickBooks asks to retry after ${seconds} s.`, 'accounting_rate_limited', seconds);
        }
        waited += seconds * 1000;
        await sleep(seconds * 1000);
        continue;
      }
      if (!res.ok) {
        const detail = faultMessage(await res.json().catch(() => undefined));
        if (res.status === 401) throw new AccountingSystemError('QuickBooks refused the access token (expired or revoked): the organisation must be connected to QuickBooks again.');
        if (res.status === 403) throw new AccountingSystemError("QuickBooks refused access to the organisation's company (disconnected, or the token does not cover it).");
        if (res.status >= 500) throw new AccountingSystemError(`QuickBooks is unavailable (HTTP ${res.status}).`);
        throw new AccountingSystemError(`QuickBooks refused the request ${path} (HTTP ${res.status}${detail ? `: ${detail}` : ''}).`);
      }
      try {
        return (await res.json()) as T;
      } catch {
        throw new AccountingSystemError(`QuickBooks' answer to ${path} is not JSON.`);
      }
    }
  }
}
