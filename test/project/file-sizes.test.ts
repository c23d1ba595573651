/**
 * Small files named by what they do (issue 20): no source file over 400 lines, and the median
 * under 120, so a reader finds one thing per file. Read from the sources, so a new file counts at once.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const MAX_LINES = 400;
const MEDIAN_UNDER = 120;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const lineCounts = () => sources(SRC).map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }));

it(`no source file is over ${MAX_LINES} lines`, () => {
  const counts = lineCounts();
  assert.ok(counts.length > 150, 'the sources were found');
  assert.deepEqual(
    counts.filter((c) => c.lines > MAX_LINES).map((c) => `${c.file}: ${c.lines}`),
    [],
  );
});

it(`the median source file is under ${MEDIAN_UNDER} lines`, () => {
  const sorted = lineCounts()
    .map((c) => c.lines)
    .sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  assert.ok(median < MEDIAN_UNDER, `median ${median} lines`);
});
