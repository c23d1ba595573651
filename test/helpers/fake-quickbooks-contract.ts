/**
 * QuickBooks Online's official data contract (Intuit's XML schemas of the Accounting API v3,
 * test/fixtures/vendor-contracts/quickbooks-online/*.xsd, source and licence in its README) as a check of the JSON wire form. Intuit's JSON
 * uses the schemas' element names as keys; an XML attribute is a key of its own name (`domain`,
 * `startPosition`, a report cell's `value` and `id`); an element of simple content (ReferenceType)
 * is an object whose text is `value`; an element that may repeat (maxOccurs > 1) is an array, one
 * that may not is a single value. The checker reads the schemas with fast-xml-parser and checks a
 * JSON body recursively against a complexType: every key must be an element or attribute the type
 * (or a type it extends) declares, each value of the declared kind (decimal and int: numbers,
 * boolean: booleans, date: YYYY-MM-DD, dateTime: ISO 8601, an enumeration: one of its values).
 * Sequence and choice are both read as "these names may appear"; which alternative of a choice is
 * used and minOccurs are not checked (Intuit's JSON leaves out most elements the schemas require).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';

export const QUICKBOOKS_REFERENCE = fileURLToPath(new URL('../fixtures/vendor-contracts/quickbooks-online', import.meta.url));
export const QUICKBOOKS_SCHEMAS = ['IntuitBaseTypes.xsd', 'IntuitNamesTypes.xsd', 'Finance.xsd', 'Report.xsd', 'IntuitRestServiceDef.xsd'];

type Node = Record<string, any>;

interface Field {
  name: string;
  /** a named type (xs:… or the schemas' own) */
  type?: string;
  /** an anonymous type declared inside the element */
  inline?: TypeDef;
  many: boolean;
}

interface TypeDef {
  kind: 'complex' | 'simple';
  name: string;
  /** complex: the type extended (complexContent or simpleContent) */
  base?: string;
  /** complex with simpleContent: the text is `value` of this type */
  simpleContent?: boolean;
  fields: Field[];
  attributes: Map<string, string>;
  /** xs:any: anything goes */
  open?: boolean;
  /** simple: the xs: primitive at the root of the restriction chain, and the allowed values */
  restriction?: string;
  enumeration?: string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const local = (qname: string) => (qname.startsWith('xs:') ? qname : qname.replace(/^[a-z]+:/, ''));
const list = (x: unknown): Node[] => (x === undefined ? [] : Array.isArray(x) ? x : [x as Node]);

export class QuickBooksContract {
  readonly types = new Map<string, TypeDef>();
  /** top-level elements by name: their type and substitution group */
  readonly elements = new Map<string, { type: string; substitutionGroup?: string; abstract: boolean }>();
  private readonly groups = new Map<string, Node>();

  constructor(dir = QUICKBOOKS_REFERENCE) {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name.startsWith('xs:') });
    const schemas = QUICKBOOKS_SCHEMAS.map((f) => parser.parse(readFileSync(join(dir, f), 'utf8'))['xs:schema'][0] as Node);
    for (const s of schemas) for (const g of list(s['xs:group'])) this.groups.set(g['@name'], g);
    for (const s of schemas) {
      for (const t of list(s['xs:simpleType'])) this.types.set(t['@name'], this.simple(t['@name'], t));
      for (const t of list(s['xs:complexType'])) this.types.set(t['@name'], this.complex(t['@name'], t));
      for (const e of list(s['xs:element']))
        this.elements.set(e['@name'], {
          type: local(e['@type']),
          substitutionGroup: e['@substitutionGroup'] && local(e['@substitutionGroup']),
          abstract: e['@abstract'] === 'true',
        });
    }
  }

  private simple(name: string, node: Node): TypeDef {
    const r = list(node['xs:restriction'])[0];
    return {
      kind: 'simple',
      name,
      restriction: r ? local(r['@base']) : 'xs:string',
      enumeration: r && r['xs:enumeration'] ? list(r['xs:enumeration']).map((e) => String(e['@value'])) : undefined,
      fields: [],
      attributes: new Map(),
    };
  }

  private complex(name: string, node: Node): TypeDef {
    const def: TypeDef = { kind: 'complex', name, fields: [], attributes: new Map() };
    let body = node;
    const content = list(node['xs:complexContent'])[0] ?? list(node['xs:simpleContent'])[0];
    if (content) {
      const ext = list(content['xs:extension'])[0] ?? list(content['xs:restriction'])[0];
      if (!ext) throw new Error(`${name}: content without extension or restriction`);
      def.base = local(ext['@base']);
      def.simpleContent = node['xs:simpleContent'] !== undefined;
      body = ext;
    }
    this.collect(body, def, false);
    return def;
  }

  /** Elements, attributes and xs:any of a sequence/choice/group tree into def. */
  private collect(node: Node, def: TypeDef, many: boolean): void {
    for (const a of list(node['xs:attribute'])) def.attributes.set(a['@name'], a['@type'] ? local(a['@type']) : 'xs:string');
    for (const e of list(node['xs:element'])) {
      const repeat = many || (e['@maxOccurs'] !== undefined && e['@maxOccurs'] !== '1');
      if (e['@ref']) {
        const ref = local(e['@ref']);
        def.fields.push({ name: `@ref:${ref}`, many: repeat });
        continue;
      }
      const field: Field = { name: e['@name'], many: repeat };
      if (e['@type']) field.type = local(e['@type']);
      else if (e['xs:complexType']) field.inline = this.complex(`${def.name}.${e['@name']}`, list(e['xs:complexType'])[0]!);
      else if (e['xs:simpleType']) field.inline = this.simple(`${def.name}.${e['@name']}`, list(e['xs:simpleType'])[0]!);
      else field.type = 'xs:string';
      def.fields.push(field);
    }
    if (node['xs:any']) def.open = true;
    for (const kind of ['xs:sequence', 'xs:choice']) {
      for (const inner of list(node[kind])) this.collect(inner, def, many || (inner['@maxOccurs'] !== undefined && inner['@maxOccurs'] !== '1'));
    }
    for (const g of list(node['xs:group'])) {
      const group = this.groups.get(local(g['@ref']));
      if (!group) throw new Error(`unresolved group ${g['@ref']}`);
      this.collect(group, def, many || (g['@maxOccurs'] !== undefined && g['@maxOccurs'] !== '1'));
    }
  }

  private type(name: string): TypeDef {
    const t = this.types.get(name);
    if (!t) throw new Error(`the schemas define no type ${name}`);
    return t;
  }

  /** Every element (with substitution groups expanded) and attribute a complex type allows, its bases' included. */
  allowed(typeName: string | TypeDef): { fields: Map<string, Field>; attributes: Map<string, string>; open: boolean; simpleValue?: string } {
    const chain: TypeDef[] = [];
    for (let t: TypeDef | undefined = typeof typeName === 'string' ? this.type(typeName) : typeName; t;) {
      chain.unshift(t);
      t = t.base && !t.base.startsWith('xs:') && this.types.get(t.base)?.kind === 'complex' ? this.types.get(t.base) : undefined;
    }
    const fields = new Map<string, Field>();
    const attributes = new Map<string, string>();
    let open = false;
    let simpleValue: string | undefined;
    for (const t of chain) {
      if (t.simpleContent && t.base) simpleValue = t.base;
      open ||= !!t.open;
      for (const [k, v] of t.attributes) attributes.set(k, v);
      for (const f of t.fields) {
        if (!f.name.startsWith('@ref:')) {
          fields.set(f.name, f);
          continue;
        }
        const ref = f.name.slice(5);
        const members = [...this.elements].filter(([n, e]) => n === ref || e.substitutionGroup === ref);
        for (const [n, e] of members) if (!e.abstract) fields.set(n, { name: n, type: e.type, many: f.many });
      }
    }
    return { fields, attributes, open, simpleValue };
  }

  /** What is wrong with a JSON value for a type (empty when the schemas allow it); path names where. */
  check(value: unknown, typeName: string | TypeDef, path = '$'): string[] {
    const def = typeof typeName === 'string' ? (typeName.startsWith('xs:') ? undefined : this.type(typeName)) : typeName;
    if (!def || def.kind === 'simple') return this.checkSimple(value, typeof typeName === 'string' ? typeName : typeName.name, path, def);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: expected an object (${def.name}), got ${JSON.stringify(value)}`];
    const { fields, attributes, open, simpleValue } = this.allowed(def);
    const problems: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (simpleValue && key === 'value' && !fields.has('value')) {
        problems.push(...this.check(v, simpleValue, at));
        continue;
      }
      const field = fields.get(key);
      if (field) {
        const kind = field.inline ?? field.type!;
        if (field.many) {
          if (!Array.isArray(v)) problems.push(`${at}: ${key} may repeat, so it is an array`);
          else v.forEach((item, i) => problems.push(...this.check(item, kind, `${at}[${i}]`)));
        } else if (Array.isArray(v)) problems.push(`${at}: ${key} occurs at most once, not an array`);
        else problems.push(...this.check(v, kind, at));
        continue;
      }
      const attribute = attributes.get(key);
      if (attribute) {
        problems.push(...this.check(v, attribute, at));
        continue;
      }
      if (!open) problems.push(`${at}: ${def.name} has no element or attribute "${key}"`);
    }
    return problems;
  }

  private checkSimple(value: unknown, name: string, path: string, def?: TypeDef): string[] {
    if (def?.enumeration && !def.enumeration.includes(String(value))) return [`${path}: ${JSON.stringify(value)} is not one of ${name}'s values`];
    const base = def ? this.primitive(def) : name;
    const wrong = (what: string) => [`${path}: expected ${what} (${name}), got ${JSON.stringify(value)}`];
    switch (base) {
      case 'xs:boolean':
        return typeof value === 'boolean' ? [] : wrong('a boolean');
      case 'xs:decimal':
      case 'xs:double':
      case 'xs:float':
        return typeof value === 'number' && Number.isFinite(value) ? [] : wrong('a number');
      case 'xs:int':
      case 'xs:integer':
      case 'xs:long':
        return Number.isInteger(value) ? [] : wrong('an integer');
      case 'xs:positiveInteger':
        return Number.isInteger(value) && (value as number) > 0 ? [] : wrong('a positive integer');
      case 'xs:date':
        return typeof value === 'string' && DATE.test(value) ? [] : wrong('a date');
      case 'xs:dateTime':
        return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? [] : wrong('a date-time');
      default:
        return typeof value === 'string' ? [] : wrong('a string');
    }
  }

  private primitive(def: TypeDef): string {
    let t: TypeDef | undefined = def;
    for (let i = 0; t && i < 10; i++) {
      if (!t.restriction || t.restriction.startsWith('xs:')) return t.restriction ?? 'xs:string';
      t = this.types.get(t.restriction);
    }
    return 'xs:string';
  }

  /** An IntuitResponse (query, CDC answers) or a Report, by its root type. */
  checkResponse(body: unknown, root: 'IntuitResponse' | 'Report'): string[] {
    return this.check(body, root);
  }

  /** The enumeration of a simple type (e.g. AccountTypeEnum), for tests and the fake's book. */
  enumeration(name: string): string[] {
    return this.type(name).enumeration ?? [];
  }
}

let shared: QuickBooksContract | undefined;
export const quickBooksContract = () => (shared ??= new QuickBooksContract());
