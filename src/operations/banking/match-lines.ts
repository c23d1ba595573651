/**
 * What the reconciling operations (banking.match, banking.unmatch, banking.mark_reconciled) share:
 * the lines named, read for the organisation and only from the accounts the caller sees (another
 * account's line is not found, as banking.transactions would not show it), and the answer each
 * gives about them.
 */
import { z } from 'zod';
import { toMajor } from '../../domain/money.js';
import { bankLines } from '../../store/bank-matches.js';
import type { BankAccountRow, BankTransactionRow } from '../../store/schema.js';
import type { OperationContext } from '../context.js';
import { OperationError, invalidParameter } from '../errors.js';
import { visibleBankAccounts } from './visible-accounts.js';

export const MAX_MATCH_LINES = 50;

/** What a match's payment is said with, and dated: the lines' narrations, and the latest line's date (a retry and an unmatch say the same). */
export const reference = (lines: BankTransactionRow[]) => [...new Set(lines.map((l) => l.description))].join('; ').slice(0, 200);
export const lastDate = (lines: BankTransactionRow[]) =>
  lines
    .map((l) => l.date)
    .sort()
    .at(-1)!;

export const lineIdsParam = z
  .string({ message: 'is required: one or more bank transaction ids, comma separated' })
  .max(5_000, { message: 'must be at most 5000 characters' })
  .describe(`bank transaction ids (banking.transactions), comma separated, at most ${MAX_MATCH_LINES}`);

export function parseLineIds(text: string, parameter = 'transactionIds'): string[] {
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw invalidParameter(parameter, 'name at least one bank transaction id');
  if (ids.length > MAX_MATCH_LINES) throw invalidParameter(parameter, `at most ${MAX_MATCH_LINES} lines at once (got ${ids.length})`);
  return ids;
}

export interface NamedLines {
  lines: BankTransactionRow[];
  accounts: Map<string, BankAccountRow>;
}

/** The lines, in the order named; any not found (or in an account the caller does not see) is a 404 naming it. */
export async function namedLines(ctx: OperationContext, ids: string[]): Promise<NamedLines> {
  const [rows, visible] = await Promise.all([bankLines(ctx.db, ctx.organisation.id, ids), visibleBankAccounts(ctx.db, ctx.organisation.id, ctx.principal)]);
  const accounts = new Map(visible.accounts.map((a) => [a.id, a]));
  const byId = new Map(rows.filter((r) => accounts.has(r.bank_account_id)).map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw new OperationError('not_found', `no bank transaction ${missing.join(', ')} in the accounts you see in this organisation`);
  return { lines: ids.map((id) => byId.get(id)!), accounts };
}

/** Why a line cannot be matched or marked now, or null when it is free (to reconcile, in no match). */
export function lineTaken(line: BankTransactionRow): string | null {
  if (line.match_id)
    return `${line.id} is matched in the service${line.status === 'to_reconcile' ? ' (its payment is still being written)' : ''}: banking.unmatch it first`;
  if (line.status === 'reconciled') {
    return line.reconciled_in === 'accounting_system'
      ? `${line.id} is reconciled in the accounting system, and stays so`
      : `${line.id} is marked reconciled outside the service: banking.mark_reconciled with reconciled false first`;
  }
  return null;
}

export const lineStateSchema = z.object({
  id: z.string(),
  date: z.string(),
  description: z.string(),
  amount: z.number().describe("in the account's currency, negative for money spent"),
  currency: z.string(),
  status: z.enum(['to_reconcile', 'reconciled']),
  reconciledIn: z.enum(['service', 'accounting_system', 'outside_service']).nullable(),
  documentId: z.string().nullable().describe('the document the line is matched to in the service'),
});

export function lineState(line: BankTransactionRow, currency: string): z.infer<typeof lineStateSchema> {
  return {
    id: line.id,
    date: line.date,
    description: line.description,
    amount: toMajor(Number(line.amount), currency),
    currency,
    status: line.status as 'to_reconcile' | 'reconciled',
    reconciledIn: (line.reconciled_in ?? null) as 'service' | 'accounting_system' | 'outside_service' | null,
    documentId: line.status === 'reconciled' && line.reconciled_in === 'service' ? line.document_id : null,
  };
}
