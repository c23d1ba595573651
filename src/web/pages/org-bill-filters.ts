/** Bills to Pay filters: the saved ones with what each matches today, a form to save one, and one to change each. */
import { BILL_KINDS, type BillCriteria } from '../../domain/bill-criteria.js';
import { formatMoney, minorDigits } from '../../domain/money.js';
import { html, type SafeHtml } from '../html.js';
import { documentTypeLabel } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';
import { checkboxes, generalErrors, selectField, textField, type FieldState } from './form-fields.js';

export interface FilterListItem {
  id: string;
  name: string;
  description: string;
  criteria: BillCriteria;
  /** null when the count could not be worked out (the accounting system could not be read) */
  count: number | null;
  /** total due, home currency major units */
  total: number | null;
}

export interface FilterFormView {
  state: FieldState;
  /** errors no one field shows */
  general?: string[];
}

const ANY_YES_NO = [
  ['any', 'Any'],
  ['yes', 'Yes'],
  ['no', 'No'],
] as const;

export function billFiltersPage(
  v: Viewer,
  org: { id: string; name: string },
  filters: FilterListItem[],
  homeCurrency: string,
  options: { notice?: string; error?: string; create?: FilterFormView } = {},
): string {
  const create = options.create ?? { state: { values: { overdue: 'any', scheduled: 'any', foreignCurrency: 'any' }, errors: {}, prefix: 'new-' } };
  return settingsPage(
    v,
    org,
    'bill-filters',
    html`<p class="muted">Saved filters pick out bills and expense claims in Bills to Pay; apps list them with bills.list_saved_filters and pass a
      name to bills.list_to_pay. Counts and totals are of what is outstanding today, in ${homeCurrency}.</p>
${filters.length ? filterTable(v, org, filters, homeCurrency) : html`<p class="card empty">No saved filters yet.</p>`}
<h3 id="new-filter">Save a filter</h3>
${filterForm(v, `/orgs/${org.id}/bill-filters`, create, homeCurrency, 'Save filter')}`,
    { ...(options.notice ? { notice: options.notice } : {}), ...(options.error ? { error: options.error } : {}) },
  );
}

/** One filter's own page: its form, filled in with what is saved (or what was sent). */
export function billFilterEditPage(
  v: Viewer,
  org: { id: string; name: string },
  filter: { id: string; name: string },
  form: FilterFormView,
  homeCurrency: string,
): string {
  return settingsPage(
    v,
    org,
    'bill-filters',
    html`<h3>Change “${filter.name}”</h3>
${filterForm(v, `/orgs/${org.id}/bill-filters/${filter.id}`, form, homeCurrency, 'Save changes')}
<p><a href="/orgs/${org.id}/bill-filters">Back to Bills to Pay filters</a></p>`,
  );
}

function filterTable(v: Viewer, org: { id: string; name: string }, filters: FilterListItem[], homeCurrency: string): SafeHtml {
  const money = (major: number) => formatMoney(Math.round(major * 10 ** minorDigits(homeCurrency)), homeCurrency);
  return html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Saved Bills to Pay filters of ${org.name}</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Selects</th><th scope="col" class="end">Bills</th><th scope="col" class="end">Due</th>
    <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${filters.map(
    (f) => html`<tr>
    <td data-label="Name"><strong>${f.name}</strong>${f.description ? html`<br><span class="muted small">${f.description}</span>` : ''}</td>
    <td data-label="Selects">${criteriaWords(f.criteria, homeCurrency)}</td>
    <td class="end" data-label="Bills">${f.count ?? '—'}</td>
    <td class="end" data-label="Due">${f.total === null ? '—' : money(f.total)}</td>
    <td class="end"><a class="button secondary small" href="/orgs/${org.id}/bill-filters/${f.id}">Change<span class="visually-hidden"> ${f.name}</span></a>
      <form method="post" action="/orgs/${org.id}/bill-filters/${f.id}/delete" class="inline">
        <input type="hidden" name="csrf" value="${v.csrf}">
        <button type="submit" class="danger small">Delete<span class="visually-hidden"> ${f.name}</span></button>
      </form></td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

/** What a filter selects, in a few words. */
export function criteriaWords(c: BillCriteria, homeCurrency: string): string {
  const yesNo = (b: boolean | undefined, yes: string, no: string) => (b === undefined ? '' : b ? yes : no);
  const parts = [
    c.kinds ? c.kinds.map((k) => `${documentTypeLabel(k)}s`).join(' and ') : '',
    c.tagsAny ? `tagged ${c.tagsAny.join(' or ')}` : '',
    c.suppliers ? `from ${c.suppliers.join(' or ')}` : '',
    c.dueWithinDays !== undefined ? `due within ${c.dueWithinDays} days` : '',
    yesNo(c.overdue, 'overdue', 'not overdue'),
    yesNo(c.scheduled, 'scheduled', 'not scheduled'),
    yesNo(c.foreignCurrency, `not in ${homeCurrency}`, `in ${homeCurrency}`),
    c.minAmountDue !== undefined ? `at least ${formatMoney(c.minAmountDue, homeCurrency)} due` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'Every outstanding bill';
}

function filterForm(v: Viewer, action: string, form: FilterFormView, homeCurrency: string, button: string): SafeHtml {
  const s = form.state;
  const fieldErrors = Object.values(s.errors).reduce((n, m) => n + m.length, 0);
  const general = [...(form.general ?? []), ...(fieldErrors ? [`Check the ${fieldErrors === 1 ? 'field' : `${fieldErrors} fields`} marked below.`] : [])];
  return html`${generalErrors(general)}
<form method="post" action="${action}" class="filter-form">
  <input type="hidden" name="csrf" value="${v.csrf}">
  ${textField(s, 'name', 'Name', { required: true, maxlength: 100 })}
  ${textField(s, 'description', 'Description (optional)', { maxlength: 500 })}
  <fieldset>
    <legend>Selects the outstanding bills that match all of these (leave a field empty for any)</legend>
    ${checkboxes(
      s,
      'kinds',
      'Kinds',
      BILL_KINDS.map((k) => [k, `${documentTypeLabel(k)}s`] as const),
    )}
    ${textField(s, 'tagsAny', 'Tagged with any of', { hint: 'Comma separated, e.g. office, december-run' })}
    ${textField(s, 'suppliers', 'From any of these suppliers', { hint: 'Comma separated, names as the bills give them' })}
    <div class="triple">
      ${selectField(s, 'overdue', 'Overdue', ANY_YES_NO)}
      ${selectField(s, 'scheduled', 'Scheduled for payment', ANY_YES_NO)}
      ${selectField(s, 'foreignCurrency', `In a currency other than ${homeCurrency}`, ANY_YES_NO)}
    </div>
    <div class="pair">
      ${textField(s, 'dueWithinDays', 'Due within (days from today)', { inputmode: 'numeric', placeholder: 'e.g. 14' })}
      ${textField(s, 'minAmountDue', `At least this much due (${homeCurrency})`, { inputmode: 'decimal', placeholder: 'e.g. 250.00' })}
    </div>
  </fieldset>
  <div class="actions"><button type="submit">${button}</button></div>
</form>`;
}
