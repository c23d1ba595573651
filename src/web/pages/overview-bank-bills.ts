/** The overview's bank and card balances over the month ends, and its bills due. */
import { humanDate } from '../../domain/dates.js';
import type { AccountHistory, BooksOverview } from '../books-overview.js';
import { html, type SafeHtml } from '../html.js';
import { amountText, columnMonth, notShown, scrollingTable, shortMonth } from './overview-parts.js';
import { COLOURS, smallChart } from './svg-chart.js';

export function bankSection(o: BooksOverview): SafeHtml {
  const ends = o.months.map((m) => m.to);
  const body = !o.bank.ok
    ? notShown('Bank and card balances are', o.bank)
    : o.bank.value.length === 0
      ? html`<p class="muted">No bank or card accounts yet: statements uploaded under <strong>Bank statements</strong> appear here.</p>`
      : html`<ul class="overview-accounts">${o.bank.value.map((h, i) => accountCard(h, i, ends))}</ul>
${accountTable(o.bank.value, ends)}`;
  return html`<section class="card overview" aria-labelledby="bank-title">
  <h3 id="bank-title">Bank and card balances</h3>
  ${body}
</section>`;
}

function accountCard(h: AccountHistory, i: number, ends: string[]): SafeHtml {
  const a = h.account;
  return html`<li>
  <p class="account-name"><strong>${a.name}</strong> <span class="muted small">${
    a.number
      ? html`${a.number} ·
    `
      : ''
  }${a.type === 'credit_card' ? 'credit card' : 'bank'}</span></p>
  <p class="figures">${balanceLabel(a)} <strong>${amountText(a.balance, a.currency)} ${a.currency}</strong></p>
  ${
    a.bookBalance !== null && a.balanceBasis !== 'books'
      ? html`<p class="muted small">In the books ${amountText(a.bookBalance, a.currency)} ${a.currency}${
          a.differenceToReconcile
            ? html` · to
        reconcile ${amountText(a.differenceToReconcile, a.currency)} ${a.currency}`
            : ' · agrees'
        }</p>`
      : ''
  }
  ${
    a.balanceIncompleteFrom
      ? html`<p class="small"><span class="badge blocked">incomplete</span> from ${humanDate(a.balanceIncompleteFrom)}: transactions missing against
        the statements</p>`
      : ''
  }
  ${
    h.monthEnds
      ? smallChart({
          id: `chart-bank-${i}`,
          title: `${a.name}: balance at each month end, ${a.currency}`,
          description: 'The balance at each month end as a line; the table below gives every figure.',
          labels: ends.map(shortMonth),
          longLabels: ends.map((d) => humanDate(d)),
          lines: [{ name: `Balance, ${a.currency}`, values: h.monthEnds, colour: COLOURS.blue }],
          format: (n) => `${amountText(n, a.currency)} ${a.currency}`,
          width: 240,
          height: 130,
          labelEvery: 2,
        })
      : html`<p class="muted small">${h.note}</p>`
  }
</li>`;
}

/** Which figure the card shows: the bank's (from statements, or only the imported lines) or the books'. */
function balanceLabel(a: AccountHistory['account']): string {
  const at = a.balanceDate ? ` at ${humanDate(a.balanceDate)}` : '';
  if (a.balanceBasis === 'books') return 'In the books (nothing imported)';
  if (a.balanceBasis === 'transactions') return `Imported lines${at}`;
  return `Bank balance${at}`;
}

function accountTable(histories: AccountHistory[], ends: string[]): SafeHtml {
  return scrollingTable(
    'bank-table',
    "Balance at each month end and now, in each account's currency",
    html`<thead><tr><th scope="col">Account</th><th scope="col">Currency</th>${ends.map(
      (d) => html`<th scope="col" class="num">${columnMonth(d)}</th>`,
    )}<th scope="col" class="num">Now</th></tr></thead>
<tbody>${histories.map(
      (h) =>
        html`<tr><th scope="row">${h.account.name}</th><td>${h.account.currency}</td>${ends.map((_, i) => {
          const v = h.monthEnds?.[i] ?? null;
          return html`<td class="num">${v === null ? '—' : amountText(v, h.account.currency)}</td>`;
        })}<td class="num">${amountText(h.account.balance, h.account.currency)}</td></tr>`,
    )}</tbody>`,
  );
}

export function billsSection(o: BooksOverview): SafeHtml {
  let body: SafeHtml;
  if (!o.bills.ok) body = notShown('Bills due are', o.bills);
  else {
    const b = o.bills.value;
    const overdue = (due: string) => due < o.today;
    body = html`<p class="figures"><span><strong>${b.count}</strong> ${b.count === 1 ? 'bill' : 'bills'} to pay</span>
      <span>Total <strong>${amountText(b.total, b.baseCurrency)} ${b.baseCurrency}</strong></span></p>
${b.note ? html`<div class="notice" role="status">${b.note}</div>` : ''}
${
  b.bills.length
    ? scrollingTable(
        'bills-table',
        `The next ${b.bills.length === 1 ? 'bill' : `${b.bills.length} bills`} by due date${b.count > b.bills.length ? `, of ${b.count}` : ''}; ` +
          `amounts due in ${b.baseCurrency}`,
        html`<thead><tr><th scope="col">Due</th><th scope="col">Supplier</th><th scope="col">Invoice</th><th scope="col" class="num">Amount due</th>
          </tr></thead>
<tbody>${b.bills.map(
          (bill) =>
            html`<tr><td class="nowrap">${humanDate(bill.dueDate)}${
              overdue(bill.dueDate) ? html` <span class="badge blocked">overdue</span>` : ''
            }</td><td>${bill.supplier}</td><td>${bill.invoiceNumber}</td><td class="num">${amountText(bill.amountDue, b.baseCurrency)}</td></tr>`,
        )}</tbody>`,
      )
    : html`<p class="muted">Nothing to pay.</p>`
}`;
  }
  return html`<section class="card overview" aria-labelledby="bills-title">
  <h3 id="bills-title">Bills due</h3>
  ${body}
</section>`;
}
