/**
 * The fake QuickBooks' upload (POST /upload, Intuit's "Uploading and linking new attachments"): a
 * multipart/form-data body of pairs, `file_metadata_NN` (an Attachable as JSON: AttachableRef to the
 * entity, FileName, ContentType) and `file_content_NN` (the file's bytes, with its filename and
 * content type); each pair becomes an Attachable linked to its entity, its bytes served at its
 * TempDownloadUri as any other.
 */
import type { Entity, FakeCompany } from './fake-quickbooks-book.js';
import type { QuickBooksContract } from './fake-quickbooks-contract.js';
import { refusal, type Refusal } from './fake-quickbooks-write-rules.js';

export interface Part {
  name: string;
  fileName?: string;
  contentType?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body; a string saying what is wrong when it is not one. */
export function parseMultipart(contentType: string, raw: Buffer): Part[] | string {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/form-data/i.test(contentType) || !boundary)
    return `an upload is multipart/form-data with a boundary, not ${contentType || 'no content type'}`;
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let at = raw.indexOf(marker);
  if (at < 0) return 'the body holds no part';
  for (;;) {
    const start = at + marker.length;
    if (raw.subarray(start, start + 2).toString() === '--') return parts;
    const next = raw.indexOf(marker, start);
    if (next < 0) return 'the body does not end with its closing boundary';
    const part = raw.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return 'a part has no headers';
    const headers = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (!name) return 'a part has no form-data name';
    parts.push({
      name,
      fileName: /filename="([^"]*)"/i.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim(),
      data: part.subarray(split + 4),
    });
    at = next;
  }
}

/** The Attachable the first metadata and content pair makes; a refusal, or the schema's complaints. */
export function createAttachable(
  company: FakeCompany,
  contract: QuickBooksContract,
  parts: Part[],
  origin: string,
  now: string,
): { attachable: Entity } | Refusal | { wrong: string[] } {
  const metadata = parts.find((p) => /^file_metadata_\w+$/.test(p.name));
  const content = metadata && parts.find((p) => p.name === metadata.name.replace('metadata', 'content'));
  if (!metadata || !content) return refusal('2020', 'Required parameter file_metadata_NN with its file_content_NN is missing in the request');
  let body: Entity;
  try {
    body = JSON.parse(metadata.data.toString('utf8'));
  } catch {
    return refusal('2010', 'file_metadata is not JSON');
  }
  const wrong = contract.check(body, 'Attachable');
  if (wrong.length) return { wrong };
  for (const ref of body.AttachableRef ?? []) {
    const type = String(ref.EntityRef?.type ?? '');
    const list = (company.entities as Record<string, Entity[]>)[Object.keys(company.entities).find((k) => k.toLowerCase() === type.toLowerCase()) ?? ''];
    if (!list) return refusal('6050', `The entity reference type ${type} is unsupported for Attachable`);
    if (!list.some((r) => r.Id === ref.EntityRef.value)) return refusal('2500', `Invalid Reference Id : ${type} element id ${ref.EntityRef.value} not found`);
  }
  const ids = company.entities.Attachable.map((a) => BigInt(a.Id)).filter((n) => n > 0n);
  const Id = String(ids.length ? ids.reduce((a, b) => (a > b ? a : b)) + 1n : 5000000000000200000n);
  const attachable: Entity = {
    ...body,
    Id,
    FileName: body.FileName ?? content.fileName,
    ContentType: body.ContentType ?? content.contentType,
    Size: content.data.length,
    Category: body.Category ?? 'Document',
    domain: 'QBO',
    sparse: false,
    SyncToken: '0',
    MetaData: { CreateTime: now, LastUpdatedTime: now },
  };
  company.entities.Attachable.push(attachable);
  company.files[Id] = Buffer.from(content.data);
  return { attachable: { ...attachable, TempDownloadUri: `${origin}/attachments/${Id}/${encodeURIComponent(attachable.FileName ?? 'file')}?signature=fake` } };
}
