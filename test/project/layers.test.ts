/**
 * The floors of the house (issue 20, issue 39): domain/ → store/ → accounting/ → operations/ → auth/ →
 * calls/ (the call pipeline every transport shares) → http/, mcp/, web/ (side by side, none importing
 * another) → docs/ (the developer reference: the REST description drawn with the pages' kit) → app/ (wires
 * them) → cli/. A file imports only from its own floor or below, and no import chain
 * comes back to where it started. Read from the sources, so a new file is checked without listing it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
// the call pipeline (calls/) sits below the transports that share it; the app (app/) wires the
// transports together, and the command line (cli/) starts the app or calls operations itself
const FLOORS = [['domain'], ['store'], ['accounting'], ['operations'], ['auth'], ['calls'], ['http', 'mcp', 'web'], ['docs'], ['app'], ['cli']];
const TRANSPORTS = ['http', 'mcp', 'web'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each source file (relative to src/) with the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s+'(\.[^']+)'/g)].map((m) => relative(SRC, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The floor of a file, or undefined for the files that sit outside the floors (config, demo, import, provision). */
const floorOf = (file: string) => {
  const i = FLOORS.findIndex((names) => names.includes(file.split('/')[0]!));
  return i >= 0 ? i : undefined;
};

it('no file imports from a floor above its own', () => {
  const graph = importGraph();
  assert.ok(graph.size > 150, 'the sources were found');
  const upward = [...graph].flatMap(([file, targets]) =>
    targets.filter((t) => floorOf(file) !== undefined && floorOf(t) !== undefined && floorOf(t)! > floorOf(file)!).map((t) => `${file} → ${t}`),
  );
  assert.deepEqual(upward, []);
});

it('no transport imports another: what they share is on the floor below (calls/)', () => {
  const top = (file: string) => file.split('/')[0]!;
  const sideways = [...importGraph()].flatMap(([file, targets]) =>
    targets.filter((t) => TRANSPORTS.includes(top(file)) && TRANSPORTS.includes(top(t)) && top(t) !== top(file)).map((t) => `${file} → ${t}`),
  );
  assert.deepEqual(sideways, []);
});

it('no import cycles', () => {
  const graph = importGraph();
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const t of graph.get(file) ?? []) if (graph.has(t)) visit(t, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

it('the transports and pages write no queries: web/, http/, mcp/, calls/, app/ and cli/ read and write through store/', () => {
  const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/;
  const writing = [...importGraph().keys()].filter(
    (file) => ['web', 'http', 'mcp', 'calls', 'app', 'cli'].includes(file.split('/')[0]!) && QUERY.test(readFileSync(join(SRC, file), 'utf8')),
  );
  assert.deepEqual(writing, []);
});

it('the files beside the floors stand on them too: config, provisioning, import and the demo reach no transport, page or OAuth code', () => {
  // what each may import besides itself; none may reach auth/, http/, mcp/, web/ or cli/
  const allowed: Record<string, string[]> = {
    'config.ts': ['domain', 'store'],
    'provision.ts': ['domain', 'store', 'operations'],
    import: ['domain', 'store', 'accounting'],
    demo: ['domain', 'store', 'accounting', 'operations', 'provision.ts', 'import'],
  };
  const top = (file: string) => file.split('/')[0]!;
  const wrong = [...importGraph()].flatMap(([file, targets]) => {
    const rules = allowed[top(file)];
    if (!rules) return [];
    return targets.filter((t) => top(t) !== top(file) && !rules.includes(top(t))).map((t) => `${file} → ${t}`);
  });
  assert.deepEqual(wrong, []);
});
