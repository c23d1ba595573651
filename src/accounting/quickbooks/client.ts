/**
 * GET calls to QuickBooks Online's Accounting API v3 for one company: the bearer token on every
 * call, the realm in the path, minorversion on every query, JSON answers, and QuickBooks' limits
 * answered as the interface's errors (vendor-get.ts; rateLimitWaitMs, 5 s by default, is how long a
 * call may wait out a 429).
 */
import { DEFAULT_WAIT_MS, vendorGet, type VendorWords } from '../vendor-get.js';
import { MINOR_VERSION, QUICKBOOKS_API, type QuickBooksConfig } from './settings.js';

/** The first error message of a QuickBooks Fault body, if the body is one. */
function faultMessage(body: unknown): string | undefined {
  const fault = (body as { Fault?: { Error?: { Message?: string; Detail?: string }[] } } | null)?.Fault;
  const first = fault?.Error?.[0];
  return first ? [first.Message, first.Detail].filter(Boolean).join(': ') : undefined;
}

const QUICKBOOKS_WORDS: VendorWords = {
  vendor: 'QuickBooks',
  books: 'company',
  // Intuit: "on 429, wait 60 seconds" when no Retry-After is given
  defaultRetryAfterSeconds: 60,
  refusalDetail: faultMessage,
};

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
    const sent = { authorization: `Bearer ${this.config.accessToken}`, accept: 'application/json' };
    return vendorGet<T>(QUICKBOOKS_WORDS, this.fetchImpl, url, sent, this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS, path);
  }
}
