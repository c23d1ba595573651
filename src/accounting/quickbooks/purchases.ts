/**
 * Where QuickBooks' item and tax lines post, read from the lists that say so. A sale's item line
 * (`SalesItemLineDetail`) posts to its own `ItemAccountRef` when it has one, else to its Item's
 * `IncomeAccountRef`, and the tax charged on a sale to its agency's `TaxTrackedOnSalesAccountRef`.
 * What a QuickBooks purchase (Bill, VendorCredit, Purchase) posts beyond its account lines: an item-based line (`ItemBasedExpenseLineDetail`) posts to its
 * Item's account (an inventory item's `AssetAccountRef`, any other item's `ExpenseAccountRef`), and
 * the tax the document charges (`TxnTaxDetail.TaxLine`) to the account its tax agency tracks tax on
 * purchases in (`TaxLineDetail.TaxRateRef` → TaxRate `AgencyRef` → TaxAgency
 * `TaxOnPurchasesAccountRef`). The lists are read only when some transaction needs them.
 */
export interface QbRef {
  value: string;
  name?: string;
  type?: string;
}

export interface QbItem {
  Id: string;
  Name?: string;
  Type?: string;
  /** where a sale of the item posts (Intuit: "the account that records the proceeds from the sale of this item") */
  IncomeAccountRef?: QbRef;
  ExpenseAccountRef?: QbRef;
  AssetAccountRef?: QbRef;
}

export interface QbTaxRate {
  Id: string;
  Name?: string;
  AgencyRef?: QbRef;
}

export interface QbTaxAgency {
  Id: string;
  DisplayName?: string;
  TaxOnPurchasesAccountRef?: QbRef;
  /** where the tax charged on sales is tracked (a liability) */
  TaxTrackedOnSalesAccountRef?: QbRef;
}

export interface QbTaxLine {
  Amount?: number;
  TaxLineDetail?: { TaxRateRef?: QbRef; PercentBased?: boolean; TaxPercent?: number; NetAmountTaxable?: number };
}

/** The parts of a purchase line and transaction this file reads. */
export interface PurchaseShape {
  Line?: { ItemBasedExpenseLineDetail?: { ItemRef?: QbRef } }[];
  TxnTaxDetail?: { TotalTax?: number; TaxLine?: QbTaxLine[] };
}

export interface PurchaseAccounts {
  /** the account an item-based line posts to */
  itemAccount(itemId: string | undefined): string | undefined;
  /** the account the tax of this rate posts to on a purchase */
  taxAccount(rateId: string | undefined): string | undefined;
  /** the account a sales item line without its own ItemAccountRef posts to: the item's IncomeAccountRef */
  salesAccount(itemId: string | undefined): string | undefined;
  /** the account the tax of this rate charged on a sale posts to: its agency's TaxTrackedOnSalesAccountRef */
  salesTaxAccount(rateId: string | undefined): string | undefined;
}

export const NO_PURCHASE_ACCOUNTS: PurchaseAccounts = {
  itemAccount: () => undefined,
  taxAccount: () => undefined,
  salesAccount: () => undefined,
  salesTaxAccount: () => undefined,
};

/** Does any of these transactions have item lines, or tax lines? (then the lists are read) */
export function needsItems(transactions: PurchaseShape[]): boolean {
  return transactions.some((t) => (t.Line ?? []).some((l) => l.ItemBasedExpenseLineDetail?.ItemRef));
}

export function needsTaxRates(transactions: PurchaseShape[]): boolean {
  return transactions.some((t) => (t.TxnTaxDetail?.TaxLine ?? []).length > 0);
}

export function purchaseAccounts(items: QbItem[], rates: QbTaxRate[], agencies: QbTaxAgency[]): PurchaseAccounts {
  const itemById = new Map(items.map((i) => [i.Id, i]));
  const rateById = new Map(rates.map((r) => [r.Id, r]));
  const agencyById = new Map(agencies.map((a) => [a.Id, a]));
  return {
    itemAccount(itemId) {
      const item = itemId === undefined ? undefined : itemById.get(itemId);
      if (!item) return undefined;
      const first = item.Type === 'Inventory' ? item.AssetAccountRef : item.ExpenseAccountRef;
      return (first ?? item.ExpenseAccountRef ?? item.AssetAccountRef)?.value;
    },
    taxAccount(rateId) {
      const agencyId = rateId === undefined ? undefined : rateById.get(rateId)?.AgencyRef?.value;
      return agencyId === undefined ? undefined : agencyById.get(agencyId)?.TaxOnPurchasesAccountRef?.value;
    },
    salesAccount(itemId) {
      return itemId === undefined ? undefined : itemById.get(itemId)?.IncomeAccountRef?.value;
    },
    salesTaxAccount(rateId) {
      const agencyId = rateId === undefined ? undefined : rateById.get(rateId)?.AgencyRef?.value;
      return agencyId === undefined ? undefined : agencyById.get(agencyId)?.TaxTrackedOnSalesAccountRef?.value;
    },
  };
}

/** The tax lines of a transaction: rate id and name, and the amount in the document's currency (major units). */
export function taxLinesOf(t: PurchaseShape): { rateId: string | undefined; rate: string; amount: number }[] {
  return (t.TxnTaxDetail?.TaxLine ?? [])
    .filter((l) => (l.Amount ?? 0) !== 0)
    .map((l) => ({ rateId: l.TaxLineDetail?.TaxRateRef?.value, rate: l.TaxLineDetail?.TaxRateRef?.name ?? 'Tax', amount: l.Amount ?? 0 }));
}
