/**
 * Operation answers as MCP tool results: structuredContent (validated by clients against the
 * tool's outputSchema) once, with a compact rendering of it as text (text-rendering.ts) for clients
 * that read only text; errors as isError results carrying the REST problem (same code, same detail).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { documentFileLink } from '../operations/documents-get.js';
import type { OrganisationOperation } from '../operations/operation.js';
import type { Problem } from '../calls/problem.js';
import { documentFileUri } from './resources.js';
import { renderText } from './text-rendering.js';

/** What a tool's description adds about how its answer is shown, by the operation's toolContent. */
export const TOOL_CONTENT_NOTES: Readonly<Record<'json' | 'file', string>> = {
  json: '',
  file: ' The file also comes back as content the client can show: an image for images, an embedded resource for a PDF.',
};

export function toolResult(op: OrganisationOperation<any, any>, output: unknown, baseUrl: string, organisation?: string): CallToolResult {
  const structured = checkedOutput(op, output);
  if (op.toolContent === 'file') return fileResult(structured, baseUrl, organisation);
  return { content: [{ type: 'text', text: renderText(structured) }], structuredContent: structured };
}

/**
 * The answer as the tool's outputSchema declares it, checked on every call as the SDK's McpServer
 * does: a client validates structuredContent against that schema, so an answer that does not match
 * is our bug. It is thrown as a plain error (logged, answered as an internal error), never sent.
 */
function checkedOutput(op: OrganisationOperation<any, any>, output: unknown): Record<string, unknown> {
  const result = op.output.safeParse(output);
  if (result.success) return output as Record<string, unknown>;
  const issues = result.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
  throw new Error(`${op.tool}: the answer does not match its declared output schema: ${issues}`);
}

/**
 * The file as content a client can show: an image, or the PDF as an embedded resource. The text
 * leaves the base64 out, so a model reading text is not handed megabytes of it.
 */
function fileResult(file: Record<string, unknown>, baseUrl: string, organisation: string | undefined): CallToolResult {
  const { data, ...fields } = file as { data: string; id: string; contentType: string; [k: string]: unknown };
  const image = fields.contentType.startsWith('image/');
  const shown: CallToolResult['content'][number] = image
    ? { type: 'image', data, mimeType: fields.contentType }
    : {
        type: 'resource',
        resource: {
          uri: organisation ? documentFileUri(organisation, fields.id) : documentFileLink(baseUrl, fields.id),
          mimeType: fields.contentType,
          blob: data,
        },
      };
  const text = `${JSON.stringify(fields)}\nThe file is attached ${image ? 'as an image' : 'as an embedded resource'}; structuredContent.data holds it as base64.`;
  return { content: [{ type: 'text', text }, shown], structuredContent: file };
}

export function errorResult(problem: Problem): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }] };
}
