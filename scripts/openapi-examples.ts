/**
 * `npm run examples:openapi`: makes the examples /openapi.json shows (src/http/openapi-examples.ts)
 * from a fresh demo in an in-memory database and writes them to src/http/openapi-examples.json.
 * Run it when an operation's input or answer changes; test/http/openapi-examples.test.ts says when.
 */
import { writeFileSync } from 'node:fs';
import { generateApiExamples } from '../src/http/openapi-examples.js';
import { openStore } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';

const FILE = new URL('../src/http/openapi-examples.json', import.meta.url);

const store = openStore({ sqlitePath: ':memory:' });
try {
  await migrate(store);
  const examples = await generateApiExamples(store);
  writeFileSync(FILE, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${Object.keys(examples.operations).length} operations' examples to src/http/openapi-examples.json`);
} finally {
  await store.close();
}
