/**
 * Bytes to text. Statement files arrive in UTF-8 (with or without a BOM), UTF-16 with a BOM, or a
 * legacy single-byte code page (Windows-1252, Latin-1, Windows-1250). The file's own declaration is
 * used when it has one; ASCII declarations are read as Windows-1252 because banks that say ASCII
 * still write accented letters (the Banco do Brasil sample), and Windows-1252 is a superset of it.
 */
import { isAscii } from 'node:buffer';
import iconv from 'iconv-lite';

const ALIASES: Record<string, string> = {
  usascii: 'windows-1252',
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
  '1252': 'windows-1252',
  cp1252: 'windows-1252',
  'windows-1252': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  '8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  '1250': 'windows-1250',
  cp1250: 'windows-1250',
  'windows-1250': 'windows-1250',
  'iso-8859-2': 'iso-8859-2',
  latin2: 'iso-8859-2',
  'iso-8859-15': 'iso-8859-15',
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16': 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
};

/** The encoding Ledgerline reads for a declared or requested charset name, or null if unknown. */
export function encodingFor(label: string): string | null {
  const key = label.trim().toLowerCase();
  const known = ALIASES[key];
  if (known) return known;
  return iconv.encodingExists(key) ? key : null;
}

export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export function isUtf8(bytes: Uint8Array): boolean {
  if (isAscii(bytes)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function hasHighBytes(bytes: Uint8Array): boolean {
  return !isAscii(bytes);
}

/** Decodes with an encoding from encodingFor; a BOM is dropped. */
export function decodeAs(bytes: Uint8Array, encoding: string): string {
  // ASCII reads the same in every encoding offered here but UTF-16, and the platform reads it fastest
  if (!encoding.startsWith('utf-16') && isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding, { stripBOM: true });
}

/**
 * A BOM wins; then the declared charset; then UTF-8 when the bytes are valid UTF-8; then the
 * fallback code page. `note` hears about any guess so the import summary can say so.
 */
export function decodeText(bytes: Uint8Array, declared: string | null, fallback: string, note: (message: string) => void): string {
  const bom = bomEncoding(bytes);
  if (bom) return decodeAs(bytes, bom);
  if (declared) {
    const encoding = encodingFor(declared);
    if (encoding === 'utf-8' && !isUtf8(bytes)) {
      note(`the file says UTF-8 but is not valid UTF-8; read as ${fallback}`);
      return decodeAs(bytes, fallback);
    }
    // text in a single-byte code page almost never forms valid multi-byte UTF-8, so such bytes are UTF-8 whatever the label says
    if (encoding && encoding !== 'utf-8' && !encoding.startsWith('utf-16') && hasHighBytes(bytes) && isUtf8(bytes)) {
      note(`the file says ${declared} but its accented letters are UTF-8; read as UTF-8`);
      return decodeAs(bytes, 'utf-8');
    }
    if (encoding) return decodeAs(bytes, encoding);
    note(`unknown charset "${declared}"; read as ${isUtf8(bytes) ? 'UTF-8' : fallback}`);
  }
  return isUtf8(bytes) ? decodeAs(bytes, 'utf-8') : decodeAs(bytes, fallback);
}
