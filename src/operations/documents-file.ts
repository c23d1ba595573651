import { z } from 'zod';
import { getDocumentFileData, getDocumentFileInfo } from '../store/documents.js';
import { systemDocuments } from './documents-system.js';
import { OperationError } from './errors.js';
import { defineOperation } from './operation.js';
import { textParam } from './params.js';

/** spec, Limits: file size up to 10 MB before base64 */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/tiff', 'image/heic'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** A content type as one of the declared set, if it is one; parameters and case do not change what it is. */
function knownContentType(stored: string): DocumentContentType | undefined {
  const bare = stored.split(';')[0]!.trim().toLowerCase();
  const type = bare === 'image/jpg' ? 'image/jpeg' : bare;
  return DOCUMENT_CONTENT_TYPES.find((t) => t === type);
}

/** The stored content type as one of the declared set (the service stores no other: anything else is a fault). */
export function documentContentType(stored: string, documentId: string): DocumentContentType {
  const known = knownContentType(stored);
  if (!known) throw new Error(`document ${documentId} has a file of an unsupported content type: ${stored}`);
  return known;
}

function fileTooLarge(documentId: string, size: number): OperationError {
  return new OperationError(
    'file_too_large',
    `the file of document ${documentId} is ${size} bytes; documents.file returns files of at most ${MAX_FILE_BYTES} bytes (10 MB)`,
  );
}

const NAME = 'documents.file';

export const documentsFile = defineOperation({
  kind: 'organisation',
  name: NAME,
  tool: 'documents_file',
  title: "A document's original file",
  summary: "A document's original file (PDF or image), base64.",
  description: [
    'Returns the original file of one document: id, fileName, contentType (application/pdf, image/png, image/jpeg, image/gif, image/webp, image/tiff ' +
      'or image/heic),',
    'size (bytes before base64) and data (the content, base64).',
    'id (required): a document id from ledger.account_transactions or documents.get.',
    'A document that is not in this organisation, or has no file, is answered 404 not_found; a file over 10 MB is refused with 413 file_too_large.',
    'Documents of a connected GnuCash book (gnucash:<guid>) have no file: GnuCash keeps none.',
    "A connected Xero organisation's documents (xero:<InvoiceID>) answer their first PDF or image attached in Xero.",
    'Bills and vendor credits of a connected QuickBooks company (quickbooks:Bill:<id>) answer the PDF or image attached to them in QuickBooks.',
  ].join(' '),
  input: z
    .object({
      id: textParam(200)
        .refine((id) => id.trim() !== '', { message: 'must be a document id' })
        .describe('one document id'),
    })
    .strict(),
  output: z.object({
    id: z.string(),
    fileName: z.string(),
    contentType: z.enum(DOCUMENT_CONTENT_TYPES),
    size: z.number().int().describe('bytes before base64'),
    data: z.string().describe('base64 content'),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  toolContent: 'file',
  // a file is read in one indexed lookup and may be megabytes: keeping it would cost more than it saves
  reuse: 'never',
  async run(ctx, input) {
    const id = input.id.trim();
    const orgId = ctx.organisation.id;
    const info = await getDocumentFileInfo(ctx.db, orgId, id);
    if (!info) {
      const system = (await systemDocuments(ctx, [id])).get(id);
      if (!system) throw new OperationError('not_found', `no document ${id} in this organisation`);
      // a connected system that keeps the file (QuickBooks' attachments) hands it out, under the same rules
      const file = system.hasFile && ctx.accounting.documentFile ? await ctx.accounting.documentFile(system.documentId) : null;
      if (file) {
        // refused on the length the system records (Xero's ContentLength) before any byte is read, and on what was read
        const size = Math.max(file.size ?? 0, file.data.length);
        if (size > MAX_FILE_BYTES) throw fileTooLarge(id, size);
        // the vendor's file may be of a type documents.file does not hand out (an image/bmp scan): said, not a fault
        const contentType = knownContentType(file.contentType);
        if (!contentType)
          throw new OperationError(
            'not_found',
            `document ${id} has a file in ${ctx.accounting.kind} of a type documents.file does not hand out (${file.contentType}); it hands ` +
              `out ${DOCUMENT_CONTENT_TYPES.join(', ')}`,
          );
        return { id, fileName: file.fileName, contentType, size: file.data.length, data: file.data.toString('base64') };
      }
      // the connected system keeps no files; a link it records (a path on someone's disk) is not fetched, nor shown
      const where = system.attachmentLink ? '; the document link recorded with it is not fetched' : '';
      throw new OperationError('not_found', `document ${id} is kept in the accounting system (${ctx.accounting.kind}), which holds no file for it${where}`);
    }
    if (!info.file) throw new OperationError('not_found', `document ${id} has no file`);
    // refuse on the recorded size before reading the content into memory
    if (info.file.size > MAX_FILE_BYTES) throw fileTooLarge(id, info.file.size);
    const contentType = documentContentType(info.file.contentType, id);
    const data = await getDocumentFileData(ctx.db, orgId, id);
    if (!data) throw new OperationError('not_found', `document ${id} has no file`);
    if (data.length > MAX_FILE_BYTES) throw fileTooLarge(id, data.length);
    return { id, fileName: info.file.fileName, contentType, size: data.length, data: data.toString('base64') };
  },
});
