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
import type { Database, OrganisationRow } from '../store/schema.js';
import { getMembership } from '../store/users.js';
import type { Coverage, OperationContext, Principal } from './context.js';
import { OperationError } from './errors.js';
import type { ResultCache } from './result-cache.js';
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
  /** answers reused while the organisation's data stands still; none when absent */
  resultCache?: ResultCache;
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
  if (!row) throw new OperationError('organisation_not_found', `organisation ${organisationId} does not exist`);
  if (principal.kind === 'user') {
    // membership and role are read live on every call: a removed member or a changed policy applies at once
    const membership = await getMembership(env.db, organisationId, principal.userId);
    if (!membership) throw new OperationError('not_a_member', 'you are no longer a member of this organisation');
    if (!(await isRoleAllowed(env.db, organisationId, op.name, membership.role)))
      throw new OperationError('role_not_allowed', `your role (${membership.role}) may not call ${op.name} in this organisation`);
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
  const run = async () => {
    try {
      return await op.run(ctx, input);
    } catch (error) {
      // the connected accounting system failing is not the caller's fault, nor ours: say which it is
      if (error instanceof AccountingSystemError) {
        const timeout = error.code === 'accounting_timeout';
        throw new OperationError(error.code, error.message);
      }
      throw error;
    }
  };
  const key = env.resultCache && op.reuse !== 'never' ? await reuseKey(ctx, op, input, row, env.readDb) : null;
  if (key === null) return run();
  return env.resultCache!.get(key, run);
}

/**
 * Everything an answer depends on, or null when the accounting system cannot tell when its books
 * change. The data version is read where the data is read: from a replica, the version it has
 * applied, so an answer is never kept under a version newer than its data.
 */
async function reuseKey(
  ctx: OperationContext,
  op: OrganisationOperation<any, any>,
  input: unknown,
  row: OrganisationRow,
  readDb: Kysely<Database> | undefined,
): Promise<string | null> {
  let accounting: unknown = null;
  try {
    accounting = await ctx.accounting.changeToken?.();
  } catch {
    // a system that cannot say whether its books changed is read afresh; the read reports its failure
  }
  if (typeof accounting !== 'string') return null;
  const version = readDb ? (await getOrganisation(readDb, row.id))?.data_version : row.data_version;
  if (version === undefined) return null;
  const viewer = typeof op.reuse === 'function' ? op.reuse(ctx.principal) : '';
  // the organisation row itself (settings shape answers) is covered: changing it moves data_version
  return JSON.stringify([row.id, String(version), accounting, op.name, ctx.today, viewer, ctx.baseUrl, input]);
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
