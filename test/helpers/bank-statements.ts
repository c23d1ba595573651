/** The sample bank and card statements under test/fixtures/bank-statements (each file's source and licence in its README). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// found from this file (test/helpers/), not from the working directory, and inside the repository
export const FIXTURES = fileURLToPath(new URL('../fixtures/bank-statements', import.meta.url));

/** A sample statement's bytes, by its path under FIXTURES. */
export function fixture(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}
