/**
 * Calls to Xero's Accounting API for one connection: the bearer token and xero-tenant-id on every
 * call, JSON answers, and Xero's limits answered as the interface's errors (vendor-get.ts;
 * rateLimitWaitMs, 5 s by default, is how long a call may wait out Xero's 429s). Writes (PUT, POST:
 * documents.publish, banking.match) are sent once with their Idempotency-Key (writes.ts).
 */
import { AccountingSystemError } from '../types.js';
import { DEFAULT_WAIT_MS, vendorGet, type VendorWords } from '../vendor-get.js';
import { insufficientScopeProblem, xeroEndpointOf } from '../../domain/xero-scopes.js';
import { XERO_API, type XeroConfig } from './settings.js';

export type Query = Record<string, string | number | boolean | undefined>;

const PAGE_SIZE = 100;

const XERO_WORDS: VendorWords = {
  vendor: 'Xero',
  books: 'tenant',
  // Xero always sends Retry-After with a 429; a second is the least it asks
  defaultRetryAfterSeconds: 1,
  rateLimitDetail: (res) => {
    const problem = res.headers.get('x-rate-limit-problem');
    return problem ? `${problem} limit` : undefined;
  },
  // Xero answers a token without the scope an endpoint needs 401 with error="insufficient_scope"
  unauthorized: (res, path) => (isInsufficientScope(res) ? insufficientScopeProblem(path) : undefined),
};

/** Xero's 401 for a token that was not granted the scope the endpoint needs (WWW-Authenticate: Bearer error="insufficient_scope"). */
export function isInsufficientScope(res: Response): boolean {
  return res.status === 401 && /error\s*=\s*"?insufficient_scope/i.test(res.headers.get('www-authenticate') ?? '');
}

/** Every call is of an endpoint whose scope the connection asks for (scopes.ts); any other is a mistake of Ledgerline's. */
export function checked(path: string, method: 'GET' | 'PUT' | 'POST' = 'GET'): string {
  if (!xeroEndpointOf(path, method))
    throw new AccountingSystemError(`Ledgerline does not call Xero's ${method} ${path}: no scope is asked for it (src/domain/xero-scopes.ts).`);
  return path;
}

export class XeroClient {
  private readonly base: string;

  constructor(
    private readonly config: XeroConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = (config.baseUrl ?? XERO_API).replace(/\/+$/, '');
  }

  /** The API base, the bearer token and the tenant, for a write (writes.ts). */
  writeTarget(path: string, method: 'PUT' | 'POST'): { url: URL; headers: Record<string, string>; fetchImpl: typeof fetch } {
    const url = new URL(`${this.base}${checked(path.split('?')[0]!, method)}`);
    return {
      url,
      headers: { authorization: `Bearer ${this.config.accessToken}`, 'xero-tenant-id': this.config.tenantId, accept: 'application/json' },
      fetchImpl: this.fetchImpl,
    };
  }

  async get<T>(path: string, query: Query = {}, headers: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${this.base}${checked(path)}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const sent = { authorization: `Bearer ${this.config.accessToken}`, 'xero-tenant-id': this.config.tenantId, accept: 'application/json', ...headers };
    return vendorGet<T>(XERO_WORDS, this.fetchImpl, url, sent, this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS, path);
  }

  /** Every item of a paged list (CreditNotes, Payments): page by page until Xero's pageCount, or a short page. */
  async allPages<T>(path: string, key: string, headers: Record<string, string> = {}): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const body = await this.get<{ pagination?: { pageCount?: number } } & Record<string, unknown>>(path, { page, pageSize: PAGE_SIZE }, headers);
      const items = (body[key] as T[] | undefined) ?? [];
      out.push(...items);
      const pageCount = body.pagination?.pageCount;
      if (pageCount !== undefined ? page >= pageCount : items.length < PAGE_SIZE) return out;
    }
  }

  /**
   * A file's bytes (an attachment), at most `limit` of them: Xero answers application/octet-stream;
   * `contentType` is the header its contract requires.
   */
  async getBytes(path: string, contentType: string, limit: number): Promise<Buffer> {
    const url = new URL(`${this.base}${checked(path)}`);
    const sent = {
      authorization: `Bearer ${this.config.accessToken}`,
      'xero-tenant-id': this.config.tenantId,
      accept: 'application/octet-stream',
      contenttype: contentType,
    };
    return vendorGet(XERO_WORDS, this.fetchImpl, url, sent, this.config.rateLimitWaitMs ?? DEFAULT_WAIT_MS, path, (res) => readAtMost(res, limit));
  }
}

/** The body's first `limit` bytes; the rest is not read. */
async function readAtMost(res: Response, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= limit) break;
  }
  const data = Buffer.concat(chunks);
  return data.length > limit ? data.subarray(0, limit) : data;
}
