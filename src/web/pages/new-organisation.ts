/** Create an organisation: its name, currency, time zone and financial year; the creator becomes its super admin. */
import { html } from '../html.js';
import { signedInPage, type Viewer } from './chrome.js';

export interface NewOrganisationForm {
  name?: string;
  currency?: string;
  timeZone?: string;
  fyStartMonth?: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function newOrganisationPage(v: Viewer, form: NewOrganisationForm = {}, error?: string): string {
  return signedInPage(
    v,
    'New organisation',
    html`<section class="card" aria-labelledby="new-org-title">
  <h1 id="new-org-title">New organisation</h1>
  <p class="muted">Its books start in Ledgerline's own ledger, empty: load them on its Books page (a journal or general-journal CSV) and import
    statements on Bank statements. You become its super admin.</p>
  ${error ? html`<div class="error" role="alert">${error}</div>` : ''}
  <form method="post" action="/orgs/new">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <label for="org-name">Name (unique)</label>
    <input id="org-name" name="name" required maxlength="200" value="${form.name ?? ''}">
    <label for="org-currency">Home currency (ISO 4217)</label>
    <input id="org-currency" name="currency" required maxlength="3" placeholder="GBP" value="${form.currency ?? ''}">
    <label for="org-zone">Time zone (IANA)</label>
    <input id="org-zone" name="timeZone" required placeholder="Europe/London" value="${form.timeZone ?? ''}">
    <label for="org-fy">Financial year starts in</label>
    <select id="org-fy" name="fyStartMonth">${MONTHS.map(
      (m, i) => html`<option value="${i + 1}" ${String(i + 1) === (form.fyStartMonth ?? '1') ? 'selected' : ''}>${m}</option>`,
    )}</select>
    <div class="actions"><button type="submit">Create organisation</button></div>
  </form>
</section>`,
    { current: 'account' },
  );
}
