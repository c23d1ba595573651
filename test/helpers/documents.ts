/** A supplier's bill as a caller sends it to documents.create, with a small but complete PDF. */

/** A small but complete PDF (one empty page), as a scanner would send. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 ' +
    '0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export function paperBill(overrides: Record<string, unknown> = {}) {
  return {
    type: 'bill',
    number: 'PC-2026-200',
    supplier: 'Paper Co',
    date: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'GBP',
    subtotal: 120.5,
    tax: 24.1,
    total: 144.6,
    codedLines: [{ description: 'Copier paper', account: 'Office:Stationery', subtotal: 120.5, tax: 24.1, total: 144.6 }],
    file: { name: 'pc-2026-200.pdf', data: PDF.toString('base64') },
    ...overrides,
  };
}
