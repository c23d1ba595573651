/** "Did you mean …": the candidates closest to what a caller typed, for not-found errors. */

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return prev[b.length]!;
}

/**
 * Up to `max` candidates, best first: those containing the text (or contained in it), then those
 * within a small edit distance of it.
 */
export function closeMatches<T>(text: string, candidates: T[], keys: (c: T) => string[], max = 5): T[] {
  const needle = text.trim().toLowerCase();
  const scored: { c: T; score: number }[] = [];
  for (const c of candidates) {
    let best = Infinity;
    for (const key of keys(c)) {
      const k = key.toLowerCase();
      if (!k) continue;
      if (k.includes(needle) || needle.includes(k)) best = Math.min(best, Math.abs(k.length - needle.length) / 100);
      else best = Math.min(best, distance(needle, k));
    }
    if (best <= Math.max(2, Math.floor(needle.length / 3))) scored.push({ c, score: best });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, max)
    .map((s) => s.c);
}
