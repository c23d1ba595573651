/**
 * One code style, kept by the formatter rather than by review (issue 39): every source, test and
 * script is as prettier (.prettierrc.json) writes it, and no line is over 160 characters, which
 * prettier cannot promise for long strings and comments. `npm run format` fixes the first;
 * the second is fixed by hand (a string split with `+`, a comment wrapped).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_WIDTH = 160;
const CODE = /\.(ts|mjs|js)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (path === join(ROOT, 'test', 'fixtures')) return [];
    return statSync(path).isDirectory() ? files(path) : CODE.test(name) ? [path] : [];
  });
}

const sources = () => ['src', 'test', 'scripts', 'bin'].flatMap((dir) => files(join(ROOT, dir)));

it('every source, test and script is formatted by prettier', async () => {
  const all = sources();
  assert.ok(all.length > 500, `the files were found (${all.length})`);
  const options = await prettier.resolveConfig(join(ROOT, 'src', 'config.ts'));
  assert.equal(options?.printWidth, MAX_WIDTH, 'the repository holds the formatter config');
  const unformatted: string[] = [];
  for (const file of all) {
    if (!(await prettier.check(readFileSync(file, 'utf8'), { ...options, filepath: file }))) unformatted.push(relative(ROOT, file));
  }
  assert.deepEqual(unformatted, [], 'run `npm run format`');
});

it(`no line is over ${MAX_WIDTH} characters`, () => {
  const long = sources().flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX_WIDTH ? [`${relative(ROOT, file)}:${i + 1} (${line.length})`] : [])),
  );
  assert.deepEqual(long, []);
});
