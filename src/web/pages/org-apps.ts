/** Apps: ones this organisation's admins registered (verified here), and ones members connected that registered themselves. */
import type { ConnectedApp } from '../../store/connections.js';
import type { OAuthClientRow } from '../../store/schema.js';
import { html } from '../html.js';
import { clientKindLabel, formatInstant } from '../words.js';
import { appBadge } from './account.js';
import { settingsPage, type Viewer } from './chrome.js';

interface Org {
  id: string;
  name: string;
}

export function redirectUrisOf(row: OAuthClientRow): string[] {
  const meta = JSON.parse(row.metadata) as { redirect_uris?: unknown };
  return Array.isArray(meta.redirect_uris) ? meta.redirect_uris.map(String) : [];
}

const uriList = (row: OAuthClientRow) => html`<ul class="plain">${redirectUrisOf(row).map((u) => html`<li><code>${u}</code></li>`)}</ul>`;

export function appsPage(
  v: Viewer,
  org: Org,
  registered: OAuthClientRow[],
  connected: ConnectedApp[],
  /** apps this organisation's admins verified */
  verifiedHere: Set<string>,
  /** apps this organisation's admins blocked */
  blockedHere: Set<string>,
  options: { notice?: string; error?: string; name?: string; redirectUris?: string } = {},
): string {
  // verified for this organisation's members: by the operator, or by this organisation's admins
  const verified = (row: OAuthClientRow) => row.verified === 1 || verifiedHere.has(row.client_id);
  // blocked for this organisation's members: by the operator (which only the operator clears), or here
  const blocked = (row: OAuthClientRow) => row.blocked === 1 || blockedHere.has(row.client_id);
  return settingsPage(
    v,
    org,
    'apps',
    html`<p class="muted">Apps people connect with their own sign-in. An app registered here is shown as verified to members of ${org.name} on the
      consent screen; one that registered itself is shown as unverified until you verify it. Your verification holds for ${org.name} only: other
        organisations' members see the app as their own admins decide.</p>
<form method="post" action="/orgs/${org.id}/apps" class="card inline-form" novalidate>
  <input type="hidden" name="csrf" value="${v.csrf}">
  <h3>Register an app</h3>
  <label for="app-name">Name</label>
  <input id="app-name" name="name" type="text" maxlength="100" required value="${options.name ?? ''}">
  <label for="app-redirects">Redirect URIs</label>
  <textarea id="app-redirects" name="redirect_uris" rows="3" required aria-describedby="app-redirects-help${
    options.error ? ' form-error' : ''
  }">${options.redirectUris ?? ''}</textarea>
  <p class="hint" id="app-redirects-help">One per line. Each must be https, or http on the loopback address (127.0.0.1, localhost) for a desktop app.
    They are matched exactly.</p>
  <div class="actions"><button type="submit">Register app</button></div>
</form>

<h3>Registered by ${org.name}</h3>
${
  registered.length === 0
    ? html`<p class="muted">No apps registered yet.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Apps registered by ${org.name}</caption>
  <thead><tr><th scope="col">App</th><th scope="col">Client ID</th><th scope="col">Redirect URIs</th><th scope="col">Registered</th>
    <th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${registered.map(
    (row) => html`<tr>
    <td data-label="App">${row.name} ${appBadge({ verified: verified(row), blocked: blocked(row) })}</td>
    <td data-label="Client ID"><code>${row.client_id}</code></td>
    <td data-label="Redirect URIs">${uriList(row)}</td>
    <td data-label="Registered">${formatInstant(row.created_at)}</td>
    <td data-label="Last used">${row.last_used_at ? formatInstant(row.last_used_at) : html`<span class="muted">Never</span>`}</td>
    <td class="end"><a class="button danger small" href="/orgs/${org.id}/apps/${row.client_id}/remove">Remove<span class="visually-hidden">
      ${row.name}</span></a></td>
  </tr>`,
  )}</tbody>
</table></div>`
}

<h3>Connected by members</h3>
<p class="muted">Apps that registered themselves and that members of ${org.name} connected. Verifying or blocking an app applies to ${org.name} only:
  other organisations decide for themselves. An app blocked by the Ledgerline operator is blocked everywhere, and only the operator can unblock it.</p>
${
  connected.length === 0
    ? html`<p class="muted">No member has connected a self-registered app.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Self-registered apps connected by members of ${org.name}</caption>
  <thead><tr><th scope="col">App</th><th scope="col">How it registered</th><th scope="col">Redirect URIs</th><th scope="col">Members</th>
    <th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${connected.map(
    ({ client: row, members }) => html`<tr>
    <td data-label="App">${row.name} ${appBadge({ verified: verified(row), blocked: blocked(row) })}<br><code class="small">${row.client_id}</code></td>
    <td data-label="Registered by">${clientKindLabel(row.kind)}</td>
    <td data-label="Redirect URIs">${uriList(row)}</td>
    <td data-label="Members">${members}</td>
    <td data-label="Last used">${row.last_used_at ? formatInstant(row.last_used_at) : html`<span class="muted">Never</span>`}</td>
    <td class="end">${
      row.blocked === 1
        ? html`<span class="muted small">Blocked by the operator</span>`
        : blockedHere.has(row.client_id)
          ? html`<form method="post" action="/orgs/${org.id}/apps/${row.client_id}/unblock" class="inline">
        <input type="hidden" name="csrf" value="${v.csrf}"><button type="submit" class="secondary small">Unblock<span class="visually-hidden">
          ${row.name}</span></button></form>`
          : html`${
              verified(row)
                ? ''
                : html`<form method="post" action="/orgs/${org.id}/apps/${row.client_id}/verify" class="inline">
        <input type="hidden" name="csrf" value="${v.csrf}"><button type="submit" class="secondary small">Verify<span class="visually-hidden">
          ${row.name}</span></button></form>`
            }
        <a class="button danger small" href="/orgs/${org.id}/apps/${row.client_id}/block">Block<span class="visually-hidden"> ${row.name}</span></a>`
    }</td>
  </tr>`,
  )}</tbody>
</table></div>`
}`,
    options,
  );
}
