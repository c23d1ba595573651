/**
 * The sample bank and card statements under test/fixtures/bank-statements (each file's source and
 * licence in its README), and OFX statements built to order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// found from this file (test/helpers/), not from the working directory, and inside the repository
export const FIXTURES = fileURLToPath(new URL('../fixtures/bank-statements', import.meta.url));

/** A sample statement's bytes, by its path under FIXTURES. */
export function fixture(file: string): Buffer {
  return readFileSync(path.join(FIXTURES, file));
}

/** One transaction of a built OFX statement; dates yyyyMMdd, the amount as the file writes it. */
export type OfxLine = [fitid: string, date: string, amount: string, name: string, memo?: string];

export interface OfxOptions {
  /** DTSTART and DTEND; January 2026 by default */
  period?: [string, string];
  /** LEDGERBAL's amount, at the period's end; 0.00 by default */
  ledgerBalance?: string;
  /** also an AVAILBAL of the same amount, as most banks' files carry */
  availableBalance?: boolean;
  /** ACCTID; 12345678 by default */
  account?: string;
  /** CURDEF; GBP by default */
  currency?: string;
}

/**
 * An OFX 1.02 (SGML) bank statement, as a bank's download writes one: the header, one checking
 * account (BANKID 200000), the transactions in the order given. Tests name refusals by the file's
 * line numbers, so the layout is fixed: the STMTRS at line 12, the first STMTTRN at line 14.
 */
export function ofxStatement(lines: OfxLine[], options: OfxOptions = {}): Buffer {
  const [start, end] = options.period ?? ['20260101', '20260131'];
  const balance = options.ledgerBalance ?? '0.00';
  const available = options.availableBalance ? `<AVAILBAL><BALAMT>${balance}<DTASOF>${end}</AVAILBAL>` : '';
  return Buffer.from(`OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>${options.currency ?? 'GBP'}<BANKACCTFROM><BANKID>200000<ACCTID>${options.account ?? '12345678'}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${start}<DTEND>${end}
${lines
  .map(
    ([fitid, date, amount, name, memo]) =>
      `<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${date}<TRNAMT>${amount}<FITID>${fitid}<NAME>${name}${memo ? `<MEMO>${memo}` : ''}</STMTTRN>`,
  )
  .join('\n')}
</BANKTRANLIST><LEDGERBAL><BALAMT>${balance}<DTASOF>${end}</LEDGERBAL>${available}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`);
}
