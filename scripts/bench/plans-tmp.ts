import { readFileSync } from 'node:fs';
import { benchCases } from './cases.js';
import { capturePlans, tracedStore } from './inprocess.js';
const meta = JSON.parse(readFileSync('bench-output/cache/demo-s400-b3.15-seed1-2026-11-21-v6.json', 'utf8'));
const store = tracedStore({ sqlitePath: 'bench-output/profile/run.sqlite' });
const only = process.argv.slice(2);
const plans = await capturePlans(store, meta.organisationId, meta.params.date, benchCases(meta).filter((c) => only.includes(c.name)));
for (const c of plans) {
  console.log(`## ${c.name}`);
  for (const q of c.queries) console.log(`- ${q.ms.toFixed(2)} ms${q.repeated > 1 ? ` x${q.repeated}` : ''}: ${q.sql.replace(/\s+/g, ' ').slice(0, 600)}\n    ${q.plan.replace(/\n/g, '\n    ')}`);
}
await store.close();
