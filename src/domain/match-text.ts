/**
 * The text side of suggested matches (match-suggestions.ts): a supplier's name and a document's
 * number looked for in a bank narration as banks write them. Banks upper-case, drop diacritics and
 * punctuation, put their own words first (CARD PURCHASE, DD, FPO), cut the narration at a fixed
 * width (often 18 to 22 characters, so the last word stops half way) and shorten words; suppliers'
 * names carry legal suffixes (Ltd, GmbH) the narration leaves out. So both sides are cut into
 * plain lower-case words and compared word by word, a narration word matching a whole name word or
 * its beginning.
 */

/** A word of a narration and where it stands in the original text, to quote it as the bank wrote it. */
export interface NarrationWord {
  text: string;
  start: number;
  end: number;
}

/** A narration cut into words, the bank's own words marked off. */
export interface Narration {
  original: string;
  words: NarrationWord[];
  /** the words that may be a name: not the bank's (CARD PURCHASE, DD) */
  nameWords: NarrationWord[];
  /** runs of digits, leading zeros dropped */
  digitRuns: Set<string>;
}

/** Letters and digits only, lower case, diacritics dropped (é → e, ß → ss). */
export function plain(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // letters NFKD leaves whole: Østergaard, Łódź, Æbeltoft, Œuvre
      .replace(/ß/g, 'ss')
      .replace(/[øØ]/g, 'o')
      .replace(/[łŁ]/g, 'l')
      .replace(/[đĐ]/g, 'd')
      .replace(/[æÆ]/g, 'ae')
      .replace(/[œŒ]/g, 'oe')
      .replace(/[þÞ]/g, 'th')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '')
  );
}

const LEGAL = new Set([
  'ltd',
  'limited',
  'pty',
  'plc',
  'llc',
  'llp',
  'lp',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ug',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'ab',
  'as',
  'aps',
  'se',
  'sl',
  'pte',
  'bhd',
  'kk',
  'the',
  'and',
]);

/** Words too common to stand for a supplier on their own. */
const GENERIC = new Set([
  'services',
  'service',
  'group',
  'trading',
  'international',
  'global',
  'solutions',
  'consulting',
  'holdings',
  'uk',
  'europe',
  'online',
  'store',
  'stores',
  'shop',
  'supplies',
  'systems',
  'partners',
  'associates',
  'management',
  'media',
  'digital',
  'energy',
  'bank',
  'office',
]);

/** Bank words a narration starts or is padded with; never taken for a supplier's name. */
const BANK_PHRASES = [
  'card purchase',
  'card payment',
  'card pmt',
  'debit card',
  'visa debit',
  'contactless',
  'pos',
  'visa',
  'mastercard',
  'mc',
  'dd',
  'direct debit',
  'so',
  'standing order',
  'fpo',
  'fpi',
  'fp',
  'faster payment',
  'faster payments',
  'bgc',
  'bacs',
  'chaps',
  'tfr',
  'transfer',
  'trf',
  'sepa',
  'ct',
  'sepa ct',
  'sepa dd',
  'payment to',
  'payment from',
  'pmt',
  'bill payment',
  'online payment',
  'chq',
  'cheque',
  'ach',
  'wire',
  'refund',
  'ref',
  'inv',
  'invoice',
  'to',
  'from',
  'via',
  'gbp',
  'eur',
  'usd',
].map((p) => p.split(' '));

/**
 * Words compared with German umlauts folded both ways: a bank writes Müller as MULLER or MUELLER,
 * so ue, oe and ae are read as u, o and a on both sides (alike for every word, so equal words stay equal).
 */
const fold = (word: string) => word.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u');

function wordsOf(text: string): NarrationWord[] {
  const words: NarrationWord[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = fold(plain(m[0]));
    if (word) words.push({ text: word, start: m.index, end: m.index + m[0].length });
  }
  return words;
}

export function readNarration(description: string): Narration {
  const words = wordsOf(description);
  const bank = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    for (const phrase of BANK_PHRASES) {
      if (phrase.every((p, k) => words[i + k]?.text === p)) phrase.forEach((_, k) => bank.add(i + k));
    }
  }
  const digitRuns = new Set<string>();
  for (const m of description.matchAll(/\d+/g)) {
    const run = m[0].replace(/^0+/, '');
    if (run.length >= 3) digitRuns.add(run);
  }
  return { original: description, words, nameWords: words.filter((_, i) => !bank.has(i)), digitRuns };
}

/** A supplier's name as words, legal suffixes left out (all of them kept when the name is nothing else). */
export function nameWords(name: string): string[] {
  const words = wordsOf(name).map((w) => w.text);
  const kept = words.filter((w) => !LEGAL.has(w));
  return kept.length ? kept : words;
}

/**
 * A supplier's name as words, and for a person's name (an expense claim's employee: two or three
 * words) also with the first name as its initial, as banks write payees: Jane Smith as J SMITH.
 */
export function nameForms(name: string): string[][] {
  const words = nameWords(name);
  const forms = [words];
  if (words.length >= 2 && words.length <= 3 && words[0]!.length > 1) forms.push([words[0]![0]!, ...words.slice(1)]);
  return forms;
}

export type NameFit = 'whole' | 'cut' | 'part';

export interface NameFound {
  fit: NameFit;
  /** the share of the name's letters the narration holds, 0 to 1 */
  share: number;
  /** the narration's words that hold it, as written */
  quoted: string;
  /** cut where a word of the name ends, at the narration's end or before something unlike the name: as good as the whole of a shorter name */
  atWordEnd: boolean;
}

/**
 * Where the narration holds the supplier's name: `whole` (every word, perhaps run together),
 * `cut` (its beginning, then the narration ends or the last word stops half way: the bank's
 * truncation), or `part` (its first words, then something else; only when they are not all common
 * words). The longest find wins; undefined when the name is not there.
 */
export function findName(narration: Narration, name: string[]): NameFound | undefined {
  const joined = name.join('');
  if (joined.length < 2) return undefined;
  const bounds = new Set<number>();
  let at = 0;
  for (const w of name) bounds.add((at += w.length));
  const words = narration.nameWords;
  let best: (NameFound & { letters: number }) | undefined;
  for (let i = 0; i < words.length; i++) {
    const found = walk(words, i, joined, bounds);
    if (!found) continue;
    // every word there but some shortened (ACME HARD SUPPLIES) reads as cut short
    const fit = found.letters === joined.length ? 'whole' : found.cut || found.end === joined.length ? 'cut' : 'part';
    // a cut name must hold enough letters to stand for it: four, or the whole of a short first word
    if (fit === 'cut' && found.letters < Math.min(4, name[0]!.length)) continue;
    if (fit === 'part' && (found.letters < 4 || !found.wholeWords.some((w) => !GENERIC.has(w)))) continue;
    // "GLOBAL" alone is not Global Widgets: common words stand for a name only with the rest of it
    const onlyCommon = found.wholeWords.length > 0 && found.wholeWords.every((w) => GENERIC.has(w)) && found.wholeWords.join('').length === found.letters;
    if (fit !== 'whole' && onlyCommon) continue;
    const atWordEnd = fit === 'cut' && (found.last === words.length - 1 || found.stopped) && bounds.has(found.end) && found.letters === found.end;
    const candidate = {
      fit,
      share: found.letters / joined.length,
      letters: found.letters,
      quoted: narration.original.slice(words[i]!.start, words[found.last]!.end),
      atWordEnd,
    } as const;
    if (!best || rank(candidate) > rank(best)) best = candidate;
  }
  if (!best) return undefined;
  return { fit: best.fit, share: best.share, quoted: best.quoted, atWordEnd: best.atWordEnd };
}

const rank = (f: { fit: NameFit; letters: number }) => (f.fit === 'whole' ? 1000 : f.fit === 'cut' ? 500 : 0) + f.letters;

/**
 * The name's letters the narration's words from `first` on spell: each word the rest of a name
 * word, its beginning (a word cut short: the next narration word then starts the next name word),
 * a name word split in two, or several name words run together.
 */
function walk(words: NarrationWord[], first: number, joined: string, bounds: Set<number>) {
  let at = 0;
  let letters = 0;
  let last = -1;
  let cut = false;
  let stopped = false;
  const wholeWords: string[] = [];
  for (let j = first; j < words.length && at < joined.length; j++) {
    const word = words[j]!.text;
    if (!joined.startsWith(word, at)) {
      // after whole words, something unlike the name's next word (a reference, a town): the name stopped there;
      // a word beginning as the name's next one does (TRAVEL for TRADERS) is another name
      if (j > first && bounds.has(at) && word[0] !== joined[at]) stopped = true;
      break;
    }
    // one or two letters after the first word, stopping inside a name word: the bank's cut, not a word of the name
    if (j > first && word.length < 3 && !bounds.has(at + word.length)) {
      cut = true;
      break;
    }
    at += word.length;
    letters += word.length;
    last = j;
    if (bounds.has(at)) {
      wholeWords.push(word);
      continue;
    }
    const following = words[j + 1]?.text;
    if (following !== undefined && joined.startsWith(following, at)) continue;
    const next = nextBound(bounds, at);
    if (following !== undefined && next !== undefined && following.length >= 2 && joined.startsWith(following.slice(0, 3), next)) {
      at = next;
      continue;
    }
    cut = true;
    break;
  }
  if (last < 0) return undefined;
  // the narration ended before the name did: cut there
  if (letters < joined.length && last === words.length - 1) cut = true;
  return { letters, last, cut: cut || stopped, stopped, wholeWords, end: at };
}

function nextBound(bounds: Set<number>, at: number): number | undefined {
  let next: number | undefined;
  for (const b of bounds) if (b > at && (next === undefined || b < next)) next = b;
  return next;
}

export type NumberFit = 'exact' | 'digits';

/**
 * Where the narration holds the document's number: `exact` (its letters and digits as one word or
 * run over two or three words: INV-1042 as "INV1042" or "INV 1042") or `digits` (all its digits,
 * three at least, as one run of the narration's digits, leading zeros aside: INV-001042 as
 * "REF 1042"; a number's digits are what survives a bank dropping letters and punctuation).
 */
export function findNumber(narration: Narration, number: NumberForms): NumberFit | undefined {
  const { whole, digits } = number;
  if (whole.length >= 3) {
    const words = narration.words;
    for (let i = 0; i < words.length; i++) {
      let joined = '';
      for (let k = i; k < Math.min(words.length, i + 3); k++) {
        joined += words[k]!.text;
        if (joined === whole) return 'exact';
        if (!whole.startsWith(joined)) break;
      }
    }
  }
  if (digits.length >= 3 && narration.digitRuns.has(digits)) return 'digits';
  return undefined;
}

export interface NumberForms {
  /** letters and digits, as the narration's words are read */
  whole: string;
  /** the digits, leading zeros dropped */
  digits: string;
}

export function numberForms(number: string): NumberForms {
  return { whole: fold(plain(number)), digits: number.replace(/\D/g, '').replace(/^0+/, '') };
}
