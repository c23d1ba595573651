/**
 * Arbitraries and checks for the HTTP fuzz (test/project/fuzz.test.ts). Values are derived from each
 * parameter's JSON Schema (the operation's input schema, or a tool's inputSchema from tools/list),
 * so a new operation, tool or parameter is fuzzed without touching the test. The checks hold for
 * every answer whatever was sent: nothing internal and nothing of another organisation in it.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  description?: string;
}

export interface ObjectSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Fixed so a failure reproduces; FUZZ_SEED / FUZZ_RUNS explore further on a local run. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/**
 * Node refuses request heads over 16 KB (431) and the service bodies over 64 KB (413): "huge"
 * values stay under both, so they reach the operations. What is over them is tested apart.
 */
export const HUGE_QUERY_BYTES = 12_000;
export const HUGE_BODY_BYTES = 56_000;

// ---------------------------------------------------------------- odd text

const UNICODE = [
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 👩‍👩‍👧‍👦',
  'مرحبا بالعالم',
  'שלום עולם',
  '\u202Egnp.exe\u202C',
  '\u200F\u200E\u061C\u2066x\u2069',
  'e\u0301\u0301\u0301\u0301\u0301',
  'Z\u0338\u0321\u031B\u0353a\u0337l\u0335g\u0334o',
  '\uFEFFOffice',
  'O\u200Bffice',
  'ＯＦＦＩＣＥ',
  'İıßǅ',
  '\uFFFD\uFFFE\uFFFF',
  '\u{10FFFF}\u{E0001}',
  '𝟘𝟙𝟚',
];
/** lone surrogates: in JSON as \ud800 escapes; in a URL they can only go as invalid UTF-8 (RAW_QUERY_VALUES) */
export const LONE_SURROGATES = ['\uD800', '\uDFFF', 'a\uD83Db', '\uDE00\uD83D'];
const CONTROL = ['\u0000', 'a\u0000b', 'Office\u0000', '\r\n', '\t', '\u0007\u0008\u001b[31m', '\u007f', '\u0085', '\u2028\u2029', '\u0000'.repeat(64)];
const NUMBERISH = [
  '1e3',
  '1E+2',
  '-1e-7',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '+0',
  '0x10',
  '0b1',
  '1_000',
  '007',
  '12.0',
  '12.5',
  ' 12 ',
  '１２',
  '٣',
  '9007199254740993',
  '1e309',
  '-1',
  '0',
  '4294967296',
  '.5',
  '5.',
  '--1',
];
const DATEISH = [
  '2025-02-29',
  '2024-02-29',
  '1900-02-29',
  '2000-02-29',
  '9999-12-31',
  '0000-01-01',
  '0001-01-01',
  '1970-01-01',
  '2038-01-19',
  '2026-13-01',
  '2026-00-10',
  '2026-11-31',
  '2026-11-00',
  '2026-1-1',
  '26-11-21',
  '2026/11/21',
  '2026-11-21T00:00:00Z',
  '+002026-11-21',
  '-000001-01-01',
  '20261121',
  '2026-11-21 ',
  'yyyy-MM-dd',
];
const INJECTION = [
  "' OR '1'='1",
  "'; drop table organisations; --",
  '"',
  '\\',
  '%',
  '_',
  '*',
  '${process.env}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  ' ',
  '',
];
const COMMAS = [',', ',,,', ' , , ', 'doc_acme,doc_acme,doc_acme', 'doc_acme,,doc_pdf,'];

/** A long comma list: up to thousands of ids, some empty. */
const commaList = fc.integer({ min: 2, max: 1500 }).map((n) => Array.from({ length: n }, (_, i) => (i % 7 === 3 ? '' : `doc_${i}`)).join(','));

/** A string about `bytes` long on the wire (measured by `size`), of one repeated unit. */
export function hugeText(bytes: number, size: (s: string) => number = Buffer.byteLength): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('a', 'é', '😀', '%', ',', ' ', 'doc_acme,', '\u0000', 'e\u0301'), fc.integer({ min: 50, max: 100 }))
    .map(([unit, percent]) => unit.repeat(Math.max(1, Math.floor((bytes * percent) / 100 / size(unit)))));
}

const controlChars = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 8 });

/** Text no parameter expects: each family the fuzz covers, plus the caller's own known values. */
export function oddText(huge: fc.Arbitrary<string>, known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...UNICODE, ...CONTROL, ...NUMBERISH, ...DATEISH, ...INJECTION, ...COMMAS), weight: 6 },
    { arbitrary: known.length ? fc.constantFrom(...known) : fc.constant(''), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
    { arbitrary: controlChars, weight: 1 },
    { arbitrary: commaList, weight: 1 },
    { arbitrary: huge, weight: 1 },
  );
}

// ---------------------------------------------------------------- values from a schema

function concrete(schema: JsonSchema): JsonSchema {
  return schema.anyOf?.find((s) => s.type !== 'null') ?? schema;
}

const plausibleDate = fc
  .date({ min: new Date('2019-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A value the parameter accepts (or nearly: a known value of the wrong kind), as JSON. */
export function validValue(schema: JsonSchema, known: readonly string[]): fc.Arbitrary<unknown> {
  const s = concrete(schema);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (s.type === 'integer' || s.type === 'number') return fc.integer({ min: s.minimum ?? -10, max: s.maximum ?? 1000 });
  if (s.type === 'boolean') return fc.boolean();
  if (/yyyy-MM-dd/.test(s.description ?? '')) return fc.oneof({ arbitrary: plausibleDate, weight: 4 }, { arbitrary: fc.constantFrom(...DATEISH), weight: 1 });
  return fc.oneof(known.length ? fc.constantFrom(...known) : fc.constant('x'), fc.string({ maxLength: 12 }));
}

/** A value as text (a query string's view of it). */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// ---------------------------------------------------------------- REST query strings

/** What went on the wire, and the texts the server may echo back (they may contain anything). */
export interface Sent {
  wire: string;
  texts: string[];
}

/** Query values the URL encoder would never make: bad escapes, invalid UTF-8, encoded separators. */
const RAW_QUERY_VALUES = [
  '%',
  '%zz',
  '%0',
  '%00',
  '%C0%80',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%FF%FE',
  '%E2%80%AE',
  '+',
  '%2B',
  '%25',
  '%26',
  '%3D',
  '%2C%2C',
  'a%00b',
  '%F0%9F%98',
];
/** Whole query fragments of odd shape. */
const RAW_QUERY_FRAGMENTS = [
  '&',
  '&&',
  '=',
  '==',
  '=x',
  'a=b=c',
  ';',
  'x[]=1',
  'x[y]=1',
  '__proto__=1',
  'constructor[prototype]=1',
  '%3D=%26',
  '?',
  '#',
  'limit',
  'period',
];

/** Percent-encodes every byte outside the unreserved set; lone surrogates become U+FFFD first. */
export function encodeQueryText(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

const hugeQueryText = hugeText(HUGE_QUERY_BYTES, (s) => encodeQueryText(s).length);

type ParameterKind = 'text' | 'date' | 'other';

/** Free text (no enum, not a date), a date, or a parameter whose values are a closed set (enum, number, boolean). */
export function parameterKind(schema: JsonSchema): ParameterKind {
  const s = concrete(schema);
  if (s.type !== 'string' || s.enum?.length) return 'other';
  return /yyyy-MM-dd/.test(s.description ?? '') ? 'date' : 'text';
}

/** Dates that are valid but at an edge: leap days, the first and last years a yyyy-MM-dd can write. */
export const EDGE_DATES = ['0000-01-01', '0001-01-01', '1970-01-01', '2000-02-29', '2024-02-29', '2038-01-19', '9999-12-31', '2026-11-21'];

/**
 * Values for each parameter of a schema, in one of two plans. Focused: the request reaches the
 * operation with one odd input, the required parameters valid and the others absent: either odd
 * text in one free-text parameter, or edge dates in every date parameter. Chaos: each parameter
 * absent, valid, odd or repeated, plus unknown ones. Without the focused plan nearly every request
 * stops at validation.
 */
function planParameters<T>(
  schema: ObjectSchema,
  valid: (s: JsonSchema) => fc.Arbitrary<T>,
  odd: fc.Arbitrary<T>,
  edgeDate: fc.Arbitrary<T>,
  extra: fc.Arbitrary<[string, T]>,
  repeat: boolean,
): fc.Arbitrary<[string, T][]> {
  const entries = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const one = (name: string, arb: fc.Arbitrary<T>) => arb.map((v): [string, T][] => [[name, v]]);
  const absent = fc.constant<[string, T][]>([]);
  const chaos = fc
    .tuple(
      fc.tuple(
        ...entries.map(([name, s]) =>
          fc.oneof(
            { arbitrary: absent, weight: 3 },
            { arbitrary: one(name, fc.oneof(valid(s), odd)), weight: 5 },
            {
              arbitrary: repeat ? fc.array(fc.oneof(valid(s), odd), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v): [string, T] => [name, v])) : absent,
              weight: 1,
            },
          ),
        ),
      ),
      fc.array(extra, { maxLength: 2 }),
    )
    .map(([given, unknown]) => [...given.flat(), ...unknown]);
  const targets = entries.filter(([, s]) => parameterKind(s) !== 'other').map(([name]) => name);
  if (targets.length === 0) return fc.oneof(absent, chaos);
  const focused = fc
    .constantFrom(...targets)
    .chain((target) => {
      const dates = parameterKind(schema.properties![target]!) === 'date';
      return fc.tuple(
        ...entries.map(([name, s]) => {
          if (name === target) return one(name, dates ? edgeDate : odd);
          if (dates && parameterKind(s) === 'date') return one(name, edgeDate);
          return required.has(name) ? one(name, valid(s)) : absent;
        }),
      );
    })
    .map((given) => given.flat());
  return fc.oneof(focused, chaos);
}

interface QueryValue {
  raw: string;
  text: string;
}

function textValue(text: string): QueryValue {
  return { raw: encodeQueryText(text), text };
}

/** Odd text, or raw bytes no encoder makes. */
function oddQueryValue(known: readonly string[]): fc.Arbitrary<QueryValue> {
  return fc.oneof(
    { arbitrary: oddText(hugeQueryText, known).map(textValue), weight: 5 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_VALUES).map((raw) => ({ raw, text: safeDecode(raw) })), weight: 1 },
  );
}

const queryKey = fc.oneof(
  fc.constantFrom('organisation', 'page', 'cursor', 'format', 'id[]', 'ids[0]', 'Limit', 'LIMIT', '__proto__'),
  oddText(fc.constant('k'.repeat(2000))),
);

/**
 * A query string for an operation (planParameters; repeated parameters as ?a=1&a=2), with odd
 * fragments in the chaos plan. At most HUGE_QUERY_BYTES long.
 */
export function restQuery(schema: ObjectSchema, known: readonly string[]): fc.Arbitrary<Sent> {
  const odd = oddQueryValue(known);
  const extra = fc.tuple(queryKey, odd).map(([k, v]): [string, QueryValue] => [k, v]);
  const edge = fc.constantFrom(...EDGE_DATES).map(textValue);
  const plan = planParameters<QueryValue>(schema, (s) => validValue(s, known).map((v) => textValue(asText(v))), odd, edge, extra, true);
  const fragments = fc.oneof(
    { arbitrary: fc.constant([]), weight: 4 },
    { arbitrary: fc.array(fc.constantFrom(...RAW_QUERY_FRAGMENTS), { minLength: 1, maxLength: 2 }), weight: 1 },
  );
  return fc
    .tuple(plan, fragments)
    .map(([pairs, raw]) => {
      const wire = [...pairs.map(([k, v]) => `${encodeQueryText(k)}=${v.raw}`), ...raw].join('&');
      return { wire, texts: [...pairs.flatMap(([k, v]) => [k, v.text]), ...raw.map(safeDecode)].filter(Boolean) };
    })
    .filter((q) => q.wire.length <= HUGE_QUERY_BYTES);
}

// ---------------------------------------------------------------- MCP arguments

/** JSON tokens JSON.stringify never writes: escaped lone surrogates, overflowing and negative zero numbers. */
const RAW_JSON_TOKENS = [
  '"\\ud800"',
  '"a\\udfff\\ud800b"',
  '"\\u0000"',
  '-0',
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '0.1e1',
  '"\\u202e"',
];
/** marks a raw token in a value tree until it is written */
const RAW = '\u0000raw';
const RAW_JSON_ARGUMENTS = ['null', '[]', '"text"', '1', 'true', '[{}]', '{"__proto__":{"polluted":1}}'];

const hugeBodyText = hugeText(HUGE_BODY_BYTES, (s) => JSON.stringify(s).length - 2);

/** Values of the wrong JSON type for any parameter. */
function wrongTypes(known: readonly string[]): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), oddText(fc.constant('x'), known));
  return fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
    fc.integer({ min: 2, max: 60 }).map((depth) => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: [inner] }), 1)),
  );
}

/** A tool's arguments as raw JSON text (planParameters): odd text, wrong types, raw tokens; sometimes not an object at all. */
export function toolArguments(schema: ObjectSchema, known: readonly string[]): fc.Arbitrary<Sent> {
  const rawToken = fc.constantFrom(...RAW_JSON_TOKENS).map((token): unknown => ({ [RAW]: token }));
  const odd = fc.oneof(
    { arbitrary: oddText(hugeBodyText, known) as fc.Arbitrary<unknown>, weight: 3 },
    { arbitrary: wrongTypes(known), weight: 2 },
    { arbitrary: rawToken, weight: 1 },
  );
  const extra = fc.tuple(queryKey, odd).map(([k, v]): [string, unknown] => [k, v]);
  const plan = planParameters<unknown>(schema, (s) => validValue(s, known), odd, fc.constantFrom(...EDGE_DATES), extra, false);
  const whole = fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, { arbitrary: fc.constantFrom(...RAW_JSON_ARGUMENTS), weight: 1 });
  return fc.tuple(plan, whole).map(([pairs, replaced]) => {
    if (replaced !== undefined) return { wire: replaced, texts: [] };
    const raw: string[] = [];
    const args = Object.fromEntries(pairs);
    const texts = collectTexts(args);
    const json = JSON.stringify(args, (_k, v) => {
      if (v && typeof v === 'object' && RAW in v) {
        raw.push(String(v[RAW]));
        return `@@RAW${raw.length - 1}@@`;
      }
      return v;
    });
    for (const token of raw) if (token.startsWith('"')) texts.push(JSON.parse(token));
    return { wire: json.replace(/"@@RAW(\d+)@@"/g, (_m, i) => raw[Number(i)]!), texts };
  });
}

function collectTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectTexts);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...collectTexts(v)]);
  return [];
}

// ---------------------------------------------------------------- headers

/** Header values fetch can send (no CR, LF or NUL): odd, latin-1, UTF-8 bytes, long. */
export function oddHeaderValue(known: readonly string[] = []): fc.Arbitrary<string> {
  const latin1 = fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 30,
  });
  const utf8Bytes = fc.constantFrom(...UNICODE).map((s) => Buffer.from(s, 'utf8').toString('latin1'));
  const printable = (s: string) => !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(s) && [...s].every((c) => c.charCodeAt(0) <= 0xff);
  return fc.oneof(
    fc.constantFrom(...[...NUMBERISH, ...INJECTION, ...DATEISH, ...COMMAS, ...known].filter(printable)),
    latin1,
    utf8Bytes,
    fc.integer({ min: 100, max: 6000 }).map((n) => 'x'.repeat(n)),
  );
}

/** Accept / Accept-Encoding values: real ones, odd weights, odd shapes. */
export const oddAccept = fc.constantFrom(
  'application/json',
  'application/problem+json',
  '*/*',
  'text/html',
  'text/event-stream',
  'application/json;q=0',
  'application/*;q=abc',
  ',,,',
  ';;;',
  'image/png, */*;q=0.1',
  'application/json; charset=ebcdic',
);
export const oddAcceptEncoding = fc.constantFrom(
  'gzip',
  'gzip;q=0',
  'gzip;q=abc',
  'gzip;q=1.0000',
  'GZIP',
  'x-gzip',
  '*',
  '*;q=0',
  'br',
  'deflate, gzip;q=0.001',
  'identity;q=0',
  'identity;q=0, *;q=0',
  'gzip;;q=1',
  ';q=1',
  ',',
  'compress, zstd',
);
/** X-Request-Id: accepted as given only when plain (letters, digits, . : _ -, up to 100). */
export const oddRequestId = fc.oneof(
  fc.constantFrom('req-1', 'a'.repeat(100), 'a'.repeat(101), 'x\ty', '<script>', 'id with spaces', 'ümlaut', '../../etc', 'a,b', ''),
  fc.string({ maxLength: 20 }),
);

// ---------------------------------------------------------------- what no answer may contain

const INTERNALS: [string, RegExp][] = [
  ['a stack trace', / {4}at /],
  ['a source path', /\/src\/|node_modules|file:\/\//],
  ['SQL text', /SQLITE_|syntax error|\bselect\b[^"]{0,80}\bfrom\b|\binsert into\b|\bdelete from\b|\bupdate \w+ set\b|violates .* constraint|relation "/i],
  ['an unformatted value', /\bundefined\b|\bNaN\b|\[object Object\]/],
];

/**
 * What in `text` (an answer's body) should never be there: internal detail, or a marker of another
 * organisation. Echoes of what was sent are taken out first: a caller may send "NaN" and be told so.
 */
export function leaksIn(text: string, sent: readonly string[], foreign: readonly string[]): string[] {
  let scrubbed = text;
  const patterns = [...INTERNALS.map(([, p]) => p)];
  const echoed = sent.filter((s) => s.length > 0 && (patterns.some((p) => p.test(s)) || foreign.some((f) => s.includes(f))));
  for (const s of echoed.sort((a, b) => b.length - a.length)) {
    for (const form of [s, JSON.stringify(s).slice(1, -1)]) scrubbed = scrubbed.split(form).join('');
  }
  const found = INTERNALS.filter(([, p]) => p.test(scrubbed)).map(([what, p]) => `${what}: ${String(scrubbed.match(p)?.[0])}`);
  for (const marker of foreign) if (scrubbed.includes(marker)) found.push(`another organisation's ${marker}`);
  return found;
}
