/**
 * OFX and QFX statements: OFX 1.x (SGML, `OFXHEADER:100`) through ofx-sgml.ts, OFX 2.x (XML,
 * `<?OFX OFXHEADER="200"?>`) through fast-xml-parser, then one mapping for both. Bank statements
 * (STMTRS) and card statements (CCSTMTRS), several per file; posted transactions (BANKTRANLIST) are
 * imported, pending ones (BANKTRANLISTP) are reported as skipped. QFX is OFX with Intuit's extra
 * elements, which are ignored.
 */
import { amountBoundText, convertWithinBound, isCurrencyCode } from '../domain/money.js';
import { parsePlainAmount } from './amounts.js';
import { ofxDate } from './dates.js';
import { decodeText } from './decode.js';
import { readSgml } from './ofx-sgml.js';
import { ImportRefusal, Problems } from './refusal.js';
import { emptyStatement, joinNarration, type ParsedFile, type Statement } from './statement.js';
import { at, childrenNamed, descendantsNamed, describe, textAt, type Node } from './tree.js';
import { isWellFormedXml, readXml, refuseDoctype } from './xml.js';

interface Header {
  kind: 'sgml' | 'xml' | 'none';
  version: string | null;
  charset: string | null;
}

/** Reads the OFX 1 colon header or the XML declaration and OFX processing instruction. */
function readHeader(bytes: Uint8Array): Header {
  // headers are ASCII, so a byte-for-byte reading is enough to find them
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('latin1')
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trimStart();
  if (/^OFXHEADER\s*:/i.test(head)) {
    const fields = new Map<string, string>();
    for (const line of head.split(/\r?\n|\r/)) {
      if (line.trimStart().startsWith('<')) break;
      const m = /^\s*([A-Z]+)\s*:\s*(.*?)\s*$/i.exec(line);
      if (m) fields.set(m[1]!.toUpperCase(), m[2]!);
    }
    const encoding = fields.get('ENCODING') ?? '';
    const charset = fields.get('CHARSET') ?? '';
    const declared = /utf-?8/i.test(encoding) ? 'utf-8' : charset && !/^none$/i.test(charset) ? charset : encoding || null;
    return { kind: 'sgml', version: fields.get('VERSION') ?? null, charset: declared };
  }
  if (/^<\?xml/i.test(head)) {
    const encoding = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? 'utf-8';
    const version = /<\?OFX[^>]*VERSION\s*=\s*["']?(\d+)/i.exec(head)?.[1] ?? null;
    return { kind: 'xml', version, charset: encoding };
  }
  return { kind: 'none', version: null, charset: null };
}

export function parseOfx(bytes: Uint8Array, assumedCurrency: string): ParsedFile {
  const notes: string[] = [];
  const header = readHeader(bytes);
  const text = decodeText(bytes, header.charset, 'windows-1252', (n) => notes.push(n));
  refuseDoctype(text);
  const start = text.search(/<OFX>/i);
  if (start < 0) throw new ImportRefusal('malformed', 'the file has no <OFX> element, so it is not an OFX statement');
  if (header.kind === 'none') notes.push('the file has no OFX header; its body was read as OFX');

  let ofx: Node | undefined;
  let syntax: 'SGML' | 'XML';
  if (header.kind === 'xml' && isWellFormedXml(text)) {
    ofx = readXml(text, 'OFX file');
    syntax = 'XML';
  } else {
    if (header.kind === 'xml') notes.push('the file declares OFX 2 (XML) but its body leaves elements unclosed, as OFX 1 SGML does; it was read as SGML');
    ofx = readSgml(text, start).children.find((n) => n.name === 'OFX');
    syntax = 'SGML';
  }
  if (!ofx || ofx.name !== 'OFX') throw new ImportRefusal('malformed', 'the file has no <OFX> element, so it is not an OFX statement');

  const problems = new Problems();
  // one walk over the message structure, not into the statements' transactions
  const found = descendantsNamed(ofx, ['STMTTRNRS', 'CCSTMTTRNRS', 'STMTRS', 'CCSTMTRS', 'INTU.BID'], ['STMTRS', 'CCSTMTRS', 'INTU.BID']);
  const named = (...names: string[]) => found.filter((n) => names.includes(n.name));
  for (const trnrs of named('STMTTRNRS', 'CCSTMTTRNRS')) {
    const code = textAt(trnrs, 'STATUS/CODE');
    if (code && code !== '0' && childrenNamed(trnrs, 'STMTRS').length + childrenNamed(trnrs, 'CCSTMTRS').length === 0)
      problems.add(describe(trnrs), `the bank reported error ${code}: ${textAt(trnrs, 'STATUS/MESSAGE') || 'no message'}`);
  }
  const bankName = textAt(at(ofx, 'SIGNONMSGSRSV1/SONRS'), 'FI/ORG') || null;
  const statementNodes = named('STMTRS', 'CCSTMTRS');
  if (statementNodes.length === 0 && !problems.any) problems.add(describe(ofx), 'no bank (STMTRS) or card (CCSTMTRS) statement in the file');
  const statements = statementNodes.map((node) => mapStatement(node, bankName, assumedCurrency, problems, notes));
  problems.throwIfAny('the OFX file cannot be imported');

  const qfx = named('INTU.BID').length > 0;
  const version = header.version ? ` ${header.version.length === 3 ? `${header.version[0]}.${header.version.slice(1)}` : header.version}` : '';
  return { format: `${qfx ? 'QFX' : 'OFX'}${version} (${syntax})`, label: qfx ? 'QFX' : 'OFX', statements, notes };
}

function mapStatement(node: Node, bankName: string | null, assumedCurrency: string, problems: Problems, notes: string[]): Statement {
  const statement = emptyStatement(describe(node));
  const card = node.name === 'CCSTMTRS';
  statement.accountKind = card ? 'credit_card' : 'bank';
  statement.bankName = bankName;
  statement.accountId = textAt(node, card ? 'CCACCTFROM/ACCTID' : 'BANKACCTFROM/ACCTID') || null;

  const list = at(node, 'BANKTRANLIST');
  const posted = list ? childrenNamed(list, 'STMTTRN') : [];
  statement.currency = statementCurrency(node, posted, problems, notes);
  const currency = statement.currency ?? assumedCurrency;

  for (const [path, key] of [
    ['DTSTART', 'from'],
    ['DTEND', 'to'],
  ] as const) {
    const value = textAt(list, path);
    if (!value) continue;
    const date = ofxDate(value);
    if ('date' in date) statement.period[key] = date.date;
    else problems.add(describe(at(list, path)!), `${path}: ${date.error}`);
  }

  statement.closing = balanceAt(node, 'LEDGERBAL', currency, problems);
  // only kept to be shown: one that cannot be read is left out rather than refusing the statement
  statement.available = balanceAt(node, 'AVAILBAL', currency, null);

  for (const trn of posted) {
    const where = textAt(trn, 'FITID') ? `${describe(trn)} (FITID ${textAt(trn, 'FITID')})` : describe(trn);
    const dateText = at(trn, 'DTPOSTED');
    const date = dateText ? ofxDate(dateText.text) : { error: 'DTPOSTED is missing' };
    if ('error' in date) problems.add(where, date.error.startsWith('DTPOSTED') ? date.error : `DTPOSTED: ${date.error}`);
    const amount = lineAmount(trn, currency);
    if ('error' in amount) problems.add(where, `TRNAMT: ${amount.error}`);
    if ('error' in date || 'error' in amount) continue;
    statement.lines.push({
      where,
      date: date.date,
      amount: amount.minor,
      description: narration(trn),
      externalId: textAt(trn, 'FITID') || null,
    });
  }
  for (const pending of descendantsNamed(node, 'STMTTRNP', ['STMTTRN', 'STMTTRNP'])) {
    statement.skipped.push({ where: describe(pending), reason: `pending (${textAt(pending, 'TRNTYPE') || 'not yet posted'}), not part of the statement yet` });
  }
  return statement;
}

/** LEDGERBAL (the closing balance) or AVAILBAL (what may be spent): BALAMT at DTASOF. */
function balanceAt(node: Node, name: 'LEDGERBAL' | 'AVAILBAL', currency: string, problems: Problems | null): Statement['closing'] {
  const balance = at(node, name);
  if (!textAt(balance, 'BALAMT')) return null;
  const amount = parsePlainAmount(textAt(balance, 'BALAMT'), currency, 'either');
  const asOf = ofxDate(textAt(balance, 'DTASOF'));
  if ('error' in amount) {
    problems?.add(describe(at(balance, 'BALAMT')!), `BALAMT: ${amount.error}`);
    return null;
  }
  return { amount: amount.minor, date: 'date' in asOf ? asOf.date : null, where: describe(balance!) };
}

/**
 * CURDEF, or when a file leaves it empty, the one currency its transactions name (CURSYM): the
 * empty-tags sample has `<CURDEF></CURDEF>` and `<CURSYM>AUD</CURSYM>` at rate 1.
 */
function statementCurrency(node: Node, posted: Node[], problems: Problems, notes: string[]): string | null {
  const curdef = textAt(node, 'CURDEF').toUpperCase();
  if (curdef) {
    if (!isCurrencyCode(curdef)) problems.add(describe(at(node, 'CURDEF')!), `CURDEF "${curdef}" is not an ISO 4217 currency`);
    return isCurrencyCode(curdef) ? curdef : null;
  }
  const named = new Set(posted.map((t) => textAt(t, 'CURRENCY/CURSYM').toUpperCase()).filter(Boolean));
  if (named.size === 1) {
    const only = [...named][0]!;
    if (isCurrencyCode(only)) {
      notes.push(`the statement's CURDEF is empty; its transactions name ${only}, taken as the statement currency`);
      return only;
    }
  }
  notes.push("the statement gives no currency (empty CURDEF); the account's currency is assumed");
  return null;
}

/** TRNAMT, converted to the statement currency when a CURRENCY aggregate says it is in another. */
function lineAmount(trn: Node, currency: string): { minor: number } | { error: string } {
  const cursym = textAt(trn, 'CURRENCY/CURSYM').toUpperCase();
  const rate = textAt(trn, 'CURRENCY/CURRATE');
  if (!cursym || cursym === currency) return parsePlainAmount(textAt(trn, 'TRNAMT'), currency, 'either');
  if (!isCurrencyCode(cursym)) return { error: `CURSYM "${cursym}" is not an ISO 4217 currency` };
  const foreign = parsePlainAmount(textAt(trn, 'TRNAMT'), cursym, 'either');
  if ('error' in foreign) return foreign;
  const plainRate = rate.replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(plainRate)) return { error: `the amount is in ${cursym} and CURRATE "${rate}" is not a rate` };
  const minor = convertWithinBound(foreign.minor, cursym, plainRate, currency);
  if (minor === null)
    return { error: `${textAt(trn, 'TRNAMT')} ${cursym} at CURRATE ${rate} is larger than the largest amount taken, ${amountBoundText(currency)}` };
  return { minor };
}

/** NAME (or PAYEE/NAME) and MEMO, each once; the transaction type when both are empty. */
function narration(trn: Node): string {
  const text = joinNarration([textAt(trn, 'NAME') || textAt(trn, 'PAYEE/NAME'), textAt(trn, 'MEMO')]);
  if (text) return text;
  const checkNumber = textAt(trn, 'CHECKNUM');
  return joinNarration([textAt(trn, 'TRNTYPE') || 'OFX transaction', checkNumber && checkNumber !== '0' ? `cheque ${checkNumber}` : '']);
}
