/**
 * `ledgerline call OPERATION --org ORG [--as EMAIL] [--today DATE] [--input JSON_FILE|-] [--file PATH] [name=value ...]`
 * A read takes name=value pairs; a create or an update also takes its JSON body from --input (a file, or
 * - for standard input) and a document's file from --file, with name=value pairs over the top.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { isValidDate } from '../domain/dates.js';
import type { Principal } from '../operations/context.js';
import { runCallerOperation, runOrganisationOperation } from '../operations/execute.js';
import { findOperation, OPERATIONS } from '../operations/index.js';
import { findUserByEmail, organisationsOfUser } from '../store/users.js';
import { coerceTextInput, effectOf } from '../operations/operation.js';
import { printJson, readStdin, UsageError, withStore, organisationFor } from './io.js';

export async function callCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, as: { type: 'string' }, today: { type: 'string' }, input: { type: 'string' }, file: { type: 'string' } },
  });
  const [name, ...pairs] = positionals;
  if (!name) throw new UsageError(`which operation? one of: ${OPERATIONS.map((o) => o.name).join(', ')}`);
  const op = findOperation(name);
  if (!op) throw new UsageError(`unknown operation "${name}"; one of: ${OPERATIONS.map((o) => o.name).join(', ')}`);
  if (values.today !== undefined && !isValidDate(values.today)) throw new UsageError('--today must be a date written yyyy-MM-dd');
  const texts: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`parameters are name=value, got "${pair}"`);
    texts[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const bodied = ['create', 'update'].includes(effectOf(op));
  if (!bodied && (values.input !== undefined || values.file !== undefined)) throw new UsageError(`${op.name} takes name=value parameters only (--input and --file are for creates and updates)`);
  // a body is typed JSON; name=value pairs over it are converted to the types the operation declares
  const input: Record<string, unknown> = bodied ? { ...(await jsonInput(values.input)), ...coerceTextInput(op.input, texts) } : texts;
  if (values.file !== undefined) input.file = await fileInput(values.file);
  return withStore(async (store, config) => {
    const env = { db: store.db, baseUrl: config.baseUrl, ...(values.today ? { today: values.today } : {}), ...(config.accountingConnections ? { accountingConnections: config.accountingConnections } : {}) };
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
    printJson(await runOrganisationOperation(env, op, principal, org.id, { input, textInput: !bodied }));
    return 0;
  });
}

async function jsonInput(path: string | undefined): Promise<Record<string, unknown>> {
  if (path === undefined) return {};
  const text = path === '-' ? await readStdin() : await readText(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--input ${path} must hold one JSON object of the operation's fields`);
  return parsed as Record<string, unknown>;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${path}: no such file, or not readable`);
  }
}

/** A document's file as the operations take it; its type is read from the content there. */
async function fileInput(path: string): Promise<{ name: string; data: string }> {
  try {
    return { name: basename(path), data: (await readFile(path)).toString('base64') };
  } catch {
    throw new UsageError(`cannot read ${path}: no such file, or not readable`);
  }
}

/** `call --help`: the operations; `call OPERATION --help`: what it returns and its parameters. */
export function callHelp(args: string[]): string {
  const op = findOperation(args.find((a) => !a.startsWith('-')) ?? '');
  if (!op) return `operations:\n${OPERATIONS.map((o) => `  ${o.name.padEnd(30)} ${o.summary}`).join('\n')}\n\nledgerline call OPERATION --help tells its parameters`;
  const fields = Object.entries(op.input.shape as Record<string, { description?: string; isOptional(): boolean }>);
  return (
    `${op.name}: ${op.title}\n\n${op.description}\n\n` +
    (['create', 'update'].includes(effectOf(op)) ? 'fields (name=value, or a JSON object with --input FILE|-; a document file with --file PATH):\n' : 'parameters (name=value):\n') +
    (fields.length
      ? fields.map(([name, schema]) => `  ${name}${schema.isOptional() ? '' : ' (required)'}\n      ${schema.description ?? ''}`).join('\n')
      : '  none')
  );
}
