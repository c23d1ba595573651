/**
 * The suggested-match scorer (src/domain/match-suggestions.ts) on narrations as banks write them:
 * a name cut at the bank's width, a reference, a fee, a document in another currency, and the
 * look-alikes that must not be suggested (the same supplier's like bills, two suppliers whose names
 * begin alike, one document wanted by two lines).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreCandidate, suggestMatches, type LineToMatch, type MatchCandidate } from '../../src/domain/match-suggestions.js';
import { findName, nameForms, readNarration } from '../../src/domain/match-text.js';
import { renderText } from '../../src/mcp/text-rendering.js';

const line = (id: string, date: string, description: string, amount: number, extra: Partial<LineToMatch> = {}): LineToMatch => ({
  id,
  date,
  description,
  amount,
  homeAmount: amount,
  currency: 'GBP',
  ...extra,
});
const bill = (
  id: string,
  supplier: string,
  number: string,
  date: string,
  dueDate: string | null,
  amount: number,
  extra: Partial<MatchCandidate> = {},
): MatchCandidate => ({
  id,
  kind: 'bill',
  supplier,
  number,
  date,
  dueDate,
  currency: 'GBP',
  amount,
  homeAmount: amount,
  ...extra,
});

describe('supplier names in bank narrations', () => {
  const found = (narration: string, supplier: string) => findName(readNarration(narration), nameForms(supplier)[0]!);

  it('finds a name cut at the bank width, shortened words and legal suffixes left out, accents and umlauts as banks write them', () => {
    assert.deepEqual(found('CARD PURCHASE ACME HARDWA', 'Acme Hardware Ltd'), { fit: 'cut', share: 10 / 12, quoted: 'ACME HARDWA', atWordEnd: false });
    assert.equal(found('FPO ACME HARDWARE LTD INV1042', 'Acme Hardware Ltd')?.fit, 'whole');
    assert.equal(found('FPO ACME HARD SUPPLIES LTD', 'Acme Hardware Supplies Ltd')?.fit, 'cut');
    assert.equal(found('SEPA CT MUELLER BUROBEDARF', 'Müller Bürobedarf GmbH')?.fit, 'whole');
    assert.equal(found('INTL PAYMENT OSTERGAARD DESIGN', 'Østergaard Design ApS')?.fit, 'whole');
    assert.equal(found('ACMEHARDWARE LONDON', 'Acme Hardware')?.fit, 'whole');
  });

  it('does not take the bank’s own words, a fragment or a common word for a name', () => {
    assert.equal(found('DIRECT DEBIT 88213', 'Direct Line Insurance plc'), undefined);
    assert.equal(found('CARD PURCHASE ACM', 'Acme Hardware Ltd'), undefined);
    assert.equal(found('FPO GLOBAL 1042', 'Global Widgets Ltd'), undefined);
    assert.equal(found('NORTHWIND TRAVEL 123', 'Northwind Traders Ltd')?.fit, 'part');
  });
});

describe('scoring one line against one document', () => {
  it('says in words why a cut narration with the invoice number is the bill it pays', () => {
    const scored = scoreCandidate(
      line('l', '2026-03-14', 'FPO ACME HARDWA INV1042', -12050),
      bill('d', 'Acme Hardware Ltd', 'INV-1042', '2026-02-10', '2026-03-11', 12050),
    );
    assert.deepEqual(scored?.reasons, [
      'amount equal 120.50 GBP',
      "supplier name 'ACME HARDWA' in the narration",
      'invoice number INV-1042 in the narration',
      'paid 3 days after the due date',
    ]);
    assert.ok(scored!.score >= 95 && scored!.score <= 100, `${scored!.score}`);
  });

  it('compares a document in another currency by home amounts, the line at the day’s rate', () => {
    // 100.00 EUR booked at 0.86 (86.00 GBP); paid a day later as 86.51 GBP from the pound account
    const receipt: MatchCandidate = {
      id: 'r',
      kind: 'receipt',
      supplier: 'Café Noir SARL',
      number: 'R-77',
      date: '2026-05-02',
      dueDate: null,
      currency: 'EUR',
      amount: 10_000,
      homeAmount: 8_600,
    };
    const scored = scoreCandidate(line('l', '2026-05-03', 'CARD PURCHASE CAFE NOIR PARIS', -8_651), receipt);
    assert.deepEqual(scored?.reasons, [
      "amount 86.51 GBP for 100.00 EUR converted, 0.6% apart at the day's rate",
      "supplier name 'CAFE NOIR' in the narration",
      "paid 1 day after the receipt's date",
    ]);
    assert.equal(scored!.amountFits, true);
    // 10% apart is not the same money
    assert.equal(scoreCandidate(line('l', '2026-05-03', 'CARD PURCHASE CAFE NOIR', -9_460), receipt)?.amountFits, false);
  });

  it('takes a payment a bank fee larger as the bill’s, and a line the wrong way or before the bill as nobody’s', () => {
    const owed = bill('d', 'Nordic Hardware AB', 'NH-5531', '2026-01-05', '2026-02-04', 250_000);
    const withFee = scoreCandidate(line('l', '2026-02-04', 'INTL PAYMENT NH-5531 NORDIC HARDWARE', -250_750), owed);
    assert.equal(withFee?.reasons[0], "amount 2,507.50 GBP, 7.50 GBP more than the bill's 2,500.00 GBP (a bank fee?)");
    assert.equal(scoreCandidate(line('l', '2026-02-04', 'NORDIC HARDWARE REFUND', 250_000), owed), undefined);
    assert.equal(scoreCandidate(line('l', '2025-12-20', 'FPO NORDIC HARDWARE', -250_000), owed), undefined);
  });
});

describe('which lines are flagged', () => {
  it('flags the one clear candidate, and leaves a line whose amount alone agrees unflagged', () => {
    const docs = [
      bill('d1', 'Kestrel Cloud Hosting Ltd', 'KC-1001', '2026-03-01', '2026-03-31', 23_027),
      bill('d2', 'Orbit Telecom plc', 'OT-77', '2026-03-02', '2026-04-01', 5_400),
    ];
    const s = suggestMatches([line('a', '2026-03-31', 'DD KESTREL CLOUD HOS', -23_027), line('b', '2026-04-01', 'TFR 00918273', -5_400)], docs);
    assert.equal(s.get('a')?.candidateId, 'd1');
    assert.equal(s.get('a')?.suggested, true);
    assert.equal(s.get('b')?.suggested ?? false, false, 'the amount and date agree, nothing names Orbit');
  });

  it('does not flag a near-duplicate: the same supplier and amount in two months, a payment between their due dates', () => {
    const april = bill('apr', 'Brightwater Utilities plc', 'BW-0401', '2026-04-01', '2026-05-01', 8_450);
    const may = bill('may', 'Brightwater Utilities plc', 'BW-0501', '2026-05-01', '2026-05-31', 8_450);
    const s = suggestMatches([line('l', '2026-05-02', 'FPO BRIGHTWATER UTIL', -8_450)], [april, may]);
    assert.equal(s.get('l')?.suggested, false);
    assert.match(s.get('l')!.reasons.at(-1)!, /^not suggested: bill BW-0\d01 from Brightwater Utilities plc fits almost as well/);
    // with its invoice number the payment is the April bill's
    const named = suggestMatches([line('l', '2026-05-02', 'FPO BRIGHTWATER BW-0401', -8_450)], [april, may]);
    assert.deepEqual([named.get('l')?.candidateId, named.get('l')?.suggested], ['apr', true]);
  });

  it('does not flag a narration cut before two suppliers’ names part', () => {
    const docs = [
      bill('t1', 'Northwind Traders Ltd', 'A-1', '2026-06-01', '2026-06-30', 48_000),
      bill('t2', 'Northwind Travel GmbH', 'B-9', '2026-06-03', '2026-07-02', 48_000),
    ];
    assert.equal(suggestMatches([line('l', '2026-06-30', 'FPO NORTHWIND TRA', -48_000)], docs).get('l')?.suggested, false);
  });

  it('gives a document wanted by two lines to the better one, and each of a supplier’s monthly bills to its own month', () => {
    const doc = bill('d', 'Pixel Perfect Studio', 'PP-310', '2026-02-01', '2026-03-01', 31_000);
    const s = suggestMatches(
      [line('good', '2026-03-01', 'FPO PIXEL PERFECT PP-310', -31_000), line('weak', '2026-03-03', 'FPO PIXEL PERFECT', -31_000)],
      [doc],
    );
    assert.deepEqual([s.get('good')?.suggested, s.get('weak')?.suggested ?? false], [true, false]);

    // a direct debit collected on each bill's due date: every line flagged with its own month's bill
    const months = ['2026-01-05', '2026-02-05', '2026-03-05'].map((d, i) => bill(`m${i}`, 'Figma Inc', '', d, d.replace(/05$/, '12'), 4_500));
    const lines = months.map((m, i) => line(`l${i}`, m.dueDate!, 'DD FIGMA', -4_500));
    const monthly = suggestMatches(lines, months);
    assert.deepEqual(
      lines.map((l) => [monthly.get(l.id)?.candidateId, monthly.get(l.id)?.suggested]),
      [
        ['m0', true],
        ['m1', true],
        ['m2', true],
      ],
    );
  });
});

describe('suggestions in the MCP text of banking.transactions', () => {
  it('shows a suggestion as columns, none where a line has none, and never says every row has none', () => {
    const row = (id: string, suggestion: unknown) => ({ id, suggestedMatch: suggestion !== null, suggestion });
    const text = renderText({
      transactions: [
        row('a', { documentId: 'doc_1', score: 78, reasons: ['amount equal 230.27 GBP', 'paid on the due date'], number: 'KC-2231' }),
        row('b', null),
      ],
    });
    assert.doesNotMatch(text, /none in every row: .*suggestion/);
    assert.match(text, /\| a \| true \| doc_1 \| 78 \| amount equal 230\.27 GBP; paid on the due date \| KC-2231 \|/);
    assert.match(text, /\| b \| false \| none \| none \| none \| none \|/);
  });
});
