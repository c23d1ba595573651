/**
 * Exact money in the Xero and QuickBooks connectors (domain/money.ts fromMajorRounded, convertMajor,
 * inverseRate, divideWhole): a vendor's decimal (a JSON number or text) read exactly into minor units,
 * amounts converted at a vendor's rate with integer arithmetic and rounded once, half up (toward +∞,
 * as Math.round did before). Each amount below is one where the old float arithmetic was a cent off.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { convertMajor, divideWhole, fromMajorRounded, inverseRate, toMajor } from '../../src/domain/money.js';
import { postTransaction } from '../../src/accounting/quickbooks/lines.js';
import { NO_PURCHASE_ACCOUNTS } from '../../src/accounting/quickbooks/purchases.js';
import { quickBooksPayable } from '../../src/accounting/quickbooks/reader.js';
import { xeroDocuments } from '../../src/accounting/xero/documents.js';
import { xeroPayable } from '../../src/accounting/xero/reader.js';

describe('vendor money: decimals to minor units', () => {
  it('reads a JSON number by its decimal text, not by the double below it (1.005 GBP is 101 pence)', () => {
    assert.equal(fromMajorRounded(1.005, 'GBP'), 101);
    assert.equal(fromMajorRounded('1.005', 'GBP'), 101);
    assert.equal(fromMajorRounded(123.45, 'GBP'), 12_345);
    assert.equal(fromMajorRounded(1.0049, 'GBP'), 100);
  });

  it('rounds half up, toward +∞, as Math.round did: negative amounts too', () => {
    assert.equal(fromMajorRounded(-1.005, 'GBP'), -100);
    assert.equal(fromMajorRounded(-1.0051, 'GBP'), -101);
    assert.equal(fromMajorRounded(-0.004, 'GBP'), 0);
    assert.equal(fromMajorRounded(-12.34, 'GBP'), -1234);
  });

  it("keeps the currency's own decimals: 3 for KWD, 0 for JPY", () => {
    assert.equal(fromMajorRounded(1.0005, 'KWD'), 1001);
    assert.equal(fromMajorRounded(12.345, 'KWD'), 12_345);
    assert.equal(fromMajorRounded(1234, 'JPY'), 1234);
    assert.equal(fromMajorRounded(0.5, 'JPY'), 1);
    assert.equal(fromMajorRounded(-0.5, 'JPY'), 0);
    assert.equal(fromMajorRounded(1234.4, 'JPY'), 1234);
  });

  it('holds amounts near 10^13 minor units exactly', () => {
    assert.equal(fromMajorRounded(99_999_999_999.995, 'GBP'), 10_000_000_000_000);
    assert.equal(fromMajorRounded(-99_999_999_999.995, 'GBP'), -9_999_999_999_999);
    assert.equal(fromMajorRounded(99_999_999_999.99, 'GBP'), 9_999_999_999_999);
    assert.equal(fromMajorRounded('9999999999999', 'JPY'), 9_999_999_999_999);
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 1e13 }), (minor) => fromMajorRounded(toMajor(minor, 'GBP'), 'GBP') === minor));
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 1e13 }), (minor) => fromMajorRounded(toMajor(minor, 'KWD'), 'KWD') === minor));
  });

  it('refuses what is not a decimal or not a safe integer of minor units', () => {
    assert.equal(fromMajorRounded(Number.NaN, 'GBP'), null);
    assert.equal(fromMajorRounded(Number.POSITIVE_INFINITY, 'GBP'), null);
    assert.equal(fromMajorRounded('1e3', 'GBP'), null, 'exponents only in the text of a number');
    assert.equal(fromMajorRounded('12,50', 'GBP'), null);
    assert.equal(fromMajorRounded(1.5e21, 'GBP'), null);
    assert.equal(fromMajorRounded(1e-7, 'GBP'), 0, "a number's exponent form is read exactly");
  });
});

describe('vendor money: conversion at a rate', () => {
  it('multiplies exactly and rounds once, half up (0.29 × 0.5 is 0.145: 15 cents, not 14)', () => {
    assert.equal(convertMajor(0.29, 0.5, 'times', 'USD'), 15);
    assert.equal(convertMajor(-0.29, 0.5, 'times', 'USD'), -14);
    assert.equal(convertMajor(0.5, 1.15, 'times', 'USD'), 58);
    assert.equal(convertMajor(10, 0.307, 'times', 'KWD'), 3070);
  });

  it('divides exactly and rounds once (2.01 / 2 is 1.005: 101 pence)', () => {
    assert.equal(convertMajor(2.01, 2, 'per', 'GBP'), 101);
    assert.equal(convertMajor(100, 0.006712, 'per', 'JPY'), 14_899);
    assert.equal(convertMajor(-2.01, 2, 'per', 'GBP'), -100);
  });

  it('takes rates of six and more decimals and amounts near 10^13 minor units', () => {
    // 12345687193.19 × 1.234567 = 15241578001.0349987…; the double product rounds to …001.035
    assert.equal(convertMajor(12_345_687_193.19, 1.234567, 'times', 'USD'), 1_524_157_800_103);
    assert.equal(convertMajor('12345687193.19', '1.234567', 'times', 'USD'), 1_524_157_800_103);
    // 98765433811.29 / 1.3456789 = 73394502812.8850054…; the double quotient is …812.885 and rounded down
    assert.equal(convertMajor(98_765_433_811.29, 1.3456789, 'per', 'USD'), 7_339_450_281_289);
    assert.equal(convertMajor(98_765_435_031.74, 1.3456789, 'per', 'USD'), 7_339_450_371_982);
    assert.equal(convertMajor(1000, 1.2345675, 'times', 'USD'), 123_457);
    assert.equal(convertMajor(1, 0.00000123456789, 'times', 'USD'), 0);
  });

  it('refuses a rate that is not a positive decimal', () => {
    assert.equal(convertMajor(10, 0, 'times', 'USD'), null);
    assert.equal(convertMajor(10, -1, 'per', 'USD'), null);
    assert.equal(convertMajor(10, 'x', 'per', 'USD'), null);
    assert.equal(convertMajor(1e20, 1e10, 'times', 'USD'), null);
  });

  it('inverts a rate to six places, rounded half up; divides a line by its quantity only in whole minor units', () => {
    assert.equal(inverseRate('0.8', 6), '1.25');
    assert.equal(inverseRate('3', 6), '0.333333');
    assert.equal(inverseRate('1.5', 6), '0.666667');
    assert.equal(inverseRate('0.000007', 6), '142857.142857');
    assert.equal(inverseRate('0', 6), null);
    // 21 / 0.7 as doubles is 30.000000000000004: Xero was sent quantity 1 where 0.7 × 30 is exact
    assert.equal(divideWhole(21, '0.7'), 30);
    assert.equal(divideWhole(33, '1.1'), 30);
    assert.equal(divideWhole(-42, '0.7'), -60);
    assert.equal(divideWhole(10, '3'), null);
    assert.equal(divideWhole(10, '0'), null);
  });
});

describe('vendor money: in the connectors', () => {
  it("QuickBooks: a foreign bill's lines and what is left to pay are converted exactly (0.29 EUR at 0.5 is 15 cents)", () => {
    const bill = {
      Id: '7',
      TxnDate: '2026-01-05',
      CurrencyRef: { value: 'EUR' },
      ExchangeRate: 0.5,
      TotalAmt: 0.29,
      Balance: 0.29,
      Line: [{ Amount: 0.29, DetailType: 'AccountBasedExpenseLineDetail', AccountBasedExpenseLineDetail: { AccountRef: { value: '60' } } }],
    };
    const lines = postTransaction('Bill', bill, { homeCurrency: 'USD', payable: '33', purchases: NO_PURCHASE_ACCOUNTS });
    assert.deepEqual(
      lines.map((l) => [l.accountId, l.amount, l.amountInCurrency]),
      [
        ['60', 15, 29],
        ['33', -15, -29],
      ],
    );
    assert.equal(quickBooksPayable(bill, 'USD').amountDue, 15);
    assert.equal(
      quickBooksPayable({ ...bill, TotalAmt: 12_345_687_193.19, Balance: 12_345_687_193.19, ExchangeRate: 1.234567 }, 'USD').amountDue,
      1_524_157_800_103,
    );
  });

  it("Xero: a foreign bill's amount due divided by its CurrencyRate exactly, and a 4-decimal unit price read exactly", () => {
    const bill = {
      InvoiceID: 'b1',
      Type: 'ACCPAY',
      Status: 'AUTHORISED',
      Date: '/Date(1767571200000+0000)/',
      CurrencyCode: 'EUR',
      CurrencyRate: 2,
      Total: 2.01,
      AmountDue: 2.01,
    };
    assert.equal(xeroPayable(bill, 'GBP').amountDue, 101);
    assert.equal(xeroPayable(bill, 'GBP').originalAmount, 201);
    const [doc] = xeroDocuments(
      new Set(['b1']),
      [
        {
          ...bill,
          LineAmountTypes: 'Exclusive',
          SubTotal: 2.01,
          TotalTax: 0,
          LineItems: [{ Quantity: 2, UnitAmount: 1.005, LineAmount: 2.01, AccountCode: '400' }],
        },
      ],
      [],
      [{ AccountID: 'a400', Code: '400', Name: 'Purchases' }],
      'GBP',
    );
    assert.equal(doc!.invoiceLines[0]!.unitPrice, 101);
    assert.equal(doc!.invoiceLines[0]!.amount, 201);
  });
});

describe('vendor money: no float arithmetic on amounts in the connectors', () => {
  const FLOAT = [/Math\.round\(/, /parseFloat\(/, /\.toFixed\(/, /\* 100(?!\d)/, /\* 10 \*\*/, /[*/] rate\b/, /[*/] \(?1e\d/];
  // not amounts: milliseconds of a Retry-After wait (comment lines are not read)
  const ALLOWED = [/seconds \* 1000/];
  for (const dir of ['src/accounting/xero', 'src/accounting/quickbooks', 'src/accounting/mirror']) {
    it(`${dir} does money through domain/money.ts only`, () => {
      const found: string[] = [];
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'config.ts')) {
        readFileSync(`${dir}/${file}`, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (!/^\s*(\*|\/\/|\/\*)/.test(line) && FLOAT.some((re) => re.test(line)) && !ALLOWED.some((re) => re.test(line)))
              found.push(`${dir}/${file}:${i + 1}: ${line.trim()}`);
          });
      }
      assert.deepEqual(found, []);
    });
  }
});
