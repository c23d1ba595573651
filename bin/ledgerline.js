#!/usr/bin/env node
// The `ledgerline` command runs the compiled CLI. A fresh clone has not compiled it yet: say how,
// in one line, rather than showing Node's module-not-found trace.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/run.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('ledgerline is not built yet: run `npm run build` (or `npm start`, which builds and serves) in the project folder first\n');
  process.exit(1);
}

// oidc-provider (the OAuth server library) prints "oidc-provider WARNING: Unsupported runtime. Use
// Node.js v22.x LTS, or a later LTS release." with console.warn when it is imported on any Node.js
// older than 22 LTS (node_modules/oidc-provider/lib/index.js checks process.release.lts): on Node 20,
// before every command's own output. Ledgerline supports Node 20.12+ and its whole test suite runs on
// Node 20 (README, "Requirements", says so once), so on Node 20 that one line, matched exactly, is
// dropped; every other warning passes, and on any other release (an odd one, Bun, Deno) it shows.
if (process.versions.node.split('.')[0] === '20') {
  const warn = console.warn;
  const unsupportedRuntime = /^(\x1b\[[0-9;]*m)?oidc-provider WARNING: Unsupported runtime\. /;
  console.warn = (...args) => {
    if (args.length === 1 && typeof args[0] === 'string' && unsupportedRuntime.test(args[0])) return;
    warn.apply(console, args);
  };
}

await import(cli.href);
