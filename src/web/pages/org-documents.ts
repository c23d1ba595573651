/**
 * Documents: the organisation's unpublished documents, each with its page (where it is published)
 * and a delete button, those published lately with their id in the books, and the upload form.
 */
import { DOCUMENT_TYPES } from '../../operations/documents/input.js';
import { html, type SafeHtml } from '../html.js';
import { documentTypeLabel, formatDay } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';
import { webLink, type DocumentHeading } from './org-document.js';
import { fileField, generalErrors, selectField, textArea, textField, type FieldState } from './form-fields.js';

export interface DocumentListItem extends DocumentHeading {
  fileName: string | null;
}

export interface PublishedListItem extends Omit<DocumentHeading, 'date'> {
  publishedAt: string;
  accountingId: string | null;
  accountingLink: string | null;
  matched: boolean;
}

export interface CreatedDocumentView extends DocumentHeading {
  dueDate: string | null;
  fileName: string | null;
  account: string | null;
}

export interface DocumentsPageOptions {
  notice?: string;
  error?: string;
  created?: CreatedDocumentView;
  /** the upload form as it was sent, with its errors, after a refusal */
  form?: FieldState;
  /** the errors that no one field shows */
  formErrors?: string[];
  /** documents published lately, newest first */
  published?: PublishedListItem[];
  /** whether the viewer's role may call documents.publish */
  canPublish?: boolean;
}

export const ACCEPTED_FILES = 'application/pdf,image/png,image/jpeg,image/webp,image/heic,.pdf,.png,.jpg,.jpeg,.webp,.heic';

export function documentsPage(
  v: Viewer,
  org: { id: string; name: string },
  documents: DocumentListItem[],
  accounts: { id: string; label: string }[],
  homeCurrency: string,
  options: DocumentsPageOptions = {},
): string {
  const { created } = options;
  const state: FieldState = options.form ?? { values: { type: 'bill', currency: homeCurrency }, errors: {} };
  const fieldErrorCount = Object.values(state.errors).reduce((n, m) => n + m.length, 0);
  return settingsPage(
    v,
    org,
    'documents',
    html`<p class="muted">Bills, receipts, expense claims and supplier credits held by Ledgerline until they are published to the books. A bill or
      expense claim added here is listed in Bills to Pay at once.</p>
${created ? createdCard(org.id, created) : ''}
<h3 id="unpublished">Unpublished documents</h3>
${documents.length ? documentTable(v, org, documents, options.canPublish === true) : html`<p class="card empty">No unpublished documents yet.</p>`}
${options.published?.length ? publishedTable(org, options.published) : ''}
<h3 id="upload">Upload a document</h3>
${
  fieldErrorCount && !options.formErrors?.length
    ? generalErrors([`Check the ${fieldErrorCount === 1 ? 'field' : `${fieldErrorCount} fields`} marked below.`])
    : ''
}
${options.formErrors?.length ? generalErrors([...options.formErrors, ...(fieldErrorCount ? ['Check the fields marked below too.'] : [])]) : ''}
${uploadForm(v, org.id, state, accounts)}`,
    { ...(options.notice ? { notice: options.notice } : {}), ...(options.error ? { error: options.error } : {}) },
  );
}

function documentTable(v: Viewer, org: { id: string; name: string }, documents: DocumentListItem[], canPublish: boolean): SafeHtml {
  return html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Unpublished documents of ${org.name}, newest first</caption>
  <thead><tr><th scope="col">Number</th><th scope="col">Type</th><th scope="col">Supplier</th><th scope="col">Date</th>
    <th scope="col" class="end">Total</th><th scope="col">Currency</th><th scope="col">File</th>
      <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${documents.map(
    (d) => html`<tr>
    <td data-label="Number">${d.number}</td>
    <td data-label="Type">${documentTypeLabel(d.type)}</td>
    <td data-label="Supplier">${d.supplier}</td>
    <td data-label="Date">${formatDay(d.date)}</td>
    <td class="end" data-label="Total">${d.total}</td>
    <td data-label="Currency">${d.currency}</td>
    <td data-label="File">${d.fileName ?? html`<span class="muted">none</span>`}</td>
    <td class="end"><a class="button small${
      canPublish ? '' : ' ' + 'secondary'
    }" href="/orgs/${org.id}/documents/${d.id}">${canPublish ? 'Publish…' : 'Open'}<span class="visually-hidden"> ${d.number} from
      ${d.supplier}</span></a><form method="post" action="/orgs/${org.id}/documents/${d.id}/delete" class="inline">
      <input type="hidden" name="csrf" value="${v.csrf}">
      <button type="submit" class="danger small">Delete<span class="visually-hidden"> ${d.number} from ${d.supplier}</span></button>
    </form></td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

function publishedTable(org: { id: string; name: string }, documents: PublishedListItem[]): SafeHtml {
  return html`<h3 id="published">Published lately</h3>
<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Documents of ${org.name} published to the books, newest first</caption>
  <thead><tr><th scope="col">Number</th><th scope="col">Supplier</th><th scope="col" class="end">Total</th><th scope="col">Published</th>
    <th scope="col">In the books</th><th scope="col">Bank</th></tr></thead>
  <tbody>${documents.map((d) => {
    const link = webLink(d.accountingLink);
    return html`<tr>
    <td data-label="Number"><a href="/orgs/${org.id}/documents/${d.id}">${d.number}</a> <span class="muted small">${documentTypeLabel(d.type)}</span></td>
    <td data-label="Supplier">${d.supplier}</td>
    <td class="end" data-label="Total">${d.total} ${d.currency}</td>
    <td data-label="Published">${formatDay(d.publishedAt)}</td>
    <td data-label="In the books"><code>${d.accountingId ?? '—'}</code>${
      link ? html` <a href="${link}" rel="noopener noreferrer" target="_blank">Open</a>` : ''
    }</td>
    <td data-label="Bank">${d.matched ? 'Matched' : html`<span class="muted">Not matched yet</span>`}</td>
  </tr>`;
  })}</tbody>
</table></div>`;
}

function createdCard(orgId: string, d: CreatedDocumentView): SafeHtml {
  return html`<section class="card" aria-labelledby="created-title">
  <h3 id="created-title">Added ${documentTypeLabel(d.type).toLowerCase()} ${d.number} from ${d.supplier}</h3>
  <dl class="facts">
    <dt>Date</dt><dd>${formatDay(d.date)}${d.dueDate ? html`, due ${formatDay(d.dueDate)}` : ''}</dd>
    <dt>Total</dt><dd>${d.total} ${d.currency}</dd>
    <dt>File</dt><dd>${d.fileName ?? 'none'}</dd>
    ${d.account ? html`<dt>Account</dt><dd>${d.account}</dd>` : ''}
    <dt>Id</dt><dd><code>${d.id}</code></dd>
  </dl>
  <p><a href="/orgs/${orgId}/documents/${d.id}">Publish it to the books</a></p>
  <p><a href="/orgs/${orgId}/documents">Back to documents</a></p>
</section>`;
}

function uploadForm(v: Viewer, orgId: string, s: FieldState, accounts: { id: string; label: string }[]): SafeHtml {
  const types = DOCUMENT_TYPES.map((t) => [t, documentTypeLabel(t)] as const);
  const accountChoices = [['', 'No account yet'] as const, ...accounts.map((a) => [a.id, a.label] as const)];
  return html`<form method="post" action="/orgs/${orgId}/documents" enctype="multipart/form-data" class="document-form">
  <input type="hidden" name="csrf" value="${v.csrf}">
  ${fileField(s, 'file', 'File', {
    accept: ACCEPTED_FILES,
    hint: 'A PDF, PNG, JPEG, WebP or HEIC of at most 10 MB. After a refusal, choose it again.',
    required: true,
  })}
  ${selectField(s, 'type', 'Type', types)}
  <div class="pair">
    ${textField(s, 'number', 'Number', { required: true, maxlength: 100, hint: "The supplier's invoice or receipt number" })}
    ${textField(s, 'supplier', 'Supplier', { required: true, maxlength: 200 })}
  </div>
  <div class="pair">
    ${textField(s, 'date', 'Date', { type: 'date', required: true })}
    ${textField(s, 'dueDate', 'Due date (optional)', { type: 'date' })}
  </div>
  ${textField(s, 'currency', 'Currency', { required: true, maxlength: 3, hint: 'ISO 4217 code, such as GBP or EUR' })}
  <div class="triple">
    ${textField(s, 'subtotal', 'Subtotal', { required: true, inputmode: 'decimal', placeholder: 'e.g. 120.50' })}
    ${textField(s, 'tax', 'Tax', { inputmode: 'decimal', placeholder: '0' })}
    ${textField(s, 'total', 'Total', { required: true, inputmode: 'decimal', placeholder: 'subtotal + tax' })}
  </div>
  <fieldset>
    <legend>How it will be published (one line for the whole document)</legend>
    ${selectField(s, 'lineAccount', 'Account', accountChoices)}
    ${textField(s, 'lineDescription', 'Description', { maxlength: 500, hint: 'Needed when an account is chosen' })}
  </fieldset>
  <fieldset>
    <legend>Bills to Pay (bills and expense claims only; optional)</legend>
    ${textField(s, 'scheduledDate', 'Scheduled payment date', { type: 'date' })}
    ${textField(s, 'tags', 'Tags', { hint: 'Comma separated, e.g. office, december-run', maxlength: 1000 })}
    ${textArea(s, 'note', 'Note')}
  </fieldset>
  <div class="actions"><button type="submit">Upload document</button></div>
</form>`;
}
