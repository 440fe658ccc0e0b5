/**
 * Just enough Python lexing to read builder calls: whitespace and comments between arguments,
 * string literals (prefixes, triple quotes, escapes) and the end of a call.
 */

import { BROKEN, NOT_NON_CODE, type NonCode } from './codeCursor';
import { pythonEscape } from './pythonStrings';

const LF = 10,
  CR = 13,
  HASH = 35,
  BACKSLASH = 92;
/** A builder call longer than this is not read: keeps unclosed calls (while typing) from rescanning the file. */
export const MAX_CALL_LENGTH = 1000;
const DOUBLE_QUOTE = 34,
  SINGLE_QUOTE = 39;

export function isIdentifierStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

export function isIdentifierChar(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

/** Skip whitespace, line breaks, backslash continuations and `#` comments (inside brackets all are allowed). */
export function skipTrivia(text: string, at: number, limit = text.length): number {
  let p = at;
  while (p < limit) {
    const c = text.charCodeAt(p);
    if (c === 32 || c === 9 || c === LF || c === CR || c === 12) {
      p++;
    } else if (c === HASH) {
      while (p < limit && text.charCodeAt(p) !== LF && text.charCodeAt(p) !== CR) p++;
    } else if (c === BACKSLASH && (text.charCodeAt(p + 1) === LF || text.charCodeAt(p + 1) === CR)) {
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
    if (c === 114 /* r */) raw = true;
    else if (c === 98 /* b */) bytes = computed = true;
    else if (c === 102 /* f */ || c === 116 /* t (template strings) */) computed = true;
    else if (c !== 117 /* u */) break;
    p++;
  }
  const quote = text.charCodeAt(p);
  if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return undefined;
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
    if (!triple && (c === LF || c === CR)) return undefined;
    if (c === BACKSLASH) {
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

/** An escape at `at`: a backslash line continuation stands for nothing; the rest as `pythonStrings` reads them. */
function readEscape(text: string, at: number, bytes: boolean): { text: string; length: number } {
  const next = text.charCodeAt(at + 1);
  if (next === LF) return { text: '', length: 2 };
  if (next === CR) return { text: '', length: text.charCodeAt(at + 2) === LF ? 3 : 2 };
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
    if (c === 40 || c === 91 || c === 123) {
      depth++;
    } else if (c === 41 || c === 93 || c === 125) {
      if (--depth === 0) return p + 1;
    } else if (c === HASH) {
      p = skipTrivia(text, p, limit);
      continue;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
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
        if (c === BACKSLASH) p++;
        else if (c === quote) quote = 0;
      } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        quote = c;
      } else if (c === HASH) {
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
      if (c === HASH) {
        const lf = text.indexOf('\n', at);
        return lf < 0 || lf > limit ? limit : lf;
      }
      if (c !== DOUBLE_QUOTE && c !== SINGLE_QUOTE) return NOT_NON_CODE;
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
