/**
 * GET calls to Xero's Accounting API for one connection: the bearer token and xero-tenant-id on
 * every call, JSON answers, and Xero's limits answered as the interface's errors. A 429 is waited
 * out for its Retry-After when the call's wait budget allows (rateLimitWaitMs, 5 s by default,
 * at most 3 retries), else the call fails at once saying when Xero will answer again; an outage
 * (5xx), a refused token (401/403) or a network failure (after one more try) is
 * accounting_unavailable.
 */
import { AccountingSystemError } from '../types.js';
import { XERO_API, type XeroConfig } from './settings.js';

const DEFAULT_WAIT_MS = 5_000;
const MAX_RETRIES = 3;

export type Query = Record<string, string | number | boolean | undefined>;

/** Retry-After as seconds (Xero sends whole seconds; an HTTP date is accepted too); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class XeroClient {
  private readonly base: string;

  constructor(
    private readonly config: XeroConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = (config.baseUrl ?? XERO_API).replace(/\/+$/, '');
  }

  async get<T>(path: string, query: Query = {}, headers: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const budget = this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS;
    let waited = 0;
    let retriedNetwork = false;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          headers: { authorization: `Bearer ${this.config.accessToken}`, 'xero-tenant-id': this.config.tenantId, accept: 'application/json', ...headers },
        });
      } catch (error) {
        // the connection's call budget refused the call before it was sent
        if (error instanceof AccountingSystemError) throw error;
        // a kept-alive connection Xero closed meanwhile fails the first try: a GET is asked once more
        if (!retriedNetwork) {
          retriedNetwork = true;
          continue;
        }
        throw new AccountingSystemError(`Xero could not be reached (${(error as Error).message}).`);
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const seconds = retryAfterSeconds(res.headers.get('retry-after')) ?? 1;
        const problem = res.headers.get('x-rate-limit-problem');
        if (attempt >= MAX_RETRIES || waited + seconds * 1000 > budget) {
          throw new AccountingSystemError(
            `Xero's rate limit for this organisation is reached${problem ? ` (${problem} limit)` : ''}; Xero asks to retry after ${seconds} s.`,
            'accounting_rate_limited',
            seconds,
          );
        }
        waited += seconds * 1000;
        await sleep(seconds * 1000);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        if (res.status === 401) throw new AccountingSystemError('Xero refused the access token (expired or revoked): the organisation must be connected to Xero again.');
        if (res.status === 403) throw new AccountingSystemError("Xero refused access to the organisation's tenant (disconnected, or the token does not cover it).");
        if (res.status >= 500) throw new AccountingSystemError(`Xero is unavailable (HTTP ${res.status}).`);
        throw new AccountingSystemError(`Xero refused the request ${path} (HTTP ${res.status}).`);
      }
      try {
        return (await res.json()) as T;
      } catch {
        throw new AccountingSystemError(`Xero's answer to ${path} is not JSON.`);
      }
    }
  }
}
