/**
 * Documents for admins: the unpublished ones with a delete button, and an upload form that runs
 * documents.create as the signed-in person (role policy, validation and audit as over REST).
 * Multipart parsing is registered for the upload only, and its body is read only after the
 * session, origin, role and CSRF token are checked (orgRouter.upload).
 */
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatMoney, fromMajor } from '../../domain/money.js';
import { accountsList } from '../../operations/accounts-list.js';
import { documentsCreate } from '../../operations/documents-create.js';
import { documentsDelete } from '../../operations/documents-delete.js';
import { OperationError, type ParameterError } from '../../operations/errors.js';
import { parseInput } from '../../operations/operation.js';
import { MAX_DOCUMENT_FILE_BYTES } from '../../operations/documents/file-type.js';
import { documentsPublish } from '../../operations/documents-publish.js';
import { listPublishedDocuments } from '../../store/documents-published.js';
import { listUnpublishedDocuments } from '../../store/documents-unpublished.js';
import { getOrganisation } from '../../store/organisations.js';
import { isRoleAllowed } from '../../store/role-policy.js';
import { DOCUMENT_FORM_FIELDS, documentErrors, documentInput, type DocumentForm } from '../document-form.js';
import { operationForForm } from '../operation-form.js';
import { operationForPage } from '../operation-for-page.js';
import { documentsPage, type DocumentsPageOptions } from '../pages/org-documents.js';
import { sendPage, seeOther } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { registerDocumentPageRoutes } from './org-document-routes.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';
import type { OrgAccess } from './guards.js';

/** Money in major units as the currency writes it, without the code (shown in its own column). */
export const majorText = (minor: number, currency: string) => formatMoney(minor, currency).slice(0, -(currency.length + 1));

export function registerDocumentRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const person = (a: OrgAccess) => ({ userId: a.session.user.id, email: a.session.user.email, role: a.role });

  const render = async (a: OrgAccess, reply: FastifyReply, options: DocumentsPageOptions = {}, status = 200) => {
    const [rows, chart, org, published, canPublish] = await Promise.all([
      listUnpublishedDocuments(db, a.org.id),
      operationForPage(w, person(a), a.org.id, accountsList, {}),
      getOrganisation(db, a.org.id),
      listPublishedDocuments(db, a.org.id, { limit: 20 }),
      isRoleAllowed(db, a.org.id, documentsPublish.name, a.role),
    ]);
    const documents = rows.map((d) => ({ ...d, total: majorText(d.total, d.currency) }));
    options = { ...options, canPublish, published: published.map((d) => ({ ...d, total: majorText(d.total, d.currency) })) };
    const accounts = chart.ok ? chart.value.accounts.map((x) => ({ id: x.id, label: x.number ? `${x.fullName} (${x.number})` : x.fullName })) : [];
    const notes = chart.ok
      ? options
      : { ...options, error: options.error ?? `The chart of accounts could not be read (${chart.message}); a document can still be added without an account.` };
    return sendPage(reply, documentsPage(a.viewer, a.org, documents, accounts, org?.home_currency ?? '', notes), status);
  };

  const r = orgRouter(app, w);
  // a document's own page, where it is published (org-document-routes.ts)
  registerDocumentPageRoutes(app, w);
  r.page('/documents', async (a, _p, request, reply) => render(a, reply, noticeFrom(request, NOTICES.documents)));

  r.action('/documents/:documentId/delete', async (a, p, _request, reply) => {
    const answer = await operationForForm(w, person(a), a.org.id, documentsDelete, { id: p.documentId });
    if (answer.ok) return seeOther(reply, `/orgs/${a.org.id}/documents?done=deleted`);
    return render(a, reply, { error: `Nothing was deleted: ${answer.message}` }, answer.status);
  });

  app.register(async (scoped) => {
    await scoped.register(multipart, {
      // a file over the limit is cut short and named as too large beside the field, not thrown
      limits: { fileSize: MAX_DOCUMENT_FILE_BYTES, files: 1, fields: 30, fieldSize: 4096 },
      throwFileSizeLimit: false,
    });
    orgRouter(scoped, w).upload('/documents', async (a, _p, _request, reply) => {
      const { form, file } = await readDocumentUpload(a.parts);
      const values = Object.fromEntries(DOCUMENT_FORM_FIELDS.map((f) => [f, form[f] ?? ''])) as DocumentForm;
      const again = (byField: Record<string, string[]>, general: string[], status: number) =>
        render(a, reply, { form: { values, errors: byField }, formErrors: general }, status);
      if (!file) {
        // nothing is written without the file: say so, with what the other fields' own checks find
        const sorted = documentErrors(schemaErrors(documentInput(values, null)), values);
        return again({ ...sorted.byField, file: ['choose the file of the document'] }, sorted.general, 400);
      }
      if (file.truncated) return again({ file: [`is over ${MAX_DOCUMENT_FILE_BYTES / 1024 / 1024} MB`] }, [], 413);
      const answer = await operationForForm(w, person(a), a.org.id, documentsCreate, documentInput(values, file));
      if (!answer.ok) {
        const sorted = documentErrors(answer.errors, values);
        const general = answer.errors.length ? sorted.general : [answer.message];
        return again(sorted.byField, general, answer.status);
      }
      const d = answer.value.document;
      return render(
        a,
        reply,
        {
          created: {
            id: d.id,
            type: d.type,
            number: d.number,
            supplier: d.supplier,
            date: d.date,
            dueDate: d.dueDate,
            total: majorText(fromMajor(d.total, d.currency) ?? 0, d.currency),
            currency: d.currency,
            fileName: file.name,
            account: d.codedLines[0]?.account ?? null,
          },
        },
        201,
      );
    });
  });
}

/** The problems the operation's input schema finds (the sums are checked only when it runs). */
function schemaErrors(input: Record<string, unknown>): ParameterError[] {
  try {
    parseInput(documentsCreate.input, input);
    return [];
  } catch (error) {
    if (error instanceof OperationError) return [...error.errors];
    throw error;
  }
}

/** The form's fields and its one file (null when none was chosen), noting a file cut short at the limit. */
async function readDocumentUpload(
  parts: AsyncIterableIterator<Multipart>,
): Promise<{ form: Record<string, string>; file: { name: string; data: Buffer; truncated: boolean } | null }> {
  const form: Record<string, string> = {};
  let file: { name: string; data: Buffer; truncated: boolean } | null = null;
  for await (const part of parts) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      // a browser sends an empty part with no name when no file was chosen
      if (part.filename || data.length) file = { name: part.filename || 'document', data, truncated: part.file.truncated };
    } else if (typeof part.value === 'string') form[part.fieldname] = part.value;
  }
  return { form, file };
}
