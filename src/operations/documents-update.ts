import { replaceDocument, updateBillPlanning } from '../store/document-writes.js';
import { auditChange, requireMayChange } from './changes.js';
import { changedDocument, changedDocumentSchema } from './documents/answer.js';
import { checkDocument, checkTags, type DocumentDraft } from './documents/check.js';
import { currentDocument } from './documents/current.js';
import { PAYABLE_TYPES, updateInput } from './documents/input.js';
import { PUBLISH_UNDER_WAY } from './documents/publish-plan.js';
import { invalidRequest, OperationError, type ParameterError } from './errors.js';
import { changeOf, defineOperation } from './operation.js';

/** What may still change once a document is published: how its payment is planned. */
const PLANNING_FIELDS = new Set(['scheduledDate', 'tags', 'note']);

export const documentsUpdate = defineOperation({
  kind: 'organisation',
  name: 'documents.update',
  tool: 'documents_update',
  title: 'Change a document',
  summary: 'Changes fields of an unpublished document, or the Bills to Pay fields (scheduled date, tags, note) of any bill.',
  description: [
    'Changes the document with the given id: send only the fields to change, with the same meaning as in documents.create;',
    'codedLines, invoiceLines and file each replace the stored ones whole (file: null removes the file). The document is checked whole again',
    '(amounts must still add up). A published document keeps its content; of a published bill only scheduledDate, tags and note change.',
    'A submitter may change only the documents they created. Answers the document and its bill as documents.create does.',
  ].join(' '),
  input: updateInput,
  output: changedDocumentSchema,
  ...changeOf('update', ['super_admin', 'admin', 'submitter']),
  async run(ctx, input) {
    const { id, ...changes } = input as { id: string } & Partial<DocumentDraft>;
    const current = await currentDocument(ctx, id);
    if (!current) throw new OperationError('not_found', `no document ${id} in this organisation`);
    requireMayChange(ctx.principal, current.row.created_by, id);
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<DocumentDraft>;
    const fields = Object.keys(given);
    if (fields.length === 0)
      throw new OperationError('invalid_request', 'name at least one field to change', [{ parameter: '(input)', message: 'no field to change' }]);
    if (current.row.publish_state === 'pending') throw new OperationError('document_published', PUBLISH_UNDER_WAY(id));
    if (current.row.published_at !== null) {
      const content = fields.filter((f) => !PLANNING_FIELDS.has(f));
      if (content.length)
        throw new OperationError(
          'document_published',
          `document ${id} was published on ${current.row.published_at.slice(0, 10)}; ${content.join(', ')} can no longer change (scheduledDate, tags ` +
            `and note can)`,
        );
      if (!PAYABLE_TYPES.has(current.row.type))
        throw new OperationError('document_published', `document ${id} is a published ${current.row.type}; it has no Bills to Pay fields to change`);
      const errors: ParameterError[] = [];
      const tags = given.tags !== undefined ? checkTags(given.tags, (parameter, message) => errors.push({ parameter, message })).join(',') : undefined;
      if (errors.length) throw invalidRequest(errors);
      await updateBillPlanning(ctx.db, ctx.organisation.id, id, { ...given, ...(tags !== undefined ? { tags } : {}) });
    } else {
      // a bill made a receipt leaves its Bills to Pay fields behind, unless they are sent again (and refused)
      const planning = given.type && !PAYABLE_TYPES.has(given.type) ? { scheduledDate: null, tags: null, note: null } : {};
      const draft = { ...current.draft, ...planning, ...given };
      // lines name accounts by id or name: the chart is read only when some line names one
      const chart = draft.codedLines.some((l) => l.account) ? await ctx.accounting.chartOfAccounts() : [];
      const checked = checkDocument(draft, chart);
      if (!(await replaceDocument(ctx.db, ctx.organisation.id, id, checked)))
        throw new OperationError('document_published', `document ${id} was published while it was being changed; nothing was changed`);
    }
    await auditChange(ctx, 'document.updated', id, { number: current.row.number, supplier: current.row.supplier, fields });
    return changedDocument(ctx, id);
  },
});
