/**
 * Every way a statement file is refused, each with a message naming the line or element, and each
 * proven to leave the database exactly as it was: malformed sample files, the wrong currency or
 * account, balances that do not reconcile, an oversized file, XML entity expansion and external
 * entities, and bank ids that contradict each other or what was imported before.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { importStatement, type ImportOptions, type ImportRequest } from '../../src/import/importer.js';
import { DEFAULT_MAX_BYTES } from '../../src/import/parse.js';
import { ImportRefusal, type RefusalCode } from '../../src/import/refusal.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import type { BankAccountRow, OrganisationRow } from '../../src/store/schema.js';
import { rejection } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';
import { fixture, ofxStatement } from '../helpers/bank-statements.js';

const ORG = 'org_refuse';

let seq = 0;
async function account(store: Store, currency: string, number = '', type: 'bank' | 'credit_card' = 'bank'): Promise<BankAccountRow> {
  const row: BankAccountRow = {
    id: `bac_r${++seq}`,
    organisation_id: ORG,
    name: `Refusal ${seq}`,
    number,
    type,
    bank: '',
    currency,
    is_default: 0,
    ledger_account_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
  await store.db.insertInto('bank_accounts').values(row).execute();
  return row;
}

/** Everything that could have been written: bank transactions and accounts, counted. */
async function snapshot(store: Store): Promise<string> {
  const transactions = await store.db.selectFrom('bank_transactions').select(['id', 'fingerprint', 'amount']).orderBy('id').execute();
  const accounts = await store.db.selectFrom('bank_accounts').select(['id']).orderBy('id').execute();
  return JSON.stringify({ transactions, accounts });
}

/** Imports and expects a refusal with `code` whose message matches every pattern, and an unchanged database. */
async function expectRefusal(
  store: Store,
  request: Omit<ImportRequest, 'organisation' | 'fileName'> & { fileName?: string },
  code: RefusalCode,
  ...patterns: RegExp[]
): Promise<ImportRefusal> {
  const before = await snapshot(store);
  // a rate is given so that accounts in other currencies than the home one reach the check under test
  const options = { rate: '1', ...request.options };
  const error = await rejection(() => importStatement(store, { organisation: ORG_ROW!, fileName: 'statement', ...request, options }));
  assert.ok(error instanceof ImportRefusal, String(error?.stack ?? error));
  assert.equal(error.code, code, error.message);
  for (const p of patterns) assert.match(error.message, p);
  assert.equal(await snapshot(store), before, 'nothing was written');
  return error;
}

let ORG_ROW: OrganisationRow | undefined;

function camt053(
  statements: Array<{ opening: string; closing: string; entries: Array<[amount: string, indicator: 'CRDT' | 'DBIT', ref: string]> }>,
  currency = 'EUR',
): Buffer {
  const stmt = (s: (typeof statements)[number], i: number) => `
    <Stmt>
      <Id>S${i}</Id>
      <Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>${currency}</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${s.opening}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-01</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${s.closing}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-31</Dt></Dt></Bal>
${s.entries
  .map(
    ([amount, indicator, ref]) => `      <Ntry>
        <Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-01-15</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef><AddtlNtryInf>Entry ${ref}</AddtlNtryInf>
      </Ntry>`,
  )
  .join('\n')}
    </Stmt>`;
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-02-01T00:00:00</CreDtTm></GrpHdr>${statements.map(stmt).join('')}
  </BkToCstmrStmt>
</Document>`);
}

describeEachDialect(
  'statement import refusals',
  (store) => {
    it('refuses the deliberately malformed sample files, naming the lines, even with allowUnbalanced', async () => {
      const cases: Array<[file: string, currency: string, patterns: RegExp[]]> = [
        [
          'ofx1/malformed-decimal-error.ofx',
          'CAD',
          [
            /<STMTTRN> at line 34 \(FITID 2000957249\): DTPOSTED: "201120000000" is not a calendar date/,
            /<STMTTRN> at line 34 \(FITID 2000957249\): TRNAMT: "\$120" is not a plain decimal amount/,
          ],
        ],
        [
          'ofx1/malformed-date-missing.ofx',
          'USD',
          [
            /<STMTTRN> at line 33 \(FITID 184997056\): DTPOSTED is missing/,
            /<STMTTRN> at line 40 \(FITID 2000957249\): DTPOSTED: the date is empty/,
            /<STMTTRN> at line 48 \(FITID 2000957249\): DTPOSTED: "20120231" is not a calendar date/,
          ],
        ],
        ['camt053/genkgo-camt053-v02-malformed-no-stmt.xml', 'EUR', [/<BkToCstmrStmt> at line 3: the camt\.053 message has no <Stmt>/]],
        ['mt940/malformed-german-sepa-broken.sta', 'EUR', [/line 6: :25: \(account identification\) inside the statement's entries/]],
        // anonymised to the point of uselessness: every date is 1111/11/11
        [
          'csv/ceska-sporitelna-cz-cp1250-anonymised.csv',
          'CZK',
          [/line 2: date "1111\/11\/11" \(1111-11-11\) is outside the plausible range 1950-01-01\.\.2199-12-31/, /line 10: date "1111\/11\/11"/],
        ],
      ];
      for (const [file, currency, patterns] of cases) {
        const target = await account(store(), currency);
        for (const options of [{}, { allowUnbalanced: true }] satisfies ImportOptions[])
          await expectRefusal(store(), { account: target, bytes: fixture(file), options }, 'malformed', ...patterns);
      }
    });

    it('refuses a statement in another currency than the account', async () => {
      const target = await account(store(), 'USD');
      await expectRefusal(
        store(),
        { account: target, bytes: fixture('ofx1/ofxparse-bank-medium-cad-tz.ofx') },
        'wrong_currency',
        /account "Refusal \d+" is in USD but the statement is not: <STMTRS> at line 13: the statement is in CAD/,
      );
      const pounds = await account(store(), 'GBP');
      await expectRefusal(
        store(),
        { account: pounds, bytes: fixture('camt053/vr-bank-de-camt053-v02-zka-codes.xml') },
        'wrong_currency',
        /<Stmt> at line 13 .*: the statement is in EUR/,
      );
      // a CSV row in another currency than its statement
      const csv = Buffer.from('Date,Description,Amount,Currency\n2026-01-02,Coffee,-3.50,GBP\n2026-01-03,Hotel,-120.00,EUR\n');
      await expectRefusal(store(), { account: pounds, bytes: csv }, 'malformed', /line 3: the row is in EUR but the statement is in GBP/);
    });

    it('refuses a statement of another account, and a file of several accounts for an account without a number', async () => {
      const other = await account(store(), 'GBP', '99887766');
      await expectRefusal(
        store(),
        { account: other, bytes: ofxStatement([['F1', '20260105', '-1.00', 'X']]) },
        'wrong_account',
        /not about account "Refusal \d+" \(number 99887766\): <STMTRS> at line 12: account 12345678/,
      );
      const unnumbered = await account(store(), 'GBP');
      await expectRefusal(
        store(),
        { account: unnumbered, bytes: fixture('ofx2/multiple-accounts-gbp.ofx') },
        'wrong_account',
        /holds statements for 3 accounts \(54658222458596, 546582659855, 21252344525548\) and account "Refusal \d+" has no number/,
      );
    });

    it(
      'refuses a file whose second statement does not reconcile when asked, writing nothing of the first either; by default imports it with the ' +
        'difference shown',
      async () => {
        const target = await account(store(), 'EUR', 'DE02 1203 0000 0000 2020 51');
        const bytes = camt053([
          { opening: '100.00', closing: '150.00', entries: [['50.00', 'CRDT', 'R1']] },
          {
            opening: '150.00',
            closing: '140.00',
            entries: [
              ['20.00', 'DBIT', 'R2'],
              ['5.00', 'CRDT', 'R3'],
            ],
          },
        ]);
        const refusal = await expectRefusal(
          store(),
          { account: target, bytes, options: { refuseUnbalanced: true } },
          'unbalanced',
          /--refuse-unbalanced/,
          new RegExp(
            String.raw`<Stmt> at line \d+ \(Stmt 2, Id S1\): opening balance 150\.00 EUR .* plus the 2 ` +
              String.raw`entries \(-15\.00 EUR\) is 135\.00 EUR, but the closing balance is 140\.00 EUR .` +
              String.raw`*: 5\.00 EUR unexplained`,
          ),
        );
        assert.equal(refusal.problems.length, 1);
        const report = await importStatement(store(), { organisation: ORG_ROW!, account: target, fileName: 's.xml', bytes, options: { rate: '0.85' } });
        assert.deepEqual(
          report.statements.map((s) => [s.balances.check, s.balances.computedClosing, s.balances.statementClosing, s.balances.difference]),
          [
            ['reconciled', 15_000, 15_000, 0],
            ['unbalanced_allowed', 13_500, 14_000, 500],
          ],
        );
        assert.equal(report.new, 3);
        // the account counts from the first statement's opening; the second's own lines leave 5.00 unexplained, from its first day
        assert.equal(report.accountBalance, 13_500);
        assert.deepEqual(
          [report.balanceState.incompleteFrom, report.balanceState.unexplained],
          [report.statements[1]!.period.from ?? report.balanceState.problems[0]!.from, 500],
        );
      },
    );

    it('refuses an oversized file before reading it', async () => {
      const target = await account(store(), 'GBP');
      const big = Buffer.alloc(DEFAULT_MAX_BYTES + 1, 0x20);
      await expectRefusal(
        store(),
        { account: target, bytes: big },
        'too_large',
        new RegExp(`the file is ${DEFAULT_MAX_BYTES + 1} bytes, over the import limit of ${DEFAULT_MAX_BYTES} bytes`),
      );
      // the limit is the only check made: a valid file over a lower limit is refused just the same
      await expectRefusal(
        store(),
        { account: target, bytes: ofxStatement([['F1', '20260105', '-1.00', 'X']]), options: { maxBytes: 100 } },
        'too_large',
        /over the import limit of 100 bytes/,
      );
    });

    it('refuses XML entity expansion (billion laughs) and external entities before parsing', async () => {
      const target = await account(store(), 'EUR');
      const laughs = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE Document [',
        '  <!ENTITY lol "lol">',
        ...Array.from({ length: 9 }, (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
        ']>',
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&lol9;</AddtlNtryInf></Ntry></Stmt><' +
          '/BkToCstmrStmt></Document>',
      ].join('\n');
      await expectRefusal(
        store(),
        { account: target, bytes: Buffer.from(laughs) },
        'unsafe_xml',
        /line 2: the file has a document type declaration \(<!DOCTYPE …>\) declaring entities \(<!ENTITY …>\)/,
      );
      const external =
        `<?xml version="1.0"?>
<!DOCTYPE Document [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&xxe;</AddtlNtryInf></Ntry></Stmt></BkToCstmr` +
        `Stmt></Document>`;
      await expectRefusal(store(), { account: target, bytes: Buffer.from(external) }, 'unsafe_xml', /line 2: .*declaring entities/);
      // the same in an OFX 2 file, and given the format explicitly
      const ofx2 =
        `<?xml version="1.0" encoding="UTF-8"?>
<?OFX OFXHEADER="200" VERSION="200" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<!DOCTYPE OFX [ <!ENTITY xxe SYSTEM "http://attacker.example/x"> ]>
<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKTRANLIST><STMTTRN><TRNTYPE>OTHER</TRNTYPE><DTPOSTED>20260101</DTPOSTED><TRNAMT>-1.00</TR` +
        `NAMT><FITID>1</FITID><NAME>&xxe;</NAME></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
      await expectRefusal(store(), { account: target, bytes: Buffer.from(ofx2), options: { format: 'ofx' } }, 'unsafe_xml', /line 3: .*declaring entities/);
    });

    it('leaves an undeclared entity reference as text: no entity is ever expanded', async () => {
      const target = await account(store(), 'EUR', 'DE02120300000000202051');
      const bytes = Buffer.from(
        camt053([{ opening: '0.00', closing: '1.00', entries: [['1.00', 'CRDT', 'E1']] }])
          .toString()
          .replace('<AddtlNtryInf>Entry E1</AddtlNtryInf>', '<AddtlNtryInf>Fish &amp; chips &#x263A; &xxe;</AddtlNtryInf>'),
      );
      await importStatement(store(), { organisation: ORG_ROW!, account: target, fileName: 'e.xml', bytes, options: { rate: '0.85' } });
      const row = await store().db.selectFrom('bank_transactions').select('description').where('bank_account_id', '=', target.id).executeTakeFirstOrThrow();
      assert.equal(row.description, 'Fish & chips ☺ &xxe;');
    });

    it('refuses a bank id imported before with another date or amount, and one id given to two different transactions in a file', async () => {
      const target = await account(store(), 'GBP', '12345678');
      await importStatement(store(), {
        organisation: ORG_ROW!,
        account: target,
        fileName: 'a.ofx',
        bytes: ofxStatement([
          ['T1', '20260105', '-10.00', 'Taxi'],
          ['T2', '20260106', '-4.20', 'Coffee'],
        ]),
      });
      await expectRefusal(
        store(),
        {
          account: target,
          bytes: ofxStatement([
            ['T2', '20260106', '-4.25', 'Coffee'],
            ['T3', '20260107', '-1.00', 'Bus'],
          ]),
        },
        'conflict',
        /<STMTTRN> at line 14 \(FITID T2\): bank id T2 was imported before for 2026-01-06, -4\.20 GBP; this file says 2026-01-06, -4\.25 GBP/,
      );
      await expectRefusal(
        store(),
        {
          account: target,
          bytes: ofxStatement([
            ['T9', '20260110', '-1.00', 'Bus'],
            ['T9', '20260111', '-1.00', 'Bus'],
          ]),
        },
        'malformed',
        /<STMTTRN> at line 15 \(FITID T9\): bank id T9 is also used by <STMTTRN> at line 14 \(FITID T9\) for another date or amount/,
      );
      // listed twice with the same content: one transaction, the repeat reported as skipped
      const report = await importStatement(store(), {
        organisation: ORG_ROW!,
        account: target,
        fileName: 'c.ofx',
        bytes: ofxStatement([
          ['T8', '20260110', '-2.00', 'Tram'],
          ['T8', '20260110', '-2.00', 'Tram'],
        ]),
      });
      assert.equal(report.new, 1);
      assert.deepEqual(report.skipped, [
        { where: '<STMTTRN> at line 15 (FITID T8)', reason: 'the same transaction (bank id T8) as <STMTTRN> at line 14 (FITID T8)' },
      ]);
    });

    it('refuses files it cannot tell or read: binary, an unknown CSV layout, ambiguous dates and decimal marks', async () => {
      const target = await account(store(), 'GBP');
      await expectRefusal(store(), { account: target, bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x01]) }, 'unsupported_format', /give --format/);
      await expectRefusal(
        store(),
        { account: target, bytes: Buffer.from('Foo,Bar\n1,2\n') },
        'unsupported_format',
        /no header with a date column and an amount/,
      );
      await expectRefusal(
        store(),
        { account: target, bytes: Buffer.from('Date,Description,Amount\n01/02/2026,A,-1.00\n03/04/2026,B,-2.00\n') },
        'malformed',
        /dates such as "01\/02\/2026" \(line 2\) read as 2026-02-01 with dd\/MM\/yyyy but 2026-01-02 with MM\/dd\/yyyy; give the date format/,
      );
      await expectRefusal(
        store(),
        { account: target, bytes: Buffer.from('Date,Description,Amount\n2026-02-01,A,"1,000"\n2026-02-02,B,-2\n') },
        'bad_options',
        /line 2: "1,000" could be read with a decimal point or a decimal comma/,
      );
      await expectRefusal(
        store(),
        { account: target, bytes: Buffer.from('Date,Posting Date,Amount\n2026-02-01,2026-02-01,-1.00\n') },
        'bad_options',
        /line 1: the header has several date columns \("Date", "Posting Date"\); say which one with --column date=NAME/,
      );
    });
  },
  async (store) => {
    ORG_ROW = await provisionOrganisation(store.db, { id: ORG, name: 'Refusals Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  },
);
