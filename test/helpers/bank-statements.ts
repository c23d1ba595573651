/** The sample bank and card statements under ../shared/fixtures/bank-statements (listed in its README). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// found from this file (test/helpers/ in the repository, next to shared/), not from the working directory
export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/bank-statements', import.meta.url));

/** A sample statement's bytes, by its path under FIXTURES. */
export function fixture(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}
