/**
 * One document's page under Documents: what it holds, and either where it is in the books (the day
 * it was published, its id there and a link into the system) or the form that publishes it. The
 * form asks what the document type needs (a receipt: the bank or card account that paid it; a
 * foreign document: the rate), and after a refusal says each missing thing in words with what to
 * do, asking first before a new supplier is created in the books.
 */
import type { DocumentNaming } from '../../store/document-summaries.js';
import { html, type SafeHtml } from '../html.js';
import { documentTypeLabel, formatDay, formatInstant } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';
import { generalErrors, selectField, textField, type FieldState } from './form-fields.js';

/** What names a document on the Documents pages (its lists, the one just created, its own page). */
export interface DocumentHeading extends DocumentNaming {
  /** in major units, as the currency writes it */
  total: string;
}

export interface DocumentView extends DocumentHeading {
  dueDate: string | null;
  publishedAt: string | null;
  accountingId: string | null;
  accountingLink: string | null;
  lines: { description: string; account: string | null; total: string }[];
}

export interface PublishForm {
  /** whether the viewer's role may call documents.publish */
  allowed: boolean;
  homeCurrency: string;
  /** bank and card accounts a receipt can be paid from: value for paidFrom, label */
  payFrom: { value: string; label: string }[];
  /** chart accounts, offered for tax once the books ask which one */
  accounts: { id: string; label: string }[];
  state: FieldState;
  /** the supplier (or employee) the books do not know yet, once the operation has said so */
  newContact: { name: string; kind: string; close: string[] } | null;
  /** what no field shows, each with what to do */
  problems: string[];
}

/** A link into the system is followed only when it is a web address, never a script or data URL. */
export const webLink = (link: string | null): string | null => (link && /^https?:\/\//i.test(link) ? link : null);

export function documentPage(
  v: Viewer,
  org: { id: string; name: string },
  d: DocumentView,
  form: PublishForm,
  options: { notice?: string; error?: string } = {},
): string {
  return settingsPage(
    v,
    org,
    'documents',
    html`<p><a href="/orgs/${org.id}/documents">← Documents</a></p>
<section class="card" aria-labelledby="document-title">
  <h3 id="document-title">${documentTypeLabel(d.type)} ${d.number} from ${d.supplier}</h3>
  <dl class="facts">
    <dt>Date</dt><dd>${formatDay(d.date)}${d.dueDate ? html`, due ${formatDay(d.dueDate)}` : ''}</dd>
    <dt>Total</dt><dd>${d.total} ${d.currency}</dd>
    ${d.publishedAt ? publishedFacts(d) : html`<dt>In the books</dt><dd>Not published yet</dd>`}
    <dt>Id</dt><dd><code>${d.id}</code></dd>
  </dl>
  ${d.lines.length ? linesTable(d) : html`<p class="muted">No coded lines: it cannot be published until its lines are coded to accounts.</p>`}
</section>
${d.publishedAt ? '' : publishSection(v, org.id, d, form)}`,
    options,
  );
}

function publishedFacts(d: DocumentView): SafeHtml {
  const link = webLink(d.accountingLink);
  return html`<dt>Published</dt><dd>${formatInstant(d.publishedAt)}</dd>
    <dt>In the books</dt><dd><code>${d.accountingId ?? '—'}</code>${
      link ? html` <a href="${link}" rel="noopener noreferrer" target="_blank">Open in the accounting system</a>` : ''
    }</dd>`;
}

function linesTable(d: DocumentView): SafeHtml {
  return html`<div class="scroll"><table class="stack">
  <caption>Coded lines</caption>
  <thead><tr><th scope="col">Description</th><th scope="col">Account</th><th scope="col" class="end">Total</th></tr></thead>
  <tbody>${d.lines.map(
    (l) =>
      html`<tr><td data-label="Description">${l.description}</td><td data-label="Account">${l.account ?? html`<strong>none yet</strong>`}</td>
        <td class="end" data-label="Total">${l.total}</td></tr>`,
  )}</tbody>
</table></div>`;
}

function publishSection(v: Viewer, orgId: string, d: DocumentView, f: PublishForm): SafeHtml {
  if (!f.allowed) {
    return html`<section class="card" aria-labelledby="publish-title">
  <h3 id="publish-title">Publish to the books</h3>
  <p class="muted">Your role may not publish documents in this organisation (Role permissions: documents.publish).</p>
</section>`;
  }
  const s = f.state;
  const fieldErrors = Object.values(s.errors).reduce((n, m) => n + m.length, 0);
  const problems = [...f.problems, ...(fieldErrors ? [`Check the ${fieldErrors === 1 ? 'field' : `${fieldErrors} fields`} marked below.`] : [])];
  const confirm = f.newContact;
  return html`<section class="card" aria-labelledby="publish-title">
  <h3 id="publish-title">Publish to the books</h3>
  <p class="muted">${publishWords(d.type)}</p>
  ${generalErrors(problems, 'Not published yet.')}
  ${
    confirm
      ? html`<div class="notice" role="status" id="confirm-contact">
        <p><strong>${confirm.name} is not a ${confirm.kind} in the books yet. Create it and publish?</strong></p>${
          confirm.close.length ? html`<p>The books have ${confirm.close.join(', ')}: if it is one of these, correct the document's supplier instead.</p>` : ''
        }</div>`
      : ''
  }
  <form method="post" action="/orgs/${orgId}/documents/${d.id}/publish" class="publish-form">
    <input type="hidden" name="csrf" value="${v.csrf}">
    ${confirm ? html`<input type="hidden" name="createContact" value="true">` : ''}
    ${
      d.type === 'receipt'
        ? selectField(s, 'paidFrom', 'Paid from', [['', 'Choose the bank or card account…'], ...f.payFrom.map((p) => [p.value, p.label] as const)], {
            hint: 'The bank or card account the receipt was paid from',
          })
        : ''
    }
    ${
      d.currency !== f.homeCurrency || s.values.exchangeRate || s.errors.exchangeRate
        ? textField(s, 'exchangeRate', `Exchange rate (${f.homeCurrency} per ${d.currency})`, {
            inputmode: 'decimal',
            maxlength: 40,
            hint: 'e.g. 1.0842; Xero and QuickBooks use their own rate when it is left empty',
          })
        : ''
    }
    ${
      s.values.taxAccount || s.errors.taxAccount
        ? selectField(s, 'taxAccount', 'Tax account', [['', 'Choose the account tax goes to…'], ...f.accounts.map((a) => [a.id, a.label] as const)])
        : ''
    }
    <div class="actions"><button type="submit">${confirm ? `Create ${confirm.name} and publish` : 'Publish to the books'}</button></div>
  </form>
</section>`;
}

function publishWords(type: string): string {
  switch (type) {
    case 'receipt':
      return 'A receipt is written to the books as money spent from the bank or card account that paid it, with its file attached.';
    case 'expense_claim':
      return 'An expense claim is written to the books as a bill owed to the employee, with its file attached.';
    case 'supplier_credit':
      return 'A supplier credit is written to the books as a credit note from the supplier, with its file attached.';
    default:
      return 'A bill is written to the books as a bill owed to the supplier, with its file attached.';
  }
}
