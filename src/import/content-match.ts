/**
 * The same bank line arriving in a file of another format (issue 40 item 3): an OFX export and a
 * CSV export of one month share no id, so their fingerprints differ. A line whose fingerprint the
 * account does not have is taken as already present when the account holds a line of the same day
 * and amount whose narration, folded (case, accents, punctuation, spacing), is the same or holds
 * the other's words whole ("POS MERCHANDISE;MCDONALD'S #112" and "MCDONALD'S #112"). Each held
 * line answers for one line of the file at most, and a held line already met by fingerprint for
 * none: so two identical coffees in one file stay two unless the account already holds two. Two
 * lines that both carry a bank id from the same format are never matched by content: their ids
 * already say they differ.
 */
import type { WantedLine } from './import-checks.js';

export interface HeldLine {
  date: string;
  amount: number;
  description: string;
  external_id: string | null;
  fingerprint: string;
  source: string;
}

export const MATCHED_BY_CONTENT = 'already present (matched by date, amount and narration)';

/** Narration as compared: letters and digits only, accents off, lower case, single spaces. */
export function foldNarration(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function sameNarration(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 3 && ` ${long} `.includes(` ${short} `);
}

/** The format a held line came in, from its source label (`OFX statement …`, `CSV file …`). */
const labelOf = (source: string) => source.split(' ')[0] ?? '';

/**
 * Which of the unmatched lines (in file order) the held lines already hold. `claimed`: the
 * fingerprints the file's other lines met, whose held lines answer for those.
 */
export function matchByContent(unmatched: WantedLine[], held: HeldLine[], claimed: ReadonlySet<string>, label: string): Map<WantedLine, HeldLine> {
  const byKey = new Map<string, { line: HeldLine; folded: string }[]>();
  for (const line of held) {
    if (claimed.has(line.fingerprint)) continue;
    const key = `${line.date}|${Number(line.amount)}`;
    const list = byKey.get(key) ?? [];
    list.push({ line, folded: foldNarration(line.description) });
    byKey.set(key, list);
  }
  const matched = new Map<WantedLine, HeldLine>();
  const taken = new Set<HeldLine>();
  for (const wanted of unmatched) {
    const candidates = (byKey.get(`${wanted.line.date}|${wanted.line.amount}`) ?? []).filter(
      (c) => !taken.has(c.line) && !(wanted.line.externalId && c.line.external_id && labelOf(c.line.source) === label),
    );
    if (candidates.length === 0) continue;
    const folded = foldNarration(wanted.line.description);
    const found = candidates.find((c) => c.folded === folded) ?? candidates.find((c) => sameNarration(c.folded, folded));
    if (!found) continue;
    taken.add(found.line);
    matched.set(wanted, found.line);
  }
  return matched;
}
