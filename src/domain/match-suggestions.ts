/**
 * Suggested matches (issue 42, item 3): each bank line still to reconcile scored against the
 * documents it may pay, 0 to 100, with the reasons in words, and flagged (`suggested`, the line's
 * suggestedMatch) only when one candidate stands clearly above the rest. Pure: the lines and
 * candidates are handed in.
 *
 * A score adds up the signals of match-signals.ts (amount 45, supplier name 30, number 25, dates
 * 15, less for a long overdue bill or one a later like bill replaced) out of 115, as a share of 100.
 * A line is flagged when its best candidate
 * - scores SUGGEST_THRESHOLD or more;
 * - has an amount that fits (equal, converted at the day's rate, or within a bank fee): banking.match
 *   confirms a suggestion and needs the amounts to agree (a fee as an explicit difference);
 * - has the supplier's name or the document's number in the narration: an amount alone is anyone's;
 * - leads the line's next candidate by SUGGEST_MARGIN or more (two bills of one supplier for one
 *   amount in different months are told apart by their dates, or not suggested);
 * - leads every other line still open for that candidate by SUGGEST_MARGIN too: a document is
 *   suggested for one line at most, the better one.
 * Flagged lines take their candidates out of the others' lists, and the rest is looked at again
 * (a line whose rival took another document may now stand clear), a few rounds at most.
 * A line not flagged still carries its best free candidate when it scores SHOW_AT or more, with why
 * it was not flagged, for a person to judge.
 *
 * Tuned on npm run bench:suggestions (scripts/bench/match-suggestions.ts): 1,000 generated lines,
 * precision ≥ 0.98 and recall ≥ 0.90 for the flag being the issue's bar.
 */
import {
  amountSignal,
  dateSignal,
  epochDay,
  feeAllowance,
  kindWord,
  MAX_POINTS,
  nameSignal,
  numberSignal,
  rightWay,
  CONVERTED_WITHIN,
  type LineToMatch,
  type MatchCandidate,
  type Signal,
} from './match-signals.js';
import { nameForms, numberForms, readNarration, type Narration, type NumberForms } from './match-text.js';

export type { CandidateKind, LineToMatch, MatchCandidate } from './match-signals.js';

export const SUGGEST_THRESHOLD = 50;
export const SUGGEST_MARGIN = 12;
export const SHOW_AT = 40;
/** candidates kept per line, best first: enough to know the runner-up once the best are taken */
const KEPT = 6;
const ROUNDS = 4;

export interface ScoredCandidate {
  candidateId: string;
  score: number;
  reasons: string[];
  /** the amount is equal, converted or within a fee: banking.match can take it */
  amountFits: boolean;
  /** the supplier's name or the document's number is in the narration: an amount alone is anyone's */
  named: boolean;
}

export interface Suggestion extends ScoredCandidate {
  /** one candidate stands clearly above the rest (the line's suggestedMatch) */
  suggested: boolean;
}

interface Prepared {
  c: MatchCandidate;
  /** the supplier's name as words, and as a person's with an initial (match-text.ts nameForms) */
  name: string[][];
  number: NumberForms;
  /** the document's date and due date (its date and 30 days when it has none) as day numbers */
  date: number;
  due: number;
  /** the documents of the same kind, supplier and amount (itself among them), oldest first */
  twins: Prepared[];
}

const prepare = (c: MatchCandidate): Prepared => {
  const date = epochDay(c.date);
  const p: Prepared = { c, name: nameForms(c.supplier), number: numberForms(c.number), date, due: c.dueDate ? epochDay(c.dueDate) : date + 30, twins: [] };
  p.twins.push(p);
  return p;
};

/** Documents alike but for their dates: a supplier billing the same amount every month. */
function linkTwins(prepared: Prepared[]): void {
  const groups = new Map<string, Prepared[]>();
  for (const p of prepared) push(groups, [p.c.kind, p.name[0]!.join(' '), p.c.currency, p.c.amount].join('|'), p);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => a.date - b.date);
    for (const p of group) p.twins = group;
  }
}

/** A scored candidate before its reasons are put in words (only the kept ones are). */
interface Scored extends Omit<ScoredCandidate, 'reasons'> {
  date: number;
  signals: Signal[];
}

const inWords = ({ date: _date, signals, ...rest }: Scored): ScoredCandidate => ({ ...rest, reasons: signals.map((s) => s.reason()) });

/** One line against one candidate; undefined when it cannot be that candidate's (wrong way, wrong dates) or nothing but dates agree. */
export function scoreCandidate(line: LineToMatch, candidate: MatchCandidate): ScoredCandidate | undefined {
  const scored = score(line, epochDay(line.date), readNarration(line.description), prepare(candidate), new Map());
  return scored && inWords(scored);
}

/** `names`: the line's name signals so far by supplier, a supplier's many documents looking for its name in the narration once */
function score(line: LineToMatch, day: number, narration: Narration, p: Prepared, names: Map<string, Signal | undefined>): Scored | undefined {
  const { c } = p;
  if (!rightWay(line, c)) return undefined;
  const date = dateSignal(line, c, { line: day, date: p.date, due: p.due });
  if (!date) return undefined;
  const amount = amountSignal(line, c);
  const number = numberSignal(narration, c, p.number);
  if (!names.has(c.supplier)) names.set(c.supplier, nameSignal(narration, p.name));
  const supplier = names.get(c.supplier);
  const signals = [amount, supplier, number].filter((s) => s !== undefined);
  if (signals.length === 0) return undefined;
  signals.push(date);
  const later = number ? undefined : supersededBy(day, p);
  if (later)
    signals.push({
      points: -25,
      reason: () => `a later ${kindWord(c.kind)} for the same amount, ${later.number || 'without a number'} of ${later.date}, was issued before this payment`,
    });
  const points = signals.reduce((sum, s) => sum + s.points, 0);
  return {
    candidateId: c.id,
    score: Math.min(100, Math.round((points * 100) / MAX_POINTS)),
    signals,
    amountFits: amount !== undefined,
    named: supplier !== undefined || number !== undefined,
    date: p.date,
  };
}

/**
 * The twin issued after this bill and before the line, when the line is not near this bill's due
 * date: a payment pays the latest of a supplier's like bills (a direct debit, a subscription), not
 * one whose due date has long passed. Near the older bill's due date both stay possible.
 */
function supersededBy(day: number, p: Prepared): MatchCandidate | undefined {
  if (p.twins.length < 2 || p.c.kind === 'receipt') return undefined;
  if (Math.abs(day - p.due) <= 5) return undefined;
  return p.twins.find((t) => t.date > p.date && day - t.date >= -3)?.c;
}

/** The candidates worth scoring for a line: by amount, name or number, so a line meets tens of documents, not thousands. */
class CandidateIndex {
  private byCurrency = new Map<string, Prepared[]>();
  private byHome: Prepared[] = [];
  private byNameStart = new Map<string, Prepared[]>();
  private byNumber = new Map<string, Prepared[]>();

  constructor(candidates: MatchCandidate[]) {
    const prepared = candidates.map(prepare);
    linkTwins(prepared);
    for (const p of prepared) {
      const c = p.c;
      push(this.byCurrency, c.currency, p);
      if (c.homeAmount !== null) this.byHome.push(p);
      for (const form of p.name) if (form[0]) push(this.byNameStart, form[0].slice(0, 3), p);
      if (p.number.digits.length >= 3) push(this.byNumber, p.number.digits, p);
      else if (p.number.whole.length >= 3) push(this.byNumber, p.number.whole, p);
    }
    for (const list of this.byCurrency.values()) list.sort((a, b) => a.c.amount - b.c.amount);
    this.byHome.sort((a, b) => a.c.homeAmount! - b.c.homeAmount!);
  }

  for(line: LineToMatch, narration: Narration): Set<Prepared> {
    const found = new Set<Prepared>();
    const size = Math.abs(line.amount);
    const same = this.byCurrency.get(line.currency) ?? [];
    // a fee is at most 5% of the document's amount and 25 units (feeAllowance): these bounds hold every document within one
    const slack = feeAllowance(Math.ceil(size * 1.1), line.currency, 'bill');
    for (const p of within(same, (p) => p.c.amount, size - slack, size + slack)) found.add(p);
    const home = Math.abs(line.homeAmount);
    const spread = CONVERTED_WITHIN[2] + 0.01;
    for (const p of within(this.byHome, (p) => p.c.homeAmount!, home * (1 - spread), home * (1 + spread) + 1)) if (p.c.currency !== line.currency) found.add(p);
    for (const w of narration.nameWords) for (const p of this.byNameStart.get(w.text.slice(0, 3)) ?? []) found.add(p);
    for (const run of narration.digitRuns) for (const p of this.byNumber.get(run) ?? []) found.add(p);
    for (const w of narration.words) for (const p of this.byNumber.get(w.text) ?? []) found.add(p);
    return found;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The items of a list sorted by `key` whose key lies in [low, high]. */
function within<T>(sorted: T[], key: (t: T) => number, low: number, high: number): T[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) < low) lo = mid + 1;
    else hi = mid;
  }
  const out: T[] = [];
  for (let i = lo; i < sorted.length && key(sorted[i]!) <= high; i++) out.push(sorted[i]!);
  return out;
}

/**
 * Scores lines against these candidates, a batch at a time (a caller on a server scores a few hundred
 * lines, then lets other work run): each line's candidates worth keeping, best first (ties: the
 * earlier document, then id, so answers never flip).
 */
export function candidateScorer(candidates: MatchCandidate[]): (lines: LineToMatch[]) => Map<string, ScoredCandidate[]> {
  const index = new CandidateIndex(candidates);
  return (lines) => {
    const scored = new Map<string, ScoredCandidate[]>();
    for (const line of lines) {
      const day = epochDay(line.date);
      const narration = readNarration(line.description);
      const names = new Map<string, Signal | undefined>();
      const list: Scored[] = [];
      for (const p of index.for(line, narration)) {
        const s = score(line, day, narration, p, names);
        if (s) list.push(s);
      }
      list.sort((a, b) => b.score - a.score || a.date - b.date || (a.candidateId < b.candidateId ? -1 : a.candidateId > b.candidateId ? 1 : 0));
      scored.set(line.id, list.slice(0, KEPT).map(inWords));
    }
    return scored;
  };
}

export function scoreLines(lines: LineToMatch[], candidates: MatchCandidate[]): Map<string, ScoredCandidate[]> {
  return candidateScorer(candidates)(lines);
}

export interface Tuning {
  /** the least score flagged (SUGGEST_THRESHOLD) */
  suggestAt?: number;
  /** the lead over the runner-up, and over another line wanting the same document (SUGGEST_MARGIN) */
  margin?: number;
}

/** Each line's suggestion (null where no candidate scores SHOW_AT), flagged where one stands clearly above the rest. */
export function suggestMatches(lines: LineToMatch[], candidates: MatchCandidate[], tuning: Tuning = {}): Map<string, Suggestion | null> {
  return pickSuggestions(lines, candidates, scoreLines(lines, candidates), tuning);
}

/** suggestMatches from the lines' scores (candidateScorer), every line of `lines` among them. */
export function pickSuggestions(
  lines: LineToMatch[],
  candidates: MatchCandidate[],
  scored: Map<string, ScoredCandidate[]>,
  tuning: Tuning = {},
): Map<string, Suggestion | null> {
  const SUGGEST_AT = tuning.suggestAt ?? SUGGEST_THRESHOLD;
  const MARGIN = tuning.margin ?? SUGGEST_MARGIN;
  const byCandidate = new Map<string, { lineId: string; score: number }[]>();
  for (const [lineId, list] of scored) for (const s of list) push(byCandidate, s.candidateId, { lineId, score: s.score });

  const taken = new Set<string>();
  const flagged = new Map<string, ScoredCandidate>();
  const free = (lineId: string) => scored.get(lineId)!.filter((s) => !taken.has(s.candidateId));
  for (let round = 0; round < ROUNDS; round++) {
    const clear: [string, ScoredCandidate][] = [];
    for (const line of lines) {
      if (flagged.has(line.id)) continue;
      const [best, next] = free(line.id);
      if (!best || best.score < SUGGEST_AT || !best.amountFits || !best.named || best.score - (next?.score ?? 0) < MARGIN) continue;
      const rival = byCandidate.get(best.candidateId)!.some((r) => r.lineId !== line.id && !flagged.has(r.lineId) && r.score > best.score - MARGIN);
      if (!rival) clear.push([line.id, best]);
    }
    if (clear.length === 0) break;
    // two lines are never clear for one candidate: each would have to lead the other by MARGIN
    for (const [lineId, best] of clear) {
      flagged.set(lineId, best);
      taken.add(best.candidateId);
    }
  }

  const byId = new Map(candidates.map((c) => [c.id, c]));
  const suggestions = new Map<string, Suggestion | null>();
  for (const line of lines) {
    const mine = flagged.get(line.id);
    if (mine) {
      suggestions.set(line.id, { ...mine, suggested: true });
      continue;
    }
    const [best, next] = free(line.id);
    if (!best || best.score < SHOW_AT) {
      suggestions.set(line.id, null);
      continue;
    }
    suggestions.set(line.id, {
      ...best,
      reasons: [...best.reasons, whyNot(line.id, best, next, byCandidate, flagged, byId, SUGGEST_AT, MARGIN)],
      suggested: false,
    });
  }
  return suggestions;
}

function whyNot(
  lineId: string,
  best: ScoredCandidate,
  next: ScoredCandidate | undefined,
  byCandidate: Map<string, { lineId: string; score: number }[]>,
  flagged: Map<string, ScoredCandidate>,
  byId: Map<string, MatchCandidate>,
  SUGGEST_AT: number,
  MARGIN: number,
): string {
  if (!best.amountFits) return 'not suggested: the amount does not agree';
  if (!best.named) return "not suggested: neither the supplier's name nor the document's number is in the narration";
  if (best.score < SUGGEST_AT) return 'not suggested: too little agrees';
  if (next && best.score - next.score < MARGIN) {
    const other = byId.get(next.candidateId)!;
    return `not suggested: ${kindWord(other.kind)} ${other.number || '(no number)'} from ${other.supplier} fits almost as well (${next.score})`;
  }
  if (byCandidate.get(best.candidateId)!.some((r) => r.lineId !== lineId && !flagged.has(r.lineId) && r.score > best.score - MARGIN)) {
    return 'not suggested: another bank line fits this document as well';
  }
  return 'not suggested';
}
