/**
 * The one path every transport takes to run an operation: live membership, role policy, input
 * validation, then run() with the organisation fixed. Nothing here depends on how the call arrived.
 */
import type { Kysely } from 'kysely';
import { accountingSystemFor } from '../accounting/index.js';
import { AccountingSystemError } from '../accounting/types.js';
import { todayIn } from '../domain/dates.js';
import { getOrganisation, toOrganisation } from '../store/organisations.js';
import { isRoleAllowed } from '../store/role-policy.js';
import type { Database } from '../store/schema.js';
import { getMembership } from '../store/users.js';
import type { Coverage, OperationContext, Principal } from './context.js';
import { forbidden, notFound, OperationError } from './errors.js';
import { coerceTextInput, parseInput, type AnyOperation, type CallerOperation, type OrganisationOperation } from './operation.js';

export interface CallEnvironment {
  /** the primary: membership and role policy are read here, so changes apply at once */
  db: Kysely<Database>;
  /** where the operations' own reads go (a read replica), if not the primary */
  readDb?: Kysely<Database>;
  /** limit for every call to the accounting system */
  accountingTimeoutMs?: number;
  baseUrl: string;
  /** the instant "today" is taken at */
  now?: () => Date;
  /** a fixed local date for every organisation (tests, demo replays); overrides now */
  today?: string;
}

export interface CallInput {
  /** raw parameters; text values are converted to the declared types when textInput is true */
  input: Record<string, unknown>;
  textInput?: boolean;
}

export async function runOrganisationOperation(
  env: CallEnvironment,
  op: OrganisationOperation<any, any>,
  principal: Principal,
  organisationId: string,
  call: CallInput,
): Promise<unknown> {
  const row = await getOrganisation(env.db, organisationId);
  if (!row) throw notFound('organisation_not_found', `organisation ${organisationId} does not exist`);
  if (principal.kind === 'user') {
    // membership and role are read live on every call: a removed member or a changed policy applies at once
    const membership = await getMembership(env.db, organisationId, principal.userId);
    if (!membership) throw forbidden('not_a_member', 'you are no longer a member of this organisation');
    if (!(await isRoleAllowed(env.db, organisationId, op.name, membership.role)))
      throw forbidden('role_not_allowed', `your role (${membership.role}) may not call ${op.name} in this organisation`);
    principal = { ...principal, role: membership.role };
  }
  const input = parseInput(op.input, call.textInput ? coerceTextInput(op.input, call.input) : call.input);
  const organisation = toOrganisation(row);
  const readDb = env.readDb ?? env.db;
  const ctx: OperationContext = {
    db: readDb,
    organisation,
    principal,
    today: env.today ?? todayIn(organisation.timeZone, env.now?.() ?? new Date()),
    baseUrl: env.baseUrl,
    accounting: accountingSystemFor(readDb, row, env.accountingTimeoutMs),
  };
  try {
    return await op.run(ctx, input);
  } catch (error) {
    // the connected accounting system failing is not the caller's fault, nor ours: say which it is
    if (error instanceof AccountingSystemError) {
      const timeout = error.code === 'accounting_timeout';
      throw new OperationError(timeout ? 504 : 502, error.code, timeout ? 'Accounting system timeout' : 'Accounting system unavailable', error.message);
    }
    throw error;
  }
}

export async function runCallerOperation(
  env: CallEnvironment,
  op: CallerOperation<any, any>,
  principal: Principal,
  coverage: Coverage,
  call: CallInput,
): Promise<unknown> {
  const input = parseInput(op.input, call.textInput ? coerceTextInput(op.input, call.input) : call.input);
  return op.run({ db: env.db, principal, coverage }, input);
}

export function isOrganisationOperation(op: AnyOperation): op is OrganisationOperation<any, any> {
  return op.kind === 'organisation';
}
