/** Members: who belongs to the organisation, with what role; change a role or remove someone; invite someone. */
import { ROLES, type Role } from '../../operations/context.js';
import { INVITATION_DAYS, type PendingInvitation } from '../../store/invitations.js';
import { memberChangeProblem, type Member } from '../../store/members.js';
import { html } from '../html.js';
import { formatDay, formatInstant, roleLabel } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';

export function membersPage(
  v: Viewer,
  org: { id: string; name: string },
  members: Member[],
  me: { userId: string; role: Role },
  invitations: PendingInvitation[],
  options: { notice?: string; error?: string; invited?: { email: string; role: Role; link: string; expiresAt: string } } = {},
): string {
  const superAdmins = members.filter((m) => m.role === 'super_admin').length;
  // offer only what the rules allow (the same rules the server checks again on every post):
  // a member who may not be removed may not be changed either
  const lastSuper = (m: Member) => m.role === 'super_admin' && superAdmins <= 1;
  const roleChoices = ROLES.filter((r) => me.role === 'super_admin' || r !== 'super_admin');
  return settingsPage(
    v,
    org,
    'members',
    html`<p class="muted">A role decides which operations a person's connected apps may call (see Role permissions). Removing someone stops their apps
      acting for ${org.name} on the next call.</p>
<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Members of ${org.name}</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Member since</th>
    <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${members.map((m) => {
    const you = m.userId === me.userId;
    const changeable = memberChangeProblem({ actorRole: me.role, targetRole: m.role, newRole: null, superAdmins }) === null;
    return html`<tr>
    <td data-label="Name">${m.name}${you ? html` <span class="muted">(you)</span>` : ''}</td>
    <td data-label="Email">${m.email}</td>
    <td data-label="Role">${
      changeable
        ? html`<form method="post" action="/orgs/${org.id}/members/${m.userId}/role" class="inline role-form">
        <input type="hidden" name="csrf" value="${v.csrf}">
        <label for="role-${m.userId}" class="visually-hidden">Role of ${m.email}</label>
        <select id="role-${m.userId}" name="role">${roleChoices.map(
          (r) => html`<option value="${r}" ${r === m.role ? 'selected' : ''}>${roleLabel(r)}</option>`,
        )}</select>
        <button type="submit" class="secondary small">Change<span class="visually-hidden"> role of ${m.email}</span></button>
      </form>`
        : html`${roleLabel(m.role)}${lastSuper(m) ? html`<br><span class="muted small">The last super admin</span>` : ''}`
    }</td>
    <td data-label="Member since">${formatDay(m.joinedAt)}</td>
    <td class="end">${
      changeable
        ? you
          ? html`<a class="button danger small" href="/orgs/${org.id}/members/${m.userId}/remove">Leave<span class="visually-hidden"> ${org.name}</span></a>`
          : html`<a class="button danger small" href="/orgs/${org.id}/members/${m.userId}/remove">Remove<span class="visually-hidden"> ${m.email}</span></a>`
        : ''
    }</td>
  </tr>`;
  })}</tbody>
</table></div>
${options.invited ? invitedBox(options.invited) : ''}
<h3>Invite someone</h3>
<p class="muted">They become a member when they open the link you send them and accept, signed in as that address; someone new to Ledgerline chooses a
  password through it. The link works once, for ${INVITATION_DAYS} days.</p>
<form method="post" action="/orgs/${org.id}/members/invite" class="card inline-form">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <label for="invite-email">Email</label>
  <input id="invite-email" name="email" type="email" autocomplete="off" required>
  <label for="invite-role">Role</label>
  <select id="invite-role" name="role">${roleChoices.map(
    (r) => html`<option value="${r}" ${r === 'submitter' ? 'selected' : ''}>${roleLabel(r)}</option>`,
  )}</select>
  <div class="actions"><button type="submit">Create invitation link</button></div>
</form>
${invitationList(org, v.csrf, invitations)}`,
    { ...options, ...(options.invited ? { script: true } : {}) },
  );
}

/** The link of the invitation just made: shown once, never stored in a form the service can show again. */
function invitedBox(i: { email: string; role: Role; link: string; expiresAt: string }) {
  return html`<div class="card secret">
  <h3>Invitation for ${i.email}</h3>
  <p class="notice"><strong>Send them this link now.</strong> It is shown only this once (Ledgerline keeps only a hash of it), works once, and ends
    ${formatInstant(i.expiresAt)}. They join as ${roleLabel(i.role)} when they accept it signed in as ${i.email}; someone new to Ledgerline chooses a
      password through it. Lost it? Invite them again: the old link stops working.</p>
  <label for="invitation-link">Invitation link</label>
  <div class="copy-field">
    <input id="invitation-link" type="text" readonly value="${i.link}" spellcheck="false" autocomplete="off">
    <button type="button" class="secondary" data-copy="invitation-link" hidden>Copy<span class="visually-hidden"> invitation link</span></button>
  </div>
  <p class="visually-hidden" role="status" id="copy-status"></p>
</div>`;
}

function invitationList(org: { id: string; name: string }, csrf: string, invitations: PendingInvitation[]) {
  if (invitations.length === 0) return '';
  return html`<h3>Invitations not yet accepted</h3>
<div class="scroll"><table class="stack">
  <caption class="visually-hidden">Invitations to ${org.name} not yet accepted</caption>
  <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Invited by</th><th scope="col">Ends</th>
    <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${invitations.map(
    (i) => html`<tr>
    <td data-label="Email">${i.email}</td>
    <td data-label="Role">${roleLabel(i.role)}</td>
    <td data-label="Invited by">${i.invitedBy ?? html`<span class="muted">—</span>`}</td>
    <td data-label="Ends">${formatInstant(i.expiresAt)}</td>
    <td class="end"><form method="post" action="/orgs/${org.id}/invitations/${i.id}/withdraw" class="inline">
      <input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary small">Withdraw<span class="visually-hidden"> the
        invitation of ${i.email}</span></button></form></td>
  </tr>`,
  )}</tbody>
</table></div>`;
}
