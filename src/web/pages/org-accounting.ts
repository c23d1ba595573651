/** Accounting system: which system keeps the books, the Xero or QuickBooks connection, and connecting or disconnecting one. */
import type { AccountingStatus } from '../../accounting/connections/status.js';
import { VENDOR_DESCRIPTORS } from '../../accounting/vendors.js';
import type { VendorDescriptor } from '../../accounting/vendor-descriptor.js';
import { html } from '../html.js';
import { formatInstant } from '../words.js';
import { settingsPage, signedInPage, type Viewer } from './chrome.js';

const SYSTEM_NAMES: Record<string, string> = {
  builtin: "Ledgerline's own ledger",
  gnucash: 'GnuCash',
  ...Object.fromEntries(Object.values(VENDOR_DESCRIPTORS).map((d) => [d.vendor, d.productName])),
};
/** The vendors by name, in words: "Xero or QuickBooks". */
const VENDORS_IN_WORDS = Object.values(VENDOR_DESCRIPTORS)
  .map((d) => d.name)
  .join(' or ');
/** The environment settings of the vendors' client registrations, in words. */
const REGISTRATIONS = Object.values(VENDOR_DESCRIPTORS)
  .map((d) => `${d.envPrefix}_CLIENT_ID and ${d.envPrefix}_CLIENT_SECRET`)
  .join(', or ');

/** A maximum age as words: "a minute", "5 minutes", "30 seconds". */
function ageText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60 || seconds % 60 !== 0) return seconds === 1 ? 'a second' : `${seconds} seconds`;
  return seconds === 60 ? 'a minute' : `${seconds / 60} minutes`;
}

export function accountingPage(
  v: Viewer,
  org: { id: string; name: string },
  state: Pick<AccountingStatus, 'system' | 'connection' | 'configured' | 'mirror'>,
  options: { notice?: string; error?: string } = {},
): string {
  const c = state.connection;
  const vendorName = c ? (c.descriptor?.name ?? c.vendor) : '';
  const booksWord = c?.descriptor?.booksWord ?? 'Books';
  const upToDate = (syncedAt: string, maxAgeMs: number) =>
    `Ledgerline answers from its copy of the books, last brought up to date ${formatInstant(syncedAt)}; a call asks ${vendorName} what changed ` +
    `when the copy is older than ${ageText(maxAgeMs)}.`;
  const connectForm = (d: VendorDescriptor) => html`<form method="post" action="/orgs/${org.id}/accounting/connect/${d.vendor}" class="inline">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <button type="submit">Connect ${d.name}</button>
  </form>`;
  return settingsPage(
    v,
    org,
    'accounting',
    html`<p>${org.name}'s books are kept in <strong>${SYSTEM_NAMES[state.system] ?? state.system}</strong>.</p>
${
  c
    ? html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">The accounting connection of ${org.name}</caption>
  <thead><tr><th scope="col">Connected to</th><th scope="col">${booksWord}</th><th scope="col">Status</th>
    <th scope="col">Connected</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody><tr>
    <td data-label="Connected to">${vendorName}</td>
    <td data-label="${booksWord}">${c.tenant_name}<br><code class="small">${c.tenant_id}</code></td>
    <td data-label="Status">${
      c.status === 'active' ? 'Connected' : html`<strong>Needs reconnecting</strong><br><span class="muted small">${c.problem ?? ''}</span>`
    }</td>
    <td data-label="Connected">${formatInstant(c.created_at)}</td>
    <td class="end"><a class="button danger small" href="/orgs/${org.id}/accounting/disconnect">Disconnect<span class="visually-hidden">
      ${vendorName}</span></a></td>
  </tr></tbody>
</table></div>
<p class="muted">${
        !state.mirror
          ? html`Ledgerline keeps a copy of the books and makes it at the first call that reads them.`
          : state.mirror.complete && state.mirror.syncedAt
            ? html`${upToDate(state.mirror.syncedAt, state.mirror.maxAgeMs)}`
            : html`Ledgerline is making its first copy of the books from ${vendorName}; calls answer once it is whole.`
      }</p>`
    : html`<p class="muted">${org.name} is not connected to ${VENDORS_IN_WORDS}.</p>`
}
${
  state.configured.length
    ? html`<h3>${c ? 'Connect again or switch' : 'Connect'}</h3>
<p class="muted">You sign in at the vendor and allow Ledgerline to read the books; ${org.name}'s books are then read from there. Only one connection
  is kept: connecting replaces it.</p>
<div class="actions">${state.configured.map(connectForm)}</div>`
    : html`<p class="muted">Connecting to ${VENDORS_IN_WORDS} needs the service's client registration with them (${REGISTRATIONS}), which this
      service does not have.</p>`
}`,
    options,
  );
}

/** After signing in at a vendor (Xero) with access to several organisations: which one this organisation's books are. */
export function chooseTenantPage(
  v: Viewer,
  org: { id: string; name: string },
  requestId: string,
  choice: { descriptor: Pick<VendorDescriptor, 'name' | 'booksWord'>; tenants: { tenantId: string; tenantName: string }[] },
): string {
  const { tenants } = choice;
  const books = `${choice.descriptor.name} ${choice.descriptor.booksWord.toLowerCase()}`;
  return signedInPage(
    v,
    `Choose the ${books} · ${org.name}`,
    html`<div class="card narrow">
  <h1>Which ${books} are ${org.name}'s books?</h1>
  <form method="post" action="/orgs/${org.id}/accounting/choose/${requestId}">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <fieldset>
      <legend>${books}s you allowed access to</legend>
      ${tenants.map(
        (t, i) =>
          html`<div><input type="radio" name="tenant" id="tenant-${i}" value="${t.tenantId}" ${i === 0 ? 'checked' : ''}>
            <label for="tenant-${i}">${t.tenantName}</label></div>`,
      )}
    </fieldset>
    <div class="actions">
      <button type="submit">Connect</button>
      <a class="button secondary" href="/orgs/${org.id}/accounting">Cancel</a>
    </div>
  </form>
</div>`,
    { current: 'settings' },
  );
}
