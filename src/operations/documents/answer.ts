/** What a document change answers: the document as documents.get shows it, and its Bills to Pay row. */
import { z } from 'zod';
import { toMajor } from '../../domain/money.js';
import { billOf } from '../../store/document-writes.js';
import type { OperationContext } from '../context.js';
import { documentSchema, documentsGet } from '../documents-get.js';

export const changedDocumentSchema = z.object({
  document: documentSchema,
  bill: z
    .object({
      id: z.string(),
      dueDate: z.string(),
      scheduledDate: z.string().nullable(),
      tags: z.string().describe('comma separated'),
      note: z.string().nullable(),
      amountDue: z.number().describe("in the document's currency"),
    })
    .nullable()
    .describe('the Bills to Pay entry of a bill or expense claim; null for a receipt or supplier credit'),
});

export async function changedDocument(ctx: OperationContext, documentId: string): Promise<z.infer<typeof changedDocumentSchema>> {
  const [{ documents }, bill] = await Promise.all([documentsGet.run(ctx, { ids: documentId }), billOf(ctx.db, ctx.organisation.id, documentId)]);
  const document = documents[0];
  if (!document) throw new Error(`document ${documentId} vanished while it was being answered`);
  return {
    document,
    bill: bill
      ? {
          id: bill.id,
          dueDate: bill.due_date,
          scheduledDate: bill.scheduled_date || null,
          tags: bill.tags,
          note: bill.latest_note,
          amountDue: toMajor(Number(bill.amount_due), bill.currency),
        }
      : null,
  };
}
