/** The page the authorization server shows when a request cannot go back to the app (no valid client or redirect URI). */
import { escapeHtml } from '../html.js';

export function oauthErrorPage(out: Record<string, string>): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in problem</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/assets/favicon.svg" type="image/svg+xml"><link ` +
    `rel="stylesheet" href="/assets/site.css"></head>
<body><main class="card"><h1>Something went wrong</h1><p>${escapeHtml(out.error_description ?? out.error ?? 'The request could not be completed.')}</p>
<p class="muted">Error code: <code>${escapeHtml(out.error ?? 'server_error')}</code></p></main></body></html>`
  );
}
