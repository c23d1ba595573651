// The test command's own output (node:test custom reporter): a dot per passing test file, each
// failure in full where it happens, and one summary at the end. The complete spec-style report of
// every test is written beside it to test-output/test-report.txt (see scripts/test.mjs).

import { relative } from 'node:path';

const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0, suites: 0, duration_ms: 0 };
const failures = [];
const stderr = new Map();

/**
 * Failures that only repeat another: a suite whose subtests failed, and tests cancelled because
 * their suite failed (its hook's error is shown once, on the suite). Both still count in the totals.
 */
const repeats = (error) => ['subtestsFailed', 'cancelledByParent'].includes(error?.failureType ?? error?.cause?.failureType);

function describe(error) {
  const cause = error?.cause ?? error;
  const text = cause?.stack ?? cause?.message ?? String(cause);
  return text
    .split('\n')
    .filter((line) => !/\(node:|at node:|new Promise \(<anonymous>\)/.test(line))
    .slice(0, 12)
    .join('\n');
}

const where = (file) => (file ? `  (${relative(process.cwd(), file)})` : '');

export default async function* summary(source) {
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === 'test:stderr' && data.file) {
      stderr.set(data.file, (stderr.get(data.file) ?? '') + data.message);
    } else if (event.type === 'test:fail' && !repeats(data.details?.error)) {
      failures.push(data);
      // a file that failed as a whole (it did not load, or exited early) says why on its stderr
      const why = data.nesting === 0 && stderr.get(data.file) ? stderr.get(data.file).trim() : describe(data.details?.error);
      yield `\n✖ ${data.name}${where(data.file)}\n${why
        .split('\n')
        .slice(0, 20)
        .map((l) => `    ${l}`)
        .join('\n')}\n`;
    } else if (event.type === 'test:pass' && data.nesting === 0) {
      yield '.';
    } else if (event.type === 'test:diagnostic' && data.nesting === 0) {
      // The runner's own totals arrive last, as diagnostics such as "tests 652" and "pass 651".
      const [key, value] = String(data.message).split(' ');
      if (key in counts && value !== undefined) counts[key] = Number(value);
    }
  }
  const seconds = Math.round(counts.duration_ms / 1000);
  const files = process.env.LEDGERLINE_TEST_FILES;
  yield (
    `\n\n${counts.tests} tests${files ? ` in ${files} file${files === '1' ? '' : 's'}` : ''}: ${counts.pass} ` +
    `passed, ${Math.max(counts.fail, failures.length)} failed, ${counts.skipped} skipped` +
    `${counts.todo ? `, ${counts.todo} todo` : ''}${counts.cancelled ? `, ${counts.cancelled} cancelled` : ''}; ${seconds} s\n`
  );
  if (failures.length > 0) {
    yield `failed:\n${failures.map((f) => `  ✖ ${f.name}${where(f.file)}`).join('\n')}\n`;
  }
}
