/**
 * banking.transactions asked for an account of the connected books that no statement has been
 * imported into (banking.accounts lists it as `<system>:<account id>`, with 0 transactions): it has
 * no bank transactions yet. The answer says so, and where its lines are, rather than that no such
 * account exists.
 */
import { OperationError } from '../errors.js';
import type { OperationContext } from '../context.js';

export async function unimportedBookAccount(ctx: OperationContext, term: string): Promise<OperationError | undefined> {
  const prefix = `${ctx.accounting.kind}:`;
  if (!term.toLowerCase().startsWith(prefix.toLowerCase()) || !ctx.accounting.bankAccounts) return undefined;
  const accountId = term.slice(prefix.length).trim();
  const book = (await ctx.accounting.bankAccounts(ctx.today)).find((a) => a.accountId === accountId);
  if (!book) return undefined;
  return new OperationError(
    'account_not_found',
    `${term} is "${book.name}" in the connected books (${ctx.accounting.kind}); no statement has been imported into it, so it has no bank transactions yet: ` +
      `its lines in the books are in ledger.account_transactions (account "${book.name}"), and importing a statement into an account of the same name, ` +
      `type and currency links the two`,
    [],
    { candidates: [] },
  );
}
