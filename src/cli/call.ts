/** `ledgerline call OPERATION --org ORG [--as EMAIL] [--today DATE] [name=value ...]` */
import { parseArgs } from 'node:util';
import { isValidDate } from '../domain/dates.js';
import type { Principal } from '../operations/context.js';
import { runCallerOperation, runOrganisationOperation } from '../operations/execute.js';
import { findOperation, OPERATIONS } from '../operations/index.js';
import { findUserByEmail, organisationsOfUser } from '../store/users.js';
import { printJson, UsageError, withStore, organisationFor } from './io.js';

export async function callCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, as: { type: 'string' }, today: { type: 'string' } },
  });
  const [name, ...pairs] = positionals;
  if (!name) throw new UsageError(`which operation? one of: ${OPERATIONS.map((o) => o.name).join(', ')}`);
  const op = findOperation(name);
  if (!op) throw new UsageError(`unknown operation "${name}"; one of: ${OPERATIONS.map((o) => o.name).join(', ')}`);
  if (values.today !== undefined && !isValidDate(values.today)) throw new UsageError('--today must be a date written yyyy-MM-dd');
  const input: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`parameters are name=value, got "${pair}"`);
    input[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return withStore(async (store, config) => {
    const env = { db: store.db, baseUrl: config.baseUrl, ...(values.today ? { today: values.today } : {}) };
    let principal: Principal = { kind: 'client', clientId: 'cli' };
    let userId: string | undefined;
    if (values.as) {
      const user = await findUserByEmail(store.db, values.as);
      if (!user) throw new UsageError(`no user with email ${values.as}`);
      principal = { kind: 'user', userId: user.id, email: user.email, role: 'custom' };
      userId = user.id;
    }
    if (op.kind === 'caller') {
      // as over REST: a user reaches their organisations; the organisation's own client reaches its one
      if (!userId && !values.org) throw new UsageError(`${op.name} answers for a caller: give --as EMAIL (a user) or --org ORG (that organisation's own client); ledgerline orgs list lists them all`);
      const coverage = userId
        ? { organisations: await organisationsOfUser(store.db, userId), all: true }
        : { organisations: [await organisationFor(store.db, values.org!)], all: false };
      printJson(await runCallerOperation(env, op, principal, coverage, { input, textInput: true }));
      return 0;
    }
    if (!values.org) throw new UsageError(`${op.name} acts for one organisation: give --org ID or name`);
    const org = await organisationFor(store.db, values.org!);
    printJson(await runOrganisationOperation(env, op, principal, org.id, { input, textInput: true }));
    return 0;
  });
}

/** `call --help`: the operations; `call OPERATION --help`: what it returns and its parameters. */
export function callHelp(args: string[]): string {
  const op = findOperation(args.find((a) => !a.startsWith('-')) ?? '');
  if (!op) return `operations:\n${OPERATIONS.map((o) => `  ${o.name.padEnd(30)} ${o.summary}`).join('\n')}\n\nledgerline call OPERATION --help tells its parameters`;
  const fields = Object.entries(op.input.shape as Record<string, { description?: string; isOptional(): boolean }>);
  return (
    `${op.name}: ${op.title}\n\n${op.description}\n\nparameters (name=value):\n` +
    (fields.length
      ? fields.map(([name, schema]) => `  ${name}${schema.isOptional() ? '' : ' (required)'}\n      ${schema.description ?? ''}`).join('\n')
      : '  none')
  );
}
