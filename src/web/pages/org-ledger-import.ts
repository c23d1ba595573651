/** Books upload: load a journal (hledger/Ledger or general-journal CSV) into the organisation's own ledger. */
import type { JournalImportReport } from '../../import/journal/load.js';
import { html } from '../html.js';
import { settingsPage, type Viewer } from './chrome.js';

/** What the page shows of a load: the loader's own report. */
export type LedgerImportView = Omit<JournalImportReport, 'notes'>;

export function ledgerImportPage(
  v: Viewer,
  org: { id: string; name: string; accountingSystem: string },
  options: { result?: LedgerImportView; error?: string; notice?: string; problems?: { where: string; message: string }[] } = {},
): string {
  const r = options.result;
  const builtin = org.accountingSystem === 'builtin';
  return settingsPage(
    v,
    org,
    'ledger-import',
    html`<p class="muted">Load a chart of accounts and balanced transactions from an hledger or Ledger journal, or a general-journal CSV (date,
      number, type, account, contact, description, debit and credit or a signed amount, currency, rate). Each file is loaded whole or not at all, and
        loading the same books again adds nothing.</p>
${
  options.problems?.length
    ? html`<section class="card" aria-labelledby="refused"><h2 id="refused">Lines to fix</h2>
      <ul>${options.problems.map((p) => html`<li><strong>${p.where}</strong>: ${p.message}</li>`)}</ul></section>`
    : ''
}
${
  r
    ? html`<section class="card" aria-labelledby="ledger-result"><h2 id="ledger-result">${r.dryRun ? 'Checked, nothing written' : 'Loaded'}: ${r.file}</h2>
  <p>${r.transactions} transactions${r.period ? html` from ${r.period.from} to ${r.period.to}` : ''}: <strong>${r.new}</strong> ${
    r.dryRun ? 'to add' : 'added'
  } (${r.lines} ledger lines), ${r.alreadyPresent} already present.</p>
  ${r.accountsCreated.length ? html`<p>Accounts ${r.dryRun ? 'to create' : 'created'}: ${r.accountsCreated.join(', ')}</p>` : ''}
  ${r.contactsCreated.length ? html`<p>Contacts ${r.dryRun ? 'to create' : 'created'}: ${r.contactsCreated.length}</p>` : ''}
</section>`
    : ''
}
${
  builtin
    ? html`<form method="post" action="/orgs/${org.id}/ledger-import" enctype="multipart/form-data">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <label for="file">Journal or CSV file</label>
  <input id="file" name="file" type="file" required accept=".journal,.ledger,.hledger,.j,.csv,.txt">
  <label class="check"><input type="checkbox" name="allow_new_accounts" value="1"> <span>Create accounts the chart does not have yet (their type from
    the file's account directives or their names: Assets, Liabilities,
      Equity, Income, Expenses)</span></label>
  <label class="check"><input type="checkbox" name="dry_run" value="1"> <span>Check only: show what would be loaded, write nothing</span></label>
  <div class="actions"><button type="submit">Load books</button></div>
</form>`
    : html`<p class="notice" role="status">${org.name} keeps its books in ${org.accountingSystem}; journals load only into Ledgerline's own ledger.</p>`
}`,
    { ...(options.error ? { error: options.error } : {}), ...(options.notice ? { notice: options.notice } : {}) },
  );
}
