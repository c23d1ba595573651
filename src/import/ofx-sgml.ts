/**
 * The tag structure of OFX 1.x SGML, turned into the element tree. SGML OFX leaves leaf elements
 * unclosed (`<TRNAMT>-6.60` then the next tag), while aggregates are closed; real files also mix in
 * closed leaves (`<CODE>0</CODE>`), empty ones (`<NAME></NAME>`), stray `&`, and aggregates left
 * open. The rule: a start tag followed by text is a leaf; one followed directly by another tag is an
 * aggregate when OFX defines it as one or the file closes that name somewhere, else an empty leaf;
 * an end tag closes the innermost open aggregate of that name and everything opened inside it.
 * Nothing here knows what the elements mean; ofx.ts maps them.
 */
import { decodeCharacterReferences, type Node } from './tree.js';

/** OFX aggregates (elements holding elements), from the OFX 1.6 and 2.x banking and signon sections. */
const AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'STMTTRNRS',
  'STMTRS',
  'BANKACCTFROM',
  'BANKACCTTO',
  'BANKTRANLIST',
  'BANKTRANLISTP',
  'STMTTRN',
  'STMTTRNP',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'PAYEE',
  'CURRENCY',
  'ORIGCURRENCY',
  'CCACCTFROM',
  'CCACCTTO',
  'CREDITCARDMSGSRSV1',
  'CCSTMTTRNRS',
  'CCSTMTRS',
  'CCSTMTENDTRNRS',
  'CCSTMTENDRS',
  'STMTENDTRNRS',
  'STMTENDRS',
  'INVACCTFROM',
  'INVSTMTMSGSRSV1',
  'INVSTMTTRNRS',
  'INVSTMTRS',
  'LOANACCTFROM',
  'IMAGEDATA',
  'MSGSETLIST',
  'SIGNUPMSGSRSV1',
  'REWARDINFO',
  'EXTBANKACCTTO',
  'INV401KBAL',
  'INVTRANLIST',
  'INVPOSLIST',
  'INVBAL',
]);

/** Leaves that a file may close (`<NAME></NAME>`) but that never hold elements. */
const LEAVES = new Set([
  'TRNTYPE',
  'DTPOSTED',
  'DTUSER',
  'DTAVAIL',
  'DTTRAN',
  'TRNAMT',
  'FITID',
  'CHECKNUM',
  'REFNUM',
  'NAME',
  'MEMO',
  'SIC',
  'PAYEEID',
  'CURDEF',
  'BANKID',
  'BRANCHID',
  'ACCTID',
  'ACCTTYPE',
  'DTSTART',
  'DTEND',
  'BALAMT',
  'DTASOF',
  'CODE',
  'SEVERITY',
  'MESSAGE',
  'DTSERVER',
  'LANGUAGE',
  'TRNUID',
  'ORG',
  'FID',
  'CURRATE',
  'CURSYM',
  'MKTGINFO',
  'CORRECTFITID',
  'CORRECTACTION',
  'SRVRTID',
]);

const TOKEN = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<(\/?)([A-Za-z][A-Za-z0-9_.]*)\s*>/g;

const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CHILDREN: Node[] = Object.freeze([]) as unknown as Node[];

function newlines(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Builds the tree of an SGML OFX body starting at `offset` of `text`, in one pass: each start tag
 * waits until the next tag shows whether text followed it.
 */
export function readSgml(text: string, offset: number): Node {
  const closedCache = new Map<string, boolean>();
  const closedSomewhere = (name: string) => {
    let closed = closedCache.get(name);
    if (closed === undefined) {
      closed = new RegExp(`</${name.replace(/\./g, '\\.')}\\s*>`, 'i').test(text.slice(offset));
      closedCache.set(name, closed);
    }
    return closed;
  };
  const isAggregate = (name: string) => AGGREGATES.has(name) || (!LEAVES.has(name) && closedSomewhere(name));
  const root: Node = { name: '#root', text: '', attrs: {}, children: [], line: 1 };
  const stack: Node[] = [root];
  let pending: Node | null = null;
  let content = '';
  let line = 1 + newlines(text, 0, offset);
  let position = offset;
  const token = new RegExp(TOKEN.source, 'g');
  token.lastIndex = offset;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const gap = text.slice(position, m.index);
    line += newlines(gap);
    position = m.index + m[0].length;
    if (pending) content += decodeCharacterReferences(gap);
    if (m[3] === undefined) {
      // CDATA is text as written; a comment is nothing
      if (pending && m[1] !== undefined) content += m[1];
      line += newlines(m[0]);
      continue;
    }
    const name = m[3].toUpperCase();
    const isEnd = m[2] === '/';
    if (pending) {
      const leafText = content.trim();
      const closesIt = isEnd && name === pending.name;
      if (leafText) pending.text = leafText;
      else if (!closesIt && isAggregate(pending.name)) {
        pending.children = [];
        stack.push(pending);
      }
      pending = null;
      content = '';
      if (closesIt) continue;
    }
    if (isEnd) {
      let open = stack.length - 1;
      while (open > 0 && stack[open]!.name !== name) open--;
      // an end tag of nothing open (a leaf closed implicitly already) changes nothing
      if (open > 0) stack.length = open;
      continue;
    }
    // most elements are leaves: they share one empty attribute set and get a child list only when they open
    const node: Node = { name, text: '', attrs: NO_ATTRS, children: NO_CHILDREN, line };
    stack[stack.length - 1]!.children.push(node);
    pending = node;
  }
  if (pending) pending.text = (content + decodeCharacterReferences(text.slice(position))).trim();
  return root;
}
