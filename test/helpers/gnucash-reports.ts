/**
 * Reads the HTML of GnuCash's own Profit & Loss and Balance Sheet reports (made by
 * scripts/gnucash/make-reports.sh): each account row (an account link carrying its guid) with its
 * amount, and the labelled total lines, all in pence. GnuCash shows income, liabilities and
 * equity credit-positive, and a negative subtotal with its other label ("Retained Losses",
 * "Net loss for Period"), which is read back as a negative amount.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const GNUCASH_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'gnucash');

export interface GnuCashReport {
  /** account guid -> amount shown on its row */
  accounts: Map<string, number>;
  /** label -> amount of the labelled lines that are not accounts (totals, computed equity lines) */
  lines: Map<string, number>;
}

const NEGATIVE_LABELS: Record<string, string> = {
  'Retained Losses': 'Retained Earnings',
  'Net loss for Period': 'Net income for Period',
  'Trading Losses': 'Trading Gains',
  'Unrealized Losses': 'Unrealized Gains',
};

function pence(text: string): number | undefined {
  const m = /(-?)£([\d,]+)\.(\d{2})/.exec(text);
  if (!m) return undefined;
  const value = Number(m[2]!.replaceAll(',', '')) * 100 + Number(m[3]);
  return m[1] === '-' ? -value : value;
}

const cellText = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .trim();

export function readGnuCashReport(name: string): GnuCashReport {
  const html = readFileSync(join(GNUCASH_FIXTURES, 'reports', `${name}.html`), 'utf8');
  const body = html.slice(html.indexOf('<body'));
  const report: GnuCashReport = { accounts: new Map(), lines: new Map() };
  for (const row of body.split(/<tr[\s>]/).slice(1)) {
    const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
    const amount = cells
      .map(cellText)
      .map(pence)
      .find((v) => v !== undefined);
    if (amount === undefined) continue;
    const guid = /acct-guid=([0-9a-f]{32})/.exec(row)?.[1];
    if (guid) {
      report.accounts.set(guid, amount);
      continue;
    }
    const label = cellText(cells[0] ?? '');
    if (!label) continue;
    const positive = NEGATIVE_LABELS[label];
    report.lines.set(positive ?? label, positive ? -amount : amount);
  }
  if (report.accounts.size === 0) throw new Error(`no account rows in GnuCash report ${name}`);
  return report;
}
