/**
 * The page an invitation link opens: who invites whom to what, and the one way forward for the
 * person looking at it — accept (signed in as the invited address), sign in first, or, new to
 * Ledgerline, choose a password. It never says whether the address has a sign-in already.
 */
import type { OpenInvitation } from '../../store/invitations.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { signedInPage, type Viewer } from './chrome.js';
import { formatInstant, roleLabel } from '../words.js';

export interface InvitationView {
  invitation: OpenInvitation;
  /** the link's own path, /invitations/<secret> */
  path: string;
  /** signed in: who, and the session's CSRF token */
  viewer?: Viewer;
  /** signed out: the signed-out form's CSRF token */
  csrf?: string;
  name?: string;
  error?: string;
}

const who = (i: OpenInvitation) =>
  html`${
    i.invitedByName ? html`${i.invitedByName} invites` : 'You are invited'
  } <strong>${i.email}</strong> to join <strong>${i.organisationName}</strong> as ${roleLabel(i.role)}.`;

export function invitationPage(v: InvitationView): string {
  const i = v.invitation;
  const error = v.error ? html`<div class="error" role="alert" id="invitation-error">${v.error}</div>` : '';
  const ends = html`<p class="muted small">The link works once, until ${formatInstant(i.expiresAt)}.</p>`;
  if (v.viewer) {
    const body =
      v.viewer.email === i.email
        ? html`<div class="card narrow">
  <h1>Join ${i.organisationName}</h1>
  <p>${who(i)}</p>
  ${error}
  <form method="post" action="${v.path}/accept">
    <input type="hidden" name="csrf" value="${v.viewer.csrf}">
    <div class="actions"><button type="submit">Accept and join</button><a class="button secondary" href="/account">Not now</a></div>
  </form>
  ${ends}
</div>`
        : html`<div class="card narrow">
  <h1>This invitation is for someone else</h1>
  <p>${who(i)} You are signed in as <strong>${v.viewer.email}</strong>.</p>
  <p>If it is yours, sign out, then open the link again and sign in as ${i.email}.</p>
</div>`;
    return signedInPage(v.viewer, `Join ${i.organisationName}`, body);
  }
  return page(
    `Join ${i.organisationName}`,
    html`<div class="card narrow">
  <h1>Join ${i.organisationName}</h1>
  <p>${who(i)}</p>
  ${error}
  <h2>Have a Ledgerline sign-in?</h2>
  <p><a class="button wide" href="/signin?next=${encodeURIComponent(v.path)}">Sign in as ${i.email} to accept</a></p>
  <h2>New to Ledgerline?</h2>
  <form method="post" action="${v.path}/join" novalidate>
    <input type="hidden" name="csrf" value="${v.csrf ?? ''}">
    <label for="join-name">Your name</label>
    <input id="join-name" name="name" type="text" autocomplete="name" required maxlength="200" value="${v.name ?? ''}">
    <label for="join-password">Choose a password</label>
    <input id="join-password" name="password" type="password" autocomplete="new-password" required minlength="10"
      aria-describedby="join-password-help${v.error ? ' invitation-error' : ''}">
    <p class="hint" id="join-password-help">At least 10 characters. You sign in as ${i.email}.</p>
    <div class="actions"><button type="submit">Create my sign-in and join</button></div>
  </form>
  ${ends}
</div>`,
  );
}
