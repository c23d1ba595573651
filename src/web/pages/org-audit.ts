/** The audit log: every change made to this organisation, in the pages or from the command line, newest first. */
import type { AuditListing } from '../../store/audit-log.js';
import { html } from '../html.js';
import { auditActor, auditSentence, formatInstant } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';

export function auditPage(v: Viewer, org: { id: string; name: string }, entries: AuditListing[], older: string | null): string {
  return settingsPage(
    v,
    org,
    'audit',
    html`<p class="muted">Who changed what in ${org.name}'s settings, connections and books, and when. Times are UTC.</p>
${
  entries.length === 0
    ? html`<p class="muted">Nothing has been changed yet.</p>`
    : html`<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Audit log of ${org.name}, newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th></tr></thead>
  <tbody>${entries.map((e) => {
    let detail: Record<string, unknown> = {};
    try {
      detail = JSON.parse(e.detail) as Record<string, unknown>;
    } catch {
      // a malformed entry still shows its action
    }
    return html`<tr>
    <td class="nowrap" data-label="When"><time datetime="${e.created_at}">${formatInstant(e.created_at)}</time></td>
    <td data-label="Who">${auditActor(e, detail)}${e.actor_email ? html`<br><span class="muted small">${e.actor_email}</span>` : ''}</td>
    <td data-label="What">${auditSentence(e.action, detail)}<br><code class="small">${e.action}</code></td>
  </tr>`;
  })}</tbody>
</table></div>`
}
${older ? html`<p><a href="${older}">Older entries</a></p>` : ''}`,
  );
}
