/**
 * What follows a change to documents or bank lines (a publish, a match, an unmatch, a mark): the
 * service's suggestions for the organisation's lines still to reconcile are scored again, so a
 * line's suggestion never points at a document matched meanwhile, and a newly published document is
 * suggested at once. It runs after the change has committed and never fails it: the change stands,
 * and the next refresh (the next import or change) writes what this one could not.
 */
import type { OperationContext } from '../context.js';
import { refreshSuggestions } from './suggestions.js';

export async function refreshSuggestionsAfter(ctx: OperationContext): Promise<void> {
  try {
    await refreshSuggestions(ctx.db, ctx.organisation.id, ctx.accounting, { today: ctx.today });
  } catch {
    // the change is committed; a suggestion a little behind is corrected by the next refresh
  }
}
