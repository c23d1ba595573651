/** API clients: an organisation's own servers and scripts (client credentials). */
import type { CreatedApiClient } from '../../auth/clients.js';
import type { OAuthClientRow } from '../../store/schema.js';
import { html } from '../html.js';
import { formatInstant } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';

interface Org {
  id: string;
  name: string;
}

export function scopesOf(row: OAuthClientRow): string[] {
  const meta = JSON.parse(row.metadata) as { scope?: string };
  return (meta.scope ?? 'service.read').split(' ').filter(Boolean);
}

export function apiClientsPage(
  v: Viewer,
  org: Org,
  clients: { row: OAuthClientRow; createdBy: string | null }[],
  options: { notice?: string; error?: string; name?: string } = {},
): string {
  return settingsPage(
    v,
    org,
    'api-clients',
    html`<p class="muted">An API client lets this organisation's own servers and scripts read its books with the client credentials flow. It acts only
      for ${org.name}, and roles do not apply to it.</p>
<form method="post" action="/orgs/${org.id}/api-clients" class="card inline-form" novalidate>
  <input type="hidden" name="csrf" value="${v.csrf}">
  <h3>Create an API client</h3>
  <label for="client-name">Name</label>
  <input id="client-name" name="name" type="text" maxlength="100" required value="${options.name ?? ''}"
    aria-describedby="client-name-help${options.error ? ' form-error' : ''}">
  <p class="hint" id="client-name-help">Say what uses it, for example “Nightly export to the data warehouse”.</p>
  <label class="check"><input type="checkbox" name="write" value="1"> <span>Also allow it to make changes (<code>service.write</code>). Leave unticked
    for read-only access.</span></label>
  <div class="actions"><button type="submit">Create API client</button></div>
</form>
${
  clients.length === 0
    ? html`<p class="muted">No API clients yet.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption>API clients of ${org.name}</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Access</th><th scope="col">Created</th>
    <th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${clients.map(
    ({ row, createdBy }) => html`<tr>
    <td data-label="Name">${row.name}</td>
    <td data-label="Client ID"><code>${row.client_id}</code></td>
    <td data-label="Access">${scopesOf(row).includes('service.write') ? 'Read and change' : 'Read only'}</td>
    <td data-label="Created">${formatInstant(row.created_at)}${createdBy ? html`<br><span class="muted small">by ${createdBy}</span>` : ''}</td>
    <td data-label="Last used">${row.last_used_at ? formatInstant(row.last_used_at) : html`<span class="muted">Never</span>`}</td>
    <td class="end"><a class="button danger small" href="/orgs/${org.id}/api-clients/${row.client_id}/revoke">Revoke<span class="visually-hidden">
      ${row.name}</span></a></td>
  </tr>`,
  )}</tbody>
</table></div>`
}`,
    options,
  );
}

/** Shown once, right after creation: the secret exists nowhere else. */
export function apiClientCreatedPage(v: Viewer, org: Org, created: CreatedApiClient, baseUrl: string): string {
  return settingsPage(
    v,
    org,
    'api-clients',
    html`<div class="card secret">
  <h3>API client “${created.name}” created</h3>
  <p class="notice"><strong>Copy the secret now.</strong> It is shown only this once: Ledgerline keeps only a hash of it. If it is lost, revoke this
    client and create another.</p>
  <label for="client-id">Client ID</label>
  <div class="copy-field">
    <input id="client-id" type="text" readonly value="${created.clientId}" spellcheck="false" autocomplete="off">
    <button type="button" class="secondary" data-copy="client-id" hidden>Copy<span class="visually-hidden"> client ID</span></button>
  </div>
  <label for="client-secret">Client secret</label>
  <div class="copy-field">
    <input id="client-secret" type="text" readonly value="${created.clientSecret}" spellcheck="false" autocomplete="off" aria-describedby="secret-help">
    <button type="button" class="secondary" data-copy="client-secret" hidden>Copy<span class="visually-hidden"> client secret</span></button>
  </div>
  <p class="hint" id="secret-help">Select the text in the field and copy it into your server's secret store.</p>
  <p class="visually-hidden" role="status" id="copy-status"></p>
  <h4>Getting a token</h4>
  <pre><code>curl -X POST ${baseUrl}/oauth/token \\
  -d grant_type=client_credentials \\
  -d client_id=${created.clientId} \\
  -d client_secret=YOUR_SECRET \\
  -d scope=${created.scopes.join('+')}</code></pre>
  <div class="actions"><a class="button" href="/orgs/${org.id}/api-clients">Done</a></div>
</div>`,
    { script: true },
  );
}
