/** Role permissions: which roles may call each operation in this organisation. */
import { ROLES, type Role } from '../../operations/context.js';
import { html } from '../html.js';
import { roleLabel } from '../words.js';
import { settingsPage, type Viewer } from './chrome.js';

export interface RoleGridRow {
  name: string;
  title: string;
  summary: string;
  allowed: Set<Role>;
}

/** An operation's name with places to break after each dot and underscore: a narrow column wraps it there, not mid-word. */
const breakable = (name: string) => name.split(/(?<=[._])/).map((part, i) => html`${i ? html`<wbr>` : ''}${part}`);

export function rolesPage(v: Viewer, org: { id: string; name: string }, rows: RoleGridRow[], options: { notice?: string; error?: string } = {}): string {
  return settingsPage(
    v,
    org,
    'roles',
    html`<p class="muted">Which roles may call each operation through a connected app. Saving applies to the very next call. API clients of the
      organisation are not subject to roles.</p>
<form method="post" action="/orgs/${org.id}/roles">
  <input type="hidden" name="csrf" value="${v.csrf}">
  <div class="table-scroll">
  <div class="scroll"><table class="grid">
    <caption class="visually-hidden">Operations by role: a ticked box allows that role to call the operation</caption>
    <thead><tr><th scope="col">Operation</th>${ROLES.map((r) => html`<th scope="col" class="center">${roleLabel(r)}</th>`)}</tr></thead>
    <tbody>${rows.map(
      (op) => html`<tr>
      <th scope="row"><span class="op-title">${op.title}</span><br><code class="small">${breakable(op.name)}</code></th>
      ${ROLES.map(
        (r) => html`<td class="center"><input type="checkbox" id="allow-${op.name}-${r}" name="allow" value="${op.name}:${r}"
          ${op.allowed.has(r) ? 'checked' : ''}>
        <label for="allow-${op.name}-${r}" class="visually-hidden">${roleLabel(r)} may call ${op.title}</label></td>`,
      )}
    </tr>`,
    )}</tbody>
  </table></div>
  </div>
  <div class="actions"><button type="submit">Save permissions</button></div>
</form>`,
    options,
  );
}
