/**
 * The ledger's supplier narrowing: names or ids, each resolved to contacts. A name may hold commas
 * ("Smith, Jones & Co"): the whole text is tried first, then a JSON array of names or ids, and
 * only then commas split it, joining neighbouring parts again wherever together they name a supplier.
 */
import type { Contact } from '../../accounting/types.js';
import { closeMatches } from '../../domain/close-matches.js';
import { invalidRequest, OperationError } from '../errors.js';

/** A name compared as people type it: any case, any spaces around its commas. */
const comparable = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/\s*,\s*/g, ',');

function named(contacts: Contact[], term: string): Contact[] {
  const wanted = comparable(term);
  return contacts.filter((c) => c.id === term.trim() || comparable(c.name) === wanted);
}

function notFound(contacts: Contact[], term: string): OperationError {
  const candidates = closeMatches(term, contacts, (c) => [c.name]).map((c) => ({ id: c.id, name: c.name }));
  const hint = candidates.length ? ` Did you mean ${candidates.map((c) => `"${c.name}"`).join(', ')}?` : '';
  return new OperationError('supplier_not_found', `No supplier "${term}" in this organisation.${hint}`, [], { candidates });
}

/** The terms the text names: the whole text, a JSON array's items, or its comma-separated parts (rejoined where a name has commas). */
function terms(contacts: Contact[], text: string): string[] {
  const whole = text.trim();
  if (named(contacts, whole).length) return [whole];
  if (whole.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(whole);
    } catch {
      throw invalidRequest([{ parameter: 'supplier', message: 'starts with [ but is not a JSON array of names or ids' }]);
    }
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x.trim()))
      throw invalidRequest([{ parameter: 'supplier', message: 'must be a JSON array of names or ids (texts)' }]);
    return list as string[];
  }
  const parts = whole
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < parts.length;) {
    // the longest run of parts from here that names a supplier, else the part alone
    let end = parts.length;
    while (end > i + 1 && !named(contacts, parts.slice(i, end).join(', ')).length) end--;
    out.push(parts.slice(i, end).join(', '));
    i = end;
  }
  return out;
}

export function resolveSuppliers(contacts: Contact[], text: string): Contact[] {
  const found = new Map<string, Contact>();
  for (const term of terms(contacts, text)) {
    const matches = named(contacts, term);
    if (matches.length === 0) throw notFound(contacts, term);
    for (const m of matches) found.set(m.id, m);
  }
  return [...found.values()];
}
