/**
 * A clone of HEAD into an empty folder has everything its tests read (issue 37): `git clone` of this
 * repository into a temporary folder with nothing beside it, then, in the clone,
 * - no source, test, script or CI file names an absolute path of this machine's work folder or the
 *   shared folder beside the repository, and no path built from a file's own location
 *   (`new URL('…', import.meta.url)`, `join(import.meta.dirname, …)`, a relative import) climbs
 *   above the repository root;
 * - every path the test helpers resolve from their own location (the sample bank statements, the
 *   Xero and QuickBooks contracts, the GnuCash books) is inside the clone and exists, and so does
 *   every sample statement a test or the statements' README names;
 * - README.md's and docs/*.md's relative links lead to files inside the clone.
 * The clone borrows this checkout's node_modules (a symlink) so its helpers can be imported; no npm ci.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const inGit = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() === 'true';

/** Folders of the clone whose files may not read outside it, and the file kinds read there. */
const SCANNED = ['src', 'test', 'scripts', 'bin', '.ci'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs|sh)$|^(bin|\.ci)\/[^/.]+$/;
// written with escapes so this file does not match itself
const OUTSIDE = [/\/work\//, /\.\.\/shared\b/, /\bshared\/(fixtures|reference|spec)\b/];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (name === 'node_modules' || name === 'fixtures' ? [] : walk(path)) : [path];
  });
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Paths a file builds from its own location: URL literals, join/resolve from its folder, relative imports. */
function ownPaths(source: string): string[] {
  const found: string[] = [];
  const literal = (s: string) => s.slice(1, -1).replace(/\$\{[^}]*\}/g, 'x');
  for (const m of source.matchAll(/new URL\(\s*('[^']*'|"[^"]*"|`[^`]*`)\s*,\s*import\.meta\.url\s*\)/g)) found.push(literal(m[1]!));
  for (const m of source.matchAll(/\b(?:join|resolve)\(\s*(?:import\.meta\.dirname|__dirname|here)\s*((?:,\s*(?:'[^']*'|"[^"]*")\s*)+)\)/g)) {
    found.push(join(...[...m[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((a) => a[1] ?? a[2]!)));
  }
  for (const m of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\1/g)) found.push(m[2]!);
  return found;
}

/** The relative links of a Markdown text (code spans and fenced blocks left out): target without its #anchor. */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target))
    .map((target) => decodeURI(target.split('#')[0]!))
    .filter((target) => target !== '');
}

describe('a fresh clone of HEAD', { skip: !inGit && 'not a git checkout: nothing to clone' }, () => {
  let parent = '';
  let clone = '';

  before(() => {
    parent = mkdtempSync(join(tmpdir(), 'll-fresh-clone-'));
    clone = join(parent, 'ledgerline');
    execFileSync('git', ['clone', '--quiet', ROOT, clone], { stdio: ['ignore', 'ignore', 'pipe'] });
    assert.deepEqual(readdirSync(parent), ['ledgerline'], 'the clone has nothing beside it');
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('names no path outside the repository in its sources, tests, scripts or CI', () => {
    const problems: string[] = [];
    for (const file of SCANNED.filter((d) => existsSync(join(clone, d))).flatMap((d) => walk(join(clone, d)))) {
      const rel = relative(clone, file);
      if (!CODE.test(rel)) continue;
      const source = readFileSync(file, 'utf8');
      source.split('\n').forEach((line, i) => {
        if (OUTSIDE.some((pattern) => pattern.test(line))) problems.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
      for (const path of ownPaths(source)) {
        if (!inside(clone, resolve(dirname(file), path))) problems.push(`${rel}: ${path} leads outside the repository`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('finds every fixture its helpers resolve inside the clone', async () => {
    // the clone's own helpers, imported from the clone (its dependencies from this checkout's node_modules)
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const helpers = readdirSync(join(clone, 'test/helpers')).filter(
      (f) => f.endsWith('.ts') && /import\.meta\.(url|dirname)/.test(readFileSync(join(clone, 'test/helpers', f), 'utf8')),
    );
    for (const helper of ['bank-statements.ts', 'fake-xero-contract.ts', 'fake-quickbooks-contract.ts', 'gnucash-reports.ts']) {
      assert.ok(helpers.includes(helper), `${helper} finds its files from its own location (helpers that do: ${helpers.join(', ')})`);
    }
    const problems: string[] = [];
    const resolved = new Map<string, string>();
    for (const helper of helpers) {
      const module = (await import(pathToFileURL(join(clone, 'test/helpers', helper)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'string' || !isAbsolute(value)) continue;
        resolved.set(name, value);
        if (!inside(clone, value)) problems.push(`${helper} ${name} = ${value} is outside the clone`);
        else if (!existsSync(value)) problems.push(`${helper} ${name} = ${relative(clone, value)} does not exist in the clone`);
      }
    }
    for (const name of ['FIXTURES', 'XERO_ACCOUNTING_YAML', 'QUICKBOOKS_REFERENCE', 'GNUCASH_FIXTURES'])
      assert.ok(resolved.has(name), `a helper exports ${name}`);
    const { QUICKBOOKS_REFERENCE, QUICKBOOKS_SCHEMAS } = (await import(pathToFileURL(join(clone, 'test/helpers/fake-quickbooks-contract.ts')).href)) as {
      QUICKBOOKS_REFERENCE: string;
      QUICKBOOKS_SCHEMAS: string[];
    };
    for (const schema of QUICKBOOKS_SCHEMAS)
      if (!existsSync(join(QUICKBOOKS_REFERENCE, schema))) problems.push(`QuickBooks schema ${schema} is not in the clone`);
    // every sample statement a test or the statements' README names
    const statements = resolved.get('FIXTURES')!;
    const named = new Set<string>();
    const texts = [...walk(join(clone, 'test')).filter((f) => f.endsWith('.ts')), join(statements, 'README.md')]
      .filter(existsSync)
      .map((f) => readFileSync(f, 'utf8'));
    for (const text of texts) {
      for (const m of text.matchAll(/['"`]((?:ofx1|ofx2|qif|csv|mt940|camt05\d)\/[\w.-]+\.\w+)['"`]/g)) named.add(m[1]!);
      for (const m of text.matchAll(/join\(FIXTURES, '([\w.-]+)', '([\w.-]+)'\)/g)) named.add(`${m[1]}/${m[2]}`);
    }
    assert.ok(named.size >= 30, `the tests and README name the sample statements (${named.size})`);
    for (const file of named) if (!existsSync(join(statements, file))) problems.push(`sample statement ${file} is not in the clone`);
    assert.deepEqual(problems, []);
  });

  it("README's and the docs' relative links lead inside the clone", () => {
    const problems: string[] = [];
    const pages = [
      'README.md',
      ...readdirSync(join(clone, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    for (const page of pages) {
      const links = relativeLinks(readFileSync(join(clone, page), 'utf8'));
      if (page === 'README.md') assert.ok(links.length > 5, 'README has relative links');
      for (const link of links) {
        const target = resolve(dirname(join(clone, page)), link);
        if (!inside(clone, target)) problems.push(`${page}: ${link} leads outside the repository`);
        else if (!existsSync(target)) problems.push(`${page}: ${link} does not exist in the clone`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
