/**
 * Reconcile (issue 42): one bank account's lines still to reconcile, each with the document the
 * service suggests it pays (number, supplier, total, score and the reasons in words) and one-click
 * forms to accept it, match another published document instead, or mark the line reconciled
 * elsewhere; below, the account's reconciled lines with their document and an Undo. A refusal is
 * said beside its line with what to do (a difference the person may book as a bank fee or a
 * rounding, asked before it is). Plain forms: no script needed; each line is a card, so a phone
 * shows it all without scrolling sideways.
 */
import { html, type SafeHtml } from '../html.js';
import { documentTypeLabel, formatDay } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';
import { amountText } from './overview-parts.js';

export interface ReconcileAccount {
  id: string;
  name: string;
  number: string;
  currency: string;
  toReconcile: number;
}

export interface Suggestion {
  documentId: string;
  score: number;
  reasons: string[];
  number: string;
  supplier: string;
  total: number;
  currency: string;
}

export interface ReconcileLine {
  id: string;
  date: string;
  description: string;
  amount: number;
  currency: string;
  reconciledIn: string | null;
  suggestedMatch: boolean;
  suggestion: Suggestion | null;
  linked: { documentId: string; number: string; type: string; supplier: string; total: number; currency: string } | null;
}

/** A refusal beside its line, and the difference the person may book instead, asked first. */
export interface LineProblem {
  message: string;
  documentId?: string;
  offers?: { kind: 'fee' | 'rounding'; words: string }[];
}

export interface Candidate {
  id: string;
  label: string;
}

export interface ReconcileView {
  accounts: ReconcileAccount[];
  account: ReconcileAccount | null;
  lines: ReconcileLine[];
  reconciled: ReconcileLine[];
  page: number;
  hasMore: boolean;
  may: { match: boolean; unmatch: boolean; mark: boolean };
  /** the line whose Change form is open, with the documents it may be matched to */
  change: { lineId: string; search: string; candidates: Candidate[] } | null;
  problems: Record<string, LineProblem>;
}

const money = (amount: number, currency: string) => `${amountText(amount, currency)} ${currency}`;

export function reconcilePage(v: Viewer, org: { id: string; name: string }, view: ReconcileView, options: { notice?: string; error?: string } = {}): string {
  const base = `/orgs/${org.id}/reconcile`;
  const here = view.account ? `${base}?account=${encodeURIComponent(view.account.id)}${view.page > 1 ? `&page=${view.page}` : ''}` : base;
  return settingsPage(
    v,
    org,
    'reconcile',
    html`<p class="muted">Each bank line still to reconcile, with the published document the service finds it pays. Accept a suggestion, choose
      another document, or mark a line reconciled elsewhere (a transfer between your own accounts, a fee booked by hand).</p>
${
  view.accounts.length
    ? accountPicker(base, view)
    : html`<p class="card empty">No bank statements imported yet: import one on <a href="/orgs/${org.id}/bank-import">Bank statements</a>.</p>`
}
${
  view.account
    ? html`<h3 id="to-reconcile">To reconcile${view.account.toReconcile ? html` <span class="muted small">(${view.account.toReconcile})</span>` : ''}</h3>
${
  view.lines.length
    ? html`<ol class="reconcile-lines">${view.lines.map((l) => lineCard(v, base, here, view, l))}</ol>`
    : html`<p class="card empty">Nothing left to reconcile in ${view.account.name}${view.page > 1 ? ' on this page' : ''}.</p>`
}
${pager(view)}
<h3 id="reconciled">Reconciled</h3>
${
  view.reconciled.length
    ? html`<ol class="reconcile-lines">${view.reconciled.map((l) => reconciledCard(v, base, here, view, l))}</ol>`
    : html`<p class="card empty">No line of ${view.account.name} is reconciled yet.</p>`
}`
    : ''
}`,
    options,
  );
}

function accountPicker(base: string, view: ReconcileView): SafeHtml {
  return html`<form method="get" action="${base}" class="account-picker">
  <label for="account">Bank account</label>
  <div class="inline-fields">
    <select id="account" name="account">${view.accounts.map(
      (a) =>
        html`<option value="${a.id}"${a.id === view.account?.id ? html` selected` : ''}>${a.name}${
          a.number ? ` (${a.number})` : ''
        }, ${a.currency}: ${a.toReconcile} to reconcile</option>`,
    )}</select>
    <button type="submit" class="secondary">Show</button>
  </div>
</form>`;
}

function pager(view: ReconcileView): SafeHtml | '' {
  if (view.page <= 1 && !view.hasMore) return '';
  const at = (page: number) => `?account=${encodeURIComponent(view.account!.id)}&page=${page}`;
  return html`<nav class="pager" aria-label="Pages of lines to reconcile">
  ${view.page > 1 ? html`<a href="${at(view.page - 1)}">← Newer lines</a>` : ''}
  <span class="muted">Page ${view.page}</span>
  ${view.hasMore ? html`<a href="${at(view.page + 1)}">Older lines →</a>` : ''}
</nav>`;
}

function lineHead(l: ReconcileLine): SafeHtml {
  return html`<div class="line-head">
    <span class="line-date">${formatDay(l.date)}</span>
    <span class="line-text">${l.description}</span>
    <strong class="line-amount ${l.amount < 0 ? 'out' : 'in'}">${money(l.amount, l.currency)}</strong>
  </div>`;
}

/** The hidden fields every form of a line sends: the CSRF token, the line, and where to come back to. */
function hidden(v: Viewer, view: ReconcileView, lineId: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${v.csrf}"><input type="hidden" name="transactionId" value="${lineId}"><input type="hidden"
    name="account" value="${view.account!.id}"><input type="hidden" name="page" value="${view.page}">`;
}

function lineCard(v: Viewer, base: string, here: string, view: ReconcileView, l: ReconcileLine): SafeHtml {
  const s = l.suggestion;
  const problem = view.problems[l.id];
  const changing = view.change?.lineId === l.id ? view.change : null;
  return html`<li class="card reconcile-line" id="line-${l.id}">
  ${lineHead(l)}
  ${
    s
      ? html`<div class="suggestion">
    <p><span class="label">${l.suggestedMatch ? 'Suggested' : 'Likeliest'}:</span> ${s.number} from ${s.supplier},
      ${money(s.total, s.currency)} <span class="badge ${l.suggestedMatch ? 'verified' : 'unverified'}">score ${s.score}</span></p>
    ${s.reasons.length ? html`<ul class="reasons">${s.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : ''}
  </div>`
      : html`<p class="muted">No suggestion: no published document matches this line well enough.</p>`
  }
  ${problem ? problemBox(v, base, view, l, problem) : ''}
  <div class="line-actions">
    ${
      s && view.may.match
        ? html`<form method="post" action="${base}/match"
          class="inline">${hidden(v, view, l.id)}<input type="hidden" name="documentId" value="${s.documentId}"><button type="submit" class="small">Accept<span
            class="visually-hidden"> ${s.number} for the line of ${formatDay(l.date)}</span></button></form>`
        : ''
    }
    ${
      view.may.match && !changing
        ? html`<a class="button small secondary" href="${here}${here.includes('?') ? '&' : '?'}change=${encodeURIComponent(l.id)}#line-${l.id}">${
            s ? 'Change' : 'Choose a document'
          }<span class="visually-hidden"> for the line of ${formatDay(l.date)}</span></a>`
        : ''
    }
    ${
      view.may.mark
        ? html`<form method="post" action="${base}/mark"
          class="inline">${hidden(v, view, l.id)}<input type="hidden" name="reconciled" value="true"><button type="submit" class="small
            secondary">Reconciled elsewhere<span
            class="visually-hidden"> (the line of ${formatDay(l.date)})</span></button></form>`
        : ''
    }
    ${
      !view.may.match && !view.may.mark
        ? html`<span class="muted small">Your role may not match or mark bank lines (Role permissions: banking.match, banking.mark_reconciled).</span>`
        : ''
    }
  </div>
  ${changing ? changeForm(v, base, here, view, l, changing) : ''}
</li>`;
}

function changeForm(v: Viewer, base: string, here: string, view: ReconcileView, l: ReconcileLine, c: NonNullable<ReconcileView['change']>): SafeHtml {
  const id = `doc-${l.id}`;
  return html`<div class="change-form">
  <form method="get" action="${base}" class="search-form" role="search">
    <input type="hidden" name="account" value="${view.account!.id}"><input type="hidden" name="page" value="${view.page}"><input type="hidden"
      name="change" value="${l.id}">
    <label for="q-${l.id}">Find a published document</label>
    <div class="inline-fields"><input id="q-${l.id}" name="q" type="search" value="${c.search}" placeholder="Number or
      supplier"><button type="submit" class="secondary small">Search</button></div>
  </form>
  ${
    c.candidates.length
      ? html`<form method="post" action="${base}/match">
    ${hidden(v, view, l.id)}
    <label for="${id}">Match this line to</label>
    <select id="${id}" name="documentId">${c.candidates.map((d) => html`<option value="${d.id}">${d.label}</option>`)}</select>
    <div class="actions"><button type="submit" class="small">Match</button><a class="button small secondary" href="${here}#line-${l.id}">Cancel</a></div>
  </form>`
      : html`<p class="muted">No published document in ${l.currency} that is not matched yet${c.search ? html` contains “${c.search}”` : ''}. Publish
        it first on <a href="${base.replace(/reconcile$/, 'documents')}">Documents</a>.</p><p><a href="${here}#line-${l.id}">Cancel</a></p>`
  }
</div>`;
}

function problemBox(v: Viewer, base: string, view: ReconcileView, l: ReconcileLine, p: LineProblem): SafeHtml {
  return html`<div class="error" role="alert" id="problem-${l.id}">
  <p>${p.message}</p>
  ${(p.offers ?? []).map(
    (o) =>
      html`<form method="post" action="${base}/match"
        class="inline">${hidden(v, view, l.id)}<input type="hidden" name="documentId" value="${p.documentId ?? ''}"><input type="hidden"
          name="difference" value="${o.kind}"><button type="submit" class="small">${o.words}</button></form> `,
  )}
</div>`;
}

function reconciledCard(v: Viewer, base: string, _here: string, view: ReconcileView, l: ReconcileLine): SafeHtml {
  const problem = view.problems[l.id];
  const d = l.linked;
  let status: SafeHtml;
  let action: SafeHtml | '' = '';
  if (l.reconciledIn === 'service' && d) {
    status = html`Matched to <a href="${base.replace(/reconcile$/, 'documents')}/${d.documentId}">${documentTypeLabel(d.type)} ${d.number}</a> from
      ${d.supplier},
        ${money(d.total, d.currency)}`;
    if (view.may.unmatch)
      action = html`<form method="post" action="${base}/unmatch" class="inline">${hidden(v, view, l.id)}<button type="submit" class="small
        danger">Undo<span class="visually-hidden"> the match of ${d.number}</span></button></form>`;
  } else if (l.reconciledIn === 'outside_service') {
    status = html`Reconciled elsewhere`;
    if (view.may.mark)
      action = html`<form method="post" action="${base}/mark"
        class="inline">${hidden(v, view, l.id)}<input type="hidden" name="reconciled" value="false"><button type="submit" class="small secondary">Undo<span
          class="visually-hidden"> reconciled elsewhere (the line of ${formatDay(l.date)})</span></button></form>`;
  } else {
    status = html`Reconciled in the books`;
  }
  return html`<li class="card reconcile-line reconciled" id="line-${l.id}">
  ${lineHead(l)}
  <p class="status">${status}</p>
  ${problem ? html`<div class="error" role="alert" id="problem-${l.id}"><p>${problem.message}</p></div>` : ''}
  ${action ? html`<div class="line-actions">${action}</div>` : ''}
</li>`;
}
