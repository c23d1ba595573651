/**
 * The MCP server of one request for the authenticated caller: tools, prompts, their completions,
 * and the instructions and icon it introduces itself with. It is
 * built per request because the tools' organisation argument depends on the token, and because
 * the endpoint is stateless (any instance answers any request).
 *
 * The SDK's low-level Server is used rather than McpServer: McpServer validates arguments itself
 * and answers with its own messages, where a call must fail exactly as on REST (parseInput's
 * invalid_request naming each parameter), and it takes zod shapes where the organisation enum is
 * built per token.
 */
import type { FastifyBaseLogger } from 'fastify';
import { readFileSync } from 'node:fs';
import { INVALID_PARAMS, Server, type CallToolResult } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/verify.js';
import type { HeaderSink } from '../calls/call-limits.js';
import { callOperation } from '../calls/call-sequence.js';
import { internalProblem, problemFrom } from '../calls/problem.js';
import type { ServiceContext } from '../calls/service.js';
import { invalidParameter, OperationError } from '../operations/errors.js';
import { errorResult, toolResult } from './results.js';
import { complete } from './completions.js';
import { renderLinks } from '../operations/links.js';
import { DOCUMENT_FILE_TEMPLATE, DOCUMENT_TEMPLATE, documentLinks, readDocumentResource, resourceLinks } from './resources.js';
import { instructionsFor } from './instructions.js';
import { getPrompt, listPrompts } from './prompts.js';
import { findToolOperation, ORGANISATION_ARGUMENT, toolsFor, withToolArguments } from './tools.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface McpRequestContext {
  service: ServiceContext;
  caller: Caller;
  /** the HTTP response's headers, for the rate limit headers */
  headers: HeaderSink;
  requestId: string;
  /** the request's logger (it carries the request id) */
  logger: FastifyBaseLogger;
}

// a ledger page with a rising line, as a data URI so that clients need no second request to show it
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="8" y="4" width="48" height="56" rx="6" fill="#1f4e79"/>' +
  '<path d="M16 44 L28 32 L36 38 L48 20" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';
const ICONS = [{ src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString('base64')}`, mimeType: 'image/svg+xml', sizes: ['any'] }];

/** The organisation a call without the organisation argument acts for: the only one covered. */
function onlyOrganisation(caller: Caller): string | undefined {
  return caller.coverage.organisations.length === 1 ? caller.coverage.organisations[0]!.id : undefined;
}

export async function createMcpServer(context: McpRequestContext): Promise<Server> {
  const { caller, service } = context;
  const server = new Server(
    { name: 'ledgerline', title: 'Ledgerline', version: VERSION, icons: ICONS, websiteUrl: service.baseUrl },
    {
      // logging: the level a client sets is accepted; a stateless server sends no log notifications
      capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, completions: {}, logging: {}, resources: { listChanged: false } },
      instructions: await instructionsFor(service, caller),
    },
  );
  server.setRequestHandler('prompts/list', async () => ({ prompts: listPrompts() }));
  server.setRequestHandler('prompts/get', async (request) => getPrompt(request.params.name, request.params.arguments));
  server.setRequestHandler('completion/complete', async (request) => complete(service, caller, context.headers, request.params));
  server.setRequestHandler('resources/list', async () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [DOCUMENT_TEMPLATE, DOCUMENT_FILE_TEMPLATE] }));
  server.setRequestHandler('resources/read', async (request) => readDocumentResource(service, caller, context.headers, request.params.uri));
  server.setRequestHandler('tools/list', async () => ({ tools: toolsFor(caller) }));
  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const op = findToolOperation(request.params.name);
    // an unknown tool is a protocol error (MCP: tools), not a tool result; a plain error with a code,
    // because McpError puts "MCP error -32602:" into the message and the client adds it again
    if (!op) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: INVALID_PARAMS });
    try {
      // the organisation comes as an argument here (REST: a header); the rest is the operation's input
      const { [ORGANISATION_ARGUMENT]: organisation, ...input } = request.params.arguments ?? {};
      if (organisation !== undefined && typeof organisation !== 'string')
        throw invalidParameter(ORGANISATION_ARGUMENT, 'must be an organisation id or exact name (text)');
      const acting = organisation ?? onlyOrganisation(caller);
      // links to documents as resources this connection can read, not REST URLs its token cannot call
      const output = renderLinks(
        await callOperation(service, caller, op, { organisation, input: withToolArguments(op, input), textInput: false, headers: context.headers }),
        resourceLinks(acting),
      );
      const result = toolResult(op, output, acting);
      // the files of the documents an answer holds, as resource links the caller can read over this connection (resources.ts)
      result.content.push(...documentLinks(acting, output));
      return result;
    } catch (error) {
      if (error instanceof OperationError) return errorResult(problemFrom(error, service.baseUrl));
      context.logger.error({ tool: op.tool, stack: (error as Error).stack }, (error as Error).message);
      return errorResult(internalProblem(service.baseUrl, context.requestId));
    }
  });
  return server;
}
