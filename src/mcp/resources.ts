/**
 * Documents and their original files as MCP resources, so that an MCP caller can fetch what a
 * result points at with the connection it already has (a REST link needs a token for the REST
 * resource, which an MCP token is not). The URIs name the organisation, because a connection may
 * cover several: ledgerline://organisations/{organisation}/documents/{id} (the document, as
 * documents_get answers it) and …/{id}/file (its original file). Tool results carry these in place
 * of REST links (mcpLinks). resources/read goes through the same call sequence as the tools
 * (scope, role, rate limits, 10 MB cap).
 */
import type { ReadResourceResult, ResourceLink, ResourceTemplateType } from '@modelcontextprotocol/server';
import { INVALID_PARAMS, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/verify.js';
import type { HeaderSink } from '../calls/call-limits.js';
import { callOperation } from '../calls/call-sequence.js';
import type { ServiceContext } from '../calls/service.js';
import { OperationError } from '../operations/errors.js';
import { documentsGet } from '../operations/documents-get.js';
import { OPERATIONS } from '../operations/index.js';

const PREFIX = 'ledgerline://organisations/';

export const DOCUMENT_FILE_TEMPLATE: ResourceTemplateType = {
  uriTemplate: `${PREFIX}{organisation}/documents/{id}/file`,
  name: 'document-file',
  title: "A document's original file",
  description: 'The original file (PDF or image) of a bill, receipt or expense claim; documents_get results link to it.',
};

export const DOCUMENT_TEMPLATE: ResourceTemplateType = {
  uriTemplate: `${PREFIX}{organisation}/documents/{id}`,
  name: 'document',
  title: 'A document',
  description:
    'A bill, receipt, expense claim or supplier credit with its coded and invoice lines, as documents_get answers it; ledger and bank results link to it.',
  mimeType: 'application/json',
};

export function documentUri(organisation: string, documentId: string): string {
  return `${PREFIX}${encodeURIComponent(organisation)}/documents/${encodeURIComponent(documentId)}`;
}

export function documentFileUri(organisation: string, documentId: string): string {
  return `${documentUri(organisation, documentId)}/file`;
}

function parseDocumentUri(uri: string): { organisation: string; id: string; file: boolean } | undefined {
  const match = uri.startsWith(PREFIX) ? /^([^/]+)\/documents\/([^/]+)(\/file)?$/.exec(uri.slice(PREFIX.length)) : null;
  if (!match) return undefined;
  try {
    return { organisation: decodeURIComponent(match[1]!), id: decodeURIComponent(match[2]!), file: match[3] !== undefined };
  } catch {
    return undefined;
  }
}

/**
 * An answer with its REST links to documents (documents.get?ids=…, documents.file?id=…) replaced by
 * the resources above, which the MCP caller can read; other values untouched. The answer's shape is
 * the same (a link is text either way), so it still matches the tool's output schema.
 */
export function mcpLinks<T>(answer: T, baseUrl: string, organisation: string | undefined): T {
  if (!organisation) return answer;
  const documentGet = `${baseUrl}/v1/operations/documents.get?ids=`;
  const documentFile = `${baseUrl}/v1/operations/documents.file?id=`;
  const rewrite = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string' && key === 'link') {
      if (value.startsWith(documentGet) && !value.slice(documentGet.length).includes('%2C'))
        return documentUri(organisation, decodeURIComponent(value.slice(documentGet.length)));
      if (value.startsWith(documentFile)) return documentFileUri(organisation, decodeURIComponent(value.slice(documentFile.length)));
      return value;
    }
    if (Array.isArray(value)) return value.map((v) => rewrite(v, null));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, k)]));
    return value;
  };
  return rewrite(answer, null) as T;
}

/** The resource_link content blocks of an answer holding documents: one per document that has a file. */
export function documentLinks(organisation: string | undefined, answer: unknown): ResourceLink[] {
  if (!organisation) return [];
  type Doc = { id: string; number: string; supplier: string; link: string | null };
  // documents.get's list, or the one document a change answers (documents.create, update, publish)
  const { documents, document } = answer as { documents?: Doc[]; document?: Doc };
  const docs = documents ?? (document ? [document] : []);
  return docs
    .filter((d) => d.link !== null)
    .map((d) => ({ type: 'resource_link', uri: documentFileUri(organisation, d.id), name: `${d.id}-file`, title: `File of ${d.supplier} ${d.number}`.trim() }));
}

/** The operation that answers a file (it declares toolContent: 'file'); the file resources read through it. */
const fileOperation = OPERATIONS.find((op) => op.kind === 'organisation' && op.toolContent === 'file')!;

export async function readDocumentResource(service: ServiceContext, caller: Caller, headers: HeaderSink, uri: string): Promise<ReadResourceResult> {
  const target = parseDocumentUri(uri);
  if (!target) throw new ResourceNotFoundError(uri);
  try {
    if (!target.file) {
      const answer = (await callOperation(service, caller, documentsGet, {
        organisation: target.organisation,
        input: { ids: target.id },
        textInput: false,
        headers,
      })) as {
        documents: unknown[];
      };
      const document = answer.documents[0];
      if (!document) throw new ResourceNotFoundError(uri);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(mcpLinks(document, service.baseUrl, target.organisation)) }] };
    }
    const file = (await callOperation(service, caller, fileOperation, {
      organisation: target.organisation,
      input: { id: target.id },
      textInput: false,
      headers,
    })) as {
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
