/**
 * The element tree the OFX and CAMT mappings read. Both the OFX 1.x SGML reader and the XML reader
 * (OFX 2.x, CAMT) produce it, so one set of lookups serves every tagged format, and every node
 * keeps the line it started on so a refusal can name it.
 */

export interface Node {
  name: string;
  /** the element's own text, trimmed; '' for an aggregate or an empty element */
  text: string;
  attrs: Record<string, string>;
  children: Node[];
  line: number;
}

/** The direct children named `name`. */
export function childrenNamed(node: Node, name: string): Node[] {
  return node.children.filter((c) => c.name === name);
}

const paths = new Map<string, string[]>();

/** Follows a slash-separated path of child names, taking the first match at each step. */
export function at(node: Node | undefined, path: string): Node | undefined {
  let steps = paths.get(path);
  if (!steps) paths.set(path, (steps = path.split('/')));
  let current = node;
  for (const step of steps) {
    if (!current) return undefined;
    let found: Node | undefined;
    for (const c of current.children) {
      if (c.name === step) {
        found = c;
        break;
      }
    }
    current = found;
  }
  return current;
}

/** The text at a path, or '' when the element is absent or empty. */
export function textAt(node: Node | undefined, path: string): string {
  return at(node, path)?.text ?? '';
}

/**
 * Every element below `node` whose name is one of `names`, in document order, in one walk that
 * does not look inside elements named in `stopAt` (by default, inside the matches themselves).
 */
export function descendantsNamed(node: Node, names: string | string[], stopAt: string[] = typeof names === 'string' ? [names] : names): Node[] {
  const wanted = new Set(typeof names === 'string' ? [names] : names);
  const stop = new Set(stopAt);
  const found: Node[] = [];
  const walk = (n: Node): void => {
    for (const c of n.children) {
      if (wanted.has(c.name)) found.push(c);
      if (!stop.has(c.name) && c.children.length) walk(c);
    }
  };
  walk(node);
  return found;
}

/** `STMTTRN at line 41`: how a refusal names an element. */
export function describe(node: Node): string {
  return `<${node.name}> at line ${node.line}`;
}

/** Line starts of a text, for turning a character offset into a 1-based line number. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Replaces the predefined character references and numeric ones. Nothing else is expanded: no
 * document-defined entity is ever read, and a stray `&` (common in SGML OFX) stays as it is.
 */
export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}
