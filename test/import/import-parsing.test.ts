/**
 * The readers on their own: amounts to exact minor units, dates, narration joining, fingerprints,
 * account-number matching, the SGML tag structure, CSV layouts and QIF/MT940/OFX details that the
 * sample files do not exercise.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { detectDecimal, parseAmount, parsePlainAmount } from '../../src/import/amounts.js';
import { sameAccountNumber } from '../../src/import/account-match.js';
import { parseCsv } from '../../src/import/csv.js';
import { detectDateFormat, ofxDate, parseDateAs } from '../../src/import/dates.js';
import { fingerprints } from '../../src/import/fingerprints.js';
import { parseMt940 } from '../../src/import/mt940.js';
import { readSgml } from '../../src/import/ofx-sgml.js';
import { parseOfx } from '../../src/import/ofx.js';
import { detectFormat, parseStatementFile } from '../../src/import/parse.js';
import { parseQif } from '../../src/import/qif.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import { joinNarration, type StatementLine } from '../../src/import/statement.js';
import { FIXTURES } from '../helpers/bank-statements.js';

const minor = (r: ReturnType<typeof parseAmount>) => ('error' in r ? r.error : r.minor);
const refusal = (fn: () => unknown): ImportRefusal => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ImportRefusal, String(error));
    return error;
  }
  throw new Error('expected a refusal');
};

describe('amounts', () => {
  it('reads bank amounts to exact minor units in every convention', () => {
    assert.equal(minor(parseAmount('1.234,56', 'EUR', ',')), 123_456);
    assert.equal(minor(parseAmount('1,234.56', 'USD', '.')), 123_456);
    assert.equal(minor(parseAmount("1'234.50", 'CHF', '.')), 123_450);
    assert.equal(minor(parseAmount('1 234,56', 'EUR', ',')), 123_456);
    assert.equal(minor(parseAmount('1\u00a0234,56', 'EUR', ',')), 123_456);
    assert.equal(minor(parseAmount('£1,183.23', 'GBP', '.')), 118_323);
    assert.equal(minor(parseAmount('(12.50)', 'GBP', '.')), -1_250);
    assert.equal(minor(parseAmount('12.50-', 'GBP', '.')), -1_250);
    assert.equal(minor(parseAmount('-€5', 'EUR', '.')), -500);
    assert.equal(minor(parseAmount('€-5', 'EUR', '.')), -500);
    assert.equal(minor(parseAmount('USD 12.00', 'USD', '.')), 1_200);
    assert.equal(minor(parseAmount('12,00 EUR', 'EUR', ',')), 1_200);
    assert.equal(minor(parseAmount('12.340', 'GBP', '.')), 1_234);
    assert.equal(minor(parseAmount('512.0', 'EUR', '.')), 51_200);
    assert.equal(minor(parseAmount('5', 'JPY', '.')), 5);
    assert.equal(minor(parseAmount('1.500', 'KWD', '.')), 1_500);
    // the largest exact amount, and 0.1 + 0.2 summed in minor units
    assert.equal(minor(parseAmount('90,071,992,547,409.91', 'USD', '.')), Number.MAX_SAFE_INTEGER);
    assert.equal((minor(parseAmount('0.1', 'USD', '.')) as number) + (minor(parseAmount('0.2', 'USD', '.')) as number), 30);
  });

  it('keeps CR and DR markers for the format to apply', () => {
    assert.deepEqual(parseAmount('+ £1,100.00 CR', 'GBP', '.'), { minor: 110_000, marker: 'CR' });
    assert.deepEqual(parseAmount('100.00DR', 'GBP', '.'), { minor: 10_000, marker: 'DR' });
    assert.deepEqual(parseAmount('CR 5.00', 'GBP', '.'), { minor: 500, marker: 'CR' });
  });

  it('refuses what is not an amount, or not exactly one', () => {
    assert.match(minor(parseAmount('12.345', 'GBP', '.')) as string, /more decimals than GBP allows \(2\)/);
    assert.match(minor(parseAmount('5.5', 'JPY', '.')) as string, /more decimals than JPY allows \(0\)/);
    assert.match(minor(parseAmount('1,23,456.00', 'USD', '.')) as string, /misplaced thousands separators/);
    assert.match(minor(parseAmount('1.234.56', 'USD', '.')) as string, /more than one decimal mark/);
    assert.match(minor(parseAmount('--5', 'USD', '.')) as string, /more than one sign/);
    assert.match(minor(parseAmount('abc', 'USD', '.')) as string, /not an amount/);
    assert.match(minor(parseAmount('', 'USD', '.')) as string, /empty/);
    assert.match(minor(parseAmount('90,071,992,547,409.92', 'USD', '.')) as string, /too large/);
  });

  it('reads the plain amounts of OFX, CAMT and MT940 and nothing else', () => {
    assert.equal(minor(parsePlainAmount('-1084.000', 'EUR', 'either')), -108_400);
    assert.equal(minor(parsePlainAmount('13318.36 ', 'BRL', 'either')), 1_331_836);
    assert.equal(minor(parsePlainAmount('-33.3', 'BRL', 'either')), -3_330);
    assert.equal(minor(parsePlainAmount('1,5', 'EUR', 'either')), 150);
    assert.equal(minor(parsePlainAmount('9,', 'EUR', ',')), 900);
    assert.equal(minor(parsePlainAmount('.5', 'EUR', '.')), 50);
    assert.match(minor(parsePlainAmount('$120', 'CAD', 'either')) as string, /"\$120" is not a plain decimal amount/);
    assert.match(minor(parsePlainAmount('1,000.00', 'USD', 'either')) as string, /not a plain decimal/);
  });

  it('tells the decimal mark from a file of amounts, or says it cannot', () => {
    const s = (...texts: string[]) => texts.map((text, i) => ({ text, where: `line ${i + 2}` }));
    assert.equal(detectDecimal(s('1.234,56', '-3')), ',');
    assert.equal(detectDecimal(s('1,234', '12.5')), '.');
    assert.equal(detectDecimal(s('1,234', '5')), null);
    assert.equal(detectDecimal(s('1.234.567')), ',');
    assert.throws(() => detectDecimal(s('12,5', '3.25')), /line 2 writes "12,5" with a decimal "," but line 3 writes "3.25" with a decimal "."/);
  });
});

describe('dates', () => {
  it('reads statement dates and refuses impossible or implausible ones', () => {
    assert.deepEqual(parseDateAs('12-Dec-2019', 'dd-MMM-yyyy'), { date: '2019-12-12' });
    assert.deepEqual(parseDateAs('04/09/2024', 'MM/dd/yyyy'), { date: '2024-04-09' });
    assert.deepEqual(parseDateAs('26.04.2019', 'dd.MM.yyyy'), { date: '2019-04-26' });
    assert.deepEqual(parseDateAs('2024-04-01 10:22:33', 'yyyy-MM-dd'), { date: '2024-04-01' });
    assert.deepEqual(parseDateAs('1/6/94', 'd/M/yy'), { date: '1994-06-01' });
    assert.match((parseDateAs('29/02/2025', 'dd/MM/yyyy') as { error: string }).error, /not a calendar date/);
    assert.match((parseDateAs('1111/11/11', 'yyyy/MM/dd') as { error: string }).error, /outside the plausible range/);
    assert.deepEqual(ofxDate('20090401122017.000[-5:EST]'), { date: '2009-04-01' });
    assert.deepEqual(ofxDate('20180804093914:014'), { date: '2018-08-04' });
    assert.deepEqual(ofxDate('20170301 '), { date: '2017-03-01' });
    assert.match((ofxDate('201120000000') as { error: string }).error, /not a calendar date/);
    assert.match((ofxDate('2011-01-01') as { error: string }).error, /not an OFX date/);
  });

  it('tells the date format only when every date agrees', () => {
    const s = (...texts: string[]) => texts.map((text, i) => ({ text, where: `line ${i + 2}` }));
    assert.deepEqual(detectDateFormat(s('13/01/2026', '02/01/2026')), { format: 'dd/MM/yyyy' });
    assert.deepEqual(detectDateFormat(s('01/13/2026', '01/02/2026')), { format: 'MM/dd/yyyy' });
    assert.deepEqual(detectDateFormat(s('2026-01-02')), { format: 'yyyy-MM-dd' });
    assert.match((detectDateFormat(s('01/02/2026')) as { error: string }).error, /read as 2026-02-01 with dd\/MM\/yyyy but 2026-01-02 with MM\/dd\/yyyy/);
    assert.match((detectDateFormat(s('2026-01-02', 'yesterday')) as { error: string }).error, /line 3: no date format reads "yesterday"/);
  });
});

describe('narration, fingerprints and account numbers', () => {
  it('joins narration parts, each once, by whole words', () => {
    assert.equal(joinNarration(["MCDONALD'S #112", "POS MERCHANDISE;MCDONALD'S #112"]), "POS MERCHANDISE;MCDONALD'S #112");
    assert.equal(joinNarration(['Payment', 'Jon Doe', '', null, 'payment']), 'Payment / Jon Doe');
    assert.equal(joinNarration(['SEPA-UEBERW', 'Datei SEPA-Ueberweisungsauftrag']), 'SEPA-UEBERW / Datei SEPA-Ueberweisungsauftrag');
  });

  it('fingerprints by bank id, else by content and place among identical lines of the day', () => {
    const line = (date: string, amount: number, description: string, externalId: string | null = null): StatementLine => ({
      where: 'x',
      date,
      amount,
      description,
      externalId,
    });
    const prints = fingerprints([
      line('2026-01-02', -350, 'Coffee'),
      line('2026-01-02', -350, '  COFFEE '),
      line('2026-01-03', -350, 'Coffee'),
      line('2026-01-02', -350, 'Coffee', 'F1'),
    ]);
    assert.equal(new Set(prints).size, 4, 'two identical payments on one day stay two');
    assert.equal(prints[3], 'ext:F1');
    // the same lines read again, in a file that starts a day later, meet on the same fingerprints
    assert.deepEqual(fingerprints([line('2026-01-03', -350, 'coffee')]), [prints[2]]);
    assert.deepEqual(fingerprints([line('2026-01-02', -350, 'Coffee'), line('2026-01-02', -350, 'Coffee')]), prints.slice(0, 2));
  });

  it('matches account numbers written differently by banks', () => {
    assert.ok(sameAccountNumber('DE14 7406 1813 0000 0336 26', 'DE14740618130000033626'));
    assert.ok(sameAccountNumber('0194787400888', '50880050/0194787400888'));
    assert.ok(sameAccountNumber('4921 •••• •••• 4421', '4921000000004421'));
    assert.ok(sameAccountNumber('20-45-77 41234567', '204577-41234567'));
    assert.ok(!sameAccountNumber('20-45-77 41234567', '204577-41234568'));
    assert.ok(!sameAccountNumber('567', '1234567'), 'too short to be the end of a number');
    assert.ok(!sameAccountNumber('', '1234'));
  });
});

describe('formats', () => {
  it('tells every sample file format from its content', () => {
    const expected: Record<string, string | null> = {
      ofx1: 'ofx',
      ofx2: 'ofx',
      camt052: 'camt',
      camt053: 'camt',
      camt054: 'camt',
      mt940: 'mt940',
      qif: 'qif',
      csv: 'csv',
    };
    for (const dir of Object.keys(expected)) {
      for (const file of readdirSync(path.join(FIXTURES, dir)))
        assert.equal(detectFormat(readFileSync(path.join(FIXTURES, dir, file))), expected[dir], `${dir}/${file}`);
    }
  });

  it('builds the SGML tree: unclosed leaves, closed leaves, empty elements, stray ampersands, open aggregates', () => {
    const text = '<OFX><STMTTRN><NAME><MEMO>A & B &amp; C</MEMO><TRNAMT>1.00\n<CODE>0</CODE></STMTTRN><STMTTRN><NAME>X</NAME><TRNAMT>2\n</OFX>';
    const root = readSgml(text, 0);
    const ofx = root.children[0]!;
    assert.deepEqual(
      ofx.children.map((t) => [t.name, t.children.map((c) => [c.name, c.text])]),
      [
        [
          'STMTTRN',
          [
            ['NAME', ''],
            ['MEMO', 'A & B & C'],
            ['TRNAMT', '1.00'],
            ['CODE', '0'],
          ],
        ],
        [
          'STMTTRN',
          [
            ['NAME', 'X'],
            ['TRNAMT', '2'],
          ],
        ],
      ],
    );
  });

  it('converts an OFX transaction given in another currency at its CURRATE', () => {
    const file = `OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>
<STMTTRN><TRNTYPE>POS<DTPOSTED>20260105<TRNAMT>-10.00<FITID>A<NAME>Paris<CURRENCY><CURRATE>0.8571<CURSYM>EUR</CURRENCY></STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    const parsed = parseOfx(Buffer.from(file), 'GBP');
    assert.equal(parsed.statements[0]!.lines[0]!.amount, -857);
  });

  it('reads MT940 reversal marks and a booking date in the next year', () => {
    const file = [
      ':20:REF',
      ':25:123456',
      ':28C:1/1',
      ':60F:C251231EUR100,00',
      ':61:2512310102RD10,00NTRFNONREF//B1',
      ':86:reversed debit',
      ':61:2512310102RC5,NTRFNONREF',
      ':62F:C260102EUR105,00',
      '-',
    ].join('\r\n');
    const s = parseMt940(Buffer.from(file), 'EUR').statements[0]!;
    assert.deepEqual(
      s.lines.map((l) => [l.date, l.amount, l.description, l.externalId]),
      [
        ['2026-01-02', 1_000, 'reversed debit', 'B1'],
        ['2026-01-02', -500, 'MT940 entry', null],
      ],
    );
    assert.deepEqual([s.opening?.amount, s.closing?.amount, s.accountId, s.currency], [10_000, 10_500, '123456', 'EUR']);
  });

  it('reads QIF dates month first unless only day first makes sense, and 2000s years written with an apostrophe', () => {
    const qif = (dates: string[]) => Buffer.from(`!Type:CCard\n${dates.map((d) => `D${d}\nT-1.00\nPShop\n^`).join('\n')}\n`);
    assert.deepEqual(
      parseQif(qif(['6/1/94', '6/2/94']), 'USD').statements[0]!.lines.map((l) => l.date),
      ['1994-06-01', '1994-06-02'],
    );
    assert.deepEqual(
      parseQif(qif(['13/1/04', '2/1/04']), 'USD').statements[0]!.lines.map((l) => l.date),
      ['2004-01-13', '2004-01-02'],
    );
    assert.deepEqual(
      parseQif(qif(["6/1'04"]), 'USD').statements[0]!.lines.map((l) => l.date),
      ['2004-06-01'],
    );
    assert.equal(parseQif(qif(['6/1/94']), 'USD').statements[0]!.accountKind, 'credit_card');
    assert.match(refusal(() => parseQif(Buffer.from('!Type:Invst\nD6/1/94\n^\n'), 'USD')).message, /line 1: "!Type:Invst" is not a bank or card register/);
  });

  it('recognises a plain CSV header and reads semicolons, decimal commas and running balances', () => {
    const csv = 'Datum;Text;Betrag;Saldo\n02.01.2026;Miete;-1.200,00;3.800,00\n03.01.2026;Gehalt;2.500,00;6.300,00\n';
    const parsed = parseCsv(Buffer.from(csv), 'EUR');
    const s = parsed.statements[0]!;
    assert.deepEqual(
      s.lines.map((l) => [l.date, l.amount, l.description]),
      [
        ['2026-01-02', -120_000, 'Miete'],
        ['2026-01-03', 250_000, 'Gehalt'],
      ],
    );
    assert.deepEqual([s.opening?.amount, s.closing?.amount, s.balanceProblems], [500_000, 630_000, []]);
    assert.deepEqual(parsed.notes, ['columns recognised from the header at line 1: date "Datum", description "Text", amount "Betrag", balance "Saldo"']);
  });

  it('follows a column mapping by name and position, joins descriptions, and reads positive amounts as money out when told', () => {
    const csv = 'Card statement\nWhen,Merchant,Note,Value,Ref\n2026-02-01,Shop,"gift, wrapped",12.00,R1\n2026-02-02,Refund,,-2.00,R2\n';
    const parsed = parseCsv(Buffer.from(csv), 'GBP', {
      columns: { date: 'When', description: 'Merchant+#3', amount: 'Value', id: 'Ref' },
      positiveOut: true,
    });
    assert.deepEqual(
      parsed.statements[0]!.lines.map((l) => [l.where, l.amount, l.description, l.externalId]),
      [
        ['line 3', -1_200, 'Shop gift, wrapped', 'R1'],
        ['line 4', 200, 'Refund', 'R2'],
      ],
    );
    assert.match(
      refusal(() => parseCsv(Buffer.from(csv), 'GBP', { columns: { date: 'When', amount: 'Amount' } })).message,
      /no row in the first 50 lines has every mapped column \("When", "Amount"\)/,
    );
    assert.match(refusal(() => parseCsv(Buffer.from(csv), 'GBP', { preset: 'nope' })).message, /unknown CSV preset "nope"; the presets are bank-of-ireland, /);
  });

  it('names the right line after a quoted field spanning lines', () => {
    const csv = 'Date,Description,Amount\n2026-01-02,"Two\nline narration",-1.00\n2026-01-03,Fine,-2.00\n2026-01-04,Bad,-x\n';
    assert.match(refusal(() => parseCsv(Buffer.from(csv), 'GBP')).message, /^the CSV file cannot be imported: line 5: amount "-x" is not an amount$/);
    const lines = parseCsv(Buffer.from(csv.replace('-x', '-3.00')), 'GBP').statements[0]!.lines;
    assert.deepEqual(
      lines.map((l) => [l.where, l.description]),
      [
        ['line 2', 'Two\nline narration'],
        ['line 4', 'Fine'],
        ['line 5', 'Bad'],
      ],
    );
  });

  it('reads the Windows-1250 Czech export with its preset once the dates are usable', () => {
    const bytes = readFileSync(path.join(FIXTURES, 'csv/ceska-sporitelna-cz-cp1250-anonymised.csv'));
    const fixed = Buffer.from(bytes.toString('latin1').replaceAll('1111/11/11', '2018/05/23'), 'latin1');
    const parsed = parseStatementFile(fixed, 'CZK');
    const s = parsed.statements[0]!;
    assert.equal(parsed.format, 'CSV (preset ceska-sporitelna)');
    assert.equal(s.currency, 'CZK');
    assert.equal(s.lines.length, 9);
    assert.equal(
      s.lines.reduce((a, l) => a + l.amount, 0),
      -(11_111 + 1_111 + 1_111 + 111_111 + 1_111 + 11_111 + 1_111 + 11_111 + 111_111),
    );
    assert.ok(
      s.lines.some((l) => l.description.includes('XX účXX X ČX, X.X.')),
      'accents read as Windows-1250',
    );
  });
});
