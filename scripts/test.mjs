#!/usr/bin/env node
// The test command: type-check, then every test/**/*.test.ts under node's own test runner.
// LEDGERLINE_TEST_DIALECTS=sqlite narrows the database loop; TEST_FILTER=substring picks files.
// The terminal gets failures in full and a summary (scripts/test-summary-reporter.mjs); every
// test's line is in test-output/test-report.txt. Arguments after `--` reach node's test runner.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? find(path) : path.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.env.TEST_FILTER;
const files = find('test')
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (!process.env.SKIP_TYPECHECK) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
mkdirSync('test-output', { recursive: true });
const reporters = [
  '--test-reporter=./scripts/test-summary-reporter.mjs',
  '--test-reporter-destination=stdout',
  '--test-reporter=spec',
  '--test-reporter-destination=test-output/test-report.txt',
];
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', ...reporters, ...process.argv.slice(2), ...files];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, LEDGERLINE_TEST_FILES: String(files.length) } });
console.log("every test's result: test-output/test-report.txt");
process.exit(run.status ?? 1);
