#!/usr/bin/env node
// The `ledgerline` command runs the compiled CLI. A fresh clone has not compiled it yet: say how,
// in one line, rather than showing Node's module-not-found trace.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/run.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('ledgerline is not built yet: run `npm run build` (or `npm start`, which builds and serves) in the project folder first\n');
  process.exit(1);
}
await import(cli.href);
