/** What a person who followed a wrong link sees: a page, not the problem JSON an API client gets. */
import { html } from '../html.js';
import { page } from '../layout.js';

export function notFoundPage(path: string): string {
  return page(
    'Page not found',
    html`<section class="card"><h1>Page not found</h1>
<p>There is nothing at <code>${path}</code>.</p>
<p><a href="/account">Your account</a> · <a href="/docs">API reference</a> · <a href="/signin">Sign in</a></p></section>`,
  );
}
