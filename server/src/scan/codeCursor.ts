/**
 * What the call extractors (Python, Java) share about code: which offsets are code rather than a
 * comment or a string, and where an argument expression ends. Each language says only where its
 * comments and strings end (`nonCodeEnd`); the walks are the same.
 */
import { CharCode } from './charCode';

/**
 * The end of the comment or string starting at `at`, `NOT_NON_CODE` when code starts there, or
 * `BROKEN` when a string starts there that never closes where it must.
 */
export type NonCodeEnd = (at: number, limit: number) => number;
export const NOT_NON_CODE = -1;
export const BROKEN = -2;

/** A language's comments and strings: where they end, and how far a string that never closes reaches. */
export interface NonCode {
  end: NonCodeEnd;
  /** Where the reader of the language stops a string at `at` that never closes (its line's end, or the text's). */
  brokenEnd(at: number): number;
}

/**
 * Whether offsets (asked in increasing order) are code: one forward walk over the text however many
 * offsets are asked. A string that never closes is non-code to the end of its line, as the language's
 * own reader sees it (`nonCodeEnd` decides).
 */
export class CodeCursor {
  private pos = 0;
  private skipStart = -1;
  private skipEnd = -1;

  constructor(
    private readonly text: string,
    private readonly nonCode: NonCode,
  ) {}

  inCode(at: number): boolean {
    if (at < this.pos) return !(at >= this.skipStart && at < this.skipEnd);
    while (this.pos <= at) {
      let end = this.nonCode.end(this.pos, this.text.length);
      if (end === BROKEN) end = this.nonCode.brokenEnd(this.pos);
      if (end < 0) {
        this.pos++;
        continue;
      }
      this.skipStart = this.pos;
      this.skipEnd = end;
      this.pos = end;
      if (at < end) return false;
    }
    return true;
  }

  /** The text up to `at` was read as code (a call): continue from there. */
  skipTo(at: number): void {
    if (at > this.pos) this.pos = at;
  }
}

/** The end of the expression at `p`: the next `,` or `)` outside brackets, strings and comments; -1 if none. */
export function skipExpression(text: string, p: number, limit: number, nonCode: NonCode): number {
  let depth = 0;
  while (p < limit) {
    const c = text.charCodeAt(p);
    if (c === CharCode.OpenParen || c === CharCode.OpenSquareBracket || c === CharCode.OpenCurlyBrace) {
      depth++;
    } else if (c === CharCode.CloseParen || c === CharCode.CloseSquareBracket || c === CharCode.CloseCurlyBrace) {
      if (depth === 0) return c === CharCode.CloseParen ? p : -1;
      depth--;
    } else if (c === CharCode.Comma && depth === 0) {
      return p;
    } else {
      const end = nonCode.end(p, limit);
      if (end === BROKEN) return -1;
      if (end >= 0) {
        p = end;
        continue;
      }
    }
    p++;
  }
  return -1;
}

/**
 * For each opening bracket, the offset after its closing one (0: never closed), comments and strings
 * skipped: matched once for a file, so that no unclosed call makes each later candidate reread its bound.
 */
export function closingBrackets(text: string, nonCode: NonCode): Int32Array {
  const closes = new Int32Array(text.length);
  const open: number[] = [];
  let p = 0;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c === CharCode.OpenParen || c === CharCode.OpenSquareBracket || c === CharCode.OpenCurlyBrace) {
      open.push(p);
    } else if (c === CharCode.CloseParen || c === CharCode.CloseSquareBracket || c === CharCode.CloseCurlyBrace) {
      const at = open.pop();
      if (at !== undefined) closes[at] = p + 1;
    } else {
      let end = nonCode.end(p, text.length);
      if (end === BROKEN) end = nonCode.brokenEnd(p);
      if (end >= 0) {
        p = Math.max(end, p + 1);
        continue;
      }
    }
    p++;
  }
  return closes;
}
