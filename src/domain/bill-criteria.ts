/**
 * What a saved Bills to Pay filter selects. Stored as JSON text in bill_filters.criteria; every key
 * is optional and every key given must match (an empty object matches every outstanding bill).
 * The schema is strict so a misspelt key is refused instead of silently matching everything.
 */
import { z } from 'zod';
import { addDays, isValidDate, type IsoDate } from './dates.js';
import { MAX_AMOUNT_MINOR } from './money.js';

export const BILL_KINDS = ['bill', 'expense_claim'] as const;
export type BillKind = (typeof BILL_KINDS)[number];

const nonEmptyText = z.string().trim().min(1);

export const billCriteriaSchema = z
  .object({
    kinds: z.array(z.enum(BILL_KINDS)).min(1).optional(),
    /** any one of these tags (trimmed, case-insensitive) */
    tagsAny: z.array(nonEmptyText).min(1).optional(),
    /** supplier names, exact but case-insensitive */
    suppliers: z.array(nonEmptyText).min(1).optional(),
    /** due from today to today + N days, both included */
    dueWithinDays: z.number().int().min(0).optional(),
    /** true: due before today; false: due today or later */
    overdue: z.boolean().optional(),
    /** true: has a scheduled payment date; false: has none */
    scheduled: z.boolean().optional(),
    /** true: in a currency other than the organisation's home currency */
    foreignCurrency: z.boolean().optional(),
    /** amount due at least this, home-currency minor units, no more than the largest amount taken */
    minAmountDue: z.number().int().min(0).max(MAX_AMOUNT_MINOR).optional(),
  })
  .strict();

export type BillCriteria = z.infer<typeof billCriteriaSchema>;

/** The parts of an outstanding bill the criteria look at. amountDue is in home-currency minor units. */
export interface BillFacts {
  kind: string;
  supplier: string;
  /** comma separated */
  tags: string;
  dueDate: IsoDate;
  scheduledDate: IsoDate | null;
  currency: string;
  amountDue: number;
}

export interface MatchContext {
  today: IsoDate;
  homeCurrency: string;
}

/**
 * Criteria read before, by their stored text: every computed bills call reads its organisation's
 * saved filters, whose text changes only when a filter is saved again, and checking each against
 * the schema was a twentieth of a saved-filters call's time. Frozen, as calls share them; at most
 * PARSED_KEPT texts, all let go when full.
 */
const parsed = new Map<string, BillCriteria>();
const PARSED_KEPT = 1024;

/** Reads stored criteria, refusing anything the schema does not describe; the same text gives the same (frozen) criteria. */
export function parseBillCriteria(text: string): BillCriteria {
  const known = parsed.get(text);
  if (known) return known;
  const criteria = checkedCriteria(text);
  for (const value of Object.values(criteria)) if (Array.isArray(value)) Object.freeze(value);
  Object.freeze(criteria);
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(text, criteria);
  return criteria;
}

function checkedCriteria(text: string): BillCriteria {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('criteria are not JSON');
  }
  const result = billCriteriaSchema.safeParse(json);
  if (!result.success) {
    throw new Error(`criteria are not valid: ${result.error.issues.map((i) => `${i.path.join('.') || '(criteria)'} ${i.message}`).join('; ')}`);
  }
  return result.data;
}

/** The JSON text to store, after the same validation the reader applies. */
export function stringifyBillCriteria(criteria: BillCriteria): string {
  return JSON.stringify(billCriteriaSchema.parse(criteria));
}

/** How one tag is compared: trimmed and lower-cased, on a bill and in the criteria alike. */
export function tagKey(tag: string): string {
  return tag.trim().toLowerCase();
}

export function splitTags(tags: string): string[] {
  return tags
    .split(',')
    .map(tagKey)
    .filter((t) => t !== '');
}

/**
 * How a supplier name is compared: trimmed and lower-cased, for the criteria's suppliers and for
 * payment order. Stored with each bill (bills.supplier_key) so the database sorts and matches by
 * the same key JavaScript makes, whichever database it is.
 */
export function supplierKey(supplier: string): string {
  return supplier.trim().toLowerCase();
}

/**
 * A bill's tags as stored for matching (bills.tags_key): each trimmed and lower-cased, between
 * commas (",a,b," or "," for none), so "has tag t" is "contains ,t," in either database.
 */
export function tagsKey(tags: string): string {
  return `,${splitTags(tags).join(',')},`;
}

export function matchesBill(criteria: BillCriteria, bill: BillFacts, ctx: MatchContext): boolean {
  return billMatcher(criteria, ctx)(bill);
}

/**
 * The test of one filter, prepared once for many bills: today checked, the due window, tags and
 * suppliers worked out before the loop rather than for every bill.
 */
export function billMatcher(criteria: BillCriteria, ctx: MatchContext): (bill: BillFacts) => boolean {
  if (!isValidDate(ctx.today)) throw new RangeError(`today is not a yyyy-MM-dd date: ${ctx.today}`);
  const today = ctx.today;
  const kinds = criteria.kinds;
  const tags = criteria.tagsAny ? new Set(criteria.tagsAny.map(tagKey)) : undefined;
  const suppliers = criteria.suppliers?.map(supplierKey);
  const last = criteria.dueWithinDays !== undefined ? addDays(today, criteria.dueWithinDays) : undefined;
  return (bill) => {
    if (kinds && !kinds.some((k) => k === bill.kind)) return false;
    if (tags && !splitTags(bill.tags).some((t) => tags.has(t))) return false;
    if (suppliers) {
      const supplier = supplierKey(bill.supplier);
      if (!suppliers.some((s) => s === supplier)) return false;
    }
    if (last !== undefined && (bill.dueDate < today || bill.dueDate > last)) return false;
    if (criteria.overdue !== undefined && bill.dueDate < today !== criteria.overdue) return false;
    if (criteria.scheduled !== undefined && (bill.scheduledDate !== null) !== criteria.scheduled) return false;
    if (criteria.foreignCurrency !== undefined && (bill.currency !== ctx.homeCurrency) !== criteria.foreignCurrency) return false;
    if (criteria.minAmountDue !== undefined && bill.amountDue < criteria.minAmountDue) return false;
    return true;
  };
}
