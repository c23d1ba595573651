/** The ledger's supplier narrowing: names or ids, comma separated, each resolved to contacts. */
import type { Contact } from '../../accounting/types.js';
import { closeMatches } from '../../domain/close-matches.js';
import { OperationError } from '../errors.js';

export function resolveSuppliers(contacts: Contact[], text: string): Contact[] {
  const wanted = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const found = new Map<string, Contact>();
  for (const w of wanted) {
    const lower = w.toLowerCase();
    const matches = contacts.filter((c) => c.id === w || c.name.toLowerCase() === lower);
    if (matches.length === 0) {
      const candidates = closeMatches(w, contacts, (c) => [c.name]).map((c) => ({ id: c.id, name: c.name }));
      const hint = candidates.length ? ` Did you mean ${candidates.map((c) => `"${c.name}"`).join(', ')}?` : '';
      throw new OperationError('supplier_not_found', `No supplier "${w}" in this organisation.${hint}`, [], { candidates });
    }
    for (const m of matches) found.set(m.id, m);
  }
  return [...found.values()];
}
