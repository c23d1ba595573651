/** The QuickBooks entities the connector reads, as the Accounting API v3 sends them (the fields used). */

export interface Ref {
  value: string;
  name?: string;
  type?: string;
}

export interface QbAccount {
  Id: string;
  Name: string;
  FullyQualifiedName?: string;
  AcctNum?: string;
  AccountType?: string;
  AccountSubType?: string;
  Classification?: string;
  Active?: boolean;
  ParentRef?: Ref;
  CurrencyRef?: Ref;
  CurrentBalance?: number;
}

export interface QbName {
  Id: string;
  DisplayName?: string;
  Active?: boolean;
}

export interface QbLine {
  Id?: string;
  Description?: string;
  Amount?: number;
  DetailType?: string;
  AccountBasedExpenseLineDetail?: { AccountRef?: Ref };
  ItemBasedExpenseLineDetail?: { ItemRef?: Ref };
  SalesItemLineDetail?: { ItemRef?: Ref; ItemAccountRef?: Ref };
  /** the lines of a group item (bundle), each a sales item line; the group line's Amount is their sum */
  GroupLineDetail?: { GroupItemRef?: Ref; Line?: QbLine[] };
  DiscountLineDetail?: { PercentBased?: boolean; DiscountPercent?: number; DiscountAccountRef?: Ref };
  DepositLineDetail?: { AccountRef?: Ref; Entity?: Ref };
  JournalEntryLineDetail?: { PostingType?: 'Debit' | 'Credit'; AccountRef?: Ref; Entity?: { Type?: string; EntityRef?: Ref } };
  /** a deposit's line bringing in a payment or sales receipt held in Undeposited Funds */
  LinkedTxn?: { TxnId?: string; TxnType?: string }[];
}

export interface QbTransaction {
  Id: string;
  TxnDate?: string;
  DocNumber?: string;
  PrivateNote?: string;
  Memo?: string;
  CurrencyRef?: Ref;
  ExchangeRate?: number;
  Line?: QbLine[];
  TotalAmt?: number;
  Balance?: number;
  DueDate?: string;
  VendorRef?: Ref;
  CustomerRef?: Ref;
  EntityRef?: Ref;
  APAccountRef?: Ref;
  ARAccountRef?: Ref;
  AccountRef?: Ref;
  DepositToAccountRef?: Ref;
  PaymentType?: string;
  Credit?: boolean;
  PayType?: string;
  CheckPayment?: { BankAccountRef?: Ref };
  FromAccountRef?: Ref;
  ToAccountRef?: Ref;
  Amount?: number;
  CreditCardPayment?: { CCAccountRef?: Ref };
  TxnTaxDetail?: { TotalTax?: number; TaxLine?: { Amount?: number; TaxLineDetail?: { TaxRateRef?: Ref } }[] };
}

/** A record Change Data Capture reports deleted: only its id is left. */
export interface QbDeleted {
  Id: string;
  status: 'Deleted';
}

/** The name lists of the mirror (accounting_mirror_records.list); transactions are kept under their entity's name. */
export const QB_LISTS = {
  accounts: 'Account',
  vendors: 'Vendor',
  customers: 'Customer',
  items: 'Item',
  taxRates: 'TaxRate',
  taxAgencies: 'TaxAgency',
  attachables: 'Attachable',
} as const;
