/**
 * Writes to QuickBooks Online's Accounting API v3 for one company: a create (POST /{entity}), a
 * delete (POST /{entity}?operation=delete with Id and SyncToken) and a file upload (multipart POST
 * /upload), each sent with Intuit's `requestid` query parameter. Intuit answers a request whose
 * requestid it has seen with the answer it gave the first time, without doing it again (Intuit's
 * "Request ID" guidance: unique per company, at most 50 characters), so a write whose answer was
 * lost, or that met a 429, is sent again under the same id once: it cannot be done twice.
 *
 * A 400 Fault is QuickBooks refusing the write (nothing written): it is thrown as QuickBooksFault
 * for the caller to name the field (refusals.ts). Anything else (the network, a timeout, a 5xx, a
 * refused token) leaves the outcome unknown or the company unreachable: AccountingSystemError.
 */
import { createHash } from 'node:crypto';
import { retryAfterSeconds } from '../vendor-get.js';
import { AccountingSystemError } from '../types.js';
import { MINOR_VERSION, QUICKBOOKS_API, type QuickBooksConfig } from './settings.js';

/** One error of a QuickBooks Fault, as Intuit sends it. */
export interface QbFaultError {
  Message?: string;
  Detail?: string;
  code?: string;
  element?: string;
}

/** QuickBooks refused a write with a 400 Fault: nothing was written. */
export class QuickBooksFault extends Error {
  constructor(
    readonly errors: QbFaultError[],
    readonly type: string | undefined,
  ) {
    super(errors.map((e) => [e.Message, e.Detail].filter(Boolean).join(': ')).join('; ') || 'QuickBooks refused the request');
    this.name = 'QuickBooksFault';
  }
}

/** Intuit's limit on a requestid's length */
const REQUEST_ID_LENGTH = 50;
/** a write that has had no answer in this long is given up on: its outcome is unknown */
const WRITE_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The requestid of one write of a publish or payment: derived from its key and what the write is
 * (`vendor`, `bill`, `attachment`…), so every try of the same write sends the same id and two
 * different writes of one publish never share one. 43 characters, within Intuit's 50.
 */
export function requestIdFor(key: string, write: string): string {
  return createHash('sha256')
    .update(`${key}\u0000${write}`)
    .digest('base64url')
    .slice(0, REQUEST_ID_LENGTH - 7);
}

export class QuickBooksWriteClient {
  private readonly base: string;

  constructor(
    private readonly config: QuickBooksConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = `${(config.baseUrl ?? QUICKBOOKS_API).replace(/\/+$/, '')}/company/${config.realmId}`;
  }

  /** POST a JSON entity (create, or `operation: 'delete'`), answering QuickBooks' JSON answer. */
  post<T>(path: string, body: unknown, requestId: string, operation?: 'delete'): Promise<T> {
    return this.send<T>(path, requestId, { 'content-type': 'application/json' }, JSON.stringify(body), operation);
  }

  /**
   * Uploads a file and links it to an entity in one multipart call (Intuit's "Uploading and linking
   * new attachments"): the Attachable's metadata as JSON in `file_metadata_01`, the bytes in
   * `file_content_01`.
   */
  upload<T>(metadata: object, file: { fileName: string; contentType: string; data: Buffer }, requestId: string): Promise<T> {
    const boundary = `ledgerline-${requestId}`;
    const safeName = file.fileName.replace(/["\r\n\\]/g, '_');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file_metadata_01"; filename="attachment.json"\r\nContent-Type: ` +
          `application/json\r\n\r\n${JSON.stringify(metadata)}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file_content_01"; filename="${safeName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.send<T>('/upload', requestId, { 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
  }

  private async send<T>(path: string, requestId: string, headers: Record<string, string>, body: string | Buffer, operation?: string): Promise<T> {
    const url = new URL(`${this.base}${path}`);
    url.searchParams.set('minorversion', MINOR_VERSION);
    url.searchParams.set('requestid', requestId);
    if (operation) url.searchParams.set('operation', operation);
    const sent = { authorization: `Bearer ${this.config.accessToken}`, accept: 'application/json', ...headers };
    let waitBudget = this.config.rateLimitWaitMs ?? 5_000;
    let resent = false;
    for (;;) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method: 'POST', headers: sent, body, signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
      } catch (error) {
        if (error instanceof AccountingSystemError) throw error;
        // the same requestid again: if the first got through, Intuit answers what it did then
        if (!resent) {
          resent = true;
          continue;
        }
        const timedOut = (error as Error).name === 'TimeoutError';
        throw new AccountingSystemError(
          `QuickBooks did not answer the write ${path} (${(error as Error).message}); whether it was made is not known.`,
          timedOut ? 'accounting_timeout' : 'accounting_unavailable',
        );
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const seconds = retryAfterSeconds(res.headers.get('retry-after')) ?? 60;
        if (seconds * 1000 > waitBudget)
          throw new AccountingSystemError(
            `QuickBooks' rate limit for this company is reached; QuickBooks asks to retry after ${seconds} s.`,
            'accounting_rate_limited',
            seconds,
          );
        waitBudget -= seconds * 1000;
        await sleep(seconds * 1000);
        continue;
      }
      const answer = (await res.json().catch(() => undefined)) as { Fault?: { Error?: QbFaultError[]; type?: string } } | undefined;
      if (res.status === 400 && answer?.Fault) throw new QuickBooksFault(answer.Fault.Error ?? [], answer.Fault.type);
      if (res.status === 401)
        throw new AccountingSystemError('QuickBooks refused the access token (expired or revoked): the organisation must be connected to QuickBooks again.');
      if (res.status === 403)
        throw new AccountingSystemError("QuickBooks refused access to the organisation's company (disconnected, or the token does not cover it).");
      if (!res.ok) throw new AccountingSystemError(`QuickBooks could not take the write ${path} (HTTP ${res.status}); whether it was made is not known.`);
      if (answer === undefined) throw new AccountingSystemError(`QuickBooks' answer to the write ${path} is not JSON.`);
      // an upload's refusal comes back inside a 200 (AttachableResponse[].Fault)
      return answer as T;
    }
  }
}
