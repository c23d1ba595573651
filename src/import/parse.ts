/**
 * From a file's bytes to statements: the size limit first, then the format (given, or told from
 * the content), then that format's reader.
 */
import { parseCamt } from './camt.js';
import { parseCsv } from './csv.js';
import type { CsvOptions } from './csv-presets.js';
import { parseMt940 } from './mt940.js';
import { parseOfx } from './ofx.js';
import { parseQif } from './qif.js';
import { ImportRefusal } from './refusal.js';
import { FORMATS, type FormatName, type ParsedFile } from './statement.js';

/** 20 MB: a year of a busy account in the most verbose format is a few MB. */
export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

export interface ParseOptions {
  format?: FormatName;
  csv?: CsvOptions;
  maxBytes?: number;
}

/** Tells the format from the first bytes; null when nothing fits. */
export function detectFormat(bytes: Uint8Array): FormatName | null {
  const head = Buffer.from(bytes.subarray(0, 8192))
    .toString('latin1')
    .replace(/^\u00EF\u00BB\u00BF/, '')
    .trimStart();
  if (/^OFXHEADER\s*:/i.test(head) || /<\?OFX\b/i.test(head) || /^<OFX>/i.test(head)) return 'ofx';
  if (/^<\?xml|^<Document/i.test(head)) return /BkToCstmr|camt\.05[234]/.test(head) ? 'camt' : /<OFX>/i.test(head) ? 'ofx' : null;
  if (/^!(Type|Option|Account):/i.test(head)) return 'qif';
  if (/^:20:/m.test(head) && /^:(25|60[FM]|61):/m.test(head)) return 'mt940';
  if (head.includes('\u0000')) return null;
  return 'csv';
}

export function parseStatementFile(bytes: Uint8Array, assumedCurrency: string, options: ParseOptions = {}): ParsedFile {
  const limit = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > limit) {
    throw new ImportRefusal('too_large', `the file is ${bytes.byteLength} bytes, over the import limit of ${limit} bytes; split it into smaller statements`);
  }
  if (bytes.byteLength === 0) throw new ImportRefusal('malformed', 'the file is empty');
  const format = options.format ?? detectFormat(bytes);
  if (!format) {
    throw new ImportRefusal('unsupported_format', `the format cannot be told from the content; give --format (${FORMATS.join(', ')})`);
  }
  switch (format) {
    case 'ofx':
      return parseOfx(bytes, assumedCurrency);
    case 'camt':
      return parseCamt(bytes, assumedCurrency);
    case 'mt940':
      return parseMt940(bytes, assumedCurrency);
    case 'qif':
      return parseQif(bytes, assumedCurrency, {
        ...(options.csv?.dateFormat ? { dateFormat: options.csv.dateFormat } : {}),
        ...(options.csv?.decimal ? { decimal: options.csv.decimal } : {}),
      });
    case 'csv':
      return parseCsv(bytes, assumedCurrency, options.csv);
  }
}
