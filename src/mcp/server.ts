/**
 * The MCP server of one request: tools/list and tools/call for the authenticated caller. It is
 * built per request because the tools' organisation argument depends on the token, and because
 * the endpoint is stateless (any instance answers any request).
 *
 * The SDK's low-level Server is used rather than McpServer: McpServer validates arguments itself
 * and answers with its own messages, where a call must fail exactly as on REST (parseInput's
 * invalid_request naming each parameter), and it takes zod shapes where the organisation enum is
 * built per token.
 */
import { readFileSync } from 'node:fs';
import { INVALID_PARAMS, Server, type CallToolResult } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/verify.js';
import type { HeaderSink } from '../http/call-limits.js';
import { callOperation } from '../http/call-sequence.js';
import { internalProblem, problemFrom } from '../http/problem.js';
import type { ServiceContext } from '../http/service.js';
import { invalidParameter, OperationError } from '../operations/errors.js';
import { errorResult, toolResult } from './results.js';
import { findToolOperation, instructionsFor, ORGANISATION_ARGUMENT, toolsFor } from './tools.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface McpRequestContext {
  service: ServiceContext;
  caller: Caller;
  /** the HTTP response's headers, for the rate limit headers */
  headers: HeaderSink;
  requestId: string;
  log: (entry: Record<string, unknown>) => void;
}

export function createMcpServer(context: McpRequestContext): Server {
  const { caller, service } = context;
  const server = new Server(
    { name: 'ledgerline', title: 'Ledgerline', version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: instructionsFor(caller) },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: toolsFor(caller) }));
  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const op = findToolOperation(request.params.name);
    // an unknown tool is a protocol error (MCP: tools), not a tool result; a plain error with a code,
    // because McpError puts "MCP error -32602:" into the message and the client adds it again
    if (!op) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: INVALID_PARAMS });
    try {
      // the organisation comes as an argument here (REST: a header); the rest is the operation's input
      const { [ORGANISATION_ARGUMENT]: organisation, ...input } = request.params.arguments ?? {};
      if (organisation !== undefined && typeof organisation !== 'string') throw invalidParameter(ORGANISATION_ARGUMENT, 'must be an organisation id (text)');
      const output = await callOperation(service, caller, op, { organisation, input, textInput: false, headers: context.headers });
      return toolResult(op, output, service.baseUrl);
    } catch (error) {
      if (error instanceof OperationError) return errorResult(problemFrom(error, service.baseUrl));
      context.log({ level: 'error', requestId: context.requestId, tool: op.tool, message: (error as Error).message, stack: (error as Error).stack });
      return errorResult(internalProblem(service.baseUrl, context.requestId));
    }
  });
  return server;
}
