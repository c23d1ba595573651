/**
 * The company's rhythm: the opening balances, monthly payroll, depreciation and prepayment
 * journals, loan repayments, bank fees and interest, the card statement paid from the current
 * account, tax returns paid after each period, and moving spare cash between accounts.
 */
import { addDays, addMonths, formatDate, monthLabel, parseDate } from '../domain/dates.js';
import { convert } from '../domain/money.js';
import type { BankAccountRow } from '../store/schema.js';
import { accountId, bankRow, contactId, nextNumber, type OrgContext } from './context.js';
import { exchangeRate } from './rates.js';

function journalNumber(ctx: OrgContext): string {
  return `JNL-${String(nextNumber(ctx, 'journal', 1)).padStart(4, '0')}`;
}

/** The annual premium held in prepayments at the start, for the months of cover still to come. */
function openingPrepaid(ctx: OrgContext): { amount: number; months: number } {
  const premium = ctx.def.recurring.find((r) => r.prepaid);
  if (!premium) return { amount: 0, months: 0 };
  const billed = premium.months?.[0] ?? 1;
  const startMonth = parseDate(ctx.start)!.month;
  const elapsed = (startMonth - billed + 12) % 12;
  // billed this very month: the bill itself starts the year's cover
  if (elapsed === 0) return { amount: 0, months: 0 };
  const net = premium.supplier.items[0]!.price[0];
  return { amount: Math.round((net * (12 - elapsed)) / 12), months: 12 - elapsed };
}

export function openingBalances(ctx: OrgContext): void {
  const o = ctx.def.opening;
  const prepaid = openingPrepaid(ctx);
  ctx.state.prepaid = { remaining: prepaid.amount, months: prepaid.months };
  const current = o.current * ctx.size;
  const savings = o.savings * ctx.size;
  const debits = current + savings + o.equipmentCost - o.accumulatedDepreciation + o.rentDeposit + prepaid.amount;
  const retained = debits - o.loan - o.capital;
  ctx.books.post(
    {
      type: 'journal',
      date: ctx.start,
      number: journalNumber(ctx),
      description: 'Opening balances',
      lines: [
        { accountId: accountId(ctx, 'current'), amount: current },
        { accountId: accountId(ctx, 'savings'), amount: savings },
        { accountId: accountId(ctx, 'equipmentCost'), amount: o.equipmentCost },
        { accountId: accountId(ctx, 'accumulatedDepreciation'), amount: -o.accumulatedDepreciation },
        { accountId: accountId(ctx, 'rentDeposit'), amount: o.rentDeposit },
        { accountId: accountId(ctx, 'prepayments'), amount: prepaid.amount },
        { accountId: accountId(ctx, 'loan'), amount: -o.loan },
        { accountId: accountId(ctx, 'capital'), amount: -o.capital },
        { accountId: accountId(ctx, 'retainedEarnings'), amount: -retained },
      ],
    },
    { narration: ctx.narrate.openingBalance() },
  );
}

/** The month's payroll journal, net pay the same day, and the withholdings paid next month. */
export function payroll(ctx: OrgContext, first: string): void {
  const p = ctx.def.payroll;
  const date = formatDate(parseDate(first)!.year, parseDate(first)!.month, p.day);
  if (date > ctx.asOf || date < ctx.start) return;
  const gross = Math.round(p.gross * ctx.size * (1 + ctx.rng.int(-15, 15) / 1000));
  const employer = Math.round((gross * p.employerRate) / 1_000_000);
  const withheld = Math.round((gross * p.withholdingRate) / 1_000_000);
  const net = gross - withheld;
  const label = monthLabel(date);
  ctx.books.post({
    type: 'journal',
    date,
    number: journalNumber(ctx),
    description: `Payroll ${label}`,
    lines: [
      { accountId: accountId(ctx, 'salaries'), amount: gross, description: `Gross pay ${label}` },
      { accountId: accountId(ctx, 'employerCosts'), amount: employer, description: `Employer costs ${label}` },
      { accountId: accountId(ctx, 'payrollLiabilities'), amount: -(withheld + employer), description: `Withholdings ${label}` },
      { accountId: accountId(ctx, 'wagesPayable'), amount: -net, description: `Net pay ${label}` },
    ],
  });
  ctx.books.post(
    {
      type: 'payment',
      date,
      description: `Net pay ${label}`,
      lines: [
        { accountId: accountId(ctx, 'wagesPayable'), amount: net },
        { accountId: accountId(ctx, 'current'), amount: -net },
      ],
    },
    { narration: ctx.narrate.payroll(date) },
  );
  const next = addMonths(first, 1);
  const due = formatDate(parseDate(next)!.year, parseDate(next)!.month, p.liabilitiesDay);
  const owed = withheld + employer;
  ctx.scheduler.at(due, () => {
    ctx.books.post(
      {
        type: 'payment',
        date: due,
        contactId: contactId(ctx, p.authority),
        description: `${p.authority} payroll taxes for ${label}`,
        lines: [
          { accountId: accountId(ctx, 'payrollLiabilities'), amount: owed },
          { accountId: accountId(ctx, 'current'), amount: -owed },
        ],
      },
      { narration: ctx.narrate.tax(p.authority, label) },
    );
  });
}

export function depreciation(ctx: OrgContext, monthEnd: string): void {
  const cost = ctx.books.balance(accountId(ctx, 'equipmentCost'));
  const bookValue = cost + ctx.books.balance(accountId(ctx, 'accumulatedDepreciation'));
  const amount = Math.min(Math.round(cost / 48), bookValue);
  if (amount <= 0) return;
  ctx.books.post({
    type: 'journal',
    date: monthEnd,
    number: journalNumber(ctx),
    description: `Depreciation ${monthLabel(monthEnd)}`,
    lines: [
      { accountId: accountId(ctx, 'depreciation'), amount },
      { accountId: accountId(ctx, 'accumulatedDepreciation'), amount: -amount },
    ],
  });
}

/** A twelfth of the insurance premium moves from prepayments to expense each month. */
export function releasePrepayment(ctx: OrgContext, monthEnd: string): void {
  const prepaid = ctx.state.prepaid;
  if (prepaid.months <= 0 || prepaid.remaining <= 0) return;
  const amount = Math.round(prepaid.remaining / prepaid.months);
  prepaid.remaining -= amount;
  prepaid.months -= 1;
  ctx.books.post({
    type: 'journal',
    date: monthEnd,
    number: journalNumber(ctx),
    description: `Insurance prepayment released ${monthLabel(monthEnd)}`,
    lines: [
      { accountId: accountId(ctx, 'insurance'), amount },
      { accountId: accountId(ctx, 'prepayments'), amount: -amount },
    ],
  });
}

export function loanRepayment(ctx: OrgContext, date: string): void {
  const loan = ctx.def.loan;
  const balance = -ctx.books.balance(accountId(ctx, 'loan'));
  if (balance <= 0 || date > ctx.asOf) return;
  const principal = Math.min(loan.monthlyPrincipal, balance);
  const interest = Math.round((balance * loan.annualRate) / 12 / 1_000_000);
  ctx.books.post(
    {
      type: 'payment',
      date,
      contactId: contactId(ctx, loan.lender),
      description: `Loan repayment ${monthLabel(date)}`,
      lines: [
        { accountId: accountId(ctx, 'loan'), amount: principal, description: 'Loan principal' },
        { accountId: accountId(ctx, 'interestExpense'), amount: interest, description: 'Loan interest' },
        { accountId: accountId(ctx, 'current'), amount: -(principal + interest) },
      ],
    },
    { narration: ctx.narrate.loan(loan.lender) },
  );
}

export function bankFee(ctx: OrgContext, date: string): void {
  ctx.books.post(
    {
      type: 'expense',
      date,
      contactId: contactId(ctx, ctx.def.loan.lender),
      description: `Account fee ${monthLabel(date)}`,
      lines: [
        { accountId: accountId(ctx, 'bankFees'), amount: ctx.def.bankFee },
        { accountId: accountId(ctx, 'current'), amount: -ctx.def.bankFee },
      ],
    },
    { narration: ctx.narrate.fee() },
  );
}

export function savingsInterest(ctx: OrgContext, monthEnd: string): void {
  const balance = ctx.books.balance(accountId(ctx, 'savings'));
  const amount = Math.round((balance * ctx.def.savingsRate) / 12 / 1_000_000);
  if (amount <= 0) return;
  ctx.books.post(
    {
      type: 'deposit',
      date: monthEnd,
      description: `Interest ${monthLabel(monthEnd)}`,
      lines: [
        { accountId: accountId(ctx, 'savings'), amount },
        { accountId: accountId(ctx, 'interestIncome'), amount: -amount },
      ],
    },
    { narration: ctx.narrate.interest() },
  );
}

function transferNarration(ctx: OrgContext, from: BankAccountRow, to: BankAccountRow): (bank: BankAccountRow) => string {
  return (bank) => (bank.id === from.id ? ctx.narrate.transferOut(to.name) : ctx.narrate.transferIn(from.name));
}

/** At each month end the card's balance is paid in full from the current account early next month. */
export function cardStatement(ctx: OrgContext, monthEnd: string): void {
  const card = bankRow(ctx, 'card');
  const owed = -ctx.books.balance(card.ledger_account_id!);
  if (owed <= 0) return;
  const date = addDays(monthEnd, 3);
  ctx.scheduler.at(date, () => {
    ctx.books.post(
      {
        type: 'transfer',
        date,
        description: `${card.name} statement ${monthLabel(monthEnd)}`,
        lines: [
          { accountId: card.ledger_account_id!, amount: owed },
          { accountId: accountId(ctx, 'current'), amount: -owed },
        ],
      },
      { narration: (bank) => (bank.id === card.id ? ctx.narrate.cardPaymentReceived() : ctx.narrate.cardPayment(card.name)) },
    );
  });
}

/** After each tax period the balance owed is paid (or a refund due is received). */
export function taxReturn(ctx: OrgContext, monthEnd: string): void {
  const month = parseDate(monthEnd)!.month;
  if (!ctx.def.tax.periodEndMonths.includes(month)) return;
  const balance = ctx.books.balance(accountId(ctx, 'tax'));
  if (balance === 0) return;
  const date = addDays(monthEnd, ctx.def.tax.payAfterDays);
  const authority = ctx.def.tax.authority;
  const label = `${ctx.def.tax.label} return to ${monthLabel(monthEnd)}`;
  ctx.scheduler.at(date, () => {
    ctx.books.post(
      {
        type: balance < 0 ? 'payment' : 'deposit',
        date,
        contactId: contactId(ctx, authority),
        description: label,
        lines: [
          { accountId: accountId(ctx, 'tax'), amount: -balance },
          { accountId: accountId(ctx, 'current'), amount: balance },
        ],
      },
      { narration: ctx.narrate.tax(authority, `${ctx.def.tax.label} ${monthEnd.slice(0, 7)}`) },
    );
  });
}

/** Each quarter some cash goes to savings, if the current account can spare it. */
export function quarterlySaving(ctx: OrgContext, first: string): void {
  if ((parseDate(first)!.month - 1) % 3 !== 0) return;
  const date = addDays(first, 1);
  if (date > ctx.asOf) return;
  const amount = Math.round(ctx.def.opening.savings * ctx.size * 0.1);
  const current = bankRow(ctx, 'current');
  const savings = bankRow(ctx, 'savings');
  if (ctx.books.balance(current.ledger_account_id!) < 3 * amount) return;
  ctx.books.post(
    {
      type: 'transfer',
      date,
      description: `Transfer to ${savings.name}`,
      lines: [
        { accountId: savings.ledger_account_id!, amount },
        { accountId: current.ledger_account_id!, amount: -amount },
      ],
    },
    { narration: transferNarration(ctx, current, savings) },
  );
}

/** Foreign currency beyond what the bills need is converted into the current account. */
export function foreignSweep(ctx: OrgContext, monthEnd: string): void {
  const foreign = ctx.banks.get('foreignBank');
  if (!foreign) return;
  const held = ctx.books.bankBalance(foreign.ledger_account_id!);
  const keep = 300_000;
  if (held <= 2 * keep) return;
  const amount = held - keep;
  const rate = exchangeRate(foreign.currency, ctx.home, monthEnd);
  const home = convert(amount, foreign.currency, rate, ctx.home);
  const current = bankRow(ctx, 'current');
  ctx.books.post(
    {
      type: 'transfer',
      date: monthEnd,
      description: `Conversion of ${foreign.currency} to ${ctx.home}`,
      currency: foreign.currency,
      exchangeRate: rate,
      lines: [
        { accountId: current.ledger_account_id!, amount: home, amountInCurrency: amount },
        { accountId: foreign.ledger_account_id!, amount: -home, amountInCurrency: -amount },
      ],
    },
    { narration: transferNarration(ctx, foreign, current) },
  );
}
