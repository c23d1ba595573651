/**
 * `npm run bench:suggestions [-- seed [lines]]`: the suggested matches' precision and recall on a
 * generated history (match-dataset.ts: 1,000 bank lines by default, the documents they pay and
 * others, the true pairs known). Printed: the seed, what was generated, then for `suggestedMatch:
 * true` (the flag) and for the top candidate of every line (whatever its score) the precision
 * (right / given) and recall (right / lines that have a true document), recall by kind of line, the
 * flag's mistakes, and the time the scoring took. Exits 1 when the flag's precision is under 0.98
 * or its recall under 0.90 (the issue's bar).
 */
import { performance } from 'node:perf_hooks';
import { scoreLines, suggestMatches } from '../../src/domain/match-suggestions.js';
import { generate } from './match-dataset.js';

const seed = process.argv[2] ?? '42';
const size = Number(process.argv[3] ?? 1000);
const data = generate(seed, size);
const truths = data.lines.filter((l) => l.truth !== null).length;
console.log(
  `seed ${seed}: ${data.lines.length} bank lines (${truths} with a true document, ${data.lines.length - truths} with none), ${data.candidates.length} ` +
    `candidate documents`,
);

const began = performance.now();
const suggestions = suggestMatches(data.lines, data.candidates);
const took = performance.now() - began;
const top = scoreLines(data.lines, data.candidates);

const ratio = (a: number, b: number) => (b === 0 ? '—' : (a / b).toFixed(3));
let flagged = 0;
let flaggedRight = 0;
let topGiven = 0;
let topRight = 0;
let shownRight = 0;
let shown = 0;
const byCategory = new Map<string, { lines: number; flagged: number; top: number }>();
const mistakes: string[] = [];
const byId = new Map(data.candidates.map((c) => [c.id, c]));
for (const line of data.lines) {
  const s = suggestions.get(line.id);
  const best = top.get(line.id)?.[0];
  const row = byCategory.get(line.category) ?? { lines: 0, flagged: 0, top: 0 };
  byCategory.set(line.category, row);
  row.lines++;
  if (s) {
    shown++;
    if (s.candidateId === line.truth) shownRight++;
  }
  if (s?.suggested) {
    flagged++;
    if (s.candidateId === line.truth) {
      flaggedRight++;
      row.flagged++;
    } else {
      const c = byId.get(s.candidateId)!;
      mistakes.push(
        `  ${line.date} ${JSON.stringify(line.description)} ${line.amount} ${line.currency} ` +
          `→ ${c.kind} ${c.number} ${c.supplier} ${c.date} ${c.amount} ${c.currency} (${s.score}: ${s.reasons.join('; ')}); true: ${line.truth ?? 'none'}`,
      );
    }
  }
  if (best) {
    topGiven++;
    if (best.candidateId === line.truth) {
      topRight++;
      row.top++;
    }
  }
}

const flagPrecision = flaggedRight / Math.max(1, flagged);
const flagRecall = flaggedRight / Math.max(1, truths);
console.log(`suggestedMatch: true   ${flagged} lines, ${flaggedRight} right: precision ${ratio(flaggedRight, flagged)}, recall ${ratio(flaggedRight, truths)}`);
console.log(`suggestion shown       ${shown} lines, ${shownRight} right: precision ${ratio(shownRight, shown)}, recall ${ratio(shownRight, truths)}`);
console.log(`top candidate, any     ${topGiven} lines, ${topRight} right: precision ${ratio(topRight, topGiven)}, recall ${ratio(topRight, truths)}`);
console.log('recall by kind of line (flag, top candidate):');
for (const [category, row] of [...byCategory].sort()) {
  if (category === 'no document') console.log(`  ${category.padEnd(24)} ${row.lines} lines; flagged wrongly counted above`);
  else console.log(`  ${category.padEnd(24)} ${String(row.lines).padStart(4)} lines  ${ratio(row.flagged, row.lines)}  ${ratio(row.top, row.lines)}`);
}
if (mistakes.length) console.log(`the flag's mistakes:\n${mistakes.join('\n')}`);
console.log(`scoring and suggesting took ${took.toFixed(0)} ms`);
const pass = flagPrecision >= 0.98 && flagRecall >= 0.9;
console.log(pass ? 'bar met: precision ≥ 0.98, recall ≥ 0.90' : 'MISSED: precision ≥ 0.98 and recall ≥ 0.90 wanted');
process.exitCode = pass ? 0 : 1;
