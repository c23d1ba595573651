/**
 * Every problem code the sources can answer has its row (and so its anchor) in the /docs errors
 * table, so no problem `type` link leads nowhere. Codes are read from the ways errors are made:
 * new OperationError(status, 'code'), notFound/forbidden/badRequest('code'), and [status, 'code'] pairs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ERRORS } from '../src/http/docs.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const THROWN = [/OperationError\(\s*\d{3},\s*'([a-z_]+)'/g, /\b(?:notFound|forbidden|badRequest)\(\s*'([a-z_]+)'/g, /\[\d{3}, '([a-z_]+)'/g, /status === \d{3} \? '([a-z_]+)'/g];

it('every problem code the code can answer has a row and an anchor in the /docs errors table', () => {
  const documented = new Set(ERRORS.map(([code]) => code));
  const found = new Map<string, string>();
  for (const file of sources('src')) {
    if (file.endsWith('docs.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of THROWN) for (const m of text.matchAll(pattern)) found.set(m[1]!, file);
  }
  assert.ok(found.size >= 15, `the scan found only ${found.size} codes: the patterns no longer match how errors are made`);
  const missing = [...found].filter(([code]) => !documented.has(code)).map(([code, file]) => `${code} (${file})`);
  assert.deepEqual(missing, []);
});
