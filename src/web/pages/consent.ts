import { html } from '../html.js';
import { page } from '../layout.js';

export interface ConsentView {
  action: string;
  csrf: string;
  clientName: string;
  verified: boolean;
  redirectHost: string;
  userEmail: string;
  /** null when the user is in one organisation only and is not asked */
  organisations: { id: string; name: string }[] | null;
  singleOrganisation?: string;
  readRequested: boolean;
  writeRequested: boolean;
  offline: boolean;
  error?: string;
}

export function consentPage(v: ConsentView): string {
  const badge = v.verified
    ? html`<span class="badge verified">Verified app</span>`
    : html`<span class="badge unverified">Unverified app</span>`;
  return page(
    'Allow access',
    html`<div class="card">
  <h1>${v.clientName} ${badge}</h1>
  <p>wants to connect to your books as <strong>${v.userEmail}</strong>.</p>
  ${v.verified ? '' : html`<p class="notice">This app registered itself and has not been checked by an administrator. Only continue if you trust it and started this connection yourself.</p>`}
  ${v.error ? html`<div class="error" role="alert">${v.error}</div>` : ''}
  <form method="post" action="${v.action}">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <h2>It will be able to</h2>
    <ul class="scopes">
      ${v.readRequested ? html`<li>Read accounting data: reports, the chart of accounts, ledger lines, bank and card transactions, bills to pay and documents with their files.</li>` : ''}
      ${v.offline ? html`<li>Stay connected while you are away (until you disconnect it, or after 30 days without use).</li>` : ''}
    </ul>
    ${
      v.writeRequested
        ? html`<fieldset><legend>Changes</legend>
      <label class="check"><input type="checkbox" name="write" value="1" checked> <span>Also allow it to make changes to your records. Untick to give read-only access.</span></label>
    </fieldset>`
        : ''
    }
    ${
      v.organisations
        ? html`<fieldset><legend>Organisations it may use</legend>
      <label class="check"><input type="checkbox" name="all_organisations" value="1"> <span>All my organisations, including ones I join later</span></label>
      ${v.organisations.map(
        (o) => html`<label class="check"><input type="checkbox" name="organisation" value="${o.id}"> <span>${o.name}</span></label>`,
      )}
    </fieldset>`
        : html`<p>Organisation: <strong>${v.singleOrganisation ?? ''}</strong></p>`
    }
    <p class="muted">You will be sent back to <strong>${v.redirectHost}</strong>. You can disconnect it at any time.</p>
    <div class="actions">
      <button type="submit" name="decision" value="approve">Allow access</button>
      <button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
    </div>
  </form>
</div>`,
  );
}
