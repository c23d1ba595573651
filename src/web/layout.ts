import { html, type SafeHtml } from './html.js';

/**
 * The page frame every server-rendered page shares. The referrer policy is same-origin, not
 * no-referrer: with no-referrer a browser sends `Origin: null` on form posts, and the forms' origin
 * check needs the real origin.
 */
export function page(title: string, body: SafeHtml, options: { wide?: boolean; nav?: SafeHtml; script?: boolean; tabs?: boolean } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Ledgerline</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${options.script ? html`<script src="/assets/copy.js" defer></script>` : ''}
${options.tabs ? html`<script src="/assets/tabs.js" defer></script>` : ''}
</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
<header class="bar"><a class="brand" href="/">Ledgerline</a>${options.nav ?? ''}</header>
<main class="${options.wide ? 'wide' : ''}" id="main" tabindex="-1">
${body}
</main>
</body>
</html>`.value;
}
