/** The Xero records the connector reads, as Xero's Accounting API sends them (the fields used). */

export interface XeroAccount {
  AccountID: string;
  Code?: string;
  Name: string;
  Type?: string;
  Class?: string;
  Status?: string;
  BankAccountType?: string;
  SystemAccount?: string;
  CurrencyCode?: string;
}

export interface XeroContact {
  ContactID: string;
  Name?: string;
  IsSupplier?: boolean;
  IsCustomer?: boolean;
}

export interface XeroInvoice {
  InvoiceID: string;
  Type?: string;
  InvoiceNumber?: string;
  Reference?: string;
  Contact?: XeroContact;
  Date?: string;
  DueDate?: string;
  Status?: string;
  Total?: number;
  AmountDue?: number;
  CurrencyCode?: string;
  CurrencyRate?: number;
  Payments?: { PaymentID?: string }[];
}

export interface XeroBankTransaction {
  BankTransactionID: string;
  Contact?: XeroContact;
  Reference?: string;
}

export interface XeroJournal {
  JournalID: string;
  JournalDate?: string;
  JournalNumber: number;
  Reference?: string;
  SourceID?: string;
  SourceType?: string;
  JournalLines?: { JournalLineID?: string; AccountID: string; Description?: string; NetAmount?: number }[];
}

/** The mirror's lists (accounting_mirror_records.list) */
export const XERO_LISTS = {
  accounts: 'Accounts',
  contacts: 'Contacts',
  invoices: 'Invoices',
  bankTransactions: 'BankTransactions',
  creditNotes: 'CreditNotes',
  payments: 'Payments',
  journals: 'Journals',
} as const;
