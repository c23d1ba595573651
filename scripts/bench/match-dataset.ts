/**
 * A generated month-by-month history of bank lines and the documents they pay, with the true pairs
 * known, for npm run bench:suggestions. What makes matching hard is put in on purpose: narrations
 * as banks write them (their own words first, upper case, no diacritics, words shortened, cut at 18
 * to 22 characters), fees on payments abroad, documents in other currencies paid at the day's rate,
 * the same supplier billing the same amount every month, suppliers whose names begin alike, lines
 * no document explains, and documents no line has paid yet.
 */
import { addDays, daysBetween } from '../../src/domain/dates.js';
import type { CandidateKind, LineToMatch, MatchCandidate } from '../../src/domain/match-suggestions.js';
import { Random } from '../../src/demo/random.js';

export type Category =
  | 'shared name prefix'
  | 'bill with reference'
  | 'direct debit, monthly'
  | 'card receipt'
  | 'fee on a payment'
  | 'foreign document'
  | 'foreign account'
  | 'refund of a credit'
  | 'expense claim';

export interface Dataset {
  lines: (LineToMatch & { truth: string | null; category: Category | 'no document' })[];
  candidates: MatchCandidate[];
}

const SUPPLIERS = [
  'Acme Hardware Ltd',
  'Acme Hardware Supplies Ltd',
  'Northwind Traders Ltd',
  'Northwind Travel GmbH',
  'Blue Sky Software Inc',
  'Blue Sky Logistics Ltd',
  'Müller Bürobedarf GmbH',
  'Café Noir SARL',
  'Østergaard Design ApS',
  'Greenleaf Catering Ltd',
  'Harbour Lane Printers',
  'Kestrel Cloud Hosting Ltd',
  'Pinewood Facilities Management Ltd',
  'Redwood Legal LLP',
  'Summit Accountancy Services Ltd',
  'Lumen Electrical Contractors',
  'Orbit Telecom plc',
  'Quayside Couriers Ltd',
  'Brightwater Utilities plc',
  'Castle Insurance Brokers Ltd',
  'Figma Inc',
  'Atlassian Pty Ltd',
  'Adobe Systems Software Ireland Ltd',
  'Zenith Office Furniture Ltd',
  'Riverside Stationers',
  'Thames Valley Cleaning Co',
  'Oakridge IT Consultants Ltd',
  'Silverline Recruitment Ltd',
  'Meridian Marketing Group Ltd',
  'Copperfield Print & Design',
  'Évora Importações Lda',
  'Nordic Hardware AB',
  'Sakura Trading KK',
  'Global Widgets Ltd',
  'Jones & Sons Builders',
  'Fresh Fields Grocers',
  'Metro Parking Services',
  'Highland Water Coolers Ltd',
  'Pixel Perfect Studio',
  'Swift Van Hire Ltd',
];
const CARD_MERCHANTS = [
  'Riverside Stationers',
  'Fresh Fields Grocers',
  'Metro Parking Services',
  'Café Noir SARL',
  'Swift Van Hire Ltd',
  'Pixel Perfect Studio',
  'Greenleaf Catering Ltd',
  'Acme Hardware Ltd',
  'Acme Hardware Supplies Ltd',
  'Zenith Office Furniture Ltd',
];
const MONTHLY = [
  'Kestrel Cloud Hosting Ltd',
  'Orbit Telecom plc',
  'Brightwater Utilities plc',
  'Castle Insurance Brokers Ltd',
  'Highland Water Coolers Ltd',
  'Figma Inc',
  'Atlassian Pty Ltd',
  'Adobe Systems Software Ireland Ltd',
];
const ABROAD: [string, string][] = [
  ['Blue Sky Software Inc', 'USD'],
  ['Müller Bürobedarf GmbH', 'EUR'],
  ['Évora Importações Lda', 'EUR'],
  ['Nordic Hardware AB', 'EUR'],
  ['Sakura Trading KK', 'USD'],
  ['Northwind Travel GmbH', 'EUR'],
  ['Café Noir SARL', 'EUR'],
];
const EMPLOYEES = ['Jane Smith', 'Tomás Ó Briain', 'Priya Raman', 'Lukas Weiß'];
const NOISE = [
  'SALARY PAYMENT MARCH',
  'HMRC VAT',
  'HMRC PAYE',
  'TFR TO SAVINGS',
  'INTEREST PAID',
  'BANK CHARGES',
  'CARD PURCHASE TESCO STORES 2231',
  'AMAZON MKTPLACE',
  'UBER *TRIP',
  'PRET A MANGER',
  'TFL TRAVEL CHARGE',
  'ATM WITHDRAWAL',
  'BGC CUSTOMER RECEIPT',
];
const RATES: Record<string, number> = { USD: 0.79, EUR: 0.86 };

const HOME = 'GBP';
const START = '2025-01-01';

function upperPlain(text: string, rng: Random): string {
  // some banks write ü as UE, most drop the accent
  const de = rng.chance(0.4) ? text.replace(/ü/g, 'ue').replace(/ö/g, 'oe').replace(/ä/g, 'ae') : text;
  return de
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'O')
    .replace(/ß/g, 'SS')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

/** A supplier's name as a bank writes it: suffix kept or not, a word perhaps shortened. */
function bankName(name: string, rng: Random): string {
  let words = upperPlain(name, rng).split(' ');
  if (rng.chance(0.6)) words = words.filter((w) => !['LTD', 'LIMITED', 'PLC', 'GMBH', 'INC', 'SARL', 'LLP', 'PTY', 'AB', 'KK', 'LDA', 'APS', 'CO'].includes(w));
  if (words.length > 1 && rng.chance(0.2)) {
    const i = rng.int(1, words.length - 1);
    if (words[i]!.length > 5) words[i] = words[i]!.slice(0, rng.int(3, words[i]!.length - 2));
  }
  return words.join(' ');
}

/** The bank's width: most narrations are cut at 18 to 22 characters. */
const cut = (text: string, rng: Random) => (rng.chance(0.6) ? text.slice(0, rng.int(18, 22)).trim() : text);

export function generate(seed: string, size = 1000): Dataset {
  const rng = new Random(`match-suggestions:${seed}`);
  const lines: Dataset['lines'] = [];
  const candidates: MatchCandidate[] = [];
  let n = 0;
  const id = (prefix: string) => `${prefix}_${String(++n).padStart(5, '0')}`;
  const dayIn = (from: number, to: number) => addDays(START, rng.int(from, to));
  const money = (min: number, max: number) => rng.int(min, max) * (rng.chance(0.5) ? 100 : 1) + rng.int(0, 99);
  let invoice = 1000;
  const doc = (kind: CandidateKind, supplier: string, date: string, amount: number, currency = HOME, rate = 1): MatchCandidate => {
    const due = kind === 'bill' || kind === 'expense_claim' ? addDays(date, rng.pick([14, 30, 30, 30, 45])) : null;
    const numbers = [`INV-${++invoice}`, `${++invoice}`, `SI${String(++invoice).padStart(6, '0')}`, `${supplier.slice(0, 2).toUpperCase()}/${invoice++}`];
    const c: MatchCandidate = {
      id: id('doc'),
      kind,
      supplier,
      number: rng.pick(numbers),
      date,
      dueDate: due,
      currency,
      amount,
      homeAmount: currency === HOME ? amount : Math.round(amount * rate),
    };
    candidates.push(c);
    return c;
  };
  const line = (
    account: string,
    c: MatchCandidate | null,
    category: Dataset['lines'][number]['category'],
    date: string,
    amount: number,
    description: string,
    homeAmount = amount,
  ) => lines.push({ id: id('btx'), date, description, amount, homeAmount, currency: account, truth: c?.id ?? null, category });
  const payDate = (c: MatchCandidate) => {
    const paid = addDays(c.dueDate ?? c.date, rng.pick([-20, -10, -3, 0, 0, 1, 2, 5, 12, 30]));
    return paid < c.date ? c.date : paid;
  };
  const ref = (c: MatchCandidate) => (rng.chance(0.5) ? c.number : c.number.replace(/\D/g, ''));
  const drift = () => 1 + (rng.next() - 0.5) * 0.03;
  const share = (fraction: number) => Math.round(size * fraction);

  // bills paid by transfer with the invoice number as reference, name first or reference first
  for (let i = 0; i < share(0.2); i++) {
    const c = doc('bill', rng.pick(SUPPLIERS), dayIn(0, 640), money(40, 4000));
    const text = rng.chance(0.7)
      ? `${rng.pick(['FPO', 'BACS', 'FP', 'BILL PAYMENT TO'])} ${bankName(c.supplier, rng)} ${ref(c)}`
      : `${rng.pick(['FPO', 'BP'])} ${ref(c)} ${bankName(c.supplier, rng)}`;
    line(HOME, c, 'bill with reference', payDate(c), -c.amount, cut(text, rng));
  }
  // the same supplier, the same amount, every month, by direct debit; the last month's bill not yet paid
  for (const supplier of MONTHLY) {
    const amount = money(15, 400);
    const first = rng.int(0, 60);
    for (let m = 0; m < Math.round(share(0.11) / MONTHLY.length); m++) {
      const c = doc('bill', supplier, addDays(START, first + m * 30), amount);
      // a direct debit's bill is due on the day it is collected
      c.dueDate = addDays(c.date, rng.int(3, 10));
      const text = `${rng.pick(['DD', 'DIRECT DEBIT'])} ${bankName(supplier, rng)}${rng.chance(0.3) ? ` ${ref(c)}` : ''}`;
      line(HOME, c, 'direct debit, monthly', addDays(c.dueDate, rng.pick([0, 0, 0, 1, 2])), -amount, cut(text, rng));
    }
  }
  // card purchases with their receipts
  for (let i = 0; i < share(0.18); i++) {
    const c = doc('receipt', rng.pick(CARD_MERCHANTS), dayIn(0, 640), money(3, 300));
    const text = `${rng.pick([
      'CARD PURCHASE',
      'POS',
      'VISA',
      'CONTACTLESS',
      'CARD PAYMENT TO',
    ])} ${bankName(c.supplier, rng)}${rng.chance(0.3) ? ` ${rng.pick(['LONDON', 'GB', 'ON 12 MAR'])}` : ''}`;
    line(HOME, c, 'card receipt', addDays(c.date, rng.pick([0, 0, 1, 1, 2, 3])), -c.amount, cut(text, rng));
  }
  // payments abroad with the bank's fee added to the line
  for (let i = 0; i < share(0.06); i++) {
    const c = doc('bill', rng.pick(SUPPLIERS), dayIn(0, 640), rng.int(10_000, 500_000));
    // a payment abroad costs a fixed charge, small beside the bill
    const fee = Math.min(rng.pick([50, 150, 500, 750, 1000, 1500]), Math.floor(c.amount * 0.04));
    const text = `${rng.pick(['INTL PAYMENT', 'CHAPS', 'FPO'])} ${rng.chance(0.8) ? `${ref(c)} ` : ''}${bankName(c.supplier, rng)}`;
    line(HOME, c, 'fee on a payment', payDate(c), -(c.amount + fee), cut(text, rng));
  }
  // documents in another currency paid from the home account at the day's rate
  for (let i = 0; i < share(0.1); i++) {
    const [supplier, currency] = rng.pick(ABROAD);
    const kind = rng.chance(0.7) ? 'bill' : 'receipt';
    const c = doc(kind, supplier, dayIn(0, 640), money(20, 3000), currency, RATES[currency]! * drift());
    const paid = kind === 'receipt' ? addDays(c.date, rng.int(0, 2)) : payDate(c);
    const home = Math.round(c.amount * RATES[currency]! * drift());
    const text = `${kind === 'receipt' ? 'CARD PURCHASE' : 'INTL PAYMENT'} ${bankName(supplier, rng)}${kind === 'bill' && rng.chance(0.5) ? ` ${ref(c)}` : ''}`;
    line(HOME, c, 'foreign document', paid, -home, cut(text, rng));
  }
  // a euro account paying euro bills: the same currency, exact
  for (let i = 0; i < share(0.04); i++) {
    const [supplier] = rng.pick(ABROAD.filter(([, cur]) => cur === 'EUR'));
    const c = doc('bill', supplier, dayIn(0, 640), money(50, 2000), 'EUR', RATES.EUR! * drift());
    line(
      'EUR',
      c,
      'foreign account',
      payDate(c),
      -c.amount,
      cut(`SEPA CT ${bankName(supplier, rng)} ${ref(c)}`, rng),
      -Math.round(c.amount * RATES.EUR! * drift()),
    );
  }
  // refunds of supplier credits (money in)
  for (let i = 0; i < share(0.03); i++) {
    const c = doc('supplier_credit', rng.pick(SUPPLIERS), dayIn(0, 640), money(10, 800));
    line(
      HOME,
      c,
      'refund of a credit',
      addDays(c.date, rng.int(2, 40)),
      c.amount,
      cut(`${rng.pick(['BGC', 'REFUND', 'FPI'])} ${bankName(c.supplier, rng)}${rng.chance(0.5) ? ` ${ref(c)}` : ''}`, rng),
    );
  }
  // expense claims paid to employees
  for (let i = 0; i < share(0.03); i++) {
    const employee = rng.pick(EMPLOYEES);
    const c = doc('expense_claim', employee, dayIn(0, 640), money(10, 600));
    const [first, last] = employee.split(' ');
    line(
      HOME,
      c,
      'expense claim',
      payDate(c),
      -c.amount,
      cut(`FPO ${upperPlain(`${first![0]} ${last}`, rng)} EXPENSES${rng.chance(0.5) ? ` ${ref(c)}` : ''}`, rng),
    );
  }
  // two suppliers whose names begin alike, each with a bill for the same amount, and a narration cut before they differ
  const LOOKALIKE: [string, string][] = [
    ['Northwind Traders Ltd', 'Northwind Travel GmbH'],
    ['Acme Hardware Ltd', 'Acme Hardware Supplies Ltd'],
    ['Blue Sky Software Inc', 'Blue Sky Logistics Ltd'],
  ];
  for (let i = 0; i < share(0.015); i++) {
    const [a, b] = rng.pick(LOOKALIKE);
    const date = dayIn(0, 600);
    const amount = money(50, 2000);
    const paid = doc('bill', rng.chance(0.5) ? a : b, date, amount);
    doc('bill', paid.supplier === a ? b : a, addDays(date, rng.int(-10, 10)), amount);
    // cut where the two names part: nothing in the narration tells them apart
    const [x, y] = [upperPlain(a, rng), upperPlain(b, rng)];
    let common = 0;
    while (x[common] === y[common]) common++;
    line(HOME, paid, 'shared name prefix', payDate(paid), -amount, `FPO ${x.slice(0, common).trim()}`);
  }
  const paired = lines.length;
  // a monthly supplier's direct debit whose bill nobody uploaded: last month's bill, paid already, is the same amount
  for (let i = 0; i < share(0.02); i++) {
    const series = candidates.filter((c) => c.supplier === MONTHLY[i % MONTHLY.length]);
    const last = series.at(-1)!;
    line(HOME, null, 'no document', addDays(last.date, rng.int(28, 33)), -last.amount, cut(`DD ${bankName(last.supplier, rng)}`, rng));
  }
  // the same card charge twice in a day, one receipt kept
  for (let i = 0; i < share(0.01); i++) {
    const receipts = lines.filter((l) => l.category === 'card receipt');
    const twin = receipts[rng.int(0, receipts.length - 1)]!;
    line(HOME, null, 'no document', twin.date, twin.amount, twin.description);
  }
  // documents nobody has paid yet: some for an amount a line of another supplier has, some from suppliers with a look-alike name
  for (let i = 0; i < share(0.2); i++) {
    const twin = rng.chance(0.3) ? lines[rng.int(0, paired - 1)] : undefined;
    const amount = twin && twin.currency === HOME && twin.amount < 0 ? -twin.amount : money(20, 3000);
    doc(rng.chance(0.8) ? 'bill' : 'receipt', rng.pick(SUPPLIERS), twin ? addDays(twin.date, -rng.int(0, 40)) : dayIn(0, 640), amount);
  }
  // lines no document explains: wages, tax, transfers, card spending nobody kept a receipt for, some at a document's amount
  while (lines.length < size) {
    const twin = rng.chance(0.25) ? candidates[rng.int(0, candidates.length - 1)] : undefined;
    const amount = twin && twin.currency === HOME ? twin.amount : money(5, 2500);
    const text = rng.chance(0.5) ? rng.pick(NOISE) : `CARD PURCHASE ${bankName(rng.pick(CARD_MERCHANTS), rng)}`;
    const date = twin ? addDays(twin.date, rng.int(0, 20)) : dayIn(0, 660);
    line(HOME, null, 'no document', date, rng.chance(0.1) ? amount : -amount, cut(text, rng));
  }
  return { lines: lines.filter((l) => daysBetween(START, l.date) >= 0), candidates };
}
