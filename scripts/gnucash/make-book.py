#!/usr/bin/python3
"""
Builds the GnuCash test books through GnuCash's own Python bindings (Debian's python3-gnucash,
so run it with the system python: /usr/bin/python3 scripts/gnucash/make-book.py). Run once; the
books it writes are committed:

  test/fixtures/gnucash/book.gnucash     a small company's books for 2025-2026 (GBP)
  test/fixtures/gnucash/foreign.gnucash  foreign-currency cases for the conversion rules

The books are built in an XML session and then saved as SQLite the way GnuCash's own "Save As"
does (swap the data into a new SQLite session, save once): GnuCash 4.13's SQL backend fails to
commit edits made object by object in a brand-new SQLite session from Python.

Amounts below are pence (or cents, yen) unless said otherwise.
"""
import datetime
import os
import sys
import tempfile

from gnucash import Account, GncNumeric, GncPrice, Session, SessionOpenMode, Split, Transaction
from gnucash.gnucash_business import Bill, Customer, Employee, Entry, Invoice, TaxTable, TaxTableEntry, Vendor
from gnucash.gnucash_core_c import (
    ACCT_TYPE_ASSET, ACCT_TYPE_BANK, ACCT_TYPE_CASH, ACCT_TYPE_CREDIT, ACCT_TYPE_EQUITY, ACCT_TYPE_EXPENSE,
    ACCT_TYPE_INCOME, ACCT_TYPE_LIABILITY, ACCT_TYPE_PAYABLE, ACCT_TYPE_RECEIVABLE, xaccAccountGetBalanceAsOfDate,
)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, '..', '..', 'test', 'fixtures', 'gnucash'))
D = datetime.date


def months(first, last):
    """(year, month) from first to last inclusive."""
    y, m = first
    while (y, m) <= last:
        yield y, m
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


def month_end(y, m):
    nxt = D(y + 1, 1, 1) if m == 12 else D(y, m + 1, 1)
    return nxt - datetime.timedelta(days=1)


class Builder:
    def __init__(self, book, currency):
        self.book = book
        self.table = book.get_table()
        self.home = self.table.lookup('CURRENCY', currency)
        self.root = book.get_root_account()
        # GnuCash's new-book assistant gives the root account the book's currency; so do we
        self.root.BeginEdit()
        self.root.SetCommodity(self.home)
        self.root.CommitEdit()

    def currency(self, code):
        return self.table.lookup('CURRENCY', code)

    def account(self, parent, name, kind, code='', placeholder=False, hidden=False, commodity=None):
        a = Account(self.book)
        a.BeginEdit()
        (parent or self.root).append_child(a)
        a.SetName(name)
        a.SetType(kind)
        a.SetCommodity(commodity or self.home)
        if code:
            a.SetCode(code)
        if placeholder:
            a.SetPlaceholder(True)
        if hidden:
            a.SetHidden(True)
        a.CommitEdit()
        return a

    def txn(self, date, description, splits, num='', currency=None, closing=False):
        """splits: (account, value[, amount[, memo]]); amount defaults to value (same commodity)."""
        t = Transaction(self.book)
        t.BeginEdit()
        t.SetCurrency(currency or self.home)
        t.SetDescription(description)
        t.SetNum(num)
        t.SetDatePostedSecsNormalized(date)
        t.SetDateEnteredSecs(datetime.datetime(2027, 1, 5, 9, 0))
        for spec in splits:
            account, value = spec[0], spec[1]
            amount = spec[2] if len(spec) > 2 and spec[2] is not None else value
            memo = spec[3] if len(spec) > 3 else ''
            s = Split(self.book)
            s.SetParent(t)
            s.SetAccount(account)
            s.SetValue(GncNumeric(value, (currency or self.home).get_fraction()))
            s.SetAmount(GncNumeric(amount, account.GetCommodity().get_fraction()))
            if memo:
                s.SetMemo(memo)
        if closing:
            t.SetIsClosingTxn(True)
        t.CommitEdit()
        return t

    def price(self, commodity, date, num, denom):
        p = GncPrice(self.book)
        p.begin_edit()
        p.set_commodity(commodity)
        p.set_currency(self.home)
        p.set_time64(datetime.datetime(date.year, date.month, date.day, 10, 59))
        p.set_source_string('user:price-editor')
        p.set_typestr('last')
        p.set_value(GncNumeric(num, denom))
        p.commit_edit()
        self.book.get_price_db().add_price(p)


def save_as_sqlite(xml_session, path):
    if os.path.exists(path):
        os.remove(path)
    s = Session()
    s.begin('sqlite3://' + path, SessionOpenMode.SESSION_NEW_STORE)
    s.swap_data(xml_session)
    s.save()
    s.end()


def make_company_book(b):
    A = b.account
    assets = A(None, 'Assets', ACCT_TYPE_ASSET, '1000', placeholder=True)
    current = A(assets, 'Current Assets', ACCT_TYPE_ASSET, '1100', placeholder=True)
    bank = A(current, 'Business Current Account', ACCT_TYPE_BANK, '1110')
    deposit = A(current, 'Deposit Account', ACCT_TYPE_BANK, '1120')
    petty = A(current, 'Petty Cash', ACCT_TYPE_CASH, '1130')
    receivable = A(current, 'Accounts Receivable', ACCT_TYPE_RECEIVABLE, '1200')
    prepayments = A(current, 'Prepayments', ACCT_TYPE_ASSET, '1300')
    fixed = A(assets, 'Fixed Assets', ACCT_TYPE_ASSET, '1500', placeholder=True)
    computers = A(fixed, 'Computer Equipment', ACCT_TYPE_ASSET, '1510')
    acc_dep = A(fixed, 'Accumulated Depreciation', ACCT_TYPE_ASSET, '1520')
    liabilities = A(None, 'Liabilities', ACCT_TYPE_LIABILITY, '2000', placeholder=True)
    payable = A(liabilities, 'Accounts Payable', ACCT_TYPE_PAYABLE, '2100')
    card = A(liabilities, 'Business Credit Card', ACCT_TYPE_CREDIT, '2200')
    vat = A(liabilities, 'VAT', ACCT_TYPE_LIABILITY, '2300')
    paye = A(liabilities, 'PAYE and NI', ACCT_TYPE_LIABILITY, '2400')
    net_wages = A(liabilities, 'Net Wages Payable', ACCT_TYPE_LIABILITY, '2410')
    loan = A(liabilities, 'Long Term Loan', ACCT_TYPE_LIABILITY, '2900')
    equity = A(None, 'Equity', ACCT_TYPE_EQUITY, '3000', placeholder=True)
    capital = A(equity, 'Share Capital', ACCT_TYPE_EQUITY, '3100')
    retained = A(equity, 'Retained Earnings', ACCT_TYPE_EQUITY, '3200')
    income = A(None, 'Income', ACCT_TYPE_INCOME, '4000', placeholder=True)
    sales = A(income, 'Sales', ACCT_TYPE_INCOME, '4100')
    consulting = A(income, 'Consulting', ACCT_TYPE_INCOME, '4200')
    other_income = A(income, 'Other Income', ACCT_TYPE_INCOME, '4900', placeholder=True)
    interest = A(other_income, 'Bank Interest', ACCT_TYPE_INCOME, '4910')
    expenses = A(None, 'Expenses', ACCT_TYPE_EXPENSE, '5000', placeholder=True)
    cost_of_sales = A(expenses, 'Cost of Sales', ACCT_TYPE_EXPENSE, '5100')
    office = A(expenses, 'Office', ACCT_TYPE_EXPENSE, '6000')
    software = A(office, 'Software', ACCT_TYPE_EXPENSE, '6010')
    stationery = A(office, 'Stationery', ACCT_TYPE_EXPENSE, '6020')
    rent = A(expenses, 'Rent', ACCT_TYPE_EXPENSE, '6100')
    travel = A(expenses, 'Travel', ACCT_TYPE_EXPENSE, '6200')
    staff = A(expenses, 'Staff Costs', ACCT_TYPE_EXPENSE, '6300', placeholder=True)
    salaries = A(staff, 'Salaries', ACCT_TYPE_EXPENSE, '6310')
    employer_ni = A(staff, 'Employer NI', ACCT_TYPE_EXPENSE, '6320')
    depreciation = A(expenses, 'Depreciation', ACCT_TYPE_EXPENSE, '6400')
    bank_charges = A(expenses, 'Bank Charges', ACCT_TYPE_EXPENSE, '6500')
    subscriptions = A(expenses, 'Subscriptions', ACCT_TYPE_EXPENSE, '6600')
    insurance = A(expenses, 'Insurance', ACCT_TYPE_EXPENSE, '6700')
    loan_interest = A(expenses, 'Loan Interest', ACCT_TYPE_EXPENSE, '6800')
    marketing = A(expenses, 'Marketing', ACCT_TYPE_EXPENSE, '6900', hidden=True)
    b.account(None, 'Orphaned Old Account', ACCT_TYPE_EXPENSE, '', hidden=True)

    book, GBP, T = b.book, b.home, b.txn
    vat20 = TaxTable(book, 'VAT 20%', TaxTableEntry(vat, True, GncNumeric(20, 1)))

    northwind = Vendor(book, 'V001', GBP, 'Northwind Software Ltd')
    landlord = Vendor(book, 'V002', GBP, 'City Properties Ltd')
    paper = Vendor(book, 'V003', GBP, 'Paper & Ink Supplies')
    wholesale = Vendor(book, 'V004', GBP, 'Wholesale Goods plc')
    acme = Customer(book, 'C001', GBP, 'Acme Retail Ltd')
    brightside = Customer(book, 'C002', GBP, 'Brightside Consulting LLP')
    jane = Employee(book, 'E001', GBP)
    jane.BeginEdit()
    jane.SetUsername('jsmith')
    jane.GetAddr().SetName('Jane Smith')
    jane.CommitEdit()

    def bill(owner, ident, date, lines, billing_id='', credit_note=False, due_days=30):
        """lines: (account, description, price, taxed)"""
        doc = Bill(book, ident, GBP, owner, date)
        doc.BeginEdit()
        if billing_id:
            doc.SetBillingID(billing_id)
        if credit_note:
            doc.SetIsCreditNote(True)
        for account, description, price, taxed in lines:
            e = Entry(book, doc, date)
            e.SetDescription(description)
            # GnuCash stores a credit note's quantities negated (gncEntrySetDocQuantity), so posting reverses them
            e.SetQuantity(GncNumeric(-1 if credit_note else 1))
            e.SetBillAccount(account)
            e.SetBillPrice(GncNumeric(price, 100))
            e.SetBillTaxable(taxed)
            if taxed:
                e.SetBillTaxTable(vat20)
                e.SetBillTaxIncluded(False)
        doc.CommitEdit()
        doc.PostToAccount(payable, date, date + datetime.timedelta(days=due_days), '', True, False)
        return doc

    def invoice(owner, ident, date, account, description, price):
        doc = Invoice(book, ident, GBP, owner, date)
        doc.BeginEdit()
        e = Entry(book, doc, date)
        e.SetDescription(description)
        e.SetQuantity(GncNumeric(1))
        e.SetInvAccount(account)
        e.SetInvPrice(GncNumeric(price, 100))
        e.SetInvTaxable(True)
        e.SetInvTaxTable(vat20)
        e.SetInvTaxIncluded(False)
        doc.CommitEdit()
        doc.PostToAccount(receivable, date, date + datetime.timedelta(days=30), '', True, False)
        return doc

    def pay(doc, date, account=bank, num=''):
        # like GnuCash's payment dialog: money paid out to a vendor or employee is a negative amount
        total = doc.GetTotal()
        if doc.GetOwnerType() != 2:  # GNC_OWNER_CUSTOMER
            total = total.neg()
        doc.ApplyPayment(None, account, total, GncNumeric(1), date, '', num)

    # --- capital, loan, equipment ---
    T(D(2025, 1, 2), 'Share capital subscribed', [(bank, 1_000_000), (capital, -1_000_000)])
    T(D(2025, 1, 6), 'Loan from Lending Bank plc', [(bank, 1_500_000), (loan, -1_500_000)])
    T(D(2025, 1, 15), 'Laptops and monitors - PC World', [
        (computers, 360_000, None, '3 laptops, 3 monitors'), (vat, 72_000, None, 'Input VAT'), (bank, -432_000)])
    T(D(2025, 3, 3), 'Transfer to deposit account', [(deposit, 500_000), (bank, -500_000)])
    T(D(2025, 5, 1), 'Petty cash top-up', [(petty, 10_000), (bank, -10_000)])
    T(D(2025, 5, 14), 'Milk and coffee', [(office, 1_240), (petty, -1_240)])
    T(D(2026, 3, 9), 'Postage stamps', [(stationery, 850), (petty, -850)])

    # --- every month: bank charges, payroll (a journal), net pay and PAYE from the bank ---
    for y, m in months((2025, 1), (2026, 12)):
        T(D(y, m, 28), 'Bank charges', [(bank_charges, 650), (bank, -650)])
        gross, ee_ni, tax, er_ni = (300_000, 21_400, 52_000, 31_040) if y == 2025 else (320_000, 22_800, 56_000, 33_800)
        net = gross - tax - ee_ni
        end = month_end(y, m)
        label = end.strftime('%b %Y')
        T(end, f'Payroll {label}', [
            (salaries, gross), (employer_ni, er_ni), (paye, -(tax + ee_ni + er_ni)), (net_wages, -net)], num=f'PR-{y}{m:02d}')
        T(end, f'Net pay {label}', [(net_wages, net), (bank, -net)])
        if (y, m) != (2026, 12):
            nxt = D(y + 1, 1, 22) if m == 12 else D(y, m + 1, 22)
            T(nxt, f'HMRC PAYE and NI {label}', [(paye, tax + ee_ni + er_ni), (bank, -(tax + ee_ni + er_ni))])

    # --- every quarter: depreciation (a journal), rent bills and their payments, bank interest ---
    interest_paid = iter([1_562, 1_618, 1_655, 1_702, 1_744, 1_790, 1_833, 1_870])
    for y in (2025, 2026):
        for q, first in enumerate((1, 4, 7, 10), start=1):
            end = month_end(y, first + 2)
            T(end, f'Depreciation Q{q} {y}', [(depreciation, 30_000), (acc_dep, -30_000)], num=f'DEP-{y}Q{q}')
            rent_bill = bill(landlord, f'B-RENT-{y}Q{q}', D(y, first, 1),
                             [(rent, f'Office rent Q{q} {y}', 240_000 if y == 2025 else 252_000, True)],
                             billing_id=f'CP-{y}-Q{q}')
            pay(rent_bill, D(y, first, 10))
            amount = next(interest_paid)
            T(end, 'Deposit account interest', [(deposit, amount), (interest, -amount)])

    # --- suppliers: bills, a credit note, payments; one bill left unpaid ---
    nw1 = bill(northwind, 'B-NW-1', D(2025, 2, 3), [(software, 'Accounting suite, annual licence', 120_000, True)], 'NW-1001')
    pay(nw1, D(2025, 2, 20))
    nw2 = bill(northwind, 'B-NW-2', D(2026, 2, 3), [(software, 'Accounting suite, annual licence', 132_000, True)], 'NW-1187')
    pay(nw2, D(2026, 2, 25))
    bill(northwind, 'B-NW-3', D(2026, 11, 5), [(software, 'Two extra seats', 18_000, True)], 'NW-1290')
    pi1 = bill(paper, 'B-PI-1', D(2025, 4, 10), [
        (stationery, 'Printer paper and toner', 12_500, True), (office, 'Desk lamps', 4_000, True)], 'PI-551')
    pay(pi1, D(2025, 4, 30))
    pi2 = bill(paper, 'B-PI-2', D(2025, 6, 2), [(stationery, 'Toner cartridges', 8_000, True)], 'PI-580')
    pay(pi2, D(2025, 6, 30))
    bill(paper, 'B-PI-3', D(2025, 6, 16), [(stationery, 'Returned toner (faulty)', 4_500, True)], 'PI-CN-12', credit_note=True)
    pi4 = bill(paper, 'B-PI-4', D(2026, 3, 16), [(stationery, 'Envelopes and labels', 6_250, True)], 'PI-702')
    pay(pi4, D(2026, 4, 1))
    for k, (y, m) in enumerate([(2025, 2), (2025, 4), (2025, 6), (2025, 8), (2025, 10), (2025, 12),
                                (2026, 2), (2026, 4), (2026, 6), (2026, 8), (2026, 10), (2026, 12)]):
        goods = bill(wholesale, f'B-WG-{k + 1}', D(y, m, 14), [(cost_of_sales, 'Goods for resale', 150_000 + 10_000 * k, True)],
                     f'WG-{7000 + k}')
        if (y, m) != (2026, 12):
            pay(goods, D(y + 1, 1, 14) if m == 12 else D(y, m + 1, 14))
    voucher = bill(jane, 'EV-1', D(2025, 9, 20), [(travel, 'Client visit, Leeds: train and taxi', 8_460, False)])
    pay(voucher, D(2025, 9, 30))

    # --- customers: invoices and their payments ---
    for k, (y, m) in enumerate(months((2025, 1), (2026, 12))):
        inv = invoice(acme, f'INV-A{k + 1:03d}', D(y, m, 20), sales, f'Goods supplied {D(y, m, 1):%B %Y}', 600_000 + 15_000 * (k % 5))
        if (y, m) < (2026, 11):
            pay(inv, D(y + 1, 1, 18) if m == 12 else D(y, m + 1, 18))
    for k, (y, m) in enumerate([(2025, 3), (2025, 6), (2025, 9), (2025, 12), (2026, 3), (2026, 6), (2026, 9), (2026, 12)]):
        inv = invoice(brightside, f'INV-B{k + 1:03d}', month_end(y, m), consulting, f'Consulting, quarter to {m:02d}/{y}', 450_000)
        if (y, m) != (2026, 12):
            paid = month_end(y, m) + datetime.timedelta(days=21)
            pay(inv, paid)
    T(D(2026, 8, 19), 'Scrap sale - old shelving', [(bank, 7_500), (sales, -7_500)])

    # --- the credit card: charges, refunds, a charge in US dollars, monthly repayment ---
    card_items = []
    for y, m in months((2025, 1), (2026, 12)):
        card_items.append((D(y, m, 5), 'Cloud hosting', subscriptions, 4_800))
    card_items += [
        (D(2025, 3, 18), 'Train tickets - London', travel, 14_650),
        (D(2025, 3, 21), 'Flyer printing', marketing, 25_000),
        (D(2025, 4, 2), 'Flyer printing refund (misprint)', marketing, -5_000),
        (D(2025, 9, 9), 'Hotel Manchester', travel, 22_900),
        (D(2026, 3, 27), 'Hosting credit for outage', subscriptions, -1_200),
        (D(2026, 6, 11), 'Flights to Dublin', travel, 31_480),
    ]
    for date, description, account, amount in sorted(card_items, key=lambda i: i[0]):
        T(date, description, [(account, amount), (card, -amount)])
    # a charge in dollars, entered the way GnuCash's register does in a pound account: in pounds
    card_items.append((D(2026, 5, 12), 'GitHub Team (USD 48.00)', subscriptions, 3_792))
    T(D(2026, 5, 12), 'GitHub Team', [(subscriptions, 3_792, None, 'USD 48.00 at 0.79'), (card, -3_792)])
    for y, m in months((2025, 1), (2026, 11)):
        cutoff = D(y, m, 25)
        due = sum(a for d, _, _, a in card_items if d < cutoff and d >= (D(y, m - 1, 25) if m > 1 else D(y - 1, 12, 25)))
        if due:
            T(cutoff, 'Credit card payment', [(card, due), (bank, -due)])

    # --- cheques, a loan repayment with interest, insurance paid ahead, a reclassification ---
    T(D(2025, 4, 3), 'Office chairs - Smith Furniture', [(office, 32_000), (vat, 6_400), (bank, -38_400)], num='100234')
    T(D(2026, 7, 14), 'Conference tickets - TechConf', [(travel, 45_000), (bank, -45_000)], num='100235')
    T(D(2026, 1, 15), 'Loan repayment and interest', [
        (loan, 250_000, None, 'Capital'), (loan_interest, 18_750, None, 'Interest'), (bank, -268_750)], num='DD')
    T(D(2026, 11, 30), 'Annual insurance premium - Hiscox', [(prepayments, 144_000), (bank, -144_000)])
    T(D(2026, 12, 31), 'Insurance December 2026', [(insurance, 12_000), (prepayments, -12_000)], num='J-15')
    # paid at the supplier's shop by debit card: GnuCash knows the supplier only from the description
    T(D(2026, 10, 8), 'Paper & Ink Supplies', [(stationery, 1_800), (bank, -1_800)])
    T(D(2026, 9, 30), 'Reclassify software bought as stationery', [(software, 5_000), (stationery, -5_000)], num='J-14')
    voided = T(D(2026, 2, 14), 'Duplicate payment', [(office, 9_999), (bank, -9_999)])
    voided.Void('entered twice')

    # --- year end 2025 closed the way GnuCash's Close Book does: P&L accounts to Retained Earnings ---
    close_at = datetime.datetime(2025, 12, 31, 23, 59, 59)
    closing, total = [], 0
    for a in [sales, consulting, interest, cost_of_sales, office, software, stationery, rent, travel, salaries,
              employer_ni, depreciation, bank_charges, subscriptions, insurance, loan_interest, marketing]:
        balance = GncNumeric(instance=xaccAccountGetBalanceAsOfDate(a.get_instance(), close_at))
        pence = balance.num() * 100 // balance.denom()
        if pence:
            closing.append((a, -pence))
            total += pence
    closing.append((retained, total))
    T(D(2025, 12, 31), 'Closing Entries', closing, closing=True)


def make_foreign_book(b):
    A = b.account
    USD, JPY = b.currency('USD'), b.currency('JPY')
    current = A(None, 'Current Account', ACCT_TYPE_BANK, '1000')
    dollars = A(None, 'Dollar Account', ACCT_TYPE_BANK, '1010', commodity=USD)
    yen = A(None, 'Tokyo Float', ACCT_TYPE_BANK, '1020', commodity=JPY)
    capital = A(None, 'Capital', ACCT_TYPE_EQUITY, '3000')
    software = A(None, 'Software', ACCT_TYPE_EXPENSE, '6010')
    us_costs = A(None, 'US Costs', ACCT_TYPE_EXPENSE, '6020', commodity=USD)
    japan_costs = A(None, 'Japan Costs', ACCT_TYPE_EXPENSE, '6030', commodity=JPY)
    T = b.txn
    T(D(2026, 1, 2), 'Capital', [(current, 1_000_000), (capital, -1_000_000)])
    # in pounds, into a dollar account: the value is in pounds (79,000p buys $1,000.00)
    T(D(2026, 1, 10), 'Buy dollars', [(dollars, 79_000, 100_000), (current, -79_000)])
    # in dollars, one side in a pound account: its amount (9,480p) gives the rate for the other side
    T(D(2026, 2, 3), 'Design tool', [(software, 12_000, 9_480), (dollars, -12_000)], currency=USD)
    # in dollars, no pound account: the price list's USD rate on or before the day (0.80)
    T(D(2026, 3, 5), 'US contractor', [(us_costs, 25_000), (dollars, -25_000)], currency=USD)
    # in pounds, into a yen account, then yen only: JPY at 0.00525 (price of 2026-04-01)
    T(D(2026, 3, 20), 'Buy yen', [(yen, 26_250, 50_000), (current, -26_250)])
    T(D(2026, 4, 7), 'Tokyo expenses', [(japan_costs, 1_100, None, 'Taxi'), (japan_costs, 1_300, None, 'Lunch'), (yen, -2_400)],
      currency=JPY)
    b.price(USD, D(2026, 3, 1), 80, 100)
    b.price(USD, D(2026, 3, 10), 81, 100)
    b.price(JPY, D(2026, 4, 1), 525, 100_000)


def build(path, fill):
    with tempfile.TemporaryDirectory() as tmp:
        xml = Session('xml://' + os.path.join(tmp, 'book.xml'), SessionOpenMode.SESSION_NEW_STORE)
        fill(Builder(xml.book, 'GBP'))
        save_as_sqlite(xml, path)
        xml.end()
    for leftover in os.listdir(OUT):
        if leftover.endswith('.log') or leftover.endswith('.LCK'):
            os.remove(os.path.join(OUT, leftover))
    print('wrote', os.path.relpath(path))


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    build(os.path.join(OUT, 'book.gnucash'), make_company_book)
    build(os.path.join(OUT, 'foreign.gnucash'), make_foreign_book)
    sys.exit(0)
