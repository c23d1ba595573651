/**
 * A QuickBooks document's file: the Attachable entities that point at it (AttachableRef.EntityRef,
 * type and id), the first whose ContentType is a PDF or an image, fetched from the TempDownloadUri
 * QuickBooks gives with it (a signed address, good for minutes, that takes no token: the bytes are
 * not read through the API and so not counted against its limits). Notes without a file and other
 * kinds of file (spreadsheets, text) are not handed out.
 */
import { isLoopbackHost } from '../../domain/loopback.js';
import { AccountingSystemError } from '../types.js';
import type { QbRef } from './purchases.js';

export interface QbAttachable {
  Id: string;
  FileName?: string;
  ContentType?: string;
  Size?: number;
  TempDownloadUri?: string;
  AttachableRef?: { EntityRef?: QbRef }[];
}

/** What documents.file hands out (application/pdf and images); the operation checks the exact set. */
const FILE_TYPE = /^\s*(application\/pdf|image\/[a-z0-9.+-]+)\s*(;|$)/i;

/** Read no more than this: documents.file refuses anything over 10 MB, and learns it from the length. */
const READ_LIMIT = 10 * 1024 * 1024 + 1;
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** The attachment of one entity (e.g. Bill 146) that is a file documents.file can hand out. */
export function attachmentOf(attachables: QbAttachable[], entity: string, id: string): QbAttachable | undefined {
  return attachables.find(
    (a) =>
      a.FileName &&
      FILE_TYPE.test(a.ContentType ?? '') &&
      (a.AttachableRef ?? []).some((r) => r.EntityRef?.value === id && (r.EntityRef.type ?? '').toLowerCase() === entity.toLowerCase()),
  );
}

/** The attachment's bytes (at most READ_LIMIT of them), from its TempDownloadUri. */
export async function downloadAttachment(a: QbAttachable, fetchImpl: typeof fetch = fetch): Promise<{ fileName: string; contentType: string; data: Buffer }> {
  const uri = a.TempDownloadUri;
  // Intuit's signed addresses are https; plain http only to this machine (the tests' fake)
  const url = uri ? URL.parse(uri) : null;
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
    throw new AccountingSystemError(`QuickBooks gave no https download address for attachment ${a.Id}.`);
  }
  let res: Response;
  try {
    // the operation's own time limit answers the caller; this one ends a download left hanging after it
    res = await fetchImpl(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (error) {
    throw new AccountingSystemError(`QuickBooks' file of attachment ${a.Id} could not be fetched (${(error as Error).message}).`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new AccountingSystemError(`QuickBooks' file of attachment ${a.Id} could not be fetched (HTTP ${res.status}).`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= READ_LIMIT) break;
  }
  const data = Buffer.concat(chunks);
  return { fileName: a.FileName!, contentType: a.ContentType!.trim(), data: data.length > READ_LIMIT ? data.subarray(0, READ_LIMIT) : data };
}
