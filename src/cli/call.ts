/**
 * `ledgerline call OPERATION --org ORG [--as EMAIL] [--today DATE] [--input JSON_FILE|-] [--file PATH] [name=value ...]`
 * A read takes name=value pairs; a create or an update also takes its JSON body from --input (a file, or
 * - for standard input) and a document's file from --file, with name=value pairs over the top.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { checkedAnswer } from '../calls/output-check.js';
import { isValidDate } from '../domain/dates.js';
import { restLinks } from '../http/answer-body.js';
import { renderLinks } from '../operations/links.js';
import type { Principal } from '../operations/context.js';
import { runCallerOperation, runOrganisationOperation } from '../operations/execute.js';
import { findOperation, OPERATIONS } from '../operations/index.js';
import { findUserByEmail, organisationsOfUser } from '../store/users.js';
import { coerceTextInput, effectOf } from '../operations/operation.js';
import { printJson, readStdin, UsageError, withStore, organisationFor } from './io.js';
import { operationJsonSchema } from '../operations/json-schema.js';

const CALL_OPTIONS = {
  org: { type: 'string' },
  as: { type: 'string' },
  today: { type: 'string' },
  input: { type: 'string' },
  file: { type: 'string' },
} as const;

/**
 * The command's own options; an option it does not know is said in one line, and when it is one
 * of the operation's parameters (`--period ytd`), with the way to write it (`period=ytd`).
 */
function parsedCallArgs(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: CALL_OPTIONS });
  } catch (error) {
    const option = /'(--?[^']+)'/.exec((error as Error).message)?.[1];
    if (!option) throw new UsageError((error as Error).message);
    const name = option.replace(/^--?/, '').split('=')[0]!;
    const op = findOperation(args.find((a) => !a.startsWith('-')) ?? '');
    const at = args.indexOf(option);
    const value = option.includes('=') ? option.split('=').slice(1).join('=') : args[at + 1] && !args[at + 1]!.startsWith('-') ? args[at + 1] : 'VALUE';
    if (op && name in (op.input.shape as object))
      throw new UsageError(`parameters are name=value: write ${name}=${value}, not ${option} ${value === 'VALUE' ? '' : value}`.trim());
    throw new UsageError(
      `unknown option ${option}; the options are ${Object.keys(CALL_OPTIONS)
        .map((o) => `--${o}`)
        .join(', ')}, and parameters are name=value (ledgerline call OPERATION --help lists them)`,
    );
  }
}

export async function callCommand(args: string[]): Promise<number> {
  const { values, positionals } = parsedCallArgs(args);
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
  if (!bodied && (values.input !== undefined || values.file !== undefined))
    throw new UsageError(`${op.name} takes name=value parameters only (--input and --file are for creates and updates)`);
  // a body is typed JSON; name=value pairs over it are converted to the types the operation declares
  const input: Record<string, unknown> = bodied ? { ...(await jsonInput(values.input)), ...coerceTextInput(op.input, texts) } : texts;
  if (values.file !== undefined) input.file = await fileInput(values.file);
  return withStore(async (store, config) => {
    const env = {
      db: store.db,
      baseUrl: config.baseUrl,
      ...(values.today ? { today: values.today } : {}),
      ...(config.accountingConnections ? { accountingConnections: config.accountingConnections } : {}),
    };
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
      if (!userId && !values.org)
        throw new UsageError(
          `${op.name} answers for a caller: give --as EMAIL (a user) or --org ORG (that organisation's own client); ledgerline orgs list lists them all`,
        );
      const coverage = userId
        ? { organisations: await organisationsOfUser(store.db, userId), all: true }
        : { organisations: [await organisationFor(store.db, values.org!)], all: false };
      printJson(checkedAnswer(op, await runCallerOperation(env, op, principal, coverage, { input, textInput: true })));
      return 0;
    }
    if (!values.org) throw new UsageError(`${op.name} acts for one organisation: give --org ID or name`);
    const org = await organisationFor(store.db, values.org!);
    // checked as every transport's answer is (calls/output-check.ts), its links written as REST's URLs
    const answer = checkedAnswer(op, await runOrganisationOperation(env, op, principal, org.id, { input, textInput: !bodied }));
    printJson(renderLinks(answer, restLinks(config.baseUrl)));
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
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--input ${path} must hold one JSON object of the operation's fields`);
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

type ParameterSchema = {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
  anyOf?: ParameterSchema[];
  items?: ParameterSchema;
};

/** What a parameter takes, in a few words: its allowed values, or its type and bounds; and its default. */
function takes(p: ParameterSchema): string {
  const alternatives = p.anyOf?.filter((a) => a.type !== 'null') ?? [];
  const one = alternatives.length === 1 ? { ...alternatives[0], ...p, anyOf: undefined } : p;
  const parts: string[] = [];
  if (one.enum) parts.push(`one of ${one.enum.join(', ')}`);
  else if (one.format === 'date' || /yyyy-MM-dd/.test(one.description ?? '')) parts.push('a date yyyy-MM-dd');
  else if (one.type === 'integer' || one.type === 'number')
    parts.push(
      `${one.type === 'integer' ? 'a whole number' : 'a number'}${
        one.minimum !== undefined && one.maximum !== undefined ? ` ${one.minimum} to ${one.maximum}` : one.minimum !== undefined ? ` from ${one.minimum}` : ''
      }`,
    );
  else if (one.type === 'boolean') parts.push('true or false');
  else if (one.type === 'array') parts.push(`a list${one.items?.enum ? ` of ${one.items.enum.join(', ')}` : ''}, comma-separated`);
  if (one.default !== undefined) parts.push(`default ${String(one.default)}`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

/** `call --help`: the operations; `call OPERATION --help`: what it returns and its parameters. */
export function callHelp(args: string[]): string {
  const op = findOperation(args.find((a) => !a.startsWith('-')) ?? '');
  if (!op)
    return `operations:\n${OPERATIONS.map((o) => `  ${o.name.padEnd(30)} ${o.summary}`).join('\n')}\n\nledgerline call OPERATION --help tells its parameters`;
  // the same JSON Schema the OpenAPI document and the MCP tools show, so the three say the same
  const schema = operationJsonSchema(op.input, 'input') as { properties?: Record<string, ParameterSchema>; required?: string[] };
  const fields = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return (
    `${op.name}: ${op.title}\n\n${op.description}\n\n` +
    (['create', 'update'].includes(effectOf(op))
      ? 'fields (name=value, or a JSON object with --input FILE|-; a document file with --file PATH):\n'
      : 'parameters (name=value):\n') +
    (fields.length
      ? fields
          .map(
            ([name, p]) =>
              `  ${name}${required.has(name) ? ' (required)' : ''}${takes(p)}\n     ` +
              ` ${p.description ?? p.anyOf?.find((a) => a.description)?.description ?? ''}`,
          )
          .join('\n')
      : '  none')
  );
}
