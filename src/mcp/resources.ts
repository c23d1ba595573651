/**
 * Documents' original files as MCP resources, so that an MCP caller can fetch what a result points
 * at with the connection it already has (a REST link needs a token for the REST resource, which an
 * MCP token is not). The URI names the organisation, because a connection may cover several:
 * ledgerline://organisations/{organisation}/documents/{id}/file. resources/read goes through the
 * same call sequence as the documents_file tool (scope, role, rate limits, 10 MB cap).
 */
import type { ReadResourceResult, ResourceLink, ResourceTemplateType } from '@modelcontextprotocol/server';
import { INVALID_PARAMS, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/verify.js';
import type { HeaderSink } from '../http/call-limits.js';
import { callOperation } from '../http/call-sequence.js';
import type { ServiceContext } from '../http/service.js';
import { OperationError } from '../operations/errors.js';
import { OPERATIONS } from '../operations/index.js';

const PREFIX = 'ledgerline://organisations/';

export const DOCUMENT_FILE_TEMPLATE: ResourceTemplateType = {
  uriTemplate: `${PREFIX}{organisation}/documents/{id}/file`,
  name: 'document-file',
  title: "A document's original file",
  description: 'The original file (PDF or image) of a bill, receipt or expense claim; documents_get results link to it.',
};

export function documentFileUri(organisation: string, documentId: string): string {
  return `${PREFIX}${encodeURIComponent(organisation)}/documents/${encodeURIComponent(documentId)}/file`;
}

function parseDocumentFileUri(uri: string): { organisation: string; id: string } | undefined {
  const match = uri.startsWith(PREFIX) ? /^([^/]+)\/documents\/([^/]+)\/file$/.exec(uri.slice(PREFIX.length)) : null;
  if (!match) return undefined;
  try {
    return { organisation: decodeURIComponent(match[1]!), id: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

/** The resource_link content blocks of a documents_get answer: one per document that has a file. */
export function documentLinks(organisation: string | undefined, answer: unknown): ResourceLink[] {
  if (!organisation) return [];
  const docs = (answer as { documents?: { id: string; number: string; supplier: string; link: string | null }[] }).documents ?? [];
  return docs
    .filter((d) => d.link !== null)
    .map((d) => ({ type: 'resource_link', uri: documentFileUri(organisation, d.id), name: `${d.id}-file`, title: `File of ${d.supplier} ${d.number}`.trim() }));
}

/** The operation that answers a file (it declares toolContent: 'file'); the resources read through it. */
const fileOperation = OPERATIONS.find((op) => op.kind === 'organisation' && op.toolContent === 'file')!;

export async function readDocumentFile(service: ServiceContext, caller: Caller, headers: HeaderSink, uri: string): Promise<ReadResourceResult> {
  const target = parseDocumentFileUri(uri);
  if (!target) throw new ResourceNotFoundError(uri);
  try {
    const file = (await callOperation(service, caller, fileOperation, { organisation: target.organisation, input: { id: target.id }, textInput: false, headers })) as {
      contentType: string;
      data: string;
    };
    return { contents: [{ uri, mimeType: file.contentType, blob: file.data }] };
  } catch (error) {
    if (error instanceof OperationError && error.code === 'not_found') throw new ResourceNotFoundError(uri);
    if (error instanceof OperationError) throw Object.assign(new Error(`${error.code}: ${error.message}`), { code: INVALID_PARAMS });
    throw error;
  }
}
