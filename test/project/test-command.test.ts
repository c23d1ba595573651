/**
 * The test command's summary (scripts/test-summary-reporter.mjs): a failure is shown in full with
 * its file, and the run ends with one line of totals. Runs node's test runner on a small file of
 * its own, outside this run (NODE_TEST_CONTEXT removed, or the child would report to this runner).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPORTER = fileURLToPath(new URL('../../scripts/test-summary-reporter.mjs', import.meta.url));

it('ends with the totals and shows each failure with its file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'll-reporter-'));
  try {
    const file = join(dir, 'sample.test.mjs');
    writeFileSync(
      file,
      `import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\n` +
        `describe('group', () => { it('adds up', () => assert.equal(1 + 1, 3)); it('passes', () => {}); it.skip('later', () => {}); });\n`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, LEDGERLINE_TEST_FILES: '1' };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--test', `--test-reporter=${REPORTER}`, file], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /✖ adds up {2}\(sample\.test\.mjs\)\n {4}AssertionError/);
    assert.match(run.stdout, /3 tests in 1 file: 1 passed, 1 failed, 1 skipped; \d+ s\n/);
    assert.match(run.stdout, /failed:\n {2}✖ adds up {2}\(sample\.test\.mjs\)/);
    assert.doesNotMatch(run.stdout, /TAP version|# Subtest/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
