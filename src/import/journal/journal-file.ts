/**
 * What a journal file is before it is read: refused at once when it is not text (a scan, a
 * workbook, a book), its format told from its name or first line, and its text decoded (UTF-8, or
 * UTF-16 with its byte order mark) and parsed.
 */
import { ImportRefusal } from '../refusal.js';
import { parseCsvJournal } from './csv-journal.js';
import type { JournalFormat, ParsedJournal } from './entries.js';
import { parseHledger } from './hledger.js';

/** What a file that is not text looks like, by its first bytes. */
const BINARY_KINDS: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (an Excel or OpenDocument workbook is one)'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Office document (an .xls workbook is one)'],
  [[0x1f, 0x8b], 'a gzip archive'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'an SQLite database (a GnuCash book is one: connect it rather than import it)'],
];

/**
 * A file that is not text (a scan, a workbook, a book) is refused once, as such, rather than
 * line by line as lines that are neither transactions nor directives: by its first bytes, or a
 * NUL among its first 8,000 (text in UTF-8 or a single-byte encoding has none).
 */
export function refuseBinary(fileName: string, bytes: Uint8Array): void {
  const kind = BINARY_KINDS.find(([magic]) => magic.every((b, i) => bytes[i] === b))?.[1];
  // UTF-16 text (with its byte order mark) has NULs and is text: read as such (utf16Of)
  if (!kind && (utf16Of(bytes) || !bytes.subarray(0, 8000).includes(0))) return;
  const what = kind ?? 'binary data';
  throw new ImportRefusal(
    'unsupported_format',
    `${fileName} is not a text journal: it looks like ${what}. Load an hledger or Ledger journal, or a general-journal CSV.`,
  );
}

/** The encoding a UTF-16 byte order mark names, else null. */
const utf16Of = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null);

export function parseJournal(bytes: Uint8Array, format: JournalFormat): ParsedJournal {
  if (format === 'csv') return parseCsvJournal(bytes);
  return parseHledger(new TextDecoder(utf16Of(bytes) ?? 'utf-8').decode(bytes));
}

/** csv by name or by a first line with commas or semicolons that names an account column; else a journal. */
export function journalFormatOf(fileName: string, bytes: Uint8Array): JournalFormat {
  if (/\.(csv|tsv|txt)$/i.test(fileName)) return 'csv';
  if (/\.(journal|hledger|ledger|j|dat|timeclock)$/i.test(fileName)) return 'journal';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 2000));
  const first = head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  return /[,;\t]/.test(first) && /account/i.test(first) ? 'csv' : 'journal';
}
