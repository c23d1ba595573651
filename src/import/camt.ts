/**
 * ISO 20022 cash-management messages: camt.053 statements (`BkToCstmrStmt/Stmt`), camt.052
 * intraday reports (`BkToCstmrAcctRpt/Rpt`) and camt.054 debit/credit notifications
 * (`BkToCstmrDbtCdtNtfctn/Ntfctn`), any version (the element names used here are the same from
 * .001.02 to .001.08 apart from `Sts`, which became `Sts/Cd`, and party names under `Pty`).
 * One bank transaction per booked entry (`Ntry`), however many transaction details it batches:
 * the entry is what moved the account. Pending and information-only entries are skipped.
 */
import { isCurrencyCode } from '../domain/money.js';
import { parsePlainAmount } from './amounts.js';
import { isoDate } from './dates.js';
import { decodeText } from './decode.js';
import { ImportRefusal, Problems } from './refusal.js';
import { emptyStatement, joinNarration, type Balance, type ParsedFile, type Statement } from './statement.js';
import { at, childrenNamed, describe, textAt, type Node } from './tree.js';
import { readXml } from './xml.js';

const MESSAGES: Record<string, { kind: string; item: string }> = {
  BkToCstmrStmt: { kind: 'camt.053', item: 'Stmt' },
  BkToCstmrAcctRpt: { kind: 'camt.052', item: 'Rpt' },
  BkToCstmrDbtCdtNtfctn: { kind: 'camt.054', item: 'Ntfctn' },
};

export function parseCamt(bytes: Uint8Array, assumedCurrency: string): ParsedFile {
  const notes: string[] = [];
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const declared = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? 'utf-8';
  const text = decodeText(bytes, declared, 'windows-1252', (n) => notes.push(n));
  const root = readXml(text, 'CAMT file');
  const message = root.name === 'Document' ? root.children.find((c) => c.name in MESSAGES) : root.name in MESSAGES ? root : undefined;
  if (!message) {
    throw new ImportRefusal(
      'unsupported_format',
      `${describe(root)}: not a camt.053, camt.052 or camt.054 message (expected BkToCstmrStmt, BkToCstmrAcctRpt or BkToCstmrDbtCdtNtfctn)`,
    );
  }
  const { kind, item } = MESSAGES[message.name]!;
  const version = new RegExp(`${kind.replace('.', '\\.')}\\.\\d{3}\\.\\d{2}`).exec(text.slice(0, 2000))?.[0] ?? kind;
  const items = childrenNamed(message, item);
  if (items.length === 0) {
    throw new ImportRefusal('malformed', `${describe(message)}: the ${kind} message has no <${item}>; it must hold at least one`, [
      { where: describe(message), message: `no <${item}>` },
    ]);
  }
  const problems = new Problems();
  const statements = items.map((node, i) => mapStatement(node, i + 1, assumedCurrency, problems, notes));
  problems.throwIfAny(`the ${kind} file cannot be imported`);
  return { format: version, label: kind.toUpperCase(), statements, notes };
}

function mapStatement(node: Node, index: number, assumedCurrency: string, problems: Problems, notes: string[]): Statement {
  const statement = emptyStatement(`${describe(node)} (${node.name} ${index}${textAt(node, 'Id') ? `, Id ${textAt(node, 'Id')}` : ''})`);
  statement.accountKind = 'bank';
  statement.accountId = textAt(node, 'Acct/Id/IBAN') || textAt(node, 'Acct/Id/Othr/Id') || null;
  statement.bankName =
    textAt(node, 'Acct/Svcr/FinInstnId/Nm') || textAt(node, 'Acct/Svcr/FinInstnId/BICFI') || textAt(node, 'Acct/Svcr/FinInstnId/BIC') || null;
  const entries = childrenNamed(node, 'Ntry');
  const balances = childrenNamed(node, 'Bal');
  // a notification often names no account currency and carries no balance: then its entries' one currency is the account's
  const entryCurrencies = new Set(entries.map((e) => (at(e, 'Amt')?.attrs.Ccy ?? '').toUpperCase()).filter(Boolean));
  const declared = (
    textAt(node, 'Acct/Ccy') ||
    balances.map((b) => at(b, 'Amt')?.attrs.Ccy).find(Boolean) ||
    (entryCurrencies.size === 1 ? [...entryCurrencies][0]! : '')
  ).toUpperCase();
  if (declared && !isCurrencyCode(declared)) problems.add(describe(node), `account currency "${declared}" is not an ISO 4217 currency`);
  statement.currency = declared && isCurrencyCode(declared) ? declared : null;
  if (!statement.currency) notes.push(`${statement.where} names no account currency; the account's is assumed`);
  const currency = statement.currency ?? assumedCurrency;

  for (const [path, key] of [
    ['FrToDt/FrDtTm', 'from'],
    ['FrToDt/ToDtTm', 'to'],
  ] as const) {
    const value = textAt(node, path);
    if (!value) continue;
    const date = isoDate(value);
    if ('date' in date) statement.period[key] = date.date;
    else problems.add(describe(at(node, path)!), date.error);
  }

  // opening booked (OPBD), or the previous closing (PRCD) some banks give instead; closing booked (CLBD)
  const byCode = new Map<string, Balance>();
  for (const bal of balances) {
    const code = textAt(bal, 'Tp/CdOrPrtry/Cd') || textAt(bal, 'Tp/CdOrPrtry/Prtry');
    if (!['OPBD', 'PRCD', 'CLBD'].includes(code) || byCode.has(code)) continue;
    const balance = readBalance(bal, code, currency, problems);
    if (balance) byCode.set(code, balance);
  }
  statement.opening = byCode.get('OPBD') ?? byCode.get('PRCD') ?? null;
  statement.closing = byCode.get('CLBD') ?? null;

  for (const entry of entries) {
    const ref = textAt(entry, 'AcctSvcrRef');
    const where = ref ? `${describe(entry)} (AcctSvcrRef ${ref})` : describe(entry);
    const status = textAt(entry, 'Sts') || textAt(entry, 'Sts/Cd');
    if (status === 'PDNG') {
      statement.skipped.push({ where, reason: 'pending (Sts PDNG), not booked yet' });
      continue;
    }
    if (status === 'INFO') {
      statement.skipped.push({ where, reason: 'information only (Sts INFO), not booked' });
      continue;
    }
    const amount = entryAmount(entry, currency);
    if ('error' in amount) problems.add(where, amount.error);
    const dateText = textAt(entry, 'BookgDt/Dt') || textAt(entry, 'BookgDt/DtTm') || textAt(entry, 'ValDt/Dt') || textAt(entry, 'ValDt/DtTm');
    const date = dateText ? isoDate(dateText) : { error: 'the entry has no booking date (BookgDt) or value date (ValDt)' };
    if ('error' in date) problems.add(where, date.error);
    if ('error' in amount || 'error' in date) continue;
    if (amount.note) notes.push(`${where}: ${amount.note}`);
    statement.lines.push({ where, date: date.date, amount: amount.minor, description: narration(entry), externalId: ref || null });
  }
  return statement;
}

function signed(node: Node, minor: number, problems: Problems | null, where: string): number | null {
  const indicator = textAt(node, 'CdtDbtInd');
  if (indicator === 'CRDT') return minor;
  if (indicator === 'DBIT') return -minor;
  problems?.add(where, `CdtDbtInd "${indicator}" is neither CRDT nor DBIT`);
  return null;
}

function readBalance(bal: Node, code: string, currency: string, problems: Problems): Balance | null {
  const where = `${describe(bal)} (${code})`;
  const amt = at(bal, 'Amt');
  const ccy = (amt?.attrs.Ccy ?? currency).toUpperCase();
  if (ccy !== currency) {
    problems.add(where, `the balance is in ${ccy} but the statement is in ${currency}`);
    return null;
  }
  const amount = parsePlainAmount(amt?.text ?? '', currency, '.');
  if ('error' in amount) {
    problems.add(where, `Amt: ${amount.error}`);
    return null;
  }
  const value = signed(bal, amount.minor, problems, where);
  const dateText = textAt(bal, 'Dt/Dt') || textAt(bal, 'Dt/DtTm');
  const date = dateText ? isoDate(dateText) : null;
  return value === null ? null : { amount: value, date: date && 'date' in date ? date.date : null, where };
}

const AMOUNT_DETAILS = ['InstdAmt', 'TxAmt', 'CntrValAmt', 'AnncdPstngAmt', 'PrtryAmt'];

/**
 * The entry's amount in the statement currency. Entry amounts are in the account's currency; where a
 * bank writes a foreign amount instead (the UBS sample books EUR 20.97 to a CHF account), the amount
 * details of the entry, or of its single transaction, give the account-currency amount.
 */
function entryAmount(entry: Node, currency: string): { minor: number; note?: string } | { error: string } {
  const amt = at(entry, 'Amt');
  const ccy = (amt?.attrs.Ccy ?? currency).toUpperCase();
  let text = amt?.text ?? '';
  let note: string | undefined;
  if (ccy !== currency) {
    const details = [
      at(entry, 'AmtDtls'),
      ...(childrenNamed(at(entry, 'NtryDtls') ?? entry, 'TxDtls').length === 1 ? [at(entry, 'NtryDtls/TxDtls/AmtDtls')] : []),
    ];
    const inCurrency = details.flatMap((d) => AMOUNT_DETAILS.map((k) => at(d, `${k}/Amt`))).find((a) => a && (a.attrs.Ccy ?? '').toUpperCase() === currency);
    if (!inCurrency) return { error: `the entry amount is in ${ccy} and no amount in the statement's ${currency} is given (Amt, AmtDtls)` };
    note = `entry amount ${amt?.text} ${ccy} taken as ${inCurrency.text} ${currency} from its amount details`;
    text = inCurrency.text;
  }
  const amount = parsePlainAmount(text, currency, '.');
  if ('error' in amount) return { error: `Amt: ${amount.error}` };
  const value = signed(entry, amount.minor, null, '');
  if (value === null) return { error: `CdtDbtInd "${textAt(entry, 'CdtDbtInd')}" is neither CRDT nor DBIT` };
  return note ? { minor: value, note } : { minor: value };
}

function partyName(details: Node, role: 'Cdtr' | 'Dbtr'): string {
  return textAt(details, `RltdPties/${role}/Nm`) || textAt(details, `RltdPties/${role}/Pty/Nm`);
}

/**
 * The entry's own text, then for a single transaction the counterparty (the creditor of money
 * out, the debtor of money in) and the remittance information; for a batch, how many it holds.
 */
function narration(entry: Node): string {
  const details = childrenNamed(at(entry, 'NtryDtls') ?? entry, 'TxDtls');
  const parts: string[] = [textAt(entry, 'AddtlNtryInf')];
  if (details.length === 1) {
    const tx = details[0]!;
    const out = textAt(entry, 'CdtDbtInd') === 'DBIT';
    parts.push(partyName(tx, out ? 'Cdtr' : 'Dbtr'));
    const rmt = at(tx, 'RmtInf');
    const unstructured = rmt ? childrenNamed(rmt, 'Ustrd').map((u) => u.text) : [];
    parts.push(unstructured.join(' ') || textAt(rmt, 'Strd/CdtrRefInf/Ref'));
    parts.push(textAt(tx, 'AddtlTxInf'));
  } else if (details.length > 1) {
    const batch = textAt(entry, 'NtryDtls/Btch/PmtInfId');
    parts.push(`batch${batch ? ` ${batch}` : ''} of ${details.length} transactions`);
  }
  if (textAt(entry, 'RvslInd') === 'true') parts.push('reversal');
  const text = joinNarration(parts);
  return text || joinNarration([textAt(entry, 'BkTxCd/Domn/Cd'), textAt(entry, 'BkTxCd/Prtry/Cd')]) || 'CAMT entry';
}
