/** Operator commands: migrate, orgs, users, members, and verifying apps for everyone. */
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/argon2';
import { getClient } from '../auth/clients.js';
import { ROLES, type Role } from '../operations/context.js';
import { writeAudit } from '../store/audit-log.js';
import { auditFromCommandLine } from './audit.js';
import { setOperatorBlock } from '../store/client-blocks.js';
import { setOperatorVerification } from '../store/client-verifications.js';
import { migrate } from '../store/migrate.js';
import { ACCOUNTING_SYSTEMS } from '../accounting/index.js';
import { validateGnuCashBook } from '../accounting/gnucash/config.js';
import { OrganisationNameTaken, provisionOrganisation } from '../provision.js';
import { listOrganisations, validateNewOrganisation } from '../store/organisations.js';
import { createUser, findUserByEmail, getMembership, isPlausibleEmail, removeMembership, setMembership } from '../store/users.js';
import { printJson, readStdin, UsageError, withStore, organisationFor } from './io.js';

export async function migrateCommand(): Promise<number> {
  return withStore(async (store) => {
    // withStore has migrated already; report the state
    const applied = await migrate(store);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    return 0;
  });
}

export async function orgsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      name: { type: 'string' },
      currency: { type: 'string' },
      timezone: { type: 'string' },
      'financial-year-start': { type: 'string' },
      accounting: { type: 'string' },
      book: { type: 'string' },
    },
  });
  if (positionals[0] === 'create') return createOrganisationCommand(values);
  if (positionals[0] !== 'list')
    throw new UsageError(
      'usage: ledgerline orgs list [--json] | orgs create --name N --currency C --timezone Z --financial-year-start M [--accounting builtin | ' +
        '--accounting gnucash --book PATH] [--json]',
    );
  return withStore(async (store) => {
    const orgs = (await listOrganisations(store.db)).map((o) => ({
      id: o.id,
      name: o.name,
      currency: o.home_currency,
      timeZone: o.time_zone,
      financialYearStartMonth: o.fy_start_month,
      accountingSystem: o.accounting_system,
    }));
    if (values.json) printJson(orgs);
    else
      for (const o of orgs)
        process.stdout.write(`${o.id}  ${o.name} (${o.currency}, ${o.timeZone}, FY from month ${o.financialYearStartMonth}, ${o.accountingSystem})\n`);
    return 0;
  });
}

async function createOrganisationCommand(values: Record<string, string | boolean | undefined>): Promise<number> {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const missing = ['name', 'currency', 'timezone', 'financial-year-start'].filter((k) => !text(k));
  if (missing.length) throw new UsageError(`orgs create needs ${missing.map((m) => `--${m}`).join(', ')}`);
  const accounting = text('accounting') ?? 'builtin';
  if (!(ACCOUNTING_SYSTEMS as readonly string[]).includes(accounting)) throw new UsageError(`--accounting must be one of ${ACCOUNTING_SYSTEMS.join(', ')}`);
  const fyStartMonth = Number(text('financial-year-start'));
  const input = {
    name: text('name')!,
    homeCurrency: text('currency')!.toUpperCase(),
    timeZone: text('timezone')!,
    fyStartMonth,
    accountingSystem: accounting,
  };
  const problems = validateNewOrganisation(input);
  if (problems.length) throw new UsageError(problems.join('; '));
  let accountingConfig: Record<string, unknown> | null = null;
  if (accounting === 'gnucash') {
    const book = text('book');
    if (!book) throw new UsageError('--accounting gnucash needs --book PATH (a GnuCash book saved as SQLite)');
    try {
      accountingConfig = { bookPath: validateGnuCashBook(book, input.homeCurrency).bookPath };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  } else if (text('book')) throw new UsageError('--book applies only with --accounting gnucash');
  return withStore(async (store) => {
    const org = await provisionOrganisation(store.db, { ...input, accountingConfig }).catch((error: unknown) => {
      throw error instanceof OrganisationNameTaken ? new UsageError(error.message) : error;
    });
    await auditFromCommandLine(store.db, {
      organisationId: org.id,
      action: 'organisation.created',
      target: org.id,
      detail: { name: org.name, currency: org.home_currency, accountingSystem: org.accounting_system },
    });
    printJson({
      id: org.id,
      name: org.name,
      currency: org.home_currency,
      timeZone: org.time_zone,
      financialYearStartMonth: org.fy_start_month,
      accountingSystem: org.accounting_system,
    });
    return 0;
  });
}

export async function usersCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' }, json: { type: 'boolean' } },
  });
  if (positionals[0] !== 'create' || !values.email || !values.name)
    throw new UsageError('usage: ledgerline users create --email E --name N [--password-stdin] [--json]');
  if (!isPlausibleEmail(values.email)) throw new UsageError(`"${values.email}" is not an email address`);
  let passwordHash: string | null = null;
  if (values['password-stdin']) {
    const password = (await readStdin()).replace(/\r?\n$/, '');
    if (password.length < 10) throw new UsageError('the password must be at least 10 characters');
    passwordHash = await hash(password);
  }
  return withStore(async (store) => {
    if (await findUserByEmail(store.db, values.email!)) throw new UsageError(`a user with email ${values.email} exists already`);
    const user = await createUser(store.db, { email: values.email!, name: values.name!, passwordHash });
    printJson({ id: user.id, email: user.email, name: user.name, password: passwordHash !== null });
    return 0;
  });
}

export async function membersCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
  });
  const action = positionals[0];
  if ((action !== 'add' && action !== 'remove') || !values.org || !values.email)
    throw new UsageError('usage: ledgerline members add --org ORG --email E --role ROLE | members remove --org ORG --email E');
  if (action === 'add' && !ROLES.includes(values.role as Role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return withStore(async (store) => {
    const org = await organisationFor(store.db, values.org!);
    const user = await findUserByEmail(store.db, values.email!);
    if (!user) throw new UsageError(`no user with email ${values.email}`);
    if (action === 'add') {
      const before = await getMembership(store.db, org.id, user.id);
      await setMembership(store.db, org.id, user.id, values.role as Role);
      if (before?.role !== values.role)
        await auditFromCommandLine(store.db, {
          organisationId: org.id,
          action: before ? 'member.role_changed' : 'member.added',
          target: user.id,
          detail: before ? { email: user.email, from: before.role, to: values.role } : { email: user.email, role: values.role },
        });
      printJson({ organisation: org.id, user: user.email, role: values.role });
    } else {
      const before = await getMembership(store.db, org.id, user.id);
      if (!before || !(await removeMembership(store.db, org.id, user.id))) throw new UsageError(`${user.email} is not a member of ${org.name}`);
      await auditFromCommandLine(store.db, {
        organisationId: org.id,
        action: 'member.removed',
        target: user.id,
        detail: { email: user.email, role: before.role },
      });
      printJson({ organisation: org.id, user: user.email, removed: true });
    }
    return 0;
  });
}

/** The operator's marks on an app, for every organisation: what each action sets, and how it is audited. */
const OPERATOR_MARKS = {
  verify: { field: 'verified', value: true, set: setOperatorVerification, audit: 'app.verified_by_operator' },
  unverify: { field: 'verified', value: false, set: setOperatorVerification, audit: 'app.unverified_by_operator' },
  block: { field: 'blocked', value: true, set: setOperatorBlock, audit: 'app.blocked_by_operator' },
  unblock: { field: 'blocked', value: false, set: setOperatorBlock, audit: 'app.unblocked_by_operator' },
} as const;

/**
 * `ledgerline apps verify|unverify|block|unblock CLIENT_ID`: the operator's verification (shown on
 * every organisation's consent screen) or block (its tokens refused, no one can connect it), for
 * every organisation at once. An organisation admin's "Verify" and "Block" hold for that
 * organisation only, and cannot clear the operator's.
 */
export async function appMarkCommand(args: string[]): Promise<number> {
  const [action, clientId, ...rest] = args;
  const mark = action && Object.hasOwn(OPERATOR_MARKS, action) ? OPERATOR_MARKS[action as keyof typeof OPERATOR_MARKS] : undefined;
  if (!mark || !clientId || rest.length) throw new UsageError('usage: ledgerline apps verify|unverify|block|unblock CLIENT_ID');
  return withStore(async (store) => {
    const row = await getClient(store.db, clientId);
    if (!row || row.kind === 'api_client')
      throw new UsageError(row ? `${clientId} is an API client, not an app: revoke it with ledgerline clients revoke` : `no app ${clientId}`);
    await mark.set(store.db, clientId, mark.value);
    // belongs to no one organisation: kept in the log with none
    await writeAudit(store.db, { organisationId: null, actorUserId: null, action: mark.audit, target: clientId, detail: { name: row.name } });
    printJson({ client_id: clientId, name: row.name, [mark.field]: mark.value });
    return 0;
  });
}
