/** Connections: every consent and live token acting for this organisation, by person and app. */
import type { ConsentListing, LiveTokens } from '../../store/connections.js';
import type { OAuthClientRow } from '../../store/schema.js';
import { html } from '../html.js';
import { formatDay, formatInstant, scopeSummary } from '../words.js';
import { appBadge } from './account.js';
import { settingsPage, type Viewer } from './chrome.js';

const tokensText = (t: LiveTokens | undefined) => {
  if (!t || t.accessTokens + t.refreshTokens === 0) return html`<span class="muted">None live</span>`;
  const parts = [];
  if (t.accessTokens) parts.push(`${t.accessTokens} access`);
  if (t.refreshTokens) parts.push(`${t.refreshTokens} refresh`);
  return html`${parts.join(', ')}<br><span class="muted small">until ${formatInstant(t.lastExpiry)}</span>`;
};

export function connectionsPage(
  v: Viewer,
  org: { id: string; name: string },
  consents: { consent: ConsentListing; tokens: LiveTokens | undefined; member: boolean }[],
  clients: { row: OAuthClientRow; tokens: LiveTokens | undefined }[],
  options: { notice?: string; error?: string } = {},
): string {
  return settingsPage(
    v,
    org,
    'connections',
    html`<p class="muted">Everything that can act for ${org.name} right now. Disconnecting or revoking takes effect on the next call.</p>
<h3>People's connected apps</h3>
${
  consents.length === 0
    ? html`<p class="muted">No one has connected an app to ${org.name}.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Apps people connected to ${org.name}</caption>
  <thead><tr><th scope="col">Person</th><th scope="col">App</th><th scope="col">Covers</th><th scope="col">Access</th><th scope="col">Live tokens</th>
    <th scope="col">Connected</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${consents.map(
    ({ consent: c, tokens, member }) => html`<tr>
    <td data-label="Person">${c.userName || c.userEmail}<br><span class="muted small">${c.userEmail}${member ? '' : ' · no longer a member'}</span></td>
    <td data-label="App">${c.clientName} ${appBadge(c)}</td>
    <td data-label="Covers">${
      c.allOrganisations ? 'All their organisations' : c.organisationIds.length > 1 ? `${org.name} and ${c.organisationIds.length - 1} more` : org.name
    }</td>
    <td data-label="Access">${scopeSummary(c.scopes)}</td>
    <td data-label="Live tokens">${tokensText(tokens)}</td>
    <td data-label="Connected">${formatDay(c.createdAt)}</td>
    <td class="end"><a class="button danger small" href="/orgs/${org.id}/connections/${c.grantId}/revoke">Disconnect<span class="visually-hidden">
      ${c.clientName} for ${c.userEmail}</span></a></td>
  </tr>`,
  )}</tbody>
</table></div>`
}
<h3>API clients</h3>
${
  clients.length === 0
    ? html`<p class="muted">${org.name} has no API clients.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">API clients of ${org.name} and their live tokens</caption>
  <thead><tr><th scope="col">API client</th><th scope="col">Live tokens</th><th scope="col">Last used</th>
    <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${clients.map(
    ({ row, tokens }) => html`<tr>
    <td data-label="API client">${row.name}<br><code class="small">${row.client_id}</code></td>
    <td data-label="Live tokens">${tokensText(tokens)}</td>
    <td data-label="Last used">${row.last_used_at ? formatInstant(row.last_used_at) : html`<span class="muted">Never</span>`}</td>
    <td class="end"><a class="button danger
      small" href="/orgs/${org.id}/api-clients/${row.client_id}/revoke?from=connections">Revoke<span class="visually-hidden"> ${row.name}</span></a></td>
  </tr>`,
  )}</tbody>
</table></div>`
}`,
    options,
  );
}
