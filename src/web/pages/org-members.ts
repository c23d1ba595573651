/** Members: who belongs to the organisation, with what role; change a role or remove someone. */
import { ROLES, type Role } from '../../operations/context.js';
import { memberChangeProblem, type Member } from '../../store/members.js';
import { html } from '../html.js';
import { formatDay, roleLabel } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';

export function membersPage(
  v: Viewer,
  org: { id: string; name: string },
  members: Member[],
  me: { userId: string; role: Role },
  options: { notice?: string; error?: string } = {},
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
    html`<p class="muted">A role decides which operations a person's connected apps may call (see Role permissions). Removing someone stops their apps acting for ${org.name} on the next call.</p>
<div class="scroll"><table>
  <caption class="visually-hidden">Members of ${org.name}</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${members.map((m) => {
    const you = m.userId === me.userId;
    const changeable = memberChangeProblem({ actorRole: me.role, targetRole: m.role, newRole: null, superAdmins }) === null;
    return html`<tr>
    <td>${m.name}${you ? html` <span class="muted">(you)</span>` : ''}</td>
    <td>${m.email}</td>
    <td>${
      changeable
        ? html`<form method="post" action="/orgs/${org.id}/members/${m.userId}/role" class="inline role-form">
        <input type="hidden" name="csrf" value="${v.csrf}">
        <label for="role-${m.userId}" class="visually-hidden">Role of ${m.email}</label>
        <select id="role-${m.userId}" name="role">${roleChoices.map((r) => html`<option value="${r}" ${r === m.role ? 'selected' : ''}>${roleLabel(r)}</option>`)}</select>
        <button type="submit" class="secondary small">Change<span class="visually-hidden"> role of ${m.email}</span></button>
      </form>`
        : html`${roleLabel(m.role)}${lastSuper(m) ? html`<br><span class="muted small">The last super admin</span>` : ''}`
    }</td>
    <td>${formatDay(m.joinedAt)}</td>
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
<h3>Add a member</h3>
<form method="post" action="/orgs/${org.id}/members/add">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <label for="add-email">Email of someone with a Ledgerline sign-in</label>
  <input id="add-email" name="email" type="email" autocomplete="off" required>
  <label for="add-role">Role</label>
  <select id="add-role" name="role">${roleChoices.map((r) => html`<option value="${r}" ${r === 'submitter' ? 'selected' : ''}>${roleLabel(r)}</option>`)}</select>
  <div class="actions"><button type="submit">Add member</button></div>
</form>`,
    options,
  );
}
