#!/usr/bin/python3
"""
Builds test/fixtures/gnucash/payables.gnucash (and payables-foreign.gnucash) through GnuCash's own Python bindings (run with the
system python: /usr/bin/python3 scripts/gnucash/make-payables.py), the book bills.list_to_pay is
proved against GnuCash's own Payable Aging report (scripts/gnucash/make-aging-reports.sh).

Open vendor bills, part payments, a credit note applied to a bill, an expense voucher part
reimbursed, bills paid in full (not listed), and bank and card splits some of which are reconciled.
Every transaction is dated on or before the report date, 2026-06-30, and every supplier's open
bills fall in different aging columns of the report, so each column of a supplier's row is one bill.

payables-foreign.gnucash: a pound book with a dollar bill posted to a dollar payable account at
1.25 dollars to the pound, part paid from a dollar account.

Amounts are pence (cents). Uses the Builder of make-book.py, so the books are made the same way.
"""
import datetime
import importlib.util
import os
import sys

from gnucash import GncNumeric, GncPrice
from gnucash.gnucash_business import Bill, Employee, Entry, TaxTable, TaxTableEntry, Vendor
from gnucash.gnucash_core_c import (
    ACCT_TYPE_ASSET, ACCT_TYPE_BANK, ACCT_TYPE_CREDIT, ACCT_TYPE_EQUITY, ACCT_TYPE_EXPENSE, ACCT_TYPE_LIABILITY,
    ACCT_TYPE_PAYABLE,
)

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('make_book', os.path.join(HERE, 'make-book.py'))
make_book = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_book)
D = datetime.date


def make_payables_book(b):
    A = b.account
    assets = A(None, 'Assets', ACCT_TYPE_ASSET, '1000', placeholder=True)
    bank = A(assets, 'Business Current Account', ACCT_TYPE_BANK, '1110')
    savings = A(assets, 'Savings Account', ACCT_TYPE_BANK, '1120')
    liabilities = A(None, 'Liabilities', ACCT_TYPE_LIABILITY, '2000', placeholder=True)
    payable = A(liabilities, 'Accounts Payable', ACCT_TYPE_PAYABLE, '2100')
    card = A(liabilities, 'Business Credit Card', ACCT_TYPE_CREDIT, '2200')
    vat = A(liabilities, 'VAT', ACCT_TYPE_LIABILITY, '2300')
    equity = A(None, 'Equity', ACCT_TYPE_EQUITY, '3000', placeholder=True)
    capital = A(equity, 'Share Capital', ACCT_TYPE_EQUITY, '3100')
    expenses = A(None, 'Expenses', ACCT_TYPE_EXPENSE, '5000', placeholder=True)
    software = A(expenses, 'Software', ACCT_TYPE_EXPENSE, '6010')
    stationery = A(expenses, 'Stationery', ACCT_TYPE_EXPENSE, '6020')
    rent = A(expenses, 'Rent', ACCT_TYPE_EXPENSE, '6100')
    travel = A(expenses, 'Travel', ACCT_TYPE_EXPENSE, '6200')

    book, GBP, T = b.book, b.home, b.txn
    vat20 = TaxTable(book, 'VAT 20%', TaxTableEntry(vat, True, GncNumeric(20, 1)))
    northwind = Vendor(book, 'V001', GBP, 'Northwind Software Ltd')
    landlord = Vendor(book, 'V002', GBP, 'City Properties Ltd')
    paper = Vendor(book, 'V003', GBP, 'Paper & Ink Supplies')
    jane = Employee(book, 'E001', GBP)
    jane.BeginEdit()
    jane.SetUsername('jsmith')
    jane.GetAddr().SetName('Jane Smith')
    jane.CommitEdit()

    def bill(owner, ident, date, due, lines, billing_id='', credit_note=False, autopay=False, notes='', doclink=''):
        """lines: (account, description, quantity, unit price, taxed)"""
        doc = Bill(book, ident, GBP, owner, date)
        doc.BeginEdit()
        if billing_id:
            doc.SetBillingID(billing_id)
        if credit_note:
            doc.SetIsCreditNote(True)
        if notes:
            doc.SetNotes(notes)
        if doclink:
            doc.SetDocLink(doclink)
        for account, description, quantity, price, taxed in lines:
            e = Entry(book, doc, date)
            e.SetDescription(description)
            # a credit note's quantities are stored negated (gncEntrySetDocQuantity)
            e.SetQuantity(GncNumeric(-quantity if credit_note else quantity))
            e.SetBillAccount(account)
            e.SetBillPrice(GncNumeric(price, 100))
            e.SetBillTaxable(taxed)
            if taxed:
                e.SetBillTaxTable(vat20)
                e.SetBillTaxIncluded(False)
        doc.CommitEdit()
        # autopay: GnuCash applies the owner's open credits (a credit note) to the bill as it posts
        doc.PostToAccount(payable, date, due, '', True, autopay)
        return doc

    def pay(doc, date, pence, account=bank, num=''):
        # like GnuCash's payment dialog: money paid out to a vendor or employee is a negative amount
        doc.ApplyPayment(None, account, GncNumeric(-pence, 100), GncNumeric(1), date, '', num)

    T(D(2026, 1, 2), 'Share capital subscribed', [(bank, 2_000_000), (capital, -2_000_000)])
    T(D(2026, 1, 5), 'Transfer to savings', [(savings, 500_000), (bank, -500_000)])

    # Northwind: one bill in the 91+ column part paid twice, one in 0-30 unpaid, one not yet due part paid
    nw1 = bill(northwind, 'B-NW-1', D(2026, 2, 13), D(2026, 3, 15),
               [(software, 'Accounting suite, annual licence', 1, 132_000, True)], 'NW-1187')
    pay(nw1, D(2026, 3, 20), 50_000, num='1001')
    pay(nw1, D(2026, 5, 2), 30_000, num='1002')
    bill(northwind, 'B-NW-2', D(2026, 5, 11), D(2026, 6, 10),
         [(software, 'Extra seats', 3, 4_115, True), (software, 'Onboarding session', 1, 12_345, False)], 'NW-1290')
    nw3 = bill(northwind, 'B-NW-3', D(2026, 6, 20), D(2026, 7, 20),
               [(software, 'Support plan, July', 1, 9_999, True)], 'NW-1311', doclink='file:///srv/scans/NW-1311.pdf')
    pay(nw3, D(2026, 6, 28), 2_500)
    # one bill paid in full: not outstanding
    nw0 = bill(northwind, 'B-NW-0', D(2026, 1, 10), D(2026, 2, 9), [(software, 'Plugin', 1, 5_000, True)], 'NW-1150')
    pay(nw0, D(2026, 2, 1), 6_000)

    # City Properties: a credit note, then the quarter's rent bill it is applied to (31-60 column)
    bill(landlord, 'CN-CP-1', D(2026, 4, 3), D(2026, 4, 3),
         [(rent, 'Rent rebate: heating out of order', 1, 25_000, True)], 'CP-CN-7', credit_note=True)
    cp = bill(landlord, 'B-CP-2', D(2026, 4, 15), D(2026, 5, 15),
              [(rent, 'Office rent Q2 2026', 1, 252_000, True)], 'CP-2026-Q2', autopay=True,
              notes='Quarterly rent, standing agreement')
    pay(cp, D(2026, 5, 20), 100_000)

    # Paper & Ink: one in the 61-90 column part paid from the card, one not yet due
    pi1 = bill(paper, 'B-PI-1', D(2026, 3, 21), D(2026, 4, 20),
               [(stationery, 'Printer paper', 10, 1_299, True), (stationery, 'Toner', 2, 4_550, True)], 'PI-702')
    pay(pi1, D(2026, 4, 25), 10_000, account=card)
    bill(paper, 'B-PI-2', D(2026, 6, 29), D(2026, 7, 29), [(stationery, 'Envelopes', 4, 1_875, True)], 'PI-733')

    # Jane Smith's expense voucher, part reimbursed (0-30 column)
    ev = bill(jane, 'EV-1', D(2026, 5, 26), D(2026, 6, 25),
              [(travel, 'Client visit, Leeds: train', 1, 8_460, False), (travel, 'Client visit, Leeds: hotel', 1, 11_900, False)])
    pay(ev, D(2026, 6, 26), 8_460)

    # bank and card lines outside the business features; some reconciled in GnuCash
    for t in [
        T(D(2026, 2, 28), 'Bank charges', [(software, 650), (bank, -650)]),
        T(D(2026, 3, 31), 'Bank charges', [(software, 650), (bank, -650)]),
        T(D(2026, 4, 25), 'Card repayment', [(card, 10_000), (bank, -10_000)]),
    ]:
        for s in t.GetSplitList():
            if s.GetAccount().GetType() in (ACCT_TYPE_BANK, ACCT_TYPE_CREDIT):
                s.SetReconcile('y')
    T(D(2026, 6, 5), 'Savings interest', [(savings, 1_234), (capital, -1_234)])
    T(D(2026, 6, 12), 'Train tickets', [(travel, 4_650), (card, -4_650)])


def make_foreign_payables_book(b):
    A = b.account
    USD = b.currency('USD')
    bank = A(None, 'Current Account', ACCT_TYPE_BANK, '1000')
    dollars = A(None, 'Dollar Account', ACCT_TYPE_BANK, '1010', commodity=USD)
    capital = A(None, 'Capital', ACCT_TYPE_EQUITY, '3000')
    payable = A(None, 'Accounts Payable USD', ACCT_TYPE_PAYABLE, '2110', commodity=USD)
    software = A(None, 'Software', ACCT_TYPE_EXPENSE, '6010')
    b.txn(D(2026, 1, 2), 'Capital', [(bank, 1_000_000), (capital, -1_000_000)])
    b.txn(D(2026, 1, 10), 'Buy dollars', [(dollars, 40_000, 50_000), (bank, -40_000)])
    b.price(USD, D(2026, 1, 1), 80, 100)
    acme = Vendor(b.book, 'V009', USD, 'Acme Inc')
    doc = Bill(b.book, 'B-US-1', USD, acme, D(2026, 2, 1))
    doc.BeginEdit()
    doc.SetBillingID('AC-2026-17')
    e = Entry(b.book, doc, D(2026, 2, 1))
    e.SetDescription('Design tool licence')
    e.SetQuantity(GncNumeric(1))
    e.SetBillAccount(software)
    e.SetBillPrice(GncNumeric(10_000, 100))
    # the rate GnuCash's post dialog asks for: 1.25 dollars to the pound, kept with the bill
    rate = GncPrice(b.book)
    rate.begin_edit()
    rate.set_commodity(b.home)
    rate.set_currency(USD)
    rate.set_time64(datetime.datetime(2026, 2, 1, 10, 59))
    rate.set_source_string('user:invoice-post')
    rate.set_typestr('last')
    rate.set_value(GncNumeric(125, 100))
    rate.commit_edit()
    b.book.get_price_db().add_price(rate)
    doc.AddPrice(rate)
    doc.CommitEdit()
    doc.PostToAccount(payable, D(2026, 2, 1), D(2026, 3, 3), '', True, False)
    doc.ApplyPayment(None, dollars, GncNumeric(-3_000, 100), GncNumeric(1), D(2026, 2, 10), '', '')


if __name__ == '__main__':
    make_book.build(os.path.join(make_book.OUT, 'payables.gnucash'), make_payables_book)
    make_book.build(os.path.join(make_book.OUT, 'payables-foreign.gnucash'), make_foreign_payables_book)
    sys.exit(0)
