/**
 * The examples /openapi.json shows are what the operations answer today (issue 37, item 5): made
 * again from a fresh demo, they equal src/http/openapi-examples.json, and each fits its operation's
 * own schemas. An operation whose input or answer changes fails here until `npm run
 * examples:openapi` writes them again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { generateApiExamples, type ApiExamples } from '../../src/http/openapi-examples.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { parseInput } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';
import { openTestStore } from '../helpers/store.js';

const STORED = JSON.parse(readFileSync(new URL('../../src/http/openapi-examples.json', import.meta.url), 'utf8')) as ApiExamples;
const AGAIN = 'run `npm run examples:openapi` and commit src/http/openapi-examples.json';

describe('the OpenAPI examples', () => {
  let store: Store;
  let made: ApiExamples;
  before(async () => {
    // the examples do not depend on the database: one dialect
    store = await openTestStore('sqlite');
    made = await generateApiExamples(store);
  });
  after(async () => {
    await store?.close();
  });

  it('are what the operations answer on the demo today', () => {
    assert.deepEqual(
      Object.keys(made.operations),
      OPERATIONS.map((op) => op.name),
      'one per operation, in order',
    );
    for (const op of OPERATIONS)
      assert.deepEqual(STORED.operations[op.name], made.operations[op.name], `${op.name}: the stored example is out of date; ${AGAIN}`);
    assert.deepEqual(STORED, made, `the stored examples are out of date; ${AGAIN}`);
  });

  it("fit each operation's input and output schemas, with short lists", () => {
    for (const op of OPERATIONS) {
      const { input, output } = STORED.operations[op.name]!;
      assert.doesNotThrow(() => parseInput(op.input, input), op.name);
      const parsed = op.output.safeParse(output);
      assert.ok(parsed.success, `${op.name}: ${parsed.success ? '' : parsed.error.message}`);
      const longest = (v: unknown): number =>
        Array.isArray(v) ? Math.max(v.length, ...v.map(longest)) : v && typeof v === 'object' ? Math.max(0, ...Object.values(v).map(longest)) : 0;
      assert.ok(longest(output) <= STORED.demo.listItems, `${op.name}: lists of at most ${STORED.demo.listItems}`);
    }
    assert.ok(JSON.stringify(STORED).length < 80_000, 'small enough to read');
  });
});
