/**
 * What makes an import idempotent: one fingerprint per bank transaction, unique per account.
 * The bank's own id when it gives one (`ext:` + FITID, AcctSvcrRef, MT940 bank reference), so
 * overlapping statements and notifications meet on it. Otherwise a hash of the date, the amount,
 * the narration (case and spacing folded) and the line's place among identical lines of the same
 * day in the file: re-reading a file, or a statement overlapping it by whole days, gives the same
 * fingerprints, while two genuine identical payments on one day stay two.
 */
import { createHash } from 'node:crypto';
import type { StatementLine } from './statement.js';

export function normaliseNarration(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function fingerprints(lines: StatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    if (line.externalId) return `ext:${line.externalId}`;
    const key = `${line.date}\n${line.amount}\n${normaliseNarration(line.description)}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return `h:${createHash('sha256').update(`${key}\n${occurrence}`).digest('hex').slice(0, 40)}`;
  });
}
