/**
 * What follows a change to documents or bank lines (a publish, a match, an unmatch): the service's
 * suggestions for the organisation's lines still to reconcile are scored again, so a line's
 * suggestion never points at a document that was matched meanwhile, and a newly published document
 * is suggested at once.
 */
import type { OperationContext } from '../context.js';

export async function refreshSuggestionsAfter(_ctx: OperationContext): Promise<void> {
  // wired to the suggestion scorer (banking/suggestions.ts) once it lands
}
