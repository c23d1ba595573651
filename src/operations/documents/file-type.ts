/**
 * What a document file is, read from its first bytes: the name and the declared type are what the
 * sender says, the bytes are what it is. Only the types a bill or receipt arrives as are kept.
 */
export const MAX_DOCUMENT_FILE_BYTES = 10 * 1024 * 1024;

/** A JSON body carrying such a file in base64 (4/3 of it) with the document's fields around it. */
export const MAX_DOCUMENT_BODY_BYTES = 15 * 1024 * 1024;

export const DOCUMENT_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/heic'] as const;
export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

/** HEIF brands of still images (ISO/IEC 23008-12): HEIC photos from phones carry one of these. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

export function sniffDocumentFileType(bytes: Uint8Array): DocumentFileType | null {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(8, 12))) return 'image/heic';
  return null;
}

export const FILE_TYPE_NAMES: Record<DocumentFileType, string> = {
  'application/pdf': 'a PDF',
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/webp': 'a WebP image',
  'image/heic': 'a HEIC image',
};
