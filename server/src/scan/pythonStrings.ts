/**
 * Python string literals for the whole-literal rule (literals.ts, text.ts): prefixes (`r`/`R` raw:
 * no escapes; `b`; `u`; `f`/`t`: a template when a `{field}` is in it), single and triple quotes,
 * Python's escapes mapped back to the source, and the pieces Python joins into one string:
 * adjacent literals (`"urn:li:dataset:(" "urn:li:dataPlatform:hive,db.users,PROD)"`, black's way
 * of splitting a long string inside parentheses, comments between pieces allowed) and `+`
 * between literals. `"…" + name` makes the joined string a template.
 *
 * Adjacent literals on different lines are only joined inside brackets (outside, Python reads two
 * statements: `OWNER = "urn:li:corpuser:jdoe"` then a `"""docstring"""`). Brackets are not tracked
 * through the file: the piece must follow `(`, `[`, `{` or `,` (comments and line breaks between).
 */
import type { MappedText } from './sourceMap';
import {
  hexAt,
  isEscaped,
  MAX_GAP,
  MAX_LITERAL,
  type LiteralPiece,
  type LiteralSyntax,
  type NextPiece,
} from './literals';
import { CharCode } from './charCode';

function isQuote(c: number): boolean {
  return c === CharCode.DoubleQuote || c === CharCode.SingleQuote;
}

function isIdentifierChar(c: number): boolean {
  return (
    (c >= CharCode.A && c <= CharCode.Z) ||
    (c >= CharCode.a && c <= CharCode.z) ||
    c === CharCode.Underline ||
    (c >= CharCode.Digit0 && c <= CharCode.Digit9) ||
    c >= 128
  );
}

/** Prefix letters: r (raw), b (bytes), u, f and t (template strings). */
function prefixFlag(c: number): number {
  switch (c | 0x20) {
    case 114:
      return 1; // r
    case 98:
      return 2; // b
    case 117:
      return 4; // u
    case 102:
      return 8; // f
    case 116:
      return 8; // t
    default:
      return 0;
  }
}

const RAW = 1,
  BYTES = 2,
  FORMAT = 8;

const SIMPLE: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** The opening of the literal whose last opening quote is at `quoteAt`: where it starts, its flags and whether it is triple-quoted. */
function openingAt(text: string, quoteAt: number): { start: number; flags: number; triple: boolean } | undefined {
  const quote = text.charCodeAt(quoteAt);
  if (!isQuote(quote)) return undefined;
  const triple = quoteAt >= 2 && text.charCodeAt(quoteAt - 1) === quote && text.charCodeAt(quoteAt - 2) === quote;
  const first = triple ? quoteAt - 2 : quoteAt;
  if (isEscaped(text, first)) return undefined;
  let start = first;
  let flags = 0;
  while (start > 0 && first - start < 2) {
    const flag = prefixFlag(text.charCodeAt(start - 1));
    if (flag === 0 || (flags & flag) !== 0) break;
    flags |= flag;
    start--;
  }
  if (start > 0 && isIdentifierChar(text.charCodeAt(start - 1))) {
    // `name"…"` is no Python literal; `ur"…"` with a longer word before is not either.
    return undefined;
  }
  return { start, flags, triple };
}

/** A literal's opening at `at` (prefix included): the index of its last opening quote, or -1. */
function openingFrom(text: string, at: number): number {
  let q = at;
  while (q < text.length && q - at < 2 && prefixFlag(text.charCodeAt(q)) !== 0) q++;
  const quote = text.charCodeAt(q);
  if (!isQuote(quote)) return -1;
  if (text.charCodeAt(q + 1) === quote && text.charCodeAt(q + 2) === quote) return q + 2;
  return q;
}

function readPiece(text: string, quoteAt: number, out: MappedText | undefined): LiteralPiece | undefined {
  const opening = openingAt(text, quoteAt);
  if (!opening) return undefined;
  const { flags, triple } = opening;
  const quote = text.charCodeAt(quoteAt);
  const contentStart = quoteAt + 1;
  const limit = Math.min(text.length, contentStart + MAX_LITERAL);
  let template = false;
  let runStart = contentStart;
  for (let p = contentStart; p < limit; p++) {
    const c = text.charCodeAt(p);
    if (c === quote && (!triple || (text.charCodeAt(p + 1) === quote && text.charCodeAt(p + 2) === quote))) {
      out?.run(text, runStart, p);
      return { start: opening.start, contentStart, contentEnd: p, end: p + (triple ? 3 : 1), template };
    }
    if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) return undefined;
    if ((flags & FORMAT) !== 0 && (c === CharCode.OpenCurlyBrace || c === CharCode.CloseCurlyBrace)) {
      if (text.charCodeAt(p + 1) === c) {
        if (out) {
          out.run(text, runStart, p);
          out.made(text[p]!, p, p + 2);
        }
        p++;
        runStart = p + 1;
      } else if (c === CharCode.OpenCurlyBrace) {
        template = true;
      }
      continue;
    }
    if (c !== CharCode.Backslash) continue;
    if (text.charCodeAt(p + 1) === CharCode.LineFeed || text.charCodeAt(p + 1) === CharCode.CarriageReturn)
      return undefined;
    if ((flags & RAW) !== 0) {
      // A raw string keeps the backslash, and the quote after it does not close the string.
      p++;
      continue;
    }
    const escape = pythonEscape(text, p, (flags & BYTES) !== 0);
    if (out) {
      out.run(text, runStart, p);
      out.made(escape.produced, p, p + escape.length);
    }
    p += escape.length - 1;
    runStart = p + 1;
  }
  return undefined;
}

/** A backslash escape of a (non-raw) Python string at `at`: what it stands for and its length. */
export function pythonEscape(text: string, at: number, bytes: boolean): { produced: string; length: number } {
  const next = text[at + 1] ?? '';
  const simple = SIMPLE[next];
  if (simple !== undefined) return { produced: simple, length: 2 };
  if (next >= '0' && next <= '7') {
    let k = at + 1;
    while (k < at + 4 && text[k]! >= '0' && text[k]! <= '7') k++;
    return { produced: String.fromCharCode(parseInt(text.slice(at + 1, k), 8)), length: k - at };
  }
  const digits = next === 'x' ? 2 : bytes ? 0 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
  if (digits > 0) {
    const v = hexAt(text, at + 2, digits);
    if (v >= 0 && v <= 0x10ffff) return { produced: String.fromCodePoint(v), length: 2 + digits };
  }
  // Python keeps unknown escapes (and `\N{…}`, which this does not look up) as written.
  return { produced: '\\' + next, length: 2 };
}

/** Skip spaces, comments and backslash continuations; `newline` says whether a (non-continued) line break was crossed. */
function skipTrivia(text: string, at: number, limit: number): { at: number; newline: boolean } {
  let p = at;
  let newline = false;
  while (p < limit) {
    const c = text.charCodeAt(p);
    if (c === CharCode.Space || c === CharCode.Tab || c === CharCode.FormFeed) {
      p++;
    } else if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) {
      newline = true;
      p++;
    } else if (c === CharCode.Hash) {
      while (p < limit && text.charCodeAt(p) !== CharCode.LineFeed && text.charCodeAt(p) !== CharCode.CarriageReturn)
        p++;
    } else if (
      c === CharCode.Backslash &&
      (text.charCodeAt(p + 1) === CharCode.LineFeed || text.charCodeAt(p + 1) === CharCode.CarriageReturn)
    ) {
      p += text.charCodeAt(p + 1) === CharCode.CarriageReturn && text.charCodeAt(p + 2) === CharCode.LineFeed ? 3 : 2;
    } else {
      break;
    }
  }
  return { at: p, newline };
}

/** How many lines back the bracket before a piece is looked for (comment lines between). */
const MAX_LINES_BACK = 8;

/**
 * The significant character before `at` is an opening bracket or a comma (so the literal at `at`
 * stands inside brackets): line breaks, spaces and `#` comments before it are skipped.
 */
function followsBracket(text: string, at: number): boolean {
  let p = at - 1;
  for (let lines = 0; lines <= MAX_LINES_BACK && p >= 0; lines++) {
    while (
      p >= 0 &&
      (text.charCodeAt(p) === CharCode.Space ||
        text.charCodeAt(p) === CharCode.Tab ||
        text.charCodeAt(p) === CharCode.FormFeed)
    )
      p--;
    if (p < 0) return false;
    const c = text.charCodeAt(p);
    if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) {
      p--;
      continue;
    }
    const hash = commentStart(text, p);
    if (hash < 0)
      return (
        c === CharCode.OpenParen ||
        c === CharCode.OpenSquareBracket ||
        c === CharCode.OpenCurlyBrace ||
        c === CharCode.Comma
      );
    p = hash - 1;
    lines--;
  }
  return false;
}

/** Where the `#` comment that holds `at` starts on its line (quotes on the line before it considered), or -1. */
function commentStart(text: string, at: number): number {
  let lineStart = at;
  while (
    lineStart > 0 &&
    text.charCodeAt(lineStart - 1) !== CharCode.LineFeed &&
    text.charCodeAt(lineStart - 1) !== CharCode.CarriageReturn
  )
    lineStart--;
  let quote = 0;
  for (let p = lineStart; p <= at; p++) {
    const c = text.charCodeAt(p);
    if (quote !== 0) {
      if (c === CharCode.Backslash) p++;
      else if (c === quote) quote = 0;
    } else if (isQuote(c)) {
      quote = c;
    } else if (c === CharCode.Hash) {
      return p;
    }
  }
  return -1;
}

function nextPiece(text: string, piece: LiteralPiece, first: LiteralPiece): NextPiece {
  const limit = Math.min(text.length, piece.end + MAX_GAP);
  const gap = skipTrivia(text, piece.end, limit);
  if (text.charCodeAt(gap.at) === CharCode.Plus) {
    if (text.charCodeAt(gap.at + 1) === CharCode.Equals /* += */) return undefined;
    const operand = skipTrivia(text, gap.at + 1, limit).at;
    const quoteAt = openingFrom(text, operand);
    return quoteAt >= 0 ? { quoteAt } : 'template';
  }
  const quoteAt = openingFrom(text, gap.at);
  if (quoteAt < 0) return undefined;
  if (gap.newline && !followsBracket(text, first.start)) return undefined;
  return { quoteAt };
}

export const pythonSyntax: LiteralSyntax = {
  name: 'python',
  joins: 'python',
  opens: isQuote,
  readPiece,
  nextPiece,
};
