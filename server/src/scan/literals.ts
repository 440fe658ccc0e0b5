/**
 * String literals as each language writes them, for the text extractor's whole-literal rule
 * (text.ts): which characters open a literal, how its escapes decode (with a source map back to
 * the document), and which pieces the language joins into one string (`+` between literals, and
 * Python's adjacent literals, see pythonStrings.ts).
 *
 * A literal is only read when a `urn:` stands right after its opening quote, and only on one line:
 * the readers never look further than the end of the line (or MAX_LITERAL units), so reading
 * stays linear in the document whatever it holds.
 */
import { MappedText } from './sourceMap';
import { CharCode } from './charCode';

/** A literal longer than this is not read as one URN (the scan falls back to the plain text rule). */
export const MAX_LITERAL = 4096;
/** At most this many pieces are joined into one URN. */
export const MAX_PIECES = 64;

export interface LiteralPiece {
  /** Where the literal starts (its prefix and opening quote included). */
  start: number;
  /** Document range of the content, between the quotes. */
  contentStart: number;
  contentEnd: number;
  /** Index after the closing quote. */
  end: number;
  /** The piece is a template by its kind (a Python f-string with a field). */
  template: boolean;
}

/** What follows a piece: the opening quote of the next piece it is joined to, a template operand, or nothing. */
export type NextPiece = { quoteAt: number } | 'template' | undefined;

export interface LiteralSyntax {
  readonly name: string;
  /** What the language joins into one string: `+` between literals, or (Python) also adjacent literals. */
  readonly joins: 'plus' | 'python' | undefined;
  /** Whether `c` may be the opening quote of a literal whose content starts right after it. */
  opens(c: number): boolean;
  /**
   * The literal whose content starts at `quoteAt + 1` (`quoteAt` is the last character of the
   * opening quote), its content decoded into `out` when given; undefined when it is not a
   * literal this rule reads: an escaped quote, not closed on its line, too long, or (for
   * languages whose escapes are not known) holding a backslash.
   */
  readPiece(text: string, quoteAt: number, out: MappedText | undefined): LiteralPiece | undefined;
  /** After the piece `piece` (the first of the group is `first`): the piece joined to it, if any. */
  nextPiece(text: string, piece: LiteralPiece, first: LiteralPiece): NextPiece;
}

type Decoder = 'c' | 'json' | 'sql' | 'raw' | 'unsure';

export interface CEscapes {
  /** `\xHH` */ x: boolean;
  /** `\u{H…}` */ uBrace: boolean;
  /** `\UHHHHHHHH` */ bigU: boolean;
  /** An unknown escape `\q` stands for `q` (JavaScript) rather than for itself. */
  dropUnknown: boolean;
  /** Java: octal escapes `\0`–`\377`, `\uuuu0041` (any number of `u`), `\s` for a space. */
  java?: boolean;
}

const SIMPLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '/': '/',
  '`': '`',
};
const JSON_SIMPLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '\\': '\\',
  '"': '"',
  '/': '/',
};

function isHex(c: number): boolean {
  return (
    (c >= CharCode.Digit0 && c <= CharCode.Digit9) ||
    (c >= CharCode.A && c <= CharCode.F) ||
    (c >= CharCode.a && c <= CharCode.f)
  );
}

/** Hex digits `text[from, from + count)` as a code point, or -1. */
export function hexAt(text: string, from: number, count: number): number {
  if (from + count > text.length) return -1;
  let v = 0;
  for (let k = from; k < from + count; k++) {
    const c = text.charCodeAt(k);
    if (!isHex(c)) return -1;
    v = v * 16 + (c <= CharCode.Digit9 ? c - CharCode.Digit0 : (c | 0x20) - 87);
  }
  return v;
}

/** A backslash escape at `at` in a C-like language: what it stands for and its length; undefined for a line continuation. */
export function cEscape(
  text: string,
  at: number,
  escapes: CEscapes | 'json',
): { produced: string; length: number } | undefined {
  const next = text[at + 1] ?? '';
  if (next === '\n' || next === '\r' || next === '') return undefined;
  if (escapes !== 'json' && escapes.java) {
    // JLS 3.3 and 3.10.6: `\uuu0041` is one escape; octal runs up to three digits (`\377`); `\s` is a space.
    if (next >= '0' && next <= '7') {
      let k = at + 1;
      while (k < at + (next <= '3' ? 4 : 3) && text[k]! >= '0' && text[k]! <= '7') k++;
      return { produced: String.fromCharCode(parseInt(text.slice(at + 1, k), 8)), length: k - at };
    }
    if (next === 's') return { produced: ' ', length: 2 };
    if (next === 'u') {
      let u = at + 1;
      while (text[u] === 'u') u++;
      const v = hexAt(text, u, 4);
      if (v >= 0) return { produced: String.fromCharCode(v), length: u + 4 - at };
    }
  }
  const simple = escapes === 'json' ? JSON_SIMPLE[next] : SIMPLE[next];
  if (simple !== undefined) return { produced: simple, length: 2 };
  if (next === 'u') {
    if (escapes !== 'json' && escapes.uBrace && text[at + 2] === '{') {
      const close = text.indexOf('}', at + 3);
      if (close > at + 3 && close <= at + 9) {
        const v = hexAt(text, at + 3, close - at - 3);
        if (v >= 0 && v <= 0x10ffff) return { produced: String.fromCodePoint(v), length: close + 1 - at };
      }
    } else {
      const v = hexAt(text, at + 2, 4);
      if (v >= 0) return { produced: String.fromCharCode(v), length: 6 };
    }
  } else if (escapes !== 'json' && next === 'x' && escapes.x) {
    const v = hexAt(text, at + 2, 2);
    if (v >= 0) return { produced: String.fromCharCode(v), length: 4 };
  } else if (escapes !== 'json' && next === 'U' && escapes.bigU) {
    const v = hexAt(text, at + 2, 8);
    if (v >= 0 && v <= 0x10ffff) return { produced: String.fromCodePoint(v), length: 10 };
  }
  if (escapes !== 'json' && escapes.dropUnknown) return { produced: next, length: 2 };
  return { produced: '\\' + next, length: 2 };
}

/**
 * Read one literal on one line: content from `quoteAt + 1` to the unescaped closing `quote`.
 * An opening quote that is itself escaped (`\"urn:…` inside a larger string) is not read.
 */
function readSimplePiece(
  text: string,
  quoteAt: number,
  quote: number,
  decoder: Decoder,
  escapes: CEscapes | 'json',
  out: MappedText | undefined,
): LiteralPiece | undefined {
  if (decoder !== 'sql' && decoder !== 'raw' && isEscaped(text, quoteAt)) return undefined;
  const contentStart = quoteAt + 1;
  const limit = Math.min(text.length, contentStart + MAX_LITERAL);
  let runStart = contentStart;
  for (let p = contentStart; p < limit; p++) {
    const c = text.charCodeAt(p);
    if (c === quote) {
      if (decoder === 'sql' && text.charCodeAt(p + 1) === quote) {
        if (out) {
          out.run(text, runStart, p);
          out.made(String.fromCharCode(quote), p, p + 2);
        }
        p++;
        runStart = p + 1;
        continue;
      }
      out?.run(text, runStart, p);
      return { start: quoteAt, contentStart, contentEnd: p, end: p + 1, template: false };
    }
    if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) return undefined;
    if (c === CharCode.Backslash && (decoder === 'c' || decoder === 'json')) {
      const escape = cEscape(text, p, escapes);
      if (!escape) return undefined;
      if (out) {
        out.run(text, runStart, p);
        out.made(escape.produced, p, p + escape.length);
      }
      p += escape.length - 1;
      runStart = p + 1;
    } else if (c === CharCode.Backslash && decoder === 'unsure') {
      return undefined;
    }
  }
  return undefined;
}

/** The character at `at` is preceded by an odd number of backslashes. */
export function isEscaped(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && text.charCodeAt(k) === CharCode.Backslash) k--;
  return (at - 1 - k) % 2 === 1;
}

/** Skip spaces, line breaks and `//`, `/* … *\/` comments (C-like languages), up to `limit`. */
export function skipCTrivia(text: string, at: number, limit = text.length): number {
  let p = at;
  while (p < limit) {
    const c = text.charCodeAt(p);
    if (
      c === CharCode.Space ||
      c === CharCode.Tab ||
      c === CharCode.LineFeed ||
      c === CharCode.CarriageReturn ||
      c === CharCode.FormFeed
    ) {
      p++;
    } else if (c === CharCode.Slash && text.charCodeAt(p + 1) === CharCode.Slash) {
      while (p < limit && text.charCodeAt(p) !== CharCode.LineFeed && text.charCodeAt(p) !== CharCode.CarriageReturn)
        p++;
    } else if (c === CharCode.Slash && text.charCodeAt(p + 1) === CharCode.Asterisk) {
      const close = text.indexOf('*/', p + 2);
      if (close < 0 || close >= limit) return limit;
      p = close + 2;
    } else {
      break;
    }
  }
  return p;
}

/** How far past a piece the next one is looked for: a few lines of comments at most. */
export const MAX_GAP = 512;

function quoteTable(quotes: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const q of quotes) table[q.charCodeAt(0)] = 1;
  return table;
}

interface QuoteRule {
  decoder: Decoder;
  escapes: CEscapes | 'json';
}

/** A language whose literals are one line between quotes, each quote with its rule; `plus` joins literals with `+`. */
function simpleSyntax(name: string, rules: Record<string, QuoteRule>, plus: boolean): LiteralSyntax {
  const table = quoteTable(Object.keys(rules).join(''));
  const byCode = new Map<number, QuoteRule>(Object.entries(rules).map(([q, r]) => [q.charCodeAt(0), r]));
  const syntax: LiteralSyntax = {
    name,
    joins: plus ? 'plus' : undefined,
    opens: (c) => c < 128 && table[c] === 1,
    readPiece(text, quoteAt, out) {
      const quote = text.charCodeAt(quoteAt);
      const rule = byCode.get(quote);
      return rule ? readSimplePiece(text, quoteAt, quote, rule.decoder, rule.escapes, out) : undefined;
    },
    nextPiece(text, piece) {
      if (!plus) return undefined;
      const limit = Math.min(text.length, piece.end + MAX_GAP);
      const op = skipCTrivia(text, piece.end, limit);
      if (
        text.charCodeAt(op) !== CharCode.Plus ||
        text.charCodeAt(op + 1) === CharCode.Plus ||
        text.charCodeAt(op + 1) === CharCode.Equals
      )
        return undefined;
      const next = skipCTrivia(text, op + 1, limit);
      const c = text.charCodeAt(next);
      return c < 128 && table[c] === 1 ? { quoteAt: next } : 'template';
    },
  };
  return syntax;
}

const NO_ESCAPES: CEscapes = { x: false, uBrace: false, bigU: false, dropUnknown: false };
const JS: CEscapes = { x: true, uBrace: true, bigU: false, dropUnknown: true };
export const JAVA_ESCAPES: CEscapes = { x: false, uBrace: false, bigU: false, dropUnknown: false, java: true };
const GO: CEscapes = { x: true, uBrace: false, bigU: true, dropUnknown: false };
const C: CEscapes = { x: true, uBrace: false, bigU: true, dropUnknown: false };
const RUST: CEscapes = { x: true, uBrace: true, bigU: false, dropUnknown: false };

const raw: QuoteRule = { decoder: 'raw', escapes: NO_ESCAPES };
const unsure: QuoteRule = { decoder: 'unsure', escapes: NO_ESCAPES };
const c = (escapes: CEscapes): QuoteRule => ({ decoder: 'c', escapes });

/** Unknown languages: any quote, no escapes known (a literal holding a backslash is left to the plain text rule), nothing joined. */
export const DEFAULT_SYNTAX = simpleSyntax('default', { '"': unsure, "'": unsure, '`': unsure }, false);

export const js = simpleSyntax('javascript', { '"': c(JS), "'": c(JS), '`': c(JS) }, true);
export const java = simpleSyntax('java', { '"': c(JAVA_ESCAPES) }, true);
export const go = simpleSyntax('go', { '"': c(GO), '`': raw }, true);
export const cLike = simpleSyntax('c', { '"': c(C) }, true);
export const rust = simpleSyntax('rust', { '"': c(RUST) }, false);
export const json = simpleSyntax('json', { '"': { decoder: 'json', escapes: 'json' } }, false);
export const sql = simpleSyntax(
  'sql',
  { "'": { decoder: 'sql', escapes: NO_ESCAPES }, '"': { decoder: 'sql', escapes: NO_ESCAPES }, '`': raw },
  false,
);
/** Prose: code spans are verbatim (Markdown has no escapes in them), double quotes too; an apostrophe opens nothing. */
export const prose = simpleSyntax('prose', { '`': raw, '"': unsure }, false);
