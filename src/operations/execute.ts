/**
 * The one path every transport takes to run an operation, as a list of small steps: the
 * organisation exists, live membership, role policy, input validation, then run() with the
 * organisation fixed. Nothing here depends on how the call arrived.
 */
import type { Kysely } from 'kysely';
import { accountingSystemFor } from '../accounting/index.js';
import type { AccountingConnectionSettings } from '../domain/accounting-vendors.js';
import { AccountingSystemError } from '../accounting/types.js';
import { todayIn } from '../domain/dates.js';
import type { Role } from '../domain/access.js';
import { getCallAccess, organisationDataVersion, toOrganisation } from '../store/organisations.js';
import { isRoleAllowed } from '../store/role-policy.js';
import type { Database, OrganisationRow } from '../store/schema.js';
import { getMembership } from '../store/users.js';
import type { Coverage, OperationContext, Principal } from './context.js';
import { OperationError } from './errors.js';
import type { ResultCache } from './result-cache.js';
import { checkIdempotencyKey, runIdempotent } from './idempotent.js';
import { coerceTextInput, effectOf, parseInput, type AnyOperation, type CallerOperation, type OrganisationOperation } from './operation.js';

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
  /** Xero and QuickBooks connections made in the settings (client registrations and sealing keys) */
  accountingConnections?: AccountingConnectionSettings;
}

export interface CallInput {
  /** raw parameters; text values are converted to the declared types when textInput is true */
  input: Record<string, unknown>;
  textInput?: boolean;
  /** the Idempotency-Key a create was sent with (REST) */
  idempotencyKey?: string;
}

/**
 * One call as its steps see it. The transport fills in who calls and what was sent; each step
 * checks one rule and may add what the next ones need (the organisation's row, the role, the input).
 */
export interface Call extends CallInput {
  env: CallEnvironment;
  op: AnyOperation;
  principal: Principal;
  /** the organisations the caller's token (or CLI session) covers */
  coverage: Coverage;
  /** the organisation the call acts for; null for an operation about the caller */
  organisationId: string | null;
  /** the organisation's row as read for this call (by loadOrganisation, or by an API client's bearer check) */
  row?: OrganisationRow;
  /** the caller's membership role and the policy's word on it, read with the row by loadOrganisation */
  access?: { organisationId: string; operation: string; role: Role | null; allowed: boolean };
  parsed?: unknown;
  answer?: unknown;
}

/** One rule of a call. Steps run in their declared order; the first to refuse ends the call. */
export type Step<C extends Call = Call> = (call: C) => void | Promise<void>;

/**
 * The organisation named exists. Its row, the caller's live membership role and whether the role
 * policy allows the operation are read here in one statement (getCallAccess); the next two steps
 * judge what was read, in order, so each refusal stays what it was.
 */
export async function loadOrganisation(call: Call): Promise<void> {
  if (call.organisationId === null) return;
  const userId = call.principal.kind === 'user' ? call.principal.userId : null;
  // an API client's own organisation came with its token, read this request (http/call-sequence.ts):
  // an API client has no membership or role to read with it, so there is nothing more to read
  if (userId === null && call.row?.id === call.organisationId) return;
  const access = await getCallAccess(call.env.db, call.organisationId, userId, call.op.name);
  if (!access) throw new OperationError('organisation_not_found', `organisation ${call.organisationId} does not exist`);
  call.row = access.row;
  if (userId !== null) call.access = { organisationId: call.organisationId, operation: call.op.name, role: access.role, allowed: access.allowed };
}

/** What loadOrganisation read for this very call (organisation and operation), if it did. */
function accessRead(call: Call): NonNullable<Call['access']> | undefined {
  const a = call.access;
  return a && a.organisationId === call.organisationId && a.operation === call.op.name ? a : undefined;
}

/**
 * A person calling is still a member of the organisation. Membership and role are read live on
 * every call: a removed member or a changed policy applies at once.
 */
export async function checkMembership(call: Call): Promise<void> {
  if (call.organisationId === null || call.principal.kind !== 'user') return;
  const read = accessRead(call);
  const role = read ? read.role : ((await getMembership(call.env.db, call.organisationId, call.principal.userId))?.role ?? null);
  if (role === null) throw new OperationError('not_a_member', 'you are no longer a member of this organisation');
  call.principal = { ...call.principal, role };
}

/** The organisation's role policy lets the person's role call this operation (API clients have no role). */
export async function checkRole(call: Call): Promise<void> {
  const { op, principal, organisationId } = call;
  if (organisationId === null || principal.kind !== 'user') return;
  const read = accessRead(call);
  const allowed = read && read.role === principal.role ? read.allowed : await isRoleAllowed(call.env.db, organisationId, op.name, principal.role);
  if (!allowed) throw new OperationError('role_not_allowed', `your role (${principal.role}) may not call ${op.name} in this organisation`);
}

/** The input is what the operation declares, every bad parameter named at once. */
export function parseCallInput(call: Call): void {
  call.parsed = parseInput(call.op.input, call.textInput ? coerceTextInput(call.op.input, call.input) : call.input);
}

/** The operation runs, with the organisation fixed; a kept answer is served while the data stands still. */
export async function answer(call: Call): Promise<void> {
  const { env, op, principal } = call;
  if (op.kind === 'caller') {
    call.answer = await op.run({ db: env.db, principal, coverage: call.coverage }, call.parsed);
    return;
  }
  const row = call.row!;
  const organisation = toOrganisation(row);
  // a change reads what it changes where it writes: the primary, never a replica behind it
  const changes = effectOf(op) !== 'read';
  const readDb = changes ? env.db : (env.readDb ?? env.db);
  // a read on the primary reads at the version loadOrganisation read with the row: what is kept while
  // that version stands (the builtin ledger's chart and contacts, the bills' totals) may be served;
  // a change, or a replica that may lag, keeps nothing
  const dataVersion = !changes && readDb === env.db ? String(row.data_version) : undefined;
  const ctx: OperationContext = {
    db: readDb,
    organisation,
    principal,
    today: env.today ?? todayIn(organisation.timeZone, env.now?.() ?? new Date()),
    baseUrl: env.baseUrl,
    dataVersion,
    accounting: accountingSystemFor(readDb, { ...row, keepAtVersion: dataVersion }, env.accountingTimeoutMs, {
      settings: env.accountingConnections,
      primary: env.db,
    }),
  };
  const run = async (context: OperationContext = ctx) => {
    try {
      return await op.run(context, call.parsed);
    } catch (error) {
      // the connected accounting system failing is not the caller's fault, nor ours: say which it is
      if (error instanceof AccountingSystemError) {
        throw new OperationError(error.code, error.message, [], error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {});
      }
      throw error;
    }
  };
  if (changes && call.idempotencyKey !== undefined && effectOf(op) === 'create') {
    const scope = { organisationId: row.id, principal, operation: op.name, key: checkIdempotencyKey(call.idempotencyKey), input: call.parsed };
    call.answer = await runIdempotent(env.db, scope, (keepAnswer) => run({ ...ctx, keepAnswer }));
    return;
  }
  const key = env.resultCache && op.reuse !== 'never' ? await reuseKey(ctx, op, call.parsed, row, env.readDb) : null;
  call.answer = key === null ? await run() : await env.resultCache!.get(key, () => run());
}

/**
 * The steps of a call once the organisation is chosen: the tail of every transport's sequence
 * (http/call-sequence.ts adds the token's scope, its organisations and the rate limits before
 * them), and all of it for the CLI, which runs as the operator.
 */
export const OPERATION_STEPS: readonly Step[] = [loadOrganisation, checkMembership, checkRole, parseCallInput, answer];

/** Runs the steps in order and returns the answer the last one gave. */
export async function runCallSequence<C extends Call>(steps: readonly Step<C>[], call: C): Promise<unknown> {
  for (const step of steps) await step(call);
  return call.answer;
}

export async function runOrganisationOperation(
  env: CallEnvironment,
  op: OrganisationOperation<any, any>,
  principal: Principal,
  organisationId: string,
  call: CallInput,
): Promise<unknown> {
  // coverage is read only by operations about the caller, never by one acting for an organisation
  return runCallSequence(OPERATION_STEPS, { ...call, env, op, principal, coverage: { organisations: [], all: false }, organisationId });
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
  const version = readDb ? await organisationDataVersion(readDb, row.id) : String(row.data_version);
  if (version === undefined) return null;
  const viewer = typeof op.reuse === 'function' ? op.reuse(ctx.principal) : '';
  // the organisation row itself (settings shape answers) is covered: changing it moves data_version
  return JSON.stringify([row.id, version, accounting, op.name, ctx.today, viewer, ctx.baseUrl, input]);
}

export async function runCallerOperation(
  env: CallEnvironment,
  op: CallerOperation<any, any>,
  principal: Principal,
  coverage: Coverage,
  call: CallInput,
): Promise<unknown> {
  return runCallSequence(OPERATION_STEPS, { ...call, env, op, principal, coverage, organisationId: null });
}

export function isOrganisationOperation(op: AnyOperation): op is OrganisationOperation<any, any> {
  return op.kind === 'organisation';
}
