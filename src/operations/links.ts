/**
 * What an answer points at, said by the operation and rendered by the transport that sends it. An
 * operation answers a Link ({ rel, id }: a document, or a document's original file); REST renders it
 * as the URL of documents.get or documents.file (http/answer-body.ts), MCP as the resource this
 * connection can read (mcp/resources.ts), so no transport has to recognise another's URLs. A link
 * into a connected accounting system (Xero, QuickBooks) is that system's own URL and stays text.
 *
 * A link is sent as text on every transport, so its published JSON Schema is a string.
 */
import { z } from 'zod';

export type LinkRel = 'document' | 'document_file';

/** How a transport writes a link. */
export type LinkRenderer = (link: Link) => string;

// the renderer of the serialisation in progress (JSON.stringify is synchronous: one at a time)
let rendering: LinkRenderer | undefined;

export class Link {
  constructor(
    readonly rel: LinkRel,
    readonly id: string,
  ) {}

  /**
   * As the transport serialising the answer renders it (stringifyWithLinks); serialised outside a
   * transport (the idempotency store, the answer cache's size), as what it points at, which
   * reviveLinks reads back.
   */
  toJSON(): string | { $link: LinkRel; id: string } {
    return rendering ? rendering(this) : { $link: this.rel, id: this.id };
  }
}

export const documentLink = (id: string): Link => new Link('document', id);
export const documentFileLink = (id: string): Link => new Link('document_file', id);

/**
 * A link: as an operation answers it (a Link, or a connected system's own URL as text), or as a
 * transport wrote it (text: the OpenAPI examples are REST's answers). Published as text, which is
 * what every transport sends.
 */
export const linkSchema = z
  .custom<Link | string>((value) => value instanceof Link || typeof value === 'string', { error: 'must be a link' })
  .meta({ type: 'string' });

/** The answer as JSON text, its links rendered by render, in one pass. */
export function stringifyWithLinks(value: unknown, render: LinkRenderer): string {
  const outer = rendering;
  rendering = render;
  try {
    return JSON.stringify(value);
  } finally {
    rendering = outer;
  }
}

/** A copy of the answer with its links rendered by render (for a transport that sends values, not text); values without links are shared. */
export function renderLinks<T>(value: T, render: LinkRenderer): T {
  return walk(value, (v) => (v instanceof Link ? render(v) : undefined)) as T;
}

/** An answer read back from its JSON text (Link.toJSON without a renderer) with its links as Links again. */
export function reviveLinks<T>(value: T): T {
  return walk(value, (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const { $link, id } = v as { $link?: unknown; id?: unknown };
    return ($link === 'document' || $link === 'document_file') && typeof id === 'string' && Object.keys(v).length === 2 ? new Link($link, id) : undefined;
  }) as T;
}

/** value with every part for which replace answers something replaced by it; parts without a replacement are the same objects. */
function walk(value: unknown, replace: (v: unknown) => unknown): unknown {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = walk(item, replace);
      if (next !== item) (copy ??= value.slice())[i] = next;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const next = walk(item, replace);
      if (next !== item) (copy ??= { ...value })[key] = next;
    }
    return copy ?? value;
  }
  return value;
}
