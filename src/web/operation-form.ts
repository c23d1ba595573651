/**
 * Runs a change for a form, as the signed-in person, through the same call sequence as the REST
 * API (runOrganisationOperation): role policy, validation and audit apply as they do there. A
 * refusal comes back with its status and every parameter error, so the form can show each beside
 * its field and keep what was typed.
 */
import type { z } from 'zod';
import { OperationError, type ParameterError } from '../operations/errors.js';
import { runOrganisationOperation } from '../operations/execute.js';
import type { OrganisationOperation } from '../operations/operation.js';
import type { PagePerson } from './operation-for-page.js';
import type { WebContext } from './web-context.js';

export type FormAnswer<T> = { ok: true; value: T } | { ok: false; status: number; code: string; message: string; errors: ParameterError[] };

export async function operationForForm<O extends z.ZodType>(
  w: WebContext,
  person: PagePerson,
  organisationId: string,
  op: OrganisationOperation<any, O>,
  input: Record<string, unknown>,
): Promise<FormAnswer<z.infer<O>>> {
  try {
    // the role given here is a placeholder: checkMembership reads the live one before the policy is checked
    const principal = { kind: 'user' as const, userId: person.userId, email: person.email, role: person.role };
    const value = (await runOrganisationOperation(w.service.env, op, principal, organisationId, { input })) as z.infer<O>;
    return { ok: true, value };
  } catch (error) {
    if (error instanceof OperationError) return { ok: false, status: error.status, code: error.code, message: error.message, errors: [...error.errors] };
    throw error;
  }
}

/** Field name → its messages, and the messages no field of the form shows (for the box at the top). */
export interface FieldErrors {
  byField: Record<string, string[]>;
  general: string[];
}

/**
 * Sorts an operation's parameter errors onto the form's fields. `fieldOf` names the form field of a
 * parameter (or null: shown at the top); `message` may reword one for the field's own text.
 */
export function sortErrors(errors: ParameterError[], fieldOf: (parameter: string) => string | null): FieldErrors {
  const out: FieldErrors = { byField: {}, general: [] };
  for (const e of errors) {
    const field = fieldOf(e.parameter);
    if (field === null) out.general.push(e.parameter === '(input)' ? e.message : `${e.parameter}: ${e.message}`);
    else if (!(out.byField[field] ??= []).includes(e.message)) out.byField[field].push(e.message);
  }
  return out;
}
