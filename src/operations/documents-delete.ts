import { z } from 'zod';
import { deleteUnpublishedDocument } from '../store/document-writes.js';
import { getDocuments } from '../store/documents.js';
import { auditChange, requireMayChange } from './changes.js';
import { PUBLISH_UNDER_WAY } from './documents/publish-plan.js';
import { OperationError } from './errors.js';
import { changeOf, defineOperation } from './operation.js';

export const documentsDelete = defineOperation({
  kind: 'organisation',
  name: 'documents.delete',
  tool: 'documents_delete',
  title: 'Delete a document',
  summary: 'Deletes an unpublished document with its lines, file and Bills to Pay entry.',
  description: [
    'Deletes the unpublished document with the given id, its coded and invoice lines, its original file and, for a bill or expense claim,',
    'its Bills to Pay entry. A published document cannot be deleted (it is in the books). A submitter may delete only the documents they created.',
    'Deleting a document that is already gone answers not_found, so a retry after a lost answer is safe to ignore.',
  ].join(' '),
  input: z.object({ id: z.string().trim().min(1, { message: 'is required: the document id' }).max(200).describe('the document to delete') }).strict(),
  output: z.object({ deleted: z.string().describe('the id of the deleted document') }),
  ...changeOf('delete', ['super_admin', 'admin', 'submitter']),
  async run(ctx, input) {
    const [row] = await getDocuments(ctx.db, ctx.organisation.id, [input.id]);
    if (!row) throw new OperationError('not_found', `no document ${input.id} in this organisation`);
    requireMayChange(ctx.principal, row.created_by, row.id);
    if (row.publish_state === 'pending') throw new OperationError('document_published', PUBLISH_UNDER_WAY(row.id));
    if (row.published_at !== null || !(await deleteUnpublishedDocument(ctx.db, ctx.organisation.id, row.id)))
      throw new OperationError('document_published', `document ${row.id} is published to the books and cannot be deleted`);
    await auditChange(ctx, 'document.deleted', row.id, { type: row.type, number: row.number, supplier: row.supplier });
    return { deleted: row.id };
  },
});
