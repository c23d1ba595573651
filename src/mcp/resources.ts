/**
 * Documents and their original files as MCP resources, so that an MCP caller can fetch what a
 * result points at with the connection it already has (a REST link needs a token for the REST
 * resource, which an MCP token is not). The URIs name the organisation, because a connection may
 * cover several: ledgerline://organisations/{organisation}/documents/{id} (the document, as
 * documents_get answers it) and …/{id}/file (its original file). Tool results carry these where an
 * operation answers a link (resourceLinks). resources/read goes through the same call sequence as the tools
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
import { renderLinks, type Link, type LinkRenderer } from '../operations/links.js';

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
 * How MCP writes a link (operations/links.ts): as the resource above that this connection can read,
 * in the organisation the call acted for, as the caller named it.
 */
export function resourceLinks(organisation: string | undefined): LinkRenderer {
  return (link: Link) => {
    if (organisation === undefined) throw new Error(`a link to ${link.id} in an answer that acts for no organisation`);
    return link.rel === 'document' ? documentUri(organisation, link.id) : documentFileUri(organisation, link.id);
  };
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
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(renderLinks(document, resourceLinks(target.organisation))) }] };
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
