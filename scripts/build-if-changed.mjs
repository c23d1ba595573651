#!/usr/bin/env node
// `npm start`'s build step: compiles src/ into dist/ only when something tsc reads has changed since
// the last build this script made, so a restart with nothing changed starts at once.
// "Changed" is any difference in the list of inputs (every file under src/, the two tsconfig files,
// package-lock.json) with their sizes and modification times: an edited, added, deleted or renamed
// source, or one put back with an older time, all differ. When they do, tsc runs (incremental, its
// state in dist/.tsbuildinfo, so it recompiles only what the change affects), compiled files of
// deleted sources are removed from dist/, and the list is kept in dist/.build-inputs. Deleting
// dist/ forces a full build. `npm run build` always runs tsc.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.build-inputs');
const entry = join(dist, 'cli', 'run.js');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

function fingerprint() {
  const inputs = [...files(join(root, 'src')), ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => join(root, f)).filter(existsSync)];
  const lines = inputs.map((f) => {
    const s = statSync(f);
    return `${relative(root, f)}\t${s.size}\t${s.mtimeMs}`;
  });
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

/** dist/x.js (and its .map) whose src/x.ts is gone: left behind by tsc, which never deletes. */
function removeOrphans() {
  if (!existsSync(dist)) return;
  for (const file of files(dist)) {
    const compiled = /\.js(\.map)?$/.exec(file);
    if (!compiled) continue;
    const source = join(root, 'src', relative(dist, file).replace(/\.js(\.map)?$/, '.ts'));
    if (!existsSync(source)) rmSync(file);
  }
}

const before = fingerprint();
if (existsSync(entry) && existsSync(stamp) && readFileSync(stamp, 'utf8') === before) process.exit(0);

rmSync(stamp, { force: true });
// tsc's incremental state says what it emitted; without the compiled entry that is no longer true
if (!existsSync(entry)) rmSync(join(dist, '.tsbuildinfo'), { force: true });
process.stderr.write('building dist/ from src/ (only what changed since the last build)…\n');
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
removeOrphans();
// the inputs as they were when tsc started: a file edited during the build is built next time
writeFileSync(stamp, before);
