/**
 * The Bills to Pay filter form as the saved-filter operations' input: criteria from checkboxes,
 * comma-separated lists, any/yes/no choices and a minimum in the home currency's major units; the
 * stored criteria back as the form's values; and the operations' errors onto the form's fields.
 */
import { fromMajor, minorDigits, toMajor } from '../domain/money.js';
import type { BillCriteria } from '../domain/bill-criteria.js';
import type { ParameterError } from '../operations/errors.js';
import { sortErrors, type FieldErrors } from './operation-form.js';
import { list, one, type Form } from './respond.js';

export const FILTER_FIELDS = [
  'name',
  'description',
  'kinds',
  'tagsAny',
  'suppliers',
  'dueWithinDays',
  'overdue',
  'scheduled',
  'foreignCurrency',
  'minAmountDue',
] as const;
export const YES_NO = ['overdue', 'scheduled', 'foreignCurrency'] as const;

export type FilterValues = Record<string, string | string[]>;

/** The form's values as sent, each field once (kinds may be several). */
export function filterValues(form: Form): FilterValues {
  return Object.fromEntries(FILTER_FIELDS.map((f) => [f, f === 'kinds' ? list(form[f]) : (one(form[f]) ?? '')]));
}

const items = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

/**
 * The criteria the form describes. A value that does not read as what the field takes is passed on
 * as typed, so the operation refuses it and nothing is saved; its message is the form's (below).
 */
export function criteriaFrom(values: FilterValues, homeCurrency: string): Record<string, unknown> {
  const text = (f: string) => String(values[f] ?? '').trim();
  const c: Record<string, unknown> = {};
  const kinds = (values.kinds as string[] | undefined) ?? [];
  if (kinds.length) c.kinds = kinds;
  if (items(text('tagsAny')).length) c.tagsAny = items(text('tagsAny'));
  if (items(text('suppliers')).length) c.suppliers = items(text('suppliers'));
  const days = text('dueWithinDays');
  if (days) c.dueWithinDays = /^\d{1,6}$/.test(days) ? Number(days) : days;
  for (const f of YES_NO) {
    const v = text(f);
    if (v === 'yes') c[f] = true;
    else if (v === 'no') c[f] = false;
    else if (v !== '' && v !== 'any') c[f] = v;
  }
  const min = text('minAmountDue');
  if (min) {
    const minor = fromMajor(min.replace(/,/g, ''), homeCurrency);
    c.minAmountDue = minor !== null && minor >= 0 ? minor : min;
  }
  return c;
}

/** Stored criteria as the form shows them. */
export function valuesFrom(filter: { name: string; description: string; criteria: BillCriteria }, homeCurrency: string): FilterValues {
  const c = filter.criteria;
  const yesNo = (b: boolean | undefined) => (b === undefined ? 'any' : b ? 'yes' : 'no');
  return {
    name: filter.name,
    description: filter.description,
    kinds: c.kinds ?? [],
    tagsAny: (c.tagsAny ?? []).join(', '),
    suppliers: (c.suppliers ?? []).join(', '),
    dueWithinDays: c.dueWithinDays === undefined ? '' : String(c.dueWithinDays),
    overdue: yesNo(c.overdue),
    scheduled: yesNo(c.scheduled),
    foreignCurrency: yesNo(c.foreignCurrency),
    minAmountDue: c.minAmountDue === undefined ? '' : toMajor(c.minAmountDue, homeCurrency).toFixed(minorDigits(homeCurrency)),
  };
}

const REWORD: Record<string, (currency: string) => string> = {
  dueWithinDays: () => 'must be a whole number of days, 0 or more',
  minAmountDue: (currency) => `must be an amount in ${currency} such as 250.00, 0 or more`,
  overdue: () => 'choose any, yes or no',
  scheduled: () => 'choose any, yes or no',
  foreignCurrency: () => 'choose any, yes or no',
  kinds: () => 'choose bills, expense claims or both',
};

/** The operation's errors on the form's fields: criteria.tagsAny.0 is the tags field; a value that did not read is named in the form's words. */
export function filterErrors(errors: ParameterError[], homeCurrency: string): FieldErrors {
  const fields = new Set<string>(FILTER_FIELDS);
  const fieldOf = (p: string) => {
    const f = p.replace(/^criteria\./, '').split('.')[0]!;
    return fields.has(f) ? f : null;
  };
  const reworded = errors.map((e) => {
    const f = fieldOf(e.parameter);
    return f && REWORD[f] && e.parameter.startsWith('criteria.') ? { parameter: e.parameter, message: REWORD[f](homeCurrency) } : e;
  });
  return sortErrors(reworded, fieldOf);
}

/** Criteria compared by content, whatever order their keys were written in. */
export function sameCriteria(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, x]) => [k, canonical(x)]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
