/**
 * Operation answers as MCP tool results: structuredContent (validated by clients against the
 * tool's outputSchema) once, with a compact rendering of it as text (text-rendering.ts) for clients
 * that read only text; errors as isError results carrying the REST problem (same code, same detail).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { OrganisationOperation } from '../operations/operation.js';
import type { Problem } from '../calls/problem.js';
import { documentFileLink } from '../operations/links.js';
import { resourceLinks } from './resources.js';
import { renderText } from './text-rendering.js';

/** What a tool's description adds about how its answer is shown, by the operation's toolContent. */
export const TOOL_CONTENT_NOTES: Readonly<Record<'json' | 'file', string>> = {
  json: '',
  file: ' The file also comes back as content the client can show: an image for images, an embedded resource for a PDF.',
};

/** The answer (checked against the operation's output schema by the call sequence, its links rendered for MCP) as a tool result. */
export function toolResult(op: OrganisationOperation<any, any>, output: unknown, organisation?: string): CallToolResult {
  const structured = output as Record<string, unknown>;
  if (op.toolContent === 'file') return fileResult(structured, organisation);
  return { content: [{ type: 'text', text: renderText(structured) }], structuredContent: structured };
}

/**
 * The file as content a client can show: an image, or the PDF as an embedded resource. The text
 * leaves the base64 out, so a model reading text is not handed megabytes of it.
 */
function fileResult(file: Record<string, unknown>, organisation: string | undefined): CallToolResult {
  const { data, ...fields } = file as { data: string; id: string; contentType: string; [k: string]: unknown };
  const image = fields.contentType.startsWith('image/');
  const shown: CallToolResult['content'][number] = image
    ? { type: 'image', data, mimeType: fields.contentType }
    : {
        type: 'resource',
        resource: {
          uri: resourceLinks(organisation)(documentFileLink(fields.id)),
          mimeType: fields.contentType,
          blob: data,
        },
      };
  const text =
    `${JSON.stringify(fields)}\nThe file is attached ${image ? 'as an image' : 'as an embedded resource'}; structuredContent.data holds it ` + `as base64.`;
  return { content: [{ type: 'text', text }, shown], structuredContent: file };
}

export function errorResult(problem: Problem): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }] };
}
