/**
 * XML statements (OFX 2.x, CAMT) read safely with fast-xml-parser. A document type declaration is
 * refused before any parsing: statement formats never use one, and it is the only way to declare
 * the entities behind "billion laughs" expansion and external-entity reads. As a second guard the
 * parser expands no entities at all; only the predefined and numeric character references are
 * decoded, here, by decodeCharacterReferences.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ImportRefusal } from './refusal.js';
import { decodeCharacterReferences, lineIndex, type Node } from './tree.js';

const CDATA = '#cdata';
const TEXT = '#text';
const ATTRS = ':@';

/** Refuses a document type declaration, naming its line and whether it declares entities. */
export function refuseDoctype(text: string): void {
  const doctype = /<!DOCTYPE/i.exec(text);
  if (!doctype) return;
  const line = lineIndex(text)(doctype.index);
  const entities = /<!ENTITY/i.test(text);
  throw new ImportRefusal(
    'unsafe_xml',
    `line ${line}: the file has a document type declaration (<!DOCTYPE …>)${entities ? ' declaring entities (<!ENTITY …>)' : ''}; ` +
      'statement files never need one, so it is refused to rule out entity expansion and external entities',
    [{ where: `line ${line}`, message: entities ? 'DOCTYPE with ENTITY declarations' : 'DOCTYPE declaration' }],
  );
}

/** Parses an XML document into the element tree, refusing anything that is not well-formed. */
export function readXml(text: string, what: string): Node {
  refuseDoctype(text);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    throw new ImportRefusal('malformed', `line ${line}, column ${col}: the ${what} is not well-formed XML: ${msg}`, [{ where: `line ${line}`, message: msg }]);
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: false,
    cdataPropName: CDATA,
    captureMetaData: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  const ordered = parser.parse(text) as OrderedItem[];
  const lineOf = lineIndex(text);
  const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
  const roots = ordered.map((item) => toNode(item, lineOf, meta)).filter((n): n is Node => n !== null);
  if (roots.length !== 1) throw new ImportRefusal('malformed', `the ${what} has ${roots.length} root elements; XML has exactly one`);
  return roots[0]!;
}

type OrderedItem = Record<string, unknown> & { [ATTRS]?: Record<string, string> };

function toNode(item: OrderedItem, lineOf: (offset: number) => number, meta: symbol): Node | null {
  const name = Object.keys(item).find((k) => k !== ATTRS);
  if (!name || name === TEXT || name === CDATA || name.startsWith('?') || name.startsWith('#')) return null;
  const content = item[name] as OrderedItem[];
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(item[ATTRS] ?? {})) if (!k.startsWith('xmlns')) attrs[k] = decodeCharacterReferences(String(v));
  const children: Node[] = [];
  let text = '';
  for (const child of content) {
    if (TEXT in child) text += decodeCharacterReferences(String(child[TEXT]));
    else if (CDATA in child) text += (child[CDATA] as Array<Record<string, string>>).map((c) => c[TEXT] ?? '').join('');
    else {
      const node = toNode(child, lineOf, meta);
      if (node) children.push(node);
    }
  }
  const position = (item as unknown as Record<symbol, { startIndex?: number } | undefined>)[meta];
  return { name, text: text.trim(), attrs, children, line: position?.startIndex !== undefined ? lineOf(position.startIndex) : 0 };
}

/** True when the text is well-formed XML (used to tell an OFX 2 file from one with an SGML body). */
export function isWellFormedXml(text: string): boolean {
  return XMLValidator.validate(text) === true;
}
