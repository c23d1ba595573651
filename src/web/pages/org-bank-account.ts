/**
 * One bank account's page (issue 40): its balance as the bank's statements give it and the date,
 * what it counts from and from when it is incomplete, the books' account it mirrors with its
 * balance at that date and what is left to reconcile (banking.accounts' answer), and each import
 * into it as a batch (file, format, lines, statement balances, who, when) that an admin can take
 * back whole while none of its lines is reconciled.
 */
import { formatMoney } from '../../domain/money.js';
import type { ListedImport } from '../../store/bank-imports.js';
import { html } from '../html.js';
import { settingsPage, type Viewer } from './chrome.js';
import { amountText } from './overview-parts.js';

export interface AccountFigures {
  id: string;
  name: string;
  number: string;
  currency: string;
  balance: number;
  balanceDate: string | null;
  balanceIncompleteFrom: string | null;
  bookBalance: number | null;
  differenceToReconcile: number | null;
  ledgerAccount: { fullName: string } | null;
  note: string;
}

export function bankAccountPage(
  v: Viewer,
  org: { id: string; name: string },
  account: AccountFigures,
  imports: ListedImport[],
  options: { notice?: string; error?: string } = {},
): string {
  const c = account.currency;
  const minor = (value: number | string | null) => (value === null ? '—' : formatMoney(Number(value), c));
  return settingsPage(
    v,
    org,
    'bank-import',
    html`<p><a href="/orgs/${org.id}/bank-import">← Bank statements</a></p>
<section class="card" aria-labelledby="account-title">
  <h3 id="account-title">${account.name}${account.number ? html` <span class="muted small">${account.number}</span>` : ''}</h3>
  <dl class="figures-list">
    <dt>Bank balance${account.balanceDate ? html` at ${account.balanceDate}` : ''}</dt><dd><strong>${amountText(account.balance, c)} ${c}</strong></dd>
    <dt>Book balance${account.ledgerAccount ? html` (${account.ledgerAccount.fullName})` : ''}</dt>
      <dd>${account.bookBalance === null ? '—' : html`${amountText(account.bookBalance, c)} ${c}`}</dd>
    <dt>Still to reconcile</dt><dd>${account.differenceToReconcile === null ? '—' : html`${amountText(account.differenceToReconcile, c)} ${c}`}</dd>
  </dl>
  ${account.balanceIncompleteFrom ? html`<div class="notice" role="status"><strong>Incomplete from ${account.balanceIncompleteFrom}.</strong></div>` : ''}
  <p class="muted">${account.note}</p>
</section>
<section class="card" aria-labelledby="imports-title">
  <h3 id="imports-title">Imports</h3>
  ${
    imports.length === 0
      ? html`<p class="muted">Nothing has been imported into this account yet.</p>`
      : html`<div class="scroll"><table class="stack"><caption class="visually-hidden">Each import into ${account.name}, newest first</caption>
  <thead><tr><th scope="col">File</th><th scope="col">Format</th><th scope="col" class="num">Lines</th><th scope="col">Statement balances</th>
    <th scope="col">By</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
  <tbody>${imports.map(
    (b) => html`<tr>
    <td data-label="File">${b.file_name}</td>
    <td data-label="Format">${b.format}</td>
    <td data-label="Lines" class="num">${b.lines} new${b.already_present ? html`, ${b.already_present} already present` : ''}</td>
    <td data-label="Statement balances">${
      b.statements.length
        ? html`<ul class="plain">${b.statements.map(
            (s) =>
              html`<li>${s.start_date}..${s.end_date}: opening ${minor(s.opening_amount)}${
                Number(s.opening_derived) ? ' (closing less the lines)' : ''
              }, closing ${minor(s.closing_amount)}${
                s.difference !== null && Number(s.difference) !== 0
                  ? html`, <strong>difference
                ${minor(s.difference)}</strong>`
                  : ''
              }${s.available_amount !== null ? html`, available ${minor(s.available_amount)}` : ''}</li>`,
          )}</ul>`
        : '—'
    }</td>
    <td data-label="By">${b.created_by_name ?? b.created_via}</td>
    <td data-label="When">${b.created_at.slice(0, 16).replace('T', ' ')}</td>
    <td data-label="Remove">${
      b.reconciled
        ? html`<span class="muted small">${b.reconciled} reconciled: cannot be removed</span>`
        : html`<a class="button danger small" href="/orgs/${org.id}/bank-import/imports/${b.id}/remove">Remove<span class="visually-hidden">
          ${b.file_name}</span></a>`
    }</td>
  </tr>`,
  )}</tbody></table></div>`
  }
</section>`,
    options,
  );
}
