import { html, type SafeHtml } from './html.js';

/** The page frame every server-rendered page shares. */
export function page(title: string, body: SafeHtml, options: { wide?: boolean; nav?: SafeHtml } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Ledgerline</title>
<link rel="stylesheet" href="/assets/site.css">
</head>
<body>
<header class="bar"><a class="brand" href="/">Ledgerline</a>${options.nav ?? ''}</header>
<main class="${options.wide ? 'wide' : ''}" id="main">
${body}
</main>
</body>
</html>`.value;
}
