import { html } from '../html.js';
import { page } from '../layout.js';

export interface SignInView {
  action: string;
  csrf: string;
  /** the app asking, when signing in during an OAuth authorization */
  clientName?: string;
  email?: string;
  error?: string;
  notice?: string;
  /** a local path to return to after signing in */
  next?: string;
  /** sign-in through the external identity provider, when configured */
  external?: { href: string; label: string };
}

export function signInPage(input: SignInView): string {
  const intro = input.clientName
    ? html`${input.clientName} is asking to connect to your books. Sign in to continue.`
    : html`Sign in to see the apps connected to your books and to manage your organisations.`;
  return page(
    'Sign in',
    html`<div class="card narrow">
  <h1>Sign in to Ledgerline</h1>
  <p class="muted">${intro}</p>
  ${input.notice ? html`<div class="success" role="status">${input.notice}</div>` : ''}
  ${input.error ? html`<div class="error" role="alert" id="signin-error">${input.error}</div>` : ''}
  <form method="post" action="${input.action}" novalidate>
    <input type="hidden" name="csrf" value="${input.csrf}">
    ${input.next ? html`<input type="hidden" name="next" value="${input.next}">` : ''}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}" autofocus
      ${input.error ? html`aria-describedby="signin-error"` : ''}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <div class="actions"><button type="submit">Sign in</button></div>
  </form>
  ${
    input.external
      ? html`<p class="divider"><span>or</span></p>
  <p><a class="button secondary wide" href="${input.external.href}">Continue with single sign-on</a></p>
  <p class="muted small">Signs you in through ${input.external.label}, with the email address it has verified for you.</p>`
      : ''
  }
</div>`,
  );
}
