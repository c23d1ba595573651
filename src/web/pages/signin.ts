import { html } from '../html.js';
import { page } from '../layout.js';

export function signInPage(input: { action: string; csrf: string; clientName: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    html`<div class="card">
  <h1>Sign in to Ledgerline</h1>
  <p class="muted">${input.clientName} is asking to connect to your books. Sign in to continue.</p>
  ${input.error ? html`<div class="error" role="alert" id="signin-error">${input.error}</div>` : ''}
  <form method="post" action="${input.action}" novalidate>
    <input type="hidden" name="csrf" value="${input.csrf}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}" autofocus
      ${input.error ? html`aria-describedby="signin-error"` : ''}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <div class="actions"><button type="submit">Sign in</button></div>
  </form>
</div>`,
  );
}
