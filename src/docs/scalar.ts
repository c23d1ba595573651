/**
 * /docs: the API reference, rendered in the browser by Scalar from /openapi.json, with a try-it
 * console that takes a bearer token. Scalar's standalone bundle comes from its npm package and is
 * served from here (gzipped once, cached by browsers); the plain reference without JavaScript,
 * with the errors catalogue every problem `type` links to, is /docs/reference (reference-page.ts).
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const SCALAR = new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url);
const STARTER = new URL('../../src/web/assets/reference.js', import.meta.url);
const STYLE = readFileSync(new URL('../../src/web/assets/reference.css', import.meta.url));

// Scalar sets styles from script (style attributes), so styles may be inline; scripts may not
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PAGE =
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Ledgerline</title>
<link rel="stylesheet" href="/assets/reference.css">
</head>
<body>
<noscript><p>This reference needs JavaScript. The same operations, parameters and errors as a plain page: <a ` +
  `href="/docs/reference">/docs/reference</a>.</p></noscript>
<div id="reference"></div>
<script src="/assets/scalar/standalone.js"></script>
<script src="/assets/reference.js"></script>
</body>
</html>
`;

/** A static script, gzipped once when the client takes gzip. */
function script(file: URL) {
  let plain: Buffer | undefined;
  let gzipped: Buffer | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    plain ??= readFileSync(file);
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').header('vary', 'accept-encoding');
    if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.send(plain);
    gzipped ??= gzipSync(plain);
    return reply.header('content-encoding', 'gzip').send(gzipped);
  };
}

export function registerReference(app: FastifyInstance): void {
  app.get('/docs', async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .send(PAGE),
  );
  app.get('/assets/scalar/standalone.js', script(SCALAR));
  app.get('/assets/reference.js', script(STARTER));
  app.get('/assets/reference.css', async (_request, reply) =>
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE),
  );
}
