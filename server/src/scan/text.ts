/**
 * The text extractor: URN literals anywhere in a text (code, strings, comments, prose), for any language.
 *
 * This runs on every keystroke over whole documents, so it walks `indexOf('urn:')` hits and
 * char codes only: no regex over the text and no allocation except for what it reports.
 */
import type { ScanOptions, UrnOccurrence } from './types';
import { parseUrnAt } from './parseCache';

const LF = 10, CR = 13, SPACE = 32, TAB = 9;
const DOUBLE_QUOTE = 34, SINGLE_QUOTE = 39, BACKTICK = 96;
const OPEN_PAREN = 40, CLOSE_PAREN = 41, COLON = 58, DOT = 46, PLUS = 43, PIPE = 124;
const OPEN_BRACE = 123, CLOSE_BRACE = 125, PERCENT = 37, DOLLAR = 36, LESS = 60, GREATER = 62;

/** URNs nest a few levels (a platform in a dataset in a schemaField); deeper text is not looked into. */
const MAX_NESTING = 4;
/** A template field (`{name}`, `{{ x }}`) longer than this is not one: keeps unmatched braces linear. */
const MAX_TEMPLATE_FIELD = 200;

/** ASCII characters that end a simple (non-tuple) id: whitespace, quotes and closing punctuation. */
const ENDS_SIMPLE_ID = new Uint8Array(128);
for (let c = 0; c <= SPACE; c++) ENDS_SIMPLE_ID[c] = 1;
for (const ch of '"\'`,;)]}><\\') ENDS_SIMPLE_ID[ch.charCodeAt(0)] = 1;
ENDS_SIMPLE_ID[127] = 1;

/** ASCII characters that, right before `urn:`, make it part of a longer word (`xurn:`, `my-urn:`, `urn:urn:`). */
const CONTINUES_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_:-]/.test(ch)) CONTINUES_WORD[c] = 1;
}

/** ASCII characters that may start a template construct (`{…}`, `${…}`, `%s`, `<name>`). */
const STARTS_TEMPLATE = new Uint8Array(128);
for (const ch of '{$%<') STARTS_TEMPLATE[ch.charCodeAt(0)] = 1;

function startsTemplate(c: number): boolean {
  return c < 128 && STARTS_TEMPLATE[c] === 1;
}

function isUnicodeSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029
    || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function endsSimpleId(c: number): boolean {
  return c < 128 ? ENDS_SIMPLE_ID[c] === 1 : isUnicodeSpace(c);
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === 12 || c === 11 || (c >= 128 && isUnicodeSpace(c));
}

function isQuote(c: number): boolean {
  return c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACKTICK;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** `text[from, to)` is a word that could be an entity type (a letter, then letters and digits). */
function isKindWord(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!letter && !(i > from && c >= 48 && c <= 57)) return false;
  }
  return true;
}

function isPlaceholderChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46 || c === SPACE;
}

/**
 * Find URN literals in `text[from, to)` and append them to `out` (parent indexes refer to `out`).
 * Nested URNs (the platform of a dataset, a dataset inside a schemaField) follow their outer URN.
 */
export function findUrnsInText(
  text: string, opts: ScanOptions, from = 0, to = text.length, out: UrnOccurrence[] = [],
): UrnOccurrence[] {
  new TextScanner(text, opts.namespaces, out).scanRange(from, to, undefined, 0);
  return out;
}

class TextScanner {
  /** Set while scanning one candidate when it holds a template construct. */
  private template = false;
  /** For each `{` from `braceFrom` to the end of its line: the index after its matching `}`, or 0. */
  private braceFrom = 0;
  private braceMatch = new Int32Array(0);

  constructor(
    private readonly text: string,
    private readonly namespaces: readonly string[],
    private readonly out: UrnOccurrence[],
  ) {}

  scanRange(from: number, to: number, parent: number | undefined, nesting: number): void {
    const text = this.text;
    let i = text.indexOf('urn:', from);
    while (i >= 0 && i < to) {
      const next = this.scanCandidate(i, to, parent, nesting);
      i = text.indexOf('urn:', next);
    }
  }

  /** Scan the candidate at `start` (text has `urn:` there); returns where to look for the next one. */
  private scanCandidate(start: number, to: number, parent: number | undefined, nesting: number): number {
    const text = this.text;
    if (start > 0) {
      const before = text.charCodeAt(start - 1);
      if (before < 128 && CONTINUES_WORD[before] === 1) return start + 4;
    }
    const nsLength = this.namespaceLengthAt(start + 4, to);
    if (nsLength < 0) return start + 4;
    this.template = false;

    const kindStart = start + 5 + nsLength;
    let kindEnd = kindStart;
    while (kindEnd < to) {
      const c = text.charCodeAt(kindEnd);
      if (c === COLON || endsSimpleId(c)) break;
      // `urn:li:mlFeature(…)` lacks the ':' before '(': take it whole, so that the parser says so.
      if (c === OPEN_PAREN && isKindWord(text, kindStart, kindEnd)) return this.scanTuple(start, kindEnd, to, parent, nesting);
      kindEnd = startsTemplate(c) ? this.skipTemplate(kindEnd, to) : kindEnd + 1;
    }
    if (kindEnd >= to || text.charCodeAt(kindEnd) !== COLON) return this.prefixOnly(start, kindEnd, parent);

    const idStart = kindEnd + 1;
    if (idStart < to && text.charCodeAt(idStart) === OPEN_PAREN) return this.scanTuple(start, idStart, to, parent, nesting);

    let end = idStart;
    while (end < to) {
      const c = text.charCodeAt(end);
      if (endsSimpleId(c)) break;
      end = startsTemplate(c) ? this.skipTemplate(end, to) : end + 1;
    }
    if (end > to) end = to;
    if (this.isConcatenationCut(end)) this.template = true;
    if (!this.template) {
      // Prose: "see urn:li:corpuser:jdoe." — the sentence's full stop is not part of the id.
      while (end > idStart) {
        const c = text.charCodeAt(end - 1);
        if (c !== DOT && c !== COLON) break;
        end--;
      }
    }
    if (end === idStart) return this.prefixOnly(start, end, parent);
    this.report(start, end, parent);
    return end;
  }

  /** `urn:li:dataset:(…)`: the id runs to the matching `)`; a line break or quote before it cuts the URN. */
  private scanTuple(start: number, idStart: number, to: number, parent: number | undefined, nesting: number): number {
    const text = this.text;
    let open = 0;
    let j = idStart;
    let closed = false;
    while (j < to) {
      const c = text.charCodeAt(j);
      if (c === OPEN_PAREN) {
        open++;
      } else if (c === CLOSE_PAREN) {
        if (--open === 0) {
          closed = true;
          j++;
          break;
        }
      } else if (c === LF || c === CR || isQuote(c)) {
        break;
      } else if (startsTemplate(c)) {
        j = this.skipTemplate(j, to);
        continue;
      }
      j++;
    }
    if (j > to) j = to;
    let end = j;
    if (!closed) {
      if (this.isConcatenationCut(end)) this.template = true;
      while (end > idStart + 1 && isSpace(text.charCodeAt(end - 1))) end--;
    }
    const index = this.report(start, end, parent);
    if (nesting < MAX_NESTING) this.scanRange(idStart + 1, closed ? end - 1 : end, index, nesting + 1);
    return end;
  }

  /** `urn:li:dataset:` with no id: a prefix in code (`startswith("urn:li:dataset:")`), unless cut by a concatenation. */
  private prefixOnly(start: number, end: number, parent: number | undefined): number {
    if (this.isConcatenationCut(end)) {
      this.template = true;
      this.report(start, end, parent);
    }
    return Math.max(end, start + 4);
  }

  private report(start: number, end: number, parent: number | undefined): number {
    // Every occurrence gets the same fields in the same order: one object shape keeps this hot path fast.
    let occurrence: UrnOccurrence;
    if (this.template) {
      occurrence = { start, end, urn: this.text.slice(start, end), parsed: undefined, template: true, source: 'text', errorRange: undefined, parent };
    } else {
      const { urn, parsed } = parseUrnAt(this.text, start, end);
      const errorRange = parsed.ok ? undefined
        : { start: start + parsed.error.offset, end: start + parsed.error.offset + parsed.error.length, error: parsed.error };
      occurrence = { start, end, urn, parsed, template: false, source: 'text', errorRange, parent };
    }
    this.out.push(occurrence);
    return this.out.length - 1;
  }

  /** Length of a recognised namespace word at `at` followed by `:`, or -1. */
  private namespaceLengthAt(at: number, to: number): number {
    for (const ns of this.namespaces) {
      const colonAt = at + ns.length;
      if (colonAt < to && this.text.charCodeAt(colonAt) === COLON && this.text.startsWith(ns, at)) return ns.length;
    }
    return -1;
  }

  /**
   * At `j`: skip a template construct (`{…}`, `${…}`, `{{…}}`, `%s`, `%d`, `%(name)s`, and `<name>`
   * placeholders as docs write them) and flag the candidate; otherwise step one character.
   */
  private skipTemplate(j: number, to: number): number {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === OPEN_BRACE || (c === DOLLAR && text.charCodeAt(j + 1) === OPEN_BRACE)) {
      const after = this.afterClosingBrace(c === DOLLAR ? j + 1 : j, to);
      if (after < 0) return j + 1;
      this.template = true;
      return after;
    }
    if (c === PERCENT) {
      const next = text.charCodeAt(j + 1);
      if (next === 115 /* s */ || next === 114 /* r */ || next === 105 /* i */) {
        this.template = true;
        return j + 2;
      }
      // `%d0` is a percent-encoded byte, `%d,` a format placeholder.
      if (next === 100 /* d */ && !isHexDigit(text.charCodeAt(j + 2))) {
        this.template = true;
        return j + 2;
      }
      if (next === OPEN_PAREN) {
        let k = j + 2;
        while (k < to && isPlaceholderChar(text.charCodeAt(k)) && text.charCodeAt(k) !== SPACE) k++;
        const conversion = text.charCodeAt(k + 1);
        if (k > j + 2 && k + 1 < to && text.charCodeAt(k) === CLOSE_PAREN && conversion >= 97 && conversion <= 122) {
          this.template = true;
          return k + 2;
        }
      }
      return j + 1;
    }
    if (c === LESS) {
      let k = j + 1;
      while (k < to && isPlaceholderChar(text.charCodeAt(k))) k++;
      if (k > j + 1 && k < to && text.charCodeAt(k) === GREATER) {
        this.template = true;
        return k + 1;
      }
    }
    return j + 1;
  }

  /** Index after the `}` matching the `{` at `open` on the same line, within MAX_TEMPLATE_FIELD and `to`, or -1. */
  private afterClosingBrace(open: number, to: number): number {
    if (open < this.braceFrom || open >= this.braceFrom + this.braceMatch.length) this.matchBraces(open);
    const after = this.braceMatch[open - this.braceFrom]!;
    return after > 0 && after <= Math.min(to, open + MAX_TEMPLATE_FIELD) ? after : -1;
  }

  /**
   * Pairs the braces from `from` to the end of its line in one pass, so that a line of a million
   * `{` costs one pass rather than one scan per brace.
   */
  private matchBraces(from: number): void {
    const text = this.text;
    let end = from;
    while (end < text.length && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end++;
    const match = new Int32Array(end - from);
    const open: number[] = [];
    for (let k = from; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === OPEN_BRACE) open.push(k);
      else if (c === CLOSE_BRACE && open.length > 0) match[open.pop()! - from] = k + 1;
    }
    this.braceFrom = from;
    this.braceMatch = match;
  }

  /** A string cut by concatenation: `"urn:li:dataset:(" + x` (Python, JS, Java, Go) or `'…' || x` (SQL). */
  private isConcatenationCut(end: number): boolean {
    const text = this.text;
    if (!isQuote(text.charCodeAt(end))) return false;
    let k = end + 1;
    while (k < text.length && (text.charCodeAt(k) === SPACE || text.charCodeAt(k) === TAB)) k++;
    const c = text.charCodeAt(k);
    return c === PLUS || (c === PIPE && text.charCodeAt(k + 1) === PIPE);
  }
}
