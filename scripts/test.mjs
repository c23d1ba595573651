#!/usr/bin/env node
// The test command: type-check, then every test/**/*.test.ts under node's own test runner.
// LEDGERLINE_TEST_DIALECTS=sqlite narrows the database loop; TEST_FILTER=substring picks files.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? find(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.env.TEST_FILTER;
const files = find('test').filter((f) => !filter || f.includes(filter)).sort();
if (!process.env.SKIP_TYPECHECK) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', ...process.argv.slice(2), ...files];
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(run.status ?? 1);
