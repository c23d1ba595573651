/**
 * Runs an operation for the person signed in to the pages, through the same call sequence as the
 * REST API, MCP and the CLI (runOrganisationOperation): live membership, the organisation's role
 * policy and input validation apply exactly as they do there, and answers are shared through the
 * same result cache. A page shows a refusal where the answer would have been, so one refused
 * operation does not take the rest of a page down with it.
 */
import type { z } from 'zod';
import type { Role } from '../operations/context.js';
import { OperationError } from '../operations/errors.js';
import { runOrganisationOperation } from '../operations/execute.js';
import type { OrganisationOperation } from '../operations/operation.js';
import type { WebContext } from './web-context.js';

export type PageAnswer<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

export interface PagePerson {
  userId: string;
  email: string;
  role: Role;
}

export async function operationForPage<O extends z.ZodType>(
  w: WebContext,
  person: PagePerson,
  organisationId: string,
  op: OrganisationOperation<any, O>,
  input: Record<string, unknown>,
): Promise<PageAnswer<z.infer<O>>> {
  try {
    // the role given here is a placeholder: checkMembership reads the live one before the policy is checked
    const principal = { kind: 'user' as const, userId: person.userId, email: person.email, role: person.role };
    const value = (await runOrganisationOperation(w.service.env, op, principal, organisationId, { input })) as z.infer<O>;
    return { ok: true, value };
  } catch (error) {
    // refusals and an unreadable accounting system are the page's to say; anything else is a bug and a 500
    if (error instanceof OperationError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
