/** Bank statement upload: pick an account and a file; see what the import did, or why it was refused. */
import { html } from '../html.js';
import { settingsPage, type Viewer } from './chrome.js';

export interface ImportResultView {
  file: string;
  dryRun: boolean;
  format: string;
  account: string;
  /** the account's page; null for a dry run into an account not created yet */
  accountId: string | null;
  new: number;
  alreadyPresent: number;
  /** lines already present under another format's line of the same date, amount and narration */
  matched: { where: string; reason: string }[];
  skipped: { where: string; reason: string }[];
  statements: { where: string; opening: string; closing: string; computedClosing: string; difference: string | null; available: string | null }[];
  balance: string;
  /** what the balance counts from, in words */
  balanceWords: string;
  /** from when it misses what the statements show, in words; null when complete */
  incomplete: string | null;
  /** what the importer noticed and imported anyway (e.g. a card statement into a current account) */
  notes: string[];
}

export interface NewAccountForm {
  /** the organisation's home currency: what a new account is in unless said otherwise */
  currency: string;
  /** the books' accounts a new account may mirror */
  bookAccounts: { accountId: string; fullName: string; number: string; type: string; currency: string | null }[];
}

export function bankImportPage(
  v: Viewer,
  org: { id: string; name: string },
  accounts: { id: string; name: string; number: string; currency: string }[],
  options: { result?: ImportResultView; error?: string; notice?: string } = {},
  form: NewAccountForm = { currency: '', bookAccounts: [] },
): string {
  const r = options.result;
  return settingsPage(
    v,
    org,
    'bank-import',
    html`<p class="muted">Upload a bank or card statement (OFX, QFX, CAMT.053/052/054, CSV, MT940 or QIF, at most 20 MB). Each file is imported whole
      or not at all, and importing the same file again, or the same lines in another format, adds nothing. The account's balance counts from its
        statements' own balances.</p>
${
  r
    ? html`<section class="card" aria-labelledby="import-result"><h2 id="import-result">${r.dryRun ? 'Checked, nothing written' : 'Imported'}: ${r.file}</h2>
  ${r.notes.length ? html`<div class="notice" role="status"><strong>Check:</strong> <ul>${r.notes.map((n) => html`<li>${n}</li>`)}</ul></div>` : ''}
  ${r.incomplete ? html`<div class="notice" role="status"><strong>Balance incomplete:</strong> ${r.incomplete}</div>` : ''}
  <p>${r.format} statement for <strong>${
    r.accountId ? html`<a href="/orgs/${org.id}/bank-import/accounts/${r.accountId}">${r.account}</a>` : r.account
  }</strong>: <strong>${r.new}</strong> new, ${r.alreadyPresent} already present${
    r.matched.length
      ? html` (${r.matched.length} matched by date,
    amount and narration)`
      : ''
  }, ${r.skipped.length} skipped. Balance now ${r.balance}, ${r.balanceWords}.</p>
  ${
    r.statements.length
      ? html`<div class="scroll"><table class="stack">
        <caption class="visually-hidden">Statement balances beside the ones Ledgerline computes</caption><thead><tr><th scope="col">Statement</th><th
          scope="col">Opening</th><th scope="col">Closing</th><th scope="col">Closing computed</th><th scope="col">Difference</th></tr></thead><tbody>
    ${r.statements.map(
      (s) =>
        html`<tr><td data-label="Statement">${s.where}</td><td data-label="Opening">${s.opening}</td>
          <td data-label="Closing">${s.closing}${s.available ? html` <span class="muted small">(available ${s.available})</span>` : ''}</td><td
            data-label="Closing computed">${s.computedClosing}</td>
              <td data-label="Difference">${s.difference ? html`<strong>${s.difference}</strong>` : '—'}</td></tr>`,
    )}
  </tbody></table></div>`
      : ''
  }
  ${r.matched.length ? html`<h3>Already present in another format</h3><ul>${r.matched.map((s) => html`<li>${s.where}: ${s.reason}</li>`)}</ul>` : ''}
  ${r.skipped.length ? html`<h3>Skipped</h3><ul>${r.skipped.map((s) => html`<li>${s.where}: ${s.reason}</li>`)}</ul>` : ''}
</section>`
    : ''
}
${
  accounts.length
    ? html`<section aria-labelledby="accounts-title"><h3 id="accounts-title">Accounts</h3><ul>${accounts.map(
        (a) =>
          html`<li><a href="/orgs/${org.id}/bank-import/accounts/${a.id}">${a.name}</a> <span class="muted small">${a.number} · ${a.currency} ·
            balances and imports</span></li>`,
      )}</ul></section>`
    : ''
}
<form method="post" action="/orgs/${org.id}/bank-import" enctype="multipart/form-data">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <label for="account">Account</label>
  <select id="account" name="account" required>
    ${accounts.map((a) => html`<option value="${a.id}">${a.name} (${a.number}, ${a.currency})</option>`)}
    <option value="new"${accounts.length ? '' : html` selected`}>A new account…</option>
  </select>
  <fieldset class="new-account">
    <legend>A new account (when “A new account…” is chosen; created with the first statement imported into it)</legend>
    <label for="new_name">Name</label>
    <input id="new_name" name="new_name" autocomplete="off" placeholder="e.g. Business Current Account">
    <label for="new_type">Type</label>
    <select id="new_type" name="new_type"><option value="bank">Bank account</option><option value="credit_card">Credit card</option></select>
    <label for="new_currency">Currency</label>
    <input id="new_currency" name="new_currency" autocomplete="off" maxlength="3" placeholder="e.g. GBP" value="${form.currency}">
    <label for="new_number">Account number (optional: by default the one the statement gives)</label>
    <input id="new_number" name="new_number" autocomplete="off">
    <label for="new_ledger">The books’ account it mirrors</label>
    <select id="new_ledger" name="new_ledger">
      <option value="auto" selected>Suggested: the books’ account of the same number or name</option>
      ${form.bookAccounts.map(
        (b) => html`<option value="${b.accountId}">${b.fullName}${b.number ? ` (${b.number})` : ''}${b.currency ? `, ${b.currency}` : ''}</option>`,
      )}
      <option value="">None: not linked to the books</option>
    </select>
    <label for="new_opening">Opening balance (optional: used when no statement gives an earlier one)</label>
    <input id="new_opening" name="new_opening" inputmode="decimal" autocomplete="off" placeholder="e.g. 12500.00">
    <label for="new_opening_date">Opening balance date (the balance before that day’s transactions)</label>
    <input id="new_opening_date" name="new_opening_date" type="date" autocomplete="off">
  </fieldset>
  <label for="rate">Rate to the home currency, for an account in another currency</label>
  <input id="rate" name="rate" inputmode="decimal" autocomplete="off" placeholder="e.g. 0.8571 (home currency per 1 unit of the account's)">
  <label for="file">Statement file</label>
  <input id="file" name="file" type="file" required>
  <label class="check"><input type="checkbox" name="dry_run" value="1"> <span>Check only: show what would be imported, write nothing</span></label>
  <label class="check"><input type="checkbox" name="refuse_unbalanced" value="1"> <span>Refuse the file if a statement's own balances do not add up
    (otherwise it is imported and the difference shown)</span></label>
  <div class="actions"><button type="submit">Import statement</button></div>
</form>`,
    options,
  );
}
