/** The `ledgerline` command line. */
import { ConfigError } from '../config.js';
import { OperationError } from '../operations/errors.js';
import { UsageError } from './io.js';

const HELP = `ledgerline — the accounting data service

  ledgerline serve                          run the service (loads the demo into an empty database)
  ledgerline migrate                        bring the database schema up to date
  ledgerline demo [--date D] [--seed N] [--scale N]
                                            generate the demo organisations into an empty database
  ledgerline call OPERATION --org ORG [--as EMAIL] [--today D] [name=value ...]
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
  ledgerline apps register --name N --redirect-uri URI [--redirect-uri URI ...] [--json]
                                            a verified app (public client, authorization code with PKCE)
  ledgerline apps verify|unverify CLIENT_ID  verified for every organisation (or not), as the operator

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
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(HELP);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await (await load())(args);
  } catch (error) {
    if (error instanceof OperationError) {
      process.stderr.write(JSON.stringify({ status: error.status, code: error.code, detail: error.message, errors: error.errors, ...error.extra }, null, 2) + '\n');
      return 1;
    }
    if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`ledgerline: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}
