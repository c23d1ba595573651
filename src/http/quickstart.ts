/**
 * The quickstart at the top of the API reference: an API client, a token, a first call. Written
 * once as steps, shown as Markdown in the OpenAPI introduction (/docs) and as HTML on the plain
 * page (/docs/reference). Text marks code with `backticks`, as the operations' descriptions do.
 */
import { TOKEN_TTL } from '../auth/provider.js';

export interface QuickstartStep {
  title: string;
  text: string;
  /** a shell command to copy, when the step has one */
  code?: string;
  /** what comes back, when it helps to see it */
  after?: string;
}

export function quickstartSteps(baseUrl: string): QuickstartStep[] {
  return [
    {
      title: '1. Create an API client',
      text:
        'An admin of the organisation opens Organisation settings → API clients (`/orgs/<organisation id>/api-clients`), names the client and creates it; ' +
        'ticking “make changes” adds `service.write`. The operator can do the same on the command line (`--scopes "service.read service.write"` to ' +
        'make changes). ' +
        'Either way the `client_id` and `client_secret` are shown once. An API client acts for its own organisation only.',
      code: ['ledgerline clients create --org "Northwind Studio Ltd" \\', '  --name "Nightly export" --json'].join('\n'),
      after: [
        '{',
        '  "client_id": "cli_…",',
        '  "client_secret": "lls_…",',
        '  "organisation": "org_…",',
        '  "name": "Nightly export",',
        '  "scopes": ["service.read"]',
        '}',
      ].join('\n'),
    },
    {
      title: '2. Get an access token',
      text:
        `Client credentials at the token endpoint; ask for \`service.read\`, or \`service.read service.write\` to make changes. The token ` +
        `lasts ${TOKEN_TTL.accessToken / 60} minutes: ask again when it runs out.`,
      code: [
        `curl -s -X POST ${baseUrl}/oauth/token \\`,
        '  -d grant_type=client_credentials \\',
        '  -d client_id=cli_… -d client_secret=lls_… \\',
        '  -d scope=service.read',
      ].join('\n'),
      after: ['{', '  "access_token": "…",', `  "expires_in": ${TOKEN_TTL.accessToken},`, '  "token_type": "Bearer",', '  "scope": "service.read"', '}'].join(
        '\n',
      ),
    },
    {
      title: '3. Make the first call',
      text: 'Send the token as `Authorization: Bearer`. Every read is a `GET` with its parameters in the query; this one is last month’s profit and loss.',
      code: [`curl -s "${baseUrl}/v1/operations/reports.profit_and_loss?period=last_month" \\`, '  -H "Authorization: Bearer $TOKEN"'].join('\n'),
    },
  ];
}

/** The steps as Markdown, for the OpenAPI document's introduction. */
export function quickstartMarkdown(baseUrl: string): string {
  return quickstartSteps(baseUrl)
    .map((s) =>
      [`**${s.title}.** ${s.text}`, s.code ? `\`\`\`sh\n${s.code}\n\`\`\`` : '', s.after ? `\`\`\`json\n${s.after}\n\`\`\`` : ''].filter(Boolean).join('\n\n'),
    )
    .join('\n\n');
}
