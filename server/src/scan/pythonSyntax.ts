/**
 * Just enough Python lexing to read builder calls: whitespace and comments between arguments,
 * string literals (prefixes, triple quotes, escapes) and the end of a call.
 */

import { BROKEN, NOT_NON_CODE, type NonCode } from './codeCursor';
import { pythonEscape } from './pythonStrings';
import { CharCode } from './charCode';

/** A builder call longer than this is not read: keeps unclosed calls (while typing) from rescanning the file. */
export const MAX_CALL_LENGTH = 1000;

export function isIdentifierStart(c: number): boolean {
  return (
    (c >= CharCode.A && c <= CharCode.Z) || (c >= CharCode.a && c <= CharCode.z) || c === CharCode.Underline || c >= 128
  );
}

export function isIdentifierChar(c: number): boolean {
  return isIdentifierStart(c) || (c >= CharCode.Digit0 && c <= CharCode.Digit9);
}

/** Skip whitespace, line breaks, backslash continuations and `#` comments (inside brackets all are allowed). */
export function skipTrivia(text: string, at: number, limit = text.length): number {
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
    } else if (c === CharCode.Hash) {
      while (p < limit && text.charCodeAt(p) !== CharCode.LineFeed && text.charCodeAt(p) !== CharCode.CarriageReturn)
        p++;
    } else if (
      c === CharCode.Backslash &&
      (text.charCodeAt(p + 1) === CharCode.LineFeed || text.charCodeAt(p + 1) === CharCode.CarriageReturn)
    ) {
      p += 2;
    } else {
      break;
    }
  }
  return p;
}

export interface StringLiteral {
  /** The string's value, escapes undone. */
  value: string;
  start: number;
  end: number;
  /** An f-string or a bytes literal: not a constant string. */
  computed: boolean;
}

/** The string literal starting at `at` (prefix included), or undefined when there is none. */
export function readStringLiteral(text: string, at: number, limit = text.length): StringLiteral | undefined {
  let p = at;
  let raw = false;
  let bytes = false;
  let computed = false;
  while (p < text.length && p - at < 3) {
    const c = text.charCodeAt(p) | 0x20;
    if (c === CharCode.r) raw = true;
    else if (c === CharCode.b) bytes = computed = true;
    else if (c === CharCode.f || c === CharCode.t /* template strings */) computed = true;
    else if (c !== CharCode.u) break;
    p++;
  }
  const quote = text.charCodeAt(p);
  if (quote !== CharCode.DoubleQuote && quote !== CharCode.SingleQuote) return undefined;
  const triple = text.charCodeAt(p + 1) === quote && text.charCodeAt(p + 2) === quote;
  let q = p + (triple ? 3 : 1);
  let value = '';
  let chunkStart = q;
  while (q < limit) {
    const c = text.charCodeAt(q);
    if (c === quote && (!triple || (text.charCodeAt(q + 1) === quote && text.charCodeAt(q + 2) === quote))) {
      value += text.slice(chunkStart, q);
      return { value, start: at, end: q + (triple ? 3 : 1), computed };
    }
    if (!triple && (c === CharCode.LineFeed || c === CharCode.CarriageReturn)) return undefined;
    if (c === CharCode.Backslash) {
      value += text.slice(chunkStart, q);
      const escape = raw ? { text: text.slice(q, q + 2), length: 2 } : readEscape(text, q, bytes);
      value += escape.text;
      q += escape.length;
      chunkStart = q;
      continue;
    }
    q++;
  }
  return undefined;
}

/**
 * The string literal starting at `at` joined with the literals right after it, as Python joins
 * adjacent literals (`"db." "users"` is `"db.users"`); whitespace, comments and line continuations
 * may stand between them. Undefined when no literal starts at `at`; computed when any part is.
 */
export function readConcatenatedLiteral(text: string, at: number, limit = text.length): StringLiteral | undefined {
  let literal = readStringLiteral(text, at, limit);
  if (!literal) return undefined;
  for (;;) {
    const next = readStringLiteral(text, skipTrivia(text, literal.end, limit), limit);
    if (!next) return literal;
    literal = {
      value: literal.value + next.value,
      start: literal.start,
      end: next.end,
      computed: literal.computed || next.computed,
    };
  }
}

/** An escape at `at`: a backslash line continuation stands for nothing; the rest as `pythonStrings` reads them. */
function readEscape(text: string, at: number, bytes: boolean): { text: string; length: number } {
  const next = text.charCodeAt(at + 1);
  if (next === CharCode.LineFeed) return { text: '', length: 2 };
  if (next === CharCode.CarriageReturn)
    return { text: '', length: text.charCodeAt(at + 2) === CharCode.LineFeed ? 3 : 2 };
  const escape = pythonEscape(text, at, bytes);
  return { text: escape.produced, length: escape.length };
}

/**
 * Index after the `)` that closes the `(` at `open`, skipping strings, comments and nested
 * brackets; -1 when the call is not closed (the user is still typing it).
 */
export function afterCallEnd(text: string, open: number): number {
  const limit = Math.min(text.length, open + MAX_CALL_LENGTH);
  let depth = 0;
  let p = open;
  while (p < limit) {
    const c = text.charCodeAt(p);
    if (c === CharCode.OpenParen || c === CharCode.OpenSquareBracket || c === CharCode.OpenCurlyBrace) {
      depth++;
    } else if (c === CharCode.CloseParen || c === CharCode.CloseSquareBracket || c === CharCode.CloseCurlyBrace) {
      if (--depth === 0) return p + 1;
    } else if (c === CharCode.Hash) {
      p = skipTrivia(text, p, limit);
      continue;
    } else if (c === CharCode.DoubleQuote || c === CharCode.SingleQuote) {
      const literal = readStringLiteral(text, p, limit);
      if (!literal) return -1;
      p = literal.end;
      continue;
    }
    p++;
  }
  return -1;
}

/**
 * Whether offsets are inside a `#` comment of their line (quotes on the line taken into account).
 * Asked in increasing order, so each line is read once even when it holds many calls.
 */
export class CommentFinder {
  private lineStart = -1;
  private lineEnd = -1;
  private commentAt = Infinity;

  constructor(private readonly text: string) {}

  inComment(at: number): boolean {
    if (at < this.lineStart || at >= this.lineEnd) this.readLine(at);
    return at > this.commentAt;
  }

  private readLine(at: number): void {
    const text = this.text;
    this.lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const lf = text.indexOf('\n', at);
    this.lineEnd = lf < 0 ? text.length : lf;
    this.commentAt = Infinity;
    let quote = 0;
    for (let p = this.lineStart; p < this.lineEnd; p++) {
      const c = text.charCodeAt(p);
      if (quote !== 0) {
        if (c === CharCode.Backslash) p++;
        else if (c === quote) quote = 0;
      } else if (c === CharCode.DoubleQuote || c === CharCode.SingleQuote) {
        quote = c;
      } else if (c === CharCode.Hash) {
        this.commentAt = p;
        return;
      }
    }
  }
}

/** Python's comments and strings (`#`, prefixes, triple quotes), for the call extractors' code cursor, argument walk and bracket matching. */
export function pythonNonCode(text: string): NonCode {
  return {
    end: (at, limit) => {
      const c = text.charCodeAt(at);
      if (c === CharCode.Hash) {
        const lf = text.indexOf('\n', at);
        return lf < 0 || lf > limit ? limit : lf;
      }
      if (c !== CharCode.DoubleQuote && c !== CharCode.SingleQuote) return NOT_NON_CODE;
      const literal = readStringLiteral(text, at, limit);
      return literal ? literal.end : BROKEN;
    },
    brokenEnd: (at) => {
      const c = text.charCodeAt(at);
      // An unclosed triple-quoted string runs to the end; any other, to the end of its line.
      if (text.charCodeAt(at + 1) === c && text.charCodeAt(at + 2) === c) return text.length;
      const lf = text.indexOf('\n', at);
      return lf < 0 ? text.length : lf;
    },
  };
}
