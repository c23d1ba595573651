/** A person's own page: the apps connected to their books, across organisations, and their organisations. */
import type { ConsentListing } from '../../store/connections.js';
import { html } from '../html.js';
import { formatDay, isAdminRole, roleLabel, scopeSentences } from '../words.js';
import { noticeBox, signedInPage, type Viewer } from './chrome.js';

export interface AccountView {
  viewer: Viewer;
  organisations: { id: string; name: string; role: string }[];
  connections: ConsentListing[];
  organisationNames: Map<string, string>;
  notice?: string;
}

export function appBadge(c: { verified: boolean; blocked: boolean }) {
  if (c.blocked) return html`<span class="badge blocked">Blocked</span>`;
  return c.verified ? html`<span class="badge verified">Verified app</span>` : html`<span class="badge unverified">Unverified app</span>`;
}

export function accountPage(v: AccountView): string {
  const orgList = (c: ConsentListing) =>
    c.allOrganisations
      ? 'All your organisations, including ones you join later by accepting an invitation or making one'
      : c.organisationIds.map((id) => v.organisationNames.get(id) ?? 'an organisation you have left').join(', ') || 'No organisation';
  return signedInPage(
    v.viewer,
    'Your account',
    html`<div class="page-head">
  <p class="eyebrow">Your account</p>
  <h1>Connected apps</h1>
  <p class="muted">Apps you allowed to use your books. Each acts only for the organisations listed, and only as far as your role there allows.
    Disconnecting stops it at once.</p>
</div>
${noticeBox(v.notice)}
${
  v.connections.length === 0
    ? html`<div class="card empty"><p>No apps are connected to your books.</p></div>`
    : html`<ul class="connections">
  ${v.connections.map(
    (c) => html`<li class="card connection">
    <div class="connection-main">
      <h2>${c.clientName} ${appBadge(c)}</h2>
      <p class="label">It can</p>
      <ul class="abilities">${scopeSentences(c.scopes).map((s) => html`<li>${s}</li>`)}</ul>
      <p><span class="label">For</span> ${orgList(c)}</p>
      <p class="muted small">Connected ${formatDay(c.createdAt)}</p>
    </div>
    <div class="connection-actions">
      <a class="button danger" href="/account/connections/${c.grantId}/disconnect">Disconnect<span class="visually-hidden"> ${c.clientName}</span></a>
    </div>
  </li>`,
  )}
</ul>`
}
<section class="card" aria-labelledby="orgs-title">
  <h2 id="orgs-title">Your organisations</h2>
  ${
    v.organisations.length === 0
      ? html`<p class="muted">You are not a member of any organisation yet.</p>`
      : html`<div class="scroll"><table class="stack">
    <caption class="visually-hidden">Organisations you belong to and your role in each</caption>
    <thead><tr><th scope="col">Organisation</th><th scope="col">Your role</th><th scope="col"><span class="visually-hidden">Settings</span></th></tr></thead>
    <tbody>${v.organisations.map(
      (o) =>
        html`<tr><td data-label="Organisation">${o.name}</td><td data-label="Your role">${roleLabel(o.role)}</td><td class="end">${
          isAdminRole(o.role) ? html`<a href="/orgs/${o.id}/api-clients">Manage settings<span class="visually-hidden"> of ${o.name}</span></a>` : ''
        }</td></tr>`,
    )}</tbody>
  </table></div>`
  }
  <p><a href="/orgs/new">Create an organisation</a></p>
</section>`,
    { current: 'account' },
  );
}
