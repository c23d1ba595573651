/**
 * A request whose params do not have the shape MCP defines is answered "invalid params" (-32602),
 * as JSON-RPC says. The SDK checks a request against its schema just before the handler and
 * answers a failure as an internal error (-32603) carrying zod's issue list: this checks the
 * methods the server answers first, with the SDK's own schemas, and answers in its place.
 *
 * Only the envelope is checked here (tools/call: a tool name, arguments an object). Arguments that
 * fail a tool's input schema are a tool result with isError (server.ts), which the MCP tools
 * specification prefers so the model can correct its call.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** Every request method the server answers: the SDK's own (initialize, ping) and ours (server.ts). */
const REQUEST_SCHEMAS = new Map<string, typeof CallToolRequestSchema | typeof InitializeRequestSchema | typeof PingRequestSchema | typeof ListToolsRequestSchema>(
  [InitializeRequestSchema, PingRequestSchema, ListToolsRequestSchema, CallToolRequestSchema].map((schema) => [schema.shape.method.value, schema] as const),
);

/** zod's message, said without its "received undefined" for what is simply missing. */
function plainIssue(issue: { code: string; message: string; input?: unknown }): string {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
}

/** Wraps the delivery of a connected transport's messages; call it after server.connect(transport). */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('refuseInvalidParams: connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const parsed = isJSONRPCRequest(message) ? REQUEST_SCHEMAS.get(message.method)?.safeParse(message) : undefined;
    if (!parsed || parsed.success) return deliver(message, extra);
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(request)'}: ${plainIssue(issue)}`).join('; ');
    void transport.send({ jsonrpc: '2.0', id: (message as { id: string | number }).id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problems}` } });
  };
}
