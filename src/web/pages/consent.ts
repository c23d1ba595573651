import { html } from '../html.js';
import { page } from '../layout.js';

export interface ConsentView {
  action: string;
  csrf: string;
  clientName: string;
  /** verified by the operator, or by the admins of every organisation the person can pick (src/web/app-trust.ts) */
  verified: boolean;
  /** the person's organisations whose admins verified the app, when the operator has not */
  verifiedBy: { id: string; name: string }[];
  /** the person's other organisations, when some (not all) of them verified it */
  notVerifiedBy: { id: string; name: string }[];
  redirectHost: string;
  userEmail: string;
  /** null when the user is in one organisation only and is not asked */
  organisations: { id: string; name: string }[] | null;
  singleOrganisation?: string;
  readRequested: boolean;
  writeRequested: boolean;
  offline: boolean;
  /** what the person ticked: nothing at first (write access is opt-in), their choice when the page comes back with an error */
  chosen: { write: boolean; allOrganisations: boolean; organisations: string[] };
  error?: string;
}

const names = (orgs: { name: string }[]) => orgs.map((o) => o.name).join(', ');
const checked = (on: boolean) => (on ? html` checked` : '');

/** What the badge rests on, said plainly: whose admins checked the app, and whose did not. */
function trustNote(v: ConsentView) {
  if (v.verified) return v.verifiedBy.length ? html`<p class="muted">Verified by the admins of ${names(v.verifiedBy)}.</p>` : '';
  const advice = 'Only continue if you trust it and started this connection yourself.';
  const [checkedBy, unchecked] = [names(v.verifiedBy), names(v.notVerifiedBy)];
  if (v.verifiedBy.length)
    return html`<p class="notice">The admins of ${checkedBy} verified this app, but it has not been checked by the admins of ${unchecked}. ${advice}</p>`;
  return html`<p class="notice">This app has not been checked by an administrator of Ledgerline or of your organisations. ${advice}</p>`;
}

export function consentPage(v: ConsentView): string {
  const badge = v.verified ? html`<span class="badge verified">Verified app</span>` : html`<span class="badge unverified">Unverified app</span>`;
  return page(
    'Allow access',
    html`<div class="card">
  <h1>${v.clientName} ${badge}</h1>
  <p>wants to connect to your books as <strong>${v.userEmail}</strong>.</p>
  ${trustNote(v)}
  ${v.error ? html`<div class="error" role="alert">${v.error}</div>` : ''}
  <form method="post" action="${v.action}">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <h2>It will be able to</h2>
    <ul class="scopes">
      ${
        v.readRequested
          ? html`<li>Read accounting data: reports, the chart of accounts, ledger lines, bank and card transactions, bills to pay and
        documents with their files.</li>`
          : ''
      }
      ${v.offline ? html`<li>Stay connected while you are away (until you disconnect it, or after 30 days without use).</li>` : ''}
    </ul>
    ${
      v.writeRequested
        ? html`<fieldset><legend>Changes</legend>
      <label class="check"><input type="checkbox" name="write" value="1"${checked(v.chosen.write)}> <span>Also allow it to make changes to your
        records. Leave unticked for read-only access.</span></label>
    </fieldset>`
        : ''
    }
    ${
      v.organisations
        ? html`<fieldset><legend>Organisations it may use</legend>
      <label class="check"><input type="checkbox" name="all_organisations" value="1"${checked(v.chosen.allOrganisations)}> <span>All my organisations,
        including ones I join later (by accepting an invitation or making one)</span></label>
      ${v.organisations.map((o) => {
        const box = html`<input type="checkbox" name="organisation" value="${o.id}"${checked(v.chosen.organisations.includes(o.id))}>`;
        const verified =
          v.notVerifiedBy.length && v.verifiedBy.some((b) => b.id === o.id) ? html` <span class="muted small">(verified by its admins)</span>` : '';
        return html`<label class="check">${box} <span>${o.name}</span>${verified}</label>`;
      })}
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
