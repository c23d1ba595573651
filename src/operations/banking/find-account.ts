/**
 * Resolves the `account` parameter of banking.transactions among the accounts the caller can see,
 * so an account the caller does not hold answers exactly like one that does not exist.
 */
import type { BankAccountRow } from '../../store/schema.js';
import { OperationError } from '../errors.js';
import { bankAccountView } from './visible-accounts.js';

/** By id, then number, then name; each compared case-insensitively and in full. */
export function findBankAccount(accounts: readonly BankAccountRow[], term: string): BankAccountRow {
  const wanted = term.trim().toLowerCase();
  for (const key of ['id', 'number', 'name'] as const) {
    const matches = accounts.filter((a) => a[key].trim().toLowerCase() === wanted);
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      const candidates = matches.map(bankAccountView);
      const named = candidates.map((c) => `${c.name} (id ${c.id}, number ${c.number})`).join('; ');
      throw new OperationError(
        'invalid_request',
        `account: "${term}" matches several accounts: ${named}; give the id`,
        [{ parameter: 'account', message: `matches several accounts: ${named}; give the id` }],
        { candidates },
      );
    }
  }
  const candidates = closeMatches(accounts, wanted).map(bankAccountView);
  const hint = candidates.length ? `; did you mean ${candidates.map((c) => `"${c.name}"`).join(', ')}?` : '';
  throw new OperationError('account_not_found', `no bank account "${term}"${hint}`, [], { candidates });
}

/**
 * Accounts a mistyped or partial name probably meant: a word of the term found in the name,
 * number or bank, or a name within a few typing mistakes of the term.
 */
function closeMatches(accounts: readonly BankAccountRow[], wanted: string): BankAccountRow[] {
  const words = wanted.split(/\s+/).filter((w) => w.length >= 2);
  return accounts.filter((a) => {
    const fields = [a.name, a.number, a.bank].map((f) => f.toLowerCase());
    if (words.some((w) => fields.some((f) => f.includes(w)))) return true;
    const name = fields[0]!;
    return editDistance(name, wanted) <= Math.max(2, Math.floor(name.length / 4));
  });
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
