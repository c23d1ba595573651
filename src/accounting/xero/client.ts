/**
 * GET calls to Xero's Accounting API for one connection: the bearer token and xero-tenant-id on
 * every call, JSON answers, and Xero's limits answered as the interface's errors (vendor-get.ts;
 * rateLimitWaitMs, 5 s by default, is how long a call may wait out Xero's 429s).
 */
import { DEFAULT_WAIT_MS, vendorGet, type VendorWords } from '../vendor-get.js';
import { XERO_API, type XeroConfig } from './settings.js';

export type Query = Record<string, string | number | boolean | undefined>;

const XERO_WORDS: VendorWords = {
  vendor: 'Xero',
  books: 'tenant',
  // Xero always sends Retry-After with a 429; a second is the least it asks
  defaultRetryAfterSeconds: 1,
  rateLimitDetail: (res) => {
    const problem = res.headers.get('x-rate-limit-problem');
    return problem ? `${problem} limit` : undefined;
  },
};

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
    const sent = { authorization: `Bearer ${this.config.accessToken}`, 'xero-tenant-id': this.config.tenantId, accept: 'application/json', ...headers };
    return vendorGet<T>(XERO_WORDS, this.fetchImpl, url, sent, this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS, path);
  }
}
