/**
 * The fake QuickBooks company with what documents and their files need, on top of the default
 * books (fake-quickbooks-book.ts): two Items (a non-inventory one posting to Cost of Goods Sold, an
 * inventory one to Inventory Asset), a tax agency tracking purchase tax on Sales Tax Payable with
 * an 8% rate, a bill (149) with an account line, two item lines and that tax, and Attachables: the
 * bill's PDF (real bytes), a spreadsheet on bill 147 (not a file documents.file hands out) and a
 * note without a file on vendor credit 152. `settle` derives the totals and balances again.
 */
import { defaultFakeCompany, settle, type Entity, type FakeCompany } from './fake-quickbooks-book.js';

/** A one-page PDF that says "PS-5012". */
export const BILL_PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
    '4 0 obj<</Length 44>>stream',
    'BT /F1 18 Tf 40 70 Td (Invoice PS-5012) Tj ET',
    'endstream endobj',
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
    'trailer<</Root 1 0 R>>',
    '%%EOF',
    '',
  ].join('\n'),
);

export const DOCUMENTED_BILL = '149';
export const BILL_ATTACHABLE = '5000000000000104521';

const meta = { CreateTime: '2026-05-20T10:00:00-07:00', LastUpdatedTime: '2026-05-20T10:00:00-07:00' };
const common = { domain: 'QBO', sparse: false, SyncToken: '0', MetaData: meta };

export function documentsFakeCompany(): FakeCompany {
  const company = defaultFakeCompany();
  const e = company.entities;
  const acct = (id: string) => ({ value: id, name: e.Account.find((a) => a.Id === id)!.FullyQualifiedName });
  e.Item.push(
    {
      ...common,
      Id: '3',
      Name: 'Rye flour 25kg',
      FullyQualifiedName: 'Rye flour 25kg',
      Active: true,
      Type: 'NonInventory',
      PurchaseCost: 27.5,
      ExpenseAccountRef: acct('60'),
    },
    {
      ...common,
      Id: '4',
      Name: 'Jam jars',
      FullyQualifiedName: 'Jam jars',
      Active: true,
      Type: 'Inventory',
      TrackQtyOnHand: true,
      QtyOnHand: 10,
      PurchaseCost: 3.2,
      AssetAccountRef: acct('81'),
      ExpenseAccountRef: acct('60'),
    },
  );
  e.TaxAgency.push({ ...common, Id: '1', DisplayName: 'State Tax Agency', Active: true, TaxTrackedOnPurchases: true, TaxOnPurchasesAccountRef: acct('89') });
  e.TaxRate.push({ ...common, Id: '2', Name: 'Purchase tax 8%', Active: true, RateValue: 8, AgencyRef: { value: '1', name: 'State Tax Agency' } });
  const bill: Entity = {
    ...common,
    Id: DOCUMENTED_BILL,
    TxnDate: '2026-05-20',
    DueDate: '2026-06-19',
    DocNumber: 'PS-5012',
    PrivateNote: 'Boxes, rye flour and jars',
    CurrencyRef: { value: 'USD', name: 'United States Dollar' },
    VendorRef: { value: '58', name: 'Paper Supply Co' },
    APAccountRef: acct('33'),
    Line: [
      {
        Id: '1',
        LineNum: 1,
        Description: 'Bakery boxes',
        Amount: 90,
        DetailType: 'AccountBasedExpenseLineDetail',
        AccountBasedExpenseLineDetail: { AccountRef: acct('20'), BillableStatus: 'NotBillable', TaxCodeRef: { value: 'TAX' } },
      },
      {
        Id: '2',
        LineNum: 2,
        Description: 'Rye flour',
        Amount: 110,
        DetailType: 'ItemBasedExpenseLineDetail',
        ItemBasedExpenseLineDetail: {
          ItemRef: { value: '3', name: 'Rye flour 25kg' },
          Qty: 4,
          UnitPrice: 27.5,
          BillableStatus: 'NotBillable',
          TaxCodeRef: { value: 'TAX' },
        },
      },
      {
        Id: '3',
        LineNum: 3,
        Amount: 32,
        DetailType: 'ItemBasedExpenseLineDetail',
        ItemBasedExpenseLineDetail: {
          ItemRef: { value: '4', name: 'Jam jars' },
          Qty: 10,
          UnitPrice: 3.2,
          BillableStatus: 'NotBillable',
          TaxCodeRef: { value: 'TAX' },
        },
      },
    ],
    TxnTaxDetail: {
      TotalTax: 18.56,
      TaxLine: [
        {
          Amount: 18.56,
          DetailType: 'TaxLineDetail',
          TaxLineDetail: { TaxRateRef: { value: '2', name: 'Purchase tax 8%' }, PercentBased: true, TaxPercent: 8, NetAmountTaxable: 232 },
        },
      ],
    },
  };
  e.Bill.push(bill);
  const attachable = (Id: string, entity: string, id: string, extra: Entity): Entity => ({
    ...common,
    Id,
    AttachableRef: [{ EntityRef: { value: id, type: entity }, IncludeOnSend: false }],
    ...extra,
  });
  e.Attachable.push(
    attachable(BILL_ATTACHABLE, 'Bill', DOCUMENTED_BILL, {
      FileName: 'PS-5012.pdf',
      ContentType: 'application/pdf',
      Size: BILL_PDF.length,
      Category: 'Document',
    }),
    attachable('5000000000000104522', 'Bill', '147', {
      FileName: 'usage.xlsx',
      ContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      Size: 12,
      Category: 'Document',
    }),
    attachable('5000000000000104523', 'VendorCredit', '152', { Note: 'Credit agreed on the phone with Flour Mill Co' }),
  );
  company.files[BILL_ATTACHABLE] = BILL_PDF;
  company.files['5000000000000104522'] = Buffer.from('not a pdf!!!');
  settle(company);
  return company;
}
