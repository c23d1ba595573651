/**
 * What the fake QuickBooks' writes share (fake-quickbooks-writes.ts): Intuit's faults by code, with
 * its words (its "Handling common errors" page), new entity ids, the company's default accounts,
 * and the WHERE clauses of queries that find what was written (`Field = 'value' [AND …]`, dotted
 * paths, a repeated element matching when any of its items does, `\'` escaping a quote).
 */
import type { Entity, FakeCompany } from './fake-quickbooks-book.js';

export interface Refusal {
  code: string;
  message: string;
  detail: string;
  element?: string;
}

const MESSAGES: Record<string, string> = {
  '500': 'Unsupported Operation',
  '610': 'Object Not Found',
  '2010': 'Request has invalid or unsupported property',
  '2020': 'Required param missing, need to supply the required value for the API',
  '2050': 'Invalid String Length',
  '2500': 'Invalid Reference Id',
  '5010': 'Stale Object Error',
  '6000': 'A business validation error has occurred while processing your request',
  '6050': 'The entity reference type is unsupported for Attachable',
  '6080': 'No Name Provided',
  '6210': 'Account Period Closed, Cannot Update Through Services API',
  '6240': 'Duplicate Name Exists Error',
};

/** Intuit's words for a closed period */
const CLOSED =
  'The account period has closed and the account books cannot be updated through through the QBO Services API. Please use the QBO website to make ' +
  'these changes.';

export function refusal(code: string, detail?: string, element?: string): Refusal {
  return { code, message: MESSAGES[code] ?? 'Validation Error', detail: detail ?? (code === '6210' ? CLOSED : ''), ...(element ? { element } : {}) };
}

/** An id above every id the company holds (QuickBooks' ids are numbers, unique across a company's transactions). */
export function nextId(company: FakeCompany): string {
  let max = 0;
  for (const list of Object.values(company.entities)) for (const r of list) if (/^\d{1,9}$/.test(r.Id)) max = Math.max(max, Number(r.Id));
  for (const d of company.deleted) if (/^\d{1,9}$/.test(d.Id)) max = Math.max(max, Number(d.Id));
  return String(max + 1);
}

export function defaultOf(company: FakeCompany, type: string): string {
  return company.entities.Account.find((a) => a.AccountType === type && a.Active !== false)!.Id;
}

/** The values at a dotted path (keys matched without regard to case), through arrays. */
function valuesAt(item: unknown, path: string[]): unknown[] {
  if (path.length === 0) return Array.isArray(item) ? item : [item];
  if (Array.isArray(item)) return item.flatMap((i) => valuesAt(i, path));
  if (item === null || typeof item !== 'object') return [];
  const key = Object.keys(item).find((k) => k.toLowerCase() === path[0]!.toLowerCase());
  return key === undefined ? [] : valuesAt((item as Entity)[key], path.slice(1));
}

/**
 * A predicate for `A = 'x' AND B.C = 'y'`; undefined when the clause is not of that form. Entity
 * types (`…Type`) compare without regard to case, as QuickBooks' do.
 */
export function whereMatcher(where: string): ((item: Entity) => boolean) | undefined {
  const parts = where.split(/\s+AND\s+/i);
  const conditions: { path: string[]; value: string }[] = [];
  for (const p of parts) {
    const m = /^([A-Za-z][\w.]*)\s*=\s*'((?:[^'\\]|\\.)*)'$/.exec(p.trim());
    if (!m) return undefined;
    conditions.push({ path: m[1]!.split('.'), value: m[2]!.replace(/\\(.)/g, '$1') });
  }
  return (item) =>
    conditions.every(({ path, value }) => {
      const loose = path[path.length - 1]!.toLowerCase() === 'type';
      return valuesAt(item, path).some((v) => (loose ? String(v).toLowerCase() === value.toLowerCase() : String(v) === value));
    });
}
