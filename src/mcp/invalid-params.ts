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
import { INVALID_PARAMS, isJSONRPCRequest, specTypeSchemas, type JSONRPCMessage, type SpecTypeName, type Transport } from '@modelcontextprotocol/server';

/** Every request method the server answers, by the SDK's name of its request schema. */
const REQUEST_SCHEMAS = new Map<string, SpecTypeName>([
  ['initialize', 'InitializeRequest'],
  ['ping', 'PingRequest'],
  ['tools/list', 'ListToolsRequest'],
  ['tools/call', 'CallToolRequest'],
  ['prompts/list', 'ListPromptsRequest'],
  ['prompts/get', 'GetPromptRequest'],
  ['completion/complete', 'CompleteRequest'],
  ['logging/setLevel', 'SetLevelRequest'],
  ['resources/list', 'ListResourcesRequest'],
  ['resources/templates/list', 'ListResourceTemplatesRequest'],
  ['resources/read', 'ReadResourceRequest'],
]);

interface Issue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

/** zod's message, said without its "received undefined" for what is simply missing. */
function plainIssue(issue: Issue): string {
  return /received undefined$/.test(issue.message) ? 'is required' : issue.message;
}

/** The problems of a request whose params do not have the shape its method's schema defines; undefined when it has. */
export function paramsProblems(message: unknown): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const name = REQUEST_SCHEMAS.get(message.method);
  if (!name) return undefined;
  const result = specTypeSchemas[name]['~standard'].validate(message) as { issues?: readonly Issue[] } | Promise<unknown>;
  if (result instanceof Promise || !result.issues) return undefined;
  return result.issues
    .map((issue) => `${(issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.') || '(request)'}: ${plainIssue(issue)}`)
    .join('; ');
}

/** Wraps the delivery of a connected transport's messages; call it after server.connect(transport). */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('refuseInvalidParams: connect the server to the transport first');
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    const problems = paramsProblems(message);
    if (problems === undefined) return deliver(message, extra);
    void transport.send({
      jsonrpc: '2.0',
      id: (message as { id: string | number }).id,
      error: { code: INVALID_PARAMS, message: `Invalid params: ${problems}` },
    });
  };
}
