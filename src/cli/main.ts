/** The `ledgerline` command line. */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { OperationError } from '../operations/errors.js';
import { UsageError } from './io.js';

const HELP = `ledgerline — the accounting data service

  ledgerline serve                          run the service (loads the demo into an empty database)
  ledgerline migrate                        bring the database schema up to date
  ledgerline demo [--date D] [--seed N] [--scale N]
                                            generate the demo organisations into an empty database
  ledgerline call OPERATION --org ORG [--as EMAIL] [--today D] [--input JSON|-] [--file PATH] [name=value ...]
                                            run an operation and print its JSON result
  ledgerline orgs list [--json]
  ledgerline orgs create --name N --currency C --timezone Z --financial-year-start M
                         [--accounting builtin | --accounting gnucash --book PATH] [--json]
  ledgerline users create --email E --name N [--password-stdin]
  ledgerline members add --org ORG --email E --role super_admin|admin|submitter|custom
  ledgerline members remove --org ORG --email E
  ledgerline clients create --org ORG --name N [--scopes "service.read"] [--json]
                                            an API client for client credentials (the secret is shown once)
  ledgerline clients list --org ORG [--json]
  ledgerline clients revoke CLIENT_ID
  ledgerline import bank --org ORG --account ACCOUNT FILE... [--format F] [--dry-run] [--create-account --name N --type bank|credit_card --currency C] [--json]
                                            import bank or card statements (OFX, QFX, CAMT, CSV, MT940, QIF); see docs/import.md
  ledgerline import batches --org ORG --account ACCOUNT [--json]
                                            a bank account's imports, each with its file, lines and statement balances
  ledgerline import remove --org ORG IMPORT_ID [--json]
                                            take an import back whole (none of its lines reconciled)
  ledgerline import ledger --org ORG FILE... [--format csv|journal] [--allow-new-accounts] [--dry-run] [--json]
                                            load books into Ledgerline's own ledger from hledger/Ledger journals or general-journal CSV
  ledgerline apps register --name N --redirect-uri URI [--redirect-uri URI ...] [--json]
                                            a verified app (public client, authorization code with PKCE)
  ledgerline apps verify|unverify CLIENT_ID  verified for every organisation (or not), as the operator
  ledgerline apps block|unblock CLIENT_ID    blocked for every organisation (or not), as the operator; no organisation admin can unblock it
  ledgerline check-books --org ORG [--date D] [--json]
                                            a Xero or QuickBooks organisation's balance sheet against the vendor's own report
  ledgerline keys                           fresh COOKIE_SECRETS, SIGNING_JWKS and LEDGERLINE_CONNECTION_KEYS as env lines

Settings come from the environment: DATABASE_URL, LEDGERLINE_SQLITE_PATH, HOST, PORT, BASE_URL, … (see README.md).
`;

// loaded on demand: an operator's quick command need not load the HTTP server and OAuth provider
const COMMANDS: Record<string, () => Promise<(args: string[]) => Promise<number>>> = {
  serve: async () => (await import('./serve.js')).serveCommand,
  migrate: async () => (await import('./admin.js')).migrateCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  call: async () => (await import('./call.js')).callCommand,
  orgs: async () => (await import('./admin.js')).orgsCommand,
  users: async () => (await import('./admin.js')).usersCommand,
  members: async () => (await import('./admin.js')).membersCommand,
  clients: async () => (await import('./clients.js')).clientsCommand,
  apps: async () => (await import('./clients.js')).appsCommand,
  import: async () => (await import('./import.js')).importCommand,
  'check-books': async () => (await import('./check-books.js')).checkBooksCommand,
  keys: async () => (await import('./keys.js')).keysCommand,
};

/** More than the overview's lines, for the commands that have more to say. */
const DETAIL: Record<string, (args: string[]) => Promise<string>> = {
  import: async () => `${(await import('./import.js')).BANK_USAGE}\n\n${(await import('./import-ledger.js')).LEDGER_USAGE}`,
  call: async (args) => (await import('./call.js')).callHelp(args),
  'check-books': async () => (await import('./check-books.js')).CHECK_BOOKS_USAGE,
  keys: async () => (await import('./keys.js')).KEYS_USAGE,
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** A command's own lines of the overview (its usage and the indented lines under it). */
function overviewOf(name: string): string {
  let ours = false;
  return HELP.split('\n')
    .filter((line) => {
      if (line.startsWith('  ledgerline ')) ours = line.split(' ')[3] === name;
      else if (!line.startsWith('    ')) ours = false;
      return ours;
    })
    .join('\n');
}

function version(): string {
  // src/cli/main.ts and dist/cli/main.js both sit two folders below package.json
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || isHelp(name)) {
    process.stdout.write(HELP);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`ledgerline ${version()}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  // help never runs the command (`serve --help` starts no server)
  if (args.some(isHelp)) {
    process.stdout.write(`${overviewOf(name)}\n${DETAIL[name] ? `\n${await DETAIL[name](args)}\n` : ''}`);
    return 0;
  }
  try {
    return await (
      await load()
    )(args);
  } catch (error) {
    if (error instanceof OperationError) {
      process.stderr.write(
        JSON.stringify({ status: error.status, code: error.code, detail: error.message, errors: error.errors, ...error.extra }, null, 2) + '\n',
      );
      return 1;
    }
    // a setting that cannot work: one line per problem, each naming its setting, and no stack trace
    if (error instanceof ConfigError) {
      process.stderr.write(error.problems.map((problem) => `ledgerline: ${problem}\n`).join(''));
      return 2;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`ledgerline: ${(error as Error).message}\n`);
      return 2;
    }
    const fileProblem = fileProblemOf(error);
    if (fileProblem) {
      process.stderr.write(`ledgerline: ${fileProblem}\n`);
      return 1;
    }
    throw error;
  }
}

/** A file the command was given that cannot be read, said in one line rather than a stack trace. */
function fileProblemOf(error: unknown): string | undefined {
  const { code, path } = error as { code?: string; path?: string };
  const reason = { ENOENT: 'no such file', EACCES: 'not allowed to read it', EISDIR: 'a folder, not a file', ENOTDIR: 'no such file' }[code ?? ''];
  return reason && path ? `${path}: ${reason}` : undefined;
}
