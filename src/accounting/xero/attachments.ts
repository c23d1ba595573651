/**
 * A Xero document's original file: its attachment (docs/xero.md, "Documents and attachments").
 * Xero lists a bill's attachments at GET /Invoices/{InvoiceID}/Attachments (a credit note's at
 * /CreditNotes/{CreditNoteID}/Attachments) with FileName, MimeType and ContentLength, and hands one
 * out at …/Attachments/{AttachmentID} as application/octet-stream (the contract requires the
 * `contentType` header naming its type). The document's file is its first attachment that is a PDF
 * or an image. No more than 10 MB + 1 bytes are read (documents.file refuses anything over 10 MB
 * and learns it from the length), and none when Xero's ContentLength already says it is larger.
 */
import type { SystemDocument } from '../types.js';
import type { XeroClient } from './client.js';

interface XeroAttachment {
  AttachmentID?: string;
  FileName?: string;
  MimeType?: string;
  ContentLength?: number;
}

/** What documents.file hands out (application/pdf and images); the operation checks the exact set. */
const FILE_TYPE = /^\s*(application\/pdf|image\/[a-z0-9.+-]+)\s*(;|$)/i;
/** Read no more than this: documents.file refuses anything over 10 MB. */
export const READ_LIMIT = 10 * 1024 * 1024 + 1;

export async function xeroDocumentFile(
  client: XeroClient,
  doc: SystemDocument,
): Promise<{ fileName: string; contentType: string; data: Buffer; size?: number } | null> {
  const base = `/${doc.type === 'supplier_credit' ? 'CreditNotes' : 'Invoices'}/${encodeURIComponent(doc.documentId)}/Attachments`;
  const listed = (await client.get<{ Attachments?: XeroAttachment[] }>(base)).Attachments ?? [];
  const chosen = listed.find((a) => a.AttachmentID && a.FileName && FILE_TYPE.test(a.MimeType ?? ''));
  if (!chosen) return null;
  const contentType = chosen.MimeType!.trim();
  const recorded = typeof chosen.ContentLength === 'number' ? { size: chosen.ContentLength } : {};
  // Xero's recorded length already over the limit: the bytes are not asked for (documents.file refuses on `size`)
  if ((chosen.ContentLength ?? 0) >= READ_LIMIT) return { fileName: chosen.FileName!, contentType, data: Buffer.alloc(0), ...recorded };
  const data = await client.getBytes(`${base}/${encodeURIComponent(chosen.AttachmentID!)}`, contentType, READ_LIMIT);
  return { fileName: chosen.FileName!, contentType, data, ...recorded };
}
