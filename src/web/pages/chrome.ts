/** The parts of a signed-in page: the header navigation with sign-out, notices, and the settings frame. */
import { html, type SafeHtml } from '../html.js';
import { page } from '../layout.js';

export interface Viewer {
  name: string;
  email: string;
  csrf: string;
  /** organisations whose settings this person may manage */
  adminOrganisations: { id: string; name: string }[];
}

export function accountNav(v: Viewer, current: 'account' | 'settings' | null): SafeHtml {
  const settings =
    v.adminOrganisations.length === 1
      ? html`<a href="/orgs/${v.adminOrganisations[0]!.id}/api-clients" ${current === 'settings' ? html`aria-current="page"` : ''}>Organisation settings</a>`
      : '';
  return html`<nav class="account-nav" aria-label="Account">
  <a href="/account" ${current === 'account' ? html`aria-current="page"` : ''}>Your account</a>
  ${settings}
  <span class="who" title="${v.email}">${v.name || v.email}</span>
  <form method="post" action="/signout" class="inline">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <button type="submit" class="link">Sign out</button>
  </form>
</nav>`;
}

export function signedInPage(
  v: Viewer,
  title: string,
  body: SafeHtml,
  options: { current?: 'account' | 'settings' | null; script?: boolean; tabs?: boolean } = {},
): string {
  return page(title, body, {
    wide: true,
    nav: accountNav(v, options.current ?? null),
    ...(options.script ? { script: true } : {}),
    ...(options.tabs ? { tabs: true } : {}),
  });
}

export function errorBox(message: string | undefined, id = 'form-error'): SafeHtml | '' {
  return message ? html`<div class="error" role="alert" id="${id}">${message}</div>` : '';
}

export function noticeBox(message: string | undefined): SafeHtml | '' {
  return message ? html`<div class="success" role="status">${message}</div>` : '';
}

export const SETTINGS_TABS = [
  ['overview', 'Overview'],
  ['api-clients', 'API clients'],
  ['apps', 'Apps'],
  ['roles', 'Role permissions'],
  ['connections', 'Connections'],
  ['accounting', 'Accounting system'],
  ['members', 'Members'],
  ['documents', 'Documents'],
  ['bill-filters', 'Bills to Pay filters'],
  ['bank-import', 'Bank statements'],
  ['reconcile', 'Reconcile'],
  ['ledger-import', 'Books'],
  ['audit', 'Audit log'],
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number][0];

/** An organisation settings page: the organisation as the heading, the tabs, then the section. */
export function settingsPage(
  v: Viewer,
  org: { id: string; name: string },
  tab: SettingsTab,
  body: SafeHtml,
  options: { notice?: string; error?: string; script?: boolean } = {},
): string {
  const label = SETTINGS_TABS.find(([t]) => t === tab)![1];
  const others = v.adminOrganisations.filter((o) => o.id !== org.id);
  return signedInPage(
    v,
    `${label} · ${org.name}`,
    html`<div class="page-head">
  <p class="eyebrow">Organisation settings</p>
  <h1>${org.name}</h1>
  ${others.length ? html`<p class="muted">Also manage: ${others.map((o, i) => html`${i ? ', ' : ''}<a href="/orgs/${o.id}/${tab}">${o.name}</a>`)}</p>` : ''}
</div>
<nav class="tabs" aria-label="Organisation settings">
  <ul>${SETTINGS_TABS.map(([t, l]) => html`<li><a href="/orgs/${org.id}/${t}" ${t === tab ? html`aria-current="page"` : ''}>${l}</a></li>`)}</ul>
</nav>
<section class="settings" aria-labelledby="section-title">
  <h2 id="section-title">${label}</h2>
  ${noticeBox(options.notice)}
  ${errorBox(options.error)}
  ${body}
</section>`,
    { current: 'settings', tabs: true, ...(options.script ? { script: true } : {}) },
  );
}

/** A page that asks before doing something that cannot be undone; the button posts the form. */
export function confirmPage(
  v: Viewer,
  input: { title: string; explanation: SafeHtml; action: string; button: string; back: string; danger?: boolean },
): string {
  return signedInPage(
    v,
    input.title,
    html`<div class="card narrow">
  <h1>${input.title}</h1>
  ${input.explanation}
  <form method="post" action="${input.action}">
    <input type="hidden" name="csrf" value="${v.csrf}">
    <div class="actions">
      <button type="submit" class="${input.danger === false ? '' : 'danger solid'}">${input.button}</button>
      <a class="button secondary" href="${input.back}">Cancel</a>
    </div>
  </form>
</div>`,
  );
}

/** A page that says what went wrong (403, 404, an expired form) and where to go next. */
export function messagePage(title: string, message: string, next: { href: string; label: string }, v?: Viewer): string {
  const body = html`<div class="card narrow">
  <h1>${title}</h1>
  <p>${message}</p>
  <p><a href="${next.href}">${next.label}</a></p>
</div>`;
  return v ? signedInPage(v, title, body) : page(title, body);
}
