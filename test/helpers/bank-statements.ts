/** The sample bank and card statements under ../shared/fixtures/bank-statements (listed in its README). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.resolve('..', 'shared', 'fixtures', 'bank-statements');

/** A sample statement's bytes, by its path under FIXTURES. */
export function fixture(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}
