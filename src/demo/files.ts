/**
 * Real original files for the demo documents, made without dependencies: a one-page PDF 1.4
 * invoice (standard fonts, a deflated page, an exact cross-reference table) and a PNG of a till
 * receipt (2-bit greyscale, deflated with node:zlib, every chunk with its CRC-32 from the table
 * below). Both stay around 1.5 kB, so tens of thousands of them do not swell the database.
 */
import { deflateSync } from 'node:zlib';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './pixel-font.js';

/** A document as it is printed: every amount already formatted. */
export interface PrintableDocument {
  /** INVOICE, CREDIT NOTE, EXPENSE CLAIM, RECEIPT */
  title: string;
  issuer: string;
  issuerLines: string[];
  recipient: string;
  recipientLines: string[];
  number: string;
  /** yyyy-MM-dd */
  date: string;
  dueDate: string | null;
  currency: string;
  lines: { description: string; quantity: string; unitPrice: string; amount: string }[];
  subtotal: string;
  taxLabel: string;
  tax: string;
  total: string;
  footer: string;
}

// ---------------------------------------------------------------- CRC-32 (ISO 3309, as PNG uses)

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return ~c >>> 0;
}

// ---------------------------------------------------------------- PDF

/** Characters outside ASCII that WinAnsiEncoding has at a different code than Latin-1. */
const WIN_ANSI: Record<string, number> = { '€': 0x80, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97 };

/** A PDF literal string in WinAnsiEncoding, escaped; bytes above 127 as octal escapes keep the file ASCII. */
function pdfString(text: string): string {
  let out = '(';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '(' || ch === ')' || ch === '\\') out += '\\' + ch;
    else if (code >= 32 && code < 127) out += ch;
    else if (code < 32) out += ' ';
    else {
      const byte = WIN_ANSI[ch] ?? (code >= 0xa0 && code <= 0xff ? code : 0x3f);
      out += byte === 0x3f ? '?' : '\\' + byte.toString(8).padStart(3, '0');
    }
  }
  return out + ')';
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}

/** The page's content stream: text in Helvetica, amounts right-aligned in Courier (fixed width). */
function invoiceContent(doc: PrintableDocument): string {
  const ops: string[] = [];
  const text = (font: string, size: number, x: number, y: number, s: string) =>
    ops.push(`BT /${font} ${size} Tf ${x.toFixed(2)} ${y} Td ${pdfString(s)} Tj ET`);
  // Courier advances 600/1000 of the size per character
  const right = (size: number, xRight: number, y: number, s: string) => text('F3', size, xRight - s.length * 0.6 * size, y, s);
  const rule = (y: number) => ops.push(`0.6 w ${50} ${y} m ${545} ${y} l S`);

  text('F2', 16, 50, 790, doc.issuer);
  doc.issuerLines.forEach((line, i) => text('F1', 9, 50, 774 - i * 12, line));
  text('F2', 20, 360, 790, doc.title);
  const facts: [string, string][] = [
    ['Number', doc.number],
    ['Date', doc.date],
    ...(doc.dueDate ? [['Due', doc.dueDate] as [string, string]] : []),
    ['Currency', doc.currency],
  ];
  facts.forEach(([label, value], i) => {
    text('F2', 9, 360, 766 - i * 13, label);
    text('F1', 9, 420, 766 - i * 13, value);
  });
  text('F2', 10, 50, 700, doc.title === 'EXPENSE CLAIM' ? 'Claimed from' : 'Bill to');
  text('F1', 10, 50, 686, doc.recipient);
  doc.recipientLines.forEach((line, i) => text('F1', 9, 50, 672 - i * 12, line));

  let y = 610;
  text('F2', 9, 50, y, 'Description');
  text('F2', 9, 320, y, 'Qty');
  text('F2', 9, 400, y, 'Unit price');
  text('F2', 9, 500, y, 'Amount');
  rule(y - 6);
  y -= 22;
  for (const line of doc.lines) {
    text('F1', 9, 50, y, truncate(line.description, 52));
    text('F1', 9, 320, y, line.quantity);
    right(9, 455, y, line.unitPrice);
    right(9, 545, y, line.amount);
    y -= 16;
  }
  rule(y + 6);
  y -= 14;
  const totals: [string, string][] = [
    ['Subtotal', doc.subtotal],
    [doc.taxLabel, doc.tax],
    [`Total ${doc.currency}`, doc.total],
  ];
  for (const [label, value] of totals) {
    text(label.startsWith('Total') ? 'F2' : 'F1', 10, 360, y, label);
    right(10, 545, y, value);
    y -= 16;
  }
  text('F1', 8, 50, 60, doc.footer);
  return ops.join('\n') + '\n';
}

/** A valid one-page PDF 1.4 of the document, its page content deflated as PDF readers expect. */
export function renderPdf(doc: PrintableDocument): Buffer {
  const content = deflateSync(Buffer.from(invoiceContent(doc), 'latin1'), { level: 6 });
  const stamp = `D:${doc.date.replaceAll('-', '')}000000Z`;
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R >> >> /Contents 7 0 R >>'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>'],
    [`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, content, '\nendstream'],
    [`<< /Title ${pdfString(`${doc.title} ${doc.number}`)} /Author ${pdfString(doc.issuer)} /Producer (Ledgerline demo) /CreationDate (${stamp}) >>`],
  ];
  const parts: Buffer[] = [];
  let length = 0;
  const write = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  // the second line's bytes above 127 mark the file as binary for transfer programs
  write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    write(`${i + 1} 0 obj\n`);
    object.forEach(write);
    write('\nendobj\n');
  });
  const xrefOffset = length;
  write(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) write(`${String(offset).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 8 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- PNG

const RECEIPT_COLUMNS = 32;
const PIXEL = 2;
const CELL_W = (GLYPH_WIDTH + 1) * PIXEL;
const CELL_H = (GLYPH_HEIGHT + 2) * PIXEL;
const MARGIN = 16;
const TORN_EDGE = 8;
// two bits a pixel: four greys are all a receipt needs, and the file stays small
const INK = 0;
const TABLE = 2;
const PAPER = 3;

function leftRight(left: string, right: string, width = RECEIPT_COLUMNS): string {
  const room = width - right.length - 1;
  return (left.length > room ? left.slice(0, room) : left).padEnd(room) + ' ' + right;
}

function centre(text: string, width = RECEIPT_COLUMNS): string {
  const t = text.slice(0, width);
  return ' '.repeat(Math.floor((width - t.length) / 2)) + t;
}

/** The receipt as the till printed it, 32 characters a line. */
export function receiptText(doc: PrintableDocument): string[] {
  const rule = '-'.repeat(RECEIPT_COLUMNS);
  const out = [centre(doc.issuer), ...doc.issuerLines.slice(0, 1).map((l) => centre(l)), centre(doc.title), rule];
  out.push(leftRight(`DATE ${doc.date.split('-').reverse().join('/')}`, `NO ${doc.number}`));
  out.push(rule);
  for (const line of doc.lines) {
    out.push(leftRight(line.description, line.amount));
    if (line.quantity !== '1') out.push(`  ${line.quantity} X ${line.unitPrice}`);
  }
  out.push(rule);
  out.push(leftRight('SUBTOTAL', doc.subtotal));
  out.push(leftRight(doc.taxLabel, doc.tax));
  out.push(leftRight(`TOTAL ${doc.currency}`, doc.total));
  out.push(rule);
  out.push(doc.footer.slice(0, RECEIPT_COLUMNS));
  out.push('');
  out.push(centre('THANK YOU'));
  return out;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes 2-bit greyscale pixels (values 0–3, rows top to bottom) as a PNG. */
export function encodeGreyPng(width: number, height: number, pixels: Uint8Array): Buffer {
  const stride = Math.ceil(width / 4);
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw[row + 1 + (x >> 2)]! |= (pixels[y * width + x]! & 3) << (6 - 2 * (x & 3));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 2; // bit depth
  header[9] = 0; // greyscale
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering
  header[12] = 0; // no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from('Software\0Ledgerline demo', 'latin1')),
    pngChunk('IDAT', deflateSync(raw, { level: 6 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A till receipt on a strip of paper with a torn bottom edge, as a PNG. */
export function renderReceiptPng(doc: PrintableDocument): Buffer {
  const lines = receiptText(doc);
  const width = RECEIPT_COLUMNS * CELL_W + 2 * MARGIN;
  const height = lines.length * CELL_H + 2 * MARGIN + TORN_EDGE;
  const pixels = new Uint8Array(width * height).fill(PAPER);
  lines.forEach((line, row) => {
    [...line].forEach((ch, col) => {
      const bitmap = glyph(ch);
      const x0 = MARGIN + col * CELL_W;
      const y0 = MARGIN + row * CELL_H;
      for (let gy = 0; gy < GLYPH_HEIGHT; gy++)
        for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
          if (!bitmap[gy]![gx]) continue;
          for (let py = 0; py < PIXEL; py++)
            pixels.fill(INK, (y0 + gy * PIXEL + py) * width + x0 + gx * PIXEL, (y0 + gy * PIXEL + py) * width + x0 + (gx + 1) * PIXEL);
        }
    });
  });
  // the torn edge: a zigzag of table showing below the paper
  for (let x = 0; x < width; x++) {
    const tooth = Math.abs((x % (2 * TORN_EDGE)) - TORN_EDGE);
    for (let y = height - tooth; y < height; y++) pixels[y * width + x] = TABLE;
  }
  return encodeGreyPng(width, height, pixels);
}
