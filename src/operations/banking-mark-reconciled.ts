import { z } from 'zod';
import { markOutside } from '../store/bank-matches.js';
import { refreshSuggestionsAfter } from './banking/after-change.js';
import { lineIdsParam, lineState, lineStateSchema, lineTaken, namedLines, parseLineIds } from './banking/match-lines.js';
import { auditChange } from './changes.js';
import { OperationError } from './errors.js';
import { changeOf, defineOperation } from './operation.js';
import { booleanParam } from './params.js';

export const bankingMarkReconciled = defineOperation({
  kind: 'organisation',
  name: 'banking.mark_reconciled',
  tool: 'banking_mark_reconciled',
  title: 'Mark bank lines reconciled outside the service',
  summary: 'Marks bank lines reconciled outside the service (reconciledIn outside_service), or back to reconcile.',
  description: [
    'Marks the bank lines transactionIds (comma separated) reconciled outside the service: status reconciled, reconciledIn outside_service, for lines ' +
      'settled elsewhere',
    '(a transfer between own accounts, a fee booked by hand). reconciled: false puts lines so marked back to to_reconcile.',
    'Lines matched in the service (banking.unmatch them) or reconciled in the accounting system (they stay so) are refused with 409 already_matched, ' +
      'and then nothing changes.',
  ].join(' '),
  input: z
    .object({
      transactionIds: lineIdsParam,
      reconciled: booleanParam.default(true).describe('true (default): mark reconciled outside the service; false: back to reconcile'),
    })
    .strict(),
  output: z.object({ changed: z.number().int().describe('lines whose status changed'), transactions: z.array(lineStateSchema) }),
  ...changeOf('update', ['super_admin', 'admin']),
  async run(ctx, input) {
    const ids = parseLineIds(input.transactionIds);
    const { lines, accounts } = await namedLines(ctx, ids);
    const refused = lines
      .map((l) => {
        if (input.reconciled) return lineTaken(l);
        if (l.status === 'to_reconcile') return null; // already where it is asked to be
        return l.reconciled_in === 'outside_service'
          ? null
          : l.reconciled_in === 'service'
            ? `${l.id} is matched in the service: banking.unmatch it`
            : `${l.id} is reconciled in the accounting system, and stays so`;
      })
      .filter((why): why is string => why !== null);
    if (refused.length) throw new OperationError('already_matched', refused.join('; '));
    const changed = await markOutside(ctx.db, ctx.organisation.id, ids, input.reconciled);
    await auditChange(ctx, input.reconciled ? 'bank.marked_reconciled' : 'bank.unmarked_reconciled', ids.join(','), { lines: ids, changed });
    await refreshSuggestionsAfter(ctx);
    const { lines: after } = await namedLines(ctx, ids);
    return { changed, transactions: after.map((l) => lineState(l, accounts.get(l.bank_account_id)!.currency)) };
  },
});
