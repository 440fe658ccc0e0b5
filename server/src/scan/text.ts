/**
 * The text extractor: URN literals anywhere in a text (code, strings, comments, prose), for any language.
 *
 * This runs on every keystroke over whole documents, so it walks `indexOf('urn:')` hits and
 * char codes only: no regex over the text and no allocation except for what it reports.
 *
 * Whole literals (when the language's literal syntax is given, `ScanOptions.literals`):
 * a `urn:` right after a quote that opens a literal of the language (literals.ts, pythonStrings.ts)
 * is read with that literal. The literal must close on its own line (MAX_LITERAL units at most);
 * an escaped opening quote (`\"urn:…` inside a larger string) is no opening. Its content is
 * decoded (escapes undone, with a source map back to the document) and, in languages that join
 * strings, the pieces joined to it are appended (`+` between literals; Python also adjacent
 * literals, on other lines only inside brackets). Then, in that decoded text, the URN at its start:
 * - a tuple id (`…:(…)`) runs to its matching `)`, quotes included; text after the `)` is not
 *   part of it (`"urn:li:dataset:(…) is gone"` is the dataset, then the rest is scanned as usual);
 * - a simple id runs to the end of the literal, spaces included (`"urn:li:corpuser:john doe"` is
 *   user `john doe`), when what follows `urn:<ns>:<type>:` reads as one id: no other `urn:`, no
 *   control character, no quote but an apostrophe between letters (`o'brien`), no leading,
 *   trailing or double space, no space after `.` `,` `;` `:` `!` `?`, and no `.` or `:` at the
 *   end. Otherwise the id ends as in plain text (`"urn:li:corpuser:jdoe. See …"` is `jdoe`).
 *   Words after an id cannot be told from an id with spaces: `"urn:li:corpuser:jdoe is the owner"`
 *   is user `jdoe is the owner` (a message rarely starts with a URN; one that does says so).
 * - joined pieces count only when together they are that one URN from start to end with no second
 *   top-level `urn:` (Python's `["urn:…:a" "urn:…:b"]` is read as two literals); else the first
 *   literal is read alone (joining stops at a piece that follows a closed tuple or starts a second
 *   URN). A `+` with another operand (`"urn:li:dataset:(" + name`, `"urn:li:corpuser:" + user`), an
 *   unreadable piece, or a Python f-string with a `{field}` makes the joined text a template; a
 *   closed tuple followed by `+ x` stays the URN it is, as in plain text.
 * The occurrence's `start`/`end` are the first piece's content start and the last piece's content
 * end; `map` (when `urn` is not that slice verbatim) maps each unit of `urn` to its source.
 * Without a literal syntax (YAML comments, `findUrnsInText` alone), text is read as plain text.
 * `findUrnsInValue` applies the same rule to a YAML scalar's (trimmed) value.
 *
 * Templates — never malformed, never looked up: `{x}`, `${x}`, `{{ x }}`, `<name>`, `%s` `%d`
 * `%(name)s`; `%` not followed by two hex digits (a SQL LIKE wildcard: `urn:li:dataset:%`;
 * `%2C` is percent-encoding and stays a real URN); `*` (glob, regex `.*`, see below); `…` anywhere;
 * `...` as a whole part (`urn:li:dataset:(...)`, `(a,...,PROD)`; trailing dots in prose are a
 * full stop); a regex escape `\(` `\)` `\.` `\*` … (`urn:li:dataset:\(.*\)`); `^` right before
 * `urn:`; `$VAR` — `$` then an upper-case letter and upper-case letters, digits, `_` (`$USER`,
 * `$DB_NAME`) anywhere, or `$` then a name starting a part (`:$user`, `($platform,…`). Real names
 * with `$` stay URNs: `t$20240101` (BigQuery partition), `orders$snapshots` (Iceberg/Trino
 * metadata table), `t$__UNPARTITIONED__`.
 *
 * A `*` makes a pattern unless the URN is a whole string value of a code or data language (not
 * prose or plain text): a literal (or a YAML scalar) that the URN fills from quote to quote, as
 * DataHub writes `"urn:li:dataset:(urn:li:dataPlatform:file,feast.*,PROD)"`. Even then it is a
 * pattern when a part of the URN is a wildcard alone (a part with no letter or digit: `*`, `.*`),
 * when the entity type holds it, or when another `*` stands on the same line outside the literal
 * (`["urn:li:dataset:*", "urn:li:dataset:(…,db.*,PROD)"]` lists patterns). A URN nested in
 * another follows the outer one.
 */
import { registryEntry } from '../../../model/src/registry';
import { isNonAsciiSpace, isWhiteSpace } from '../../../model/src/whiteSpace';
import type { ScanOptions, UrnOccurrence } from './types';
import {
  hashRegion,
  lookupUrnAt,
  lookupUrnInSequence,
  sequenceParse,
  sequenceParseOk,
  sequenceUrn,
  type URN_HASH_PRIME,
  type URN_HASH_SEED,
} from './parseCache';
import { MAX_PIECES, type LiteralPiece, type LiteralSyntax } from './literals';
import { mapRange, MappedText, subMap } from './sourceMap';
import { CharCode } from './charCode';

/**
 * parseCache.ts's URN hash constants as literals of this module (the types insist on the same
 * values): the walks hash every character, and a literal costs nothing per step where an imported
 * binding is a property load.
 */
const HASH_SEED: typeof URN_HASH_SEED = 0x811c9dc5;
const HASH_PRIME: typeof URN_HASH_PRIME = 0x01000193;

/** URNs nest a few levels (a platform in a dataset in a schemaField); deeper text is not looked into. */
const MAX_NESTING = 4;
/** A template field (`{name}`, `{{ x }}`) longer than this is not one: keeps unmatched braces linear. */
const MAX_TEMPLATE_FIELD = 200;
/** How far along its line, either side of a literal, another `*` is looked for (see the header). */
const STAR_CONTEXT = 256;

/** ASCII characters that end a simple (non-tuple) id: whitespace, quotes and closing punctuation. */
const ENDS_SIMPLE_ID = new Uint8Array(128);
for (let c = 0; c <= CharCode.Space; c++) ENDS_SIMPLE_ID[c] = 1;
for (const ch of '"\'`,;)]}><\\') ENDS_SIMPLE_ID[ch.charCodeAt(0)] = 1;
ENDS_SIMPLE_ID[CharCode.Delete] = 1;

/** ASCII characters that, right before `urn:`, make it part of a longer word (`xurn:`, `my-urn:`, `urn:urn:`). */
const CONTINUES_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_:-]/.test(ch)) CONTINUES_WORD[c] = 1;
}

/** ASCII characters that may start a template construct (`{…}`, `${…}`, `$VAR`, `%s`, `%` wildcard, `*`, `<name>`). */
const STARTS_TEMPLATE = new Uint8Array(128);
for (const ch of '{$%<*') STARTS_TEMPLATE[ch.charCodeAt(0)] = 1;

function startsTemplate(c: number): boolean {
  return c < 128 ? STARTS_TEMPLATE[c] === 1 : c === CharCode.Ellipsis;
}

/**
 * ASCII characters a walk only hashes and steps over, so that it tests them with one table read:
 * in a tuple's id (`PLAIN_IN_TUPLE`: anything but parentheses, line breaks, quotes, `,`, `\` and what
 * starts a template), and in a simple id (`PLAIN_IN_ID`: anything that neither ends it nor starts a
 * template). Every other character takes the walk's full tests.
 */
const PLAIN_IN_TUPLE = new Uint8Array(128);
const PLAIN_IN_ID = new Uint8Array(128);
/** In the entity type: as in a simple id, but for `:` and `(`. */
const PLAIN_IN_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  PLAIN_IN_TUPLE[c] = STARTS_TEMPLATE[c] === 1 ? 0 : 1;
  PLAIN_IN_ID[c] = ENDS_SIMPLE_ID[c] === 1 || STARTS_TEMPLATE[c] === 1 ? 0 : 1;
  PLAIN_IN_KIND[c] = PLAIN_IN_ID[c]!;
}
PLAIN_IN_KIND[CharCode.Colon] = 0;
PLAIN_IN_KIND[CharCode.OpenParen] = 0;
for (const ch of '()\n\r,\\') PLAIN_IN_TUPLE[ch.charCodeAt(0)] = 0;
for (let c = 0; c < 128; c++) if (isQuote(c)) PLAIN_IN_TUPLE[c] = 0;

/** Characters a regex escapes: `\(` `\.` `\*` … make a pattern, not a URN. */
const REGEX_META = new Uint8Array(128);
for (const ch of '().*+?[]{}|^$') REGEX_META[ch.charCodeAt(0)] = 1;

function isUpper(c: number): boolean {
  return c >= CharCode.A && c <= CharCode.Z;
}

function isLetter(c: number): boolean {
  return (c >= CharCode.A && c <= CharCode.Z) || (c >= CharCode.a && c <= CharCode.z);
}

function isPrefixLetter(c: number): boolean {
  const lower = c | 0x20;
  return (
    lower === CharCode.r || lower === CharCode.b || lower === CharCode.u || lower === CharCode.f || lower === CharCode.t
  );
}

function isWordChar(c: number): boolean {
  return (
    (c >= CharCode.Digit0 && c <= CharCode.Digit9) ||
    (c >= CharCode.A && c <= CharCode.Z) ||
    (c >= CharCode.a && c <= CharCode.z) ||
    c === CharCode.Underline
  );
}

function endsSimpleId(c: number): boolean {
  return c < 128 ? ENDS_SIMPLE_ID[c] === 1 : isNonAsciiSpace(c);
}

function isQuote(c: number): boolean {
  return c === CharCode.DoubleQuote || c === CharCode.SingleQuote || c === CharCode.BackTick;
}

function isHexDigit(c: number): boolean {
  return (
    (c >= CharCode.Digit0 && c <= CharCode.Digit9) ||
    (c >= CharCode.A && c <= CharCode.F) ||
    (c >= CharCode.a && c <= CharCode.f)
  );
}

/** `text[from, to)` is a word that could be an entity type (a letter, then letters and digits). */
function isKindWord(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const letter = (c >= CharCode.A && c <= CharCode.Z) || (c >= CharCode.a && c <= CharCode.z);
    if (!letter && !(i > from && c >= CharCode.Digit0 && c <= CharCode.Digit9)) return false;
  }
  return true;
}

/**
 * The entity type ending right before the `:(` at `open` has a key of several parts (a tuple), so
 * `urn:li:dataset:(` can be a prefix; `urn:li:corpuser:(` cannot, a user's key being one part.
 */
function isTupleKindBefore(text: string, start: number, open: number): boolean {
  const kindStart = text.lastIndexOf(':', open - 2) + 1;
  if (kindStart <= start) return false;
  const entry = registryEntry(text.slice(kindStart, open - 1));
  return entry !== undefined && entry.fields.length > 1;
}

/** `text[from, to)` is an upper-case name holding an underscore (`ENTITY_TYPE`): a placeholder, never an entity type. */
function isPlaceholderName(text: string, from: number, to: number): boolean {
  let underscore = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === CharCode.Underline) underscore = true;
    else if (!((c >= CharCode.A && c <= CharCode.Z) || (i > from && c >= CharCode.Digit0 && c <= CharCode.Digit9)))
      return false;
  }
  return underscore && to - from > 1;
}

function isPlaceholderChar(c: number): boolean {
  return (
    (c >= CharCode.Digit0 && c <= CharCode.Digit9) ||
    (c >= CharCode.A && c <= CharCode.Z) ||
    (c >= CharCode.a && c <= CharCode.z) ||
    c === CharCode.Underline ||
    c === CharCode.Dash ||
    c === CharCode.Period ||
    c === CharCode.Space
  );
}

/**
 * A part of the URN `text[from, to)` (between `:`, `(`, `,` and `)`) holds a `*` and no letter or
 * digit: a wildcard alone (`urn:li:dataset:*`, `(hive,.*,PROD)`).
 */
function wildcardPart(text: string, from: number, to: number): boolean {
  let star = false;
  let word = false;
  for (let k = from; k <= to; k++) {
    const c = k < to ? text.charCodeAt(k) : CharCode.Comma;
    if (c === CharCode.Colon || c === CharCode.OpenParen || c === CharCode.Comma || c === CharCode.CloseParen) {
      if (star && !word) return true;
      star = false;
      word = false;
    } else if (c === CharCode.Asterisk) star = true;
    else if (isLetter(c) || (c >= CharCode.Digit0 && c <= CharCode.Digit9) || c > 127) word = true;
  }
  return false;
}

/**
 * Find URN literals in `text[from, to)` and append them to `out` (parent indexes refer to `out`).
 * Nested URNs (the platform of a dataset, a dataset inside a schemaField) follow their outer URN.
 */
export function findUrnsInText(
  text: string,
  opts: ScanOptions,
  from = 0,
  to = text.length,
  out: UrnOccurrence[] = [],
): UrnOccurrence[] {
  const starNames = opts.literals !== undefined && opts.literals.name !== 'prose' && opts.literals.name !== 'default';
  new TextScanner(text, opts.namespaces, out, opts.literals, starNames, opts.topLevelOnly === true).scanRange(
    from,
    to,
    undefined,
    0,
  );
  return out;
}

/**
 * The URNs of a value that is a whole literal's content (a YAML scalar's value): a URN that starts
 * the (trimmed) value is read under the whole-literal rule (see the header of this file).
 */
export function findUrnsInValue(value: string, opts: ScanOptions, out: UrnOccurrence[] = []): UrnOccurrence[] {
  let from = 0;
  let to = value.length;
  while (from < to && isWhiteSpace(value.charCodeAt(from))) from++;
  while (to > from && isWhiteSpace(value.charCodeAt(to - 1))) to--;
  const scanner = new TextScanner(value, opts.namespaces, out, undefined, true);
  scanner.wholeLiteral(from, to, false, false);
  scanner.scanRange(0, value.length, undefined, 0);
  return out;
}

/**
 * Whether joined literals can still make one URN, fed the decoded text piece by piece: false once
 * a character follows the `)` that closes the tuple, or a `urn:` stands outside parentheses (past 0).
 */
class JoinFit {
  private depth = 0;
  closed = false;

  feed(text: string, from: number): boolean {
    for (let k = from; k < text.length; k++) {
      if (this.closed) return false;
      const c = text.charCodeAt(k);
      if (c === CharCode.OpenParen) {
        this.depth++;
      } else if (c === CharCode.CloseParen) {
        if (--this.depth === 0) this.closed = true;
      } else if (c === CharCode.u && k > 0 && this.depth <= 0 && text.startsWith('urn:', k)) {
        return false;
      }
    }
    return true;
  }
}

/** The namespaces `prefixHashesOf` was last asked for (a copy), and its answer: a scan makes a scanner per YAML scalar or literal read. */
let hashedNamespaces: readonly string[] = [];
let namespaceHashes: number[] = [];

/** Per namespace, the hash of `urn:<ns>:` (parseCache.ts). */
function prefixHashesOf(namespaces: readonly string[]): number[] {
  if (namespaces.length === hashedNamespaces.length && namespaces.every((ns, n) => ns === hashedNamespaces[n]))
    return namespaceHashes;
  namespaceHashes = namespaces.map((ns) => {
    const prefix = `urn:${ns}:`;
    let h: number = HASH_SEED;
    for (let k = 0; k < prefix.length; k++) h = Math.imul(h ^ prefix.charCodeAt(k), HASH_PRIME);
    return h;
  });
  hashedNamespaces = [...namespaces];
  return namespaceHashes;
}

/** No braces paired yet (matchBraces replaces it, never writes it): shared, not made per scanner. */
const NO_BRACES = new Int32Array(0);
/** No decoded literal's occurrences (readLiteral replaces it, never writes it). */
const NO_OCCURRENCES: readonly UrnOccurrence[] = [];

class TextScanner {
  /** Set while scanning one candidate when it holds a template construct. */
  private template = false;
  /** Set while scanning one candidate when it holds a `*`: a pattern unless it is a whole value (see the header). */
  private star = false;
  /** The candidate starting here follows a literal's opening quote (the plain scan of scanLiteral; -1: none). */
  private literalStart = -1;
  /** A candidate starting here is a literal's whole content, which ends at `wholeEnd` (-1: none). */
  private wholeStart = -1;
  private wholeEnd = -1;
  /** That literal is a template by its kind or by what it is joined to (`"urn:…(" + name`). */
  private wholeTemplate = false;
  /** That literal is joined to a non-literal operand (`"urn:li:corpuser:" + user`). */
  private wholeJoinedToOperand = false;
  /** The last candidate scanned held a backslash (an escape in a literal). */
  private sawBackslash = false;
  /** For each `{` from `braceFrom` to the end of its line: the index after its matching `}`, or 0. */
  private braceFrom = 0;
  private braceMatch = NO_BRACES;
  /** The namespace `namespaceLengthAt` recognised last, by its index in `namespaces`. */
  private namespaceIndex = 0;
  /** Per namespace, the hash of `urn:<ns>:` (parseCache.ts), where every walk's hash begins. */
  private readonly prefixHashes: number[];
  /** The last search for `urn:` (nextUrn): from where, and what it found (-1: none from there on). */
  private searchedFrom = -1;
  private foundAt = -1;

  constructor(
    private readonly text: string,
    private readonly namespaces: readonly string[],
    private readonly out: UrnOccurrence[],
    private readonly syntax: LiteralSyntax | undefined,
    /** A `*` in a URN that is a whole literal's content may be part of its name (code and data, not prose). */
    private readonly starNames: boolean,
    /** ScanOptions.topLevelOnly: no nested URN looked for, lookups in the parse cache's table. */
    private readonly topLevelOnly = false,
  ) {
    this.prefixHashes = prefixHashesOf(namespaces);
  }

  /** The candidate at `from` is a literal's whole content `[from, to)`. */
  wholeLiteral(from: number, to: number, template: boolean, joinedToOperand: boolean): void {
    this.wholeStart = from;
    this.wholeEnd = to;
    this.wholeTemplate = template;
    this.wholeJoinedToOperand = joinedToOperand;
  }

  scanRange(from: number, to: number, parent: number | undefined, nesting: number): void {
    const text = this.text;
    const syntax = parent === undefined ? this.syntax : undefined;
    let i = this.nextUrn(from);
    while (i >= 0 && i < to) {
      const next =
        syntax !== undefined && i > 0 && syntax.opens(text.charCodeAt(i - 1))
          ? this.scanLiteral(syntax, i, to)
          : this.scanCandidate(i, to, parent, nesting);
      i = this.nextUrn(next);
    }
  }

  /**
   * `text.indexOf('urn:', from)`. A search inside a tuple's id runs past its end to the next URN,
   * where the scan after the tuple would search again: the last search's answer is the answer for
   * any start between where it began and what it found.
   */
  private nextUrn(from: number): number {
    const searched = this.searchedFrom;
    if (searched >= 0 && from >= searched && (from <= this.foundAt || this.foundAt < 0)) return this.foundAt;
    this.searchedFrom = from;
    this.foundAt = this.text.indexOf('urn:', from);
    return this.foundAt;
  }

  /**
   * The candidate at `start` right after a quote. Fast path: the plain scan ends right at the
   * closing quote and nothing is joined to the literal, so the URN is the literal, as found.
   * Otherwise the literal (and what the language joins to it) is read and decoded, and its
   * content scanned under the whole-literal rule.
   */
  private scanLiteral(syntax: LiteralSyntax, start: number, to: number): number {
    const text = this.text;
    const out = this.out;
    const mark = out.length;
    this.sawBackslash = false;
    this.literalStart = start;
    const next = this.scanCandidate(start, to, undefined, 0);
    this.literalStart = -1;
    const found = out[mark];
    if (found !== undefined && found.start === start) {
      const end = found.end;
      const quote = text.charCodeAt(start - 1);
      // Not when an escape may be in the URN, the quote is doubled (`''` in SQL, `'''`) or something is joined.
      if (
        text.charCodeAt(end) === quote &&
        !this.sawBackslash &&
        text.charCodeAt(end + 1) !== quote &&
        !this.mayJoin(syntax, end + 1)
      ) {
        return next;
      }
    }
    const read = this.readLiteral(syntax, start, to, MAX_PIECES);
    if (read < 0) return next;
    // Report what the literal holds in place of what the plain scan found.
    const decoded = this.decoded;
    this.decoded = NO_OCCURRENCES;
    out.length = mark;
    const base = out.length;
    for (const o of decoded) {
      if (o.parent !== undefined) o.parent += base;
      out.push(o);
    }
    return read;
  }

  /** Occurrences read from a decoded literal by `readLiteral`, already mapped to the document. */
  private decoded: readonly UrnOccurrence[] = NO_OCCURRENCES;

  /**
   * Read the literal whose content starts at `start` and the pieces joined to it (at most
   * `maxPieces`), scan the decoded text, and leave the mapped occurrences in `this.decoded`.
   * Returns the index after the last piece read, or -1 when there is no literal this reads.
   */
  private readLiteral(syntax: LiteralSyntax, start: number, to: number, maxPieces: number): number {
    const text = this.text;
    const value = new MappedText();
    const first = syntax.readPiece(text, start - 1, value);
    if (!first || first.contentEnd > to) return -1;
    const fit = new JoinFit();
    let last: LiteralPiece = first;
    let pieces = 1;
    let template = first.template;
    let joinedToOperand = false;
    let follow = syntax.nextPiece(text, first, first);
    let fits = fit.feed(value.value, 0);
    while (typeof follow === 'object') {
      if (!fits) {
        // A closed tuple, or a second URN: nothing joins onto that.
        follow = undefined;
        break;
      }
      if (pieces >= maxPieces) {
        // More is joined than is read: what it makes is not known.
        joinedToOperand = maxPieces === MAX_PIECES;
        break;
      }
      const length = value.length;
      const piece = syntax.readPiece(text, follow.quoteAt, value);
      if (!piece || piece.contentEnd > to) {
        value.truncate(length);
        joinedToOperand = true;
        break;
      }
      fits = fit.feed(value.value, length);
      if (!fits) {
        // This piece starts a second URN or follows a closed tuple: the joined text ends before it.
        value.truncate(length);
        follow = undefined;
        break;
      }
      last = piece;
      pieces++;
      template ||= piece.template;
      follow = syntax.nextPiece(text, piece, first);
    }
    // `"urn:li:dataset:(" + name` is a template; a closed tuple followed by `+ x` stays the URN it is (as in plain text).
    if (follow === 'template' && !fit.closed) joinedToOperand = true;
    const v = value.value;
    const found: UrnOccurrence[] = [];
    const starNames = this.starNames && v.includes('*') && !this.starNear(start - 1, last.end);
    const scanner = new TextScanner(v, this.namespaces, found, undefined, starNames, this.topLevelOnly);
    scanner.wholeLiteral(0, v.length, template || joinedToOperand, joinedToOperand);
    scanner.scanRange(0, v.length, undefined, 0);
    if (pieces > 1 && !(found.length > 0 && found[0]!.start === 0 && found[0]!.end === v.length)) {
      // Joined, the pieces do not make one URN: read the first literal alone.
      return this.readLiteral(syntax, start, to, 1);
    }
    const map = { starts: value.starts, ends: value.ends };
    for (const o of found) {
      const local = o.start;
      const localEnd = o.end;
      const range = mapRange(map, local, localEnd, v.length);
      o.start = range.start;
      o.end = range.end;
      const error = o.errorRange;
      if (error) {
        const at = local + error.error.offset;
        o.errorRange = { ...mapRange(map, at, at + error.error.length, v.length), error: error.error };
      }
      o.map = subMap(map, local, localEnd);
    }
    this.decoded = found;
    return last.end;
  }

  /** After a literal's closing quote at `at - 1`: something the language may join to it follows. */
  private mayJoin(syntax: LiteralSyntax, at: number): boolean {
    if (!syntax.joins) return false;
    const text = this.text;
    let k = at;
    const limit = Math.min(text.length, at + 256);
    while (k < limit) {
      const c = text.charCodeAt(k);
      if (c !== CharCode.Space && c !== CharCode.Tab && c !== CharCode.LineFeed && c !== CharCode.CarriageReturn) break;
      k++;
    }
    const c = text.charCodeAt(k);
    if (c === CharCode.Plus || c === CharCode.Slash /* a comment */) return true;
    if (syntax.joins !== 'python') return false;
    if (isQuote(c) || c === CharCode.Hash || c === CharCode.Backslash) return true;
    // A prefixed literal: r"…", f'…', rb"…".
    return (
      isPrefixLetter(c) &&
      (isQuote(text.charCodeAt(k + 1)) || (isPrefixLetter(text.charCodeAt(k + 1)) && isQuote(text.charCodeAt(k + 2))))
    );
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
    const whole = start === this.wholeStart;
    // `^urn:li:…` is a regex.
    this.template = (whole && this.wholeTemplate) || (start > 0 && text.charCodeAt(start - 1) === CharCode.Caret);
    this.star = false;

    const kindStart = start + 5 + nsLength;
    // The hash of the URN's text (parseCache.ts), computed while walking it: `h` covers
    // [start, the walk's index) wherever the candidate is no template (a template is not looked up,
    // and outside one every step is one character).
    let h = this.prefixHashes[this.namespaceIndex]!;
    let kindEnd = kindStart;
    while (kindEnd < to) {
      const c = text.charCodeAt(kindEnd);
      // Any ASCII character the tests below look for must be 0 in PLAIN_IN_KIND.
      if (c < 128 && PLAIN_IN_KIND[c] === 1) {
        kindEnd++;
        h = Math.imul(h ^ c, HASH_PRIME);
        continue;
      }
      if (c === CharCode.Colon) break;
      if (endsSimpleId(c)) {
        if (c === CharCode.Backslash && this.regexEscapeAt(kindEnd)) {
          kindEnd += 2;
          continue;
        }
        break;
      }
      // `urn:li:mlFeature(…)` lacks the ':' before '(': take it whole, so that the parser says so.
      if (c === CharCode.OpenParen && isKindWord(text, kindStart, kindEnd))
        return this.scanTuple(start, kindEnd, to, parent, nesting, h);
      kindEnd = startsTemplate(c) ? this.skipTemplate(kindEnd, to) : kindEnd + 1;
      h = Math.imul(h ^ c, HASH_PRIME);
    }
    // A `*` in the entity type is a pattern (`urn:li:*:…`).
    if (this.star) this.template = true;
    if (kindEnd >= to || text.charCodeAt(kindEnd) !== CharCode.Colon) return this.prefixOnly(start, kindEnd, parent);
    // `urn:li:ENTITY_TYPE:id`: an upper-case name with an underscore stands for an entity type (docs, comments).
    if (isPlaceholderName(text, kindStart, kindEnd)) this.template = true;

    const idStart = kindEnd + 1;
    h = Math.imul(h ^ CharCode.Colon, HASH_PRIME);
    if (idStart < to && text.charCodeAt(idStart) === CharCode.OpenParen)
      return this.scanTuple(start, idStart, to, parent, nesting, h);

    if (this.ellipsisPartAt(idStart, to)) this.template = true;
    let end = idStart;
    while (end < to) {
      const c = text.charCodeAt(end);
      // Any ASCII character the tests below look for must be 0 in PLAIN_IN_ID.
      if (c < 128 && PLAIN_IN_ID[c] === 1) {
        end++;
        h = Math.imul(h ^ c, HASH_PRIME);
        continue;
      }
      if (endsSimpleId(c)) {
        if (c === CharCode.Backslash && this.regexEscapeAt(end)) {
          end += 2;
          continue;
        }
        break;
      }
      end = startsTemplate(c) ? this.skipTemplate(end, to) : end + 1;
      h = Math.imul(h ^ c, HASH_PRIME);
    }
    const hashedEnd = end;
    if (whole && end < this.wholeEnd && this.wholeIdOk(idStart, this.wholeEnd)) {
      // The literal's whole content is the id, spaces included (`"urn:li:corpuser:john doe"`).
      while (end < this.wholeEnd)
        end = startsTemplate(text.charCodeAt(end)) ? this.skipTemplate(end, this.wholeEnd) : end + 1;
    }
    if (end > to) end = to;
    if (this.isConcatenationCut(end)) this.template = true;
    if (!this.template) {
      // Prose: "see urn:li:corpuser:jdoe." — the sentence's full stop is not part of the id.
      while (end > idStart) {
        const c = text.charCodeAt(end - 1);
        if (c !== CharCode.Period && c !== CharCode.Colon) break;
        end--;
      }
    }
    if (end === idStart) return this.prefixOnly(start, end, parent);
    this.report(start, end, parent, end === hashedEnd ? h : hashRegion(text, start, end));
    return end;
  }

  /** `urn:li:dataset:(…)`: the id runs to the matching `)`; a line break or quote before it cuts the URN. */
  private scanTuple(
    start: number,
    idStart: number,
    to: number,
    parent: number | undefined,
    nesting: number,
    /** The hash of `[start, idStart)` (see scanCandidate). */
    hashed: number,
  ): number {
    const text = this.text;
    let h = hashed;
    // In a literal's whole content a quote is a character of the URN (`\"` decoded), not its end.
    const quotesEnd = start !== this.wholeStart;
    let open = 0;
    let j = idStart;
    let closed = false;
    while (j < to) {
      const c = text.charCodeAt(j);
      // Any ASCII character the tests below look for must be 0 in PLAIN_IN_TUPLE.
      if (c < 128 && PLAIN_IN_TUPLE[c] === 1) {
        j++;
        h = Math.imul(h ^ c, HASH_PRIME);
        continue;
      }
      if (c === CharCode.OpenParen) {
        open++;
        if (text.charCodeAt(j + 1) === CharCode.Period && this.ellipsisPartAt(j + 1, to)) this.template = true;
      } else if (c === CharCode.CloseParen) {
        if (--open === 0) {
          closed = true;
          j++;
          h = Math.imul(h ^ c, HASH_PRIME);
          break;
        }
      } else if (c === CharCode.LineFeed || c === CharCode.CarriageReturn || (quotesEnd && isQuote(c))) {
        break;
      } else if (startsTemplate(c)) {
        j = this.skipTemplate(j, to);
        h = Math.imul(h ^ c, HASH_PRIME);
        continue;
      } else if (c === CharCode.Comma) {
        if (text.charCodeAt(j + 1) === CharCode.Period && this.ellipsisPartAt(j + 1, to)) this.template = true;
      } else if (c === CharCode.Backslash) {
        this.sawBackslash = true;
        if (this.regexEscapeAt(j)) {
          j += 2;
          continue;
        }
      }
      j++;
      h = Math.imul(h ^ c, HASH_PRIME);
    }
    const hashedEnd = j;
    if (j > to) j = to;
    let end = j;
    // `startswith("urn:li:dataFlow:(")`, `urn[len("urn:li:dataset:("):]`: a prefix in code, as `urn:li:dataset:` is.
    if (
      !closed &&
      j === idStart + 1 &&
      (j >= to || isQuote(text.charCodeAt(j))) &&
      isTupleKindBefore(text, start, idStart)
    ) {
      return this.prefixOnly(start, j, parent);
    }
    if (!closed) {
      if (this.isConcatenationCut(end)) this.template = true;
      while (end > idStart + 1 && isWhiteSpace(text.charCodeAt(end - 1))) end--;
    }
    const index = this.report(start, end, parent, end === hashedEnd ? h : hashRegion(text, start, end));
    // Not closed: the inside runs to where the walk stopped, so that a nested URN sees a concatenation
    // after its own trailing spaces (`"urn:li:dataset:(urn:li:x " + y`) as the outer one does.
    if (nesting < MAX_NESTING && !this.topLevelOnly)
      this.scanRange(idStart + 1, closed ? end - 1 : j, index, nesting + 1);
    return end;
  }

  /** `urn:li:dataset:` with no id: a prefix in code (`startswith("urn:li:dataset:")`), unless cut by a concatenation. */
  private prefixOnly(start: number, end: number, parent: number | undefined): number {
    if (this.isConcatenationCut(end)) {
      this.template = true;
      this.report(start, end, parent, 0);
    }
    return Math.max(end, start + 4);
  }

  /** Report `[start, end)`; `hash` is the hash of its text (parseCache.ts), read unless it is a template. */
  private report(start: number, end: number, parent: number | undefined, hash: number): number {
    // Every occurrence gets the same fields in the same order: one object shape keeps this hot path fast.
    let occurrence: UrnOccurrence;
    if (this.star && !this.template && !this.starInName(start, end, parent)) this.template = true;
    if (this.template) {
      occurrence = {
        start,
        end,
        urn: this.text.slice(start, end),
        parsed: undefined,
        template: true,
        source: 'text',
        errorRange: undefined,
        parent,
        map: undefined,
      };
    } else if (this.topLevelOnly) {
      const entry = lookupUrnAt(this.text, start, end, hash);
      const parsed = entry.parsed;
      const errorRange = parsed.ok
        ? undefined
        : {
            start: start + parsed.error.offset,
            end: start + parsed.error.offset + parsed.error.length,
            error: parsed.error,
          };
      occurrence = {
        start,
        end,
        urn: entry.urn,
        parsed,
        template: false,
        source: 'text',
        errorRange,
        parent,
        map: undefined,
      };
    } else {
      const k = lookupUrnInSequence(this.text, start, end, hash);
      const urn = sequenceUrn(k);
      const parsed = sequenceParse(k);
      const errorRange =
        sequenceParseOk(k) || parsed.ok
          ? undefined
          : {
              start: start + parsed.error.offset,
              end: start + parsed.error.offset + parsed.error.length,
              error: parsed.error,
            };
      occurrence = { start, end, urn, parsed, template: false, source: 'text', errorRange, parent, map: undefined };
    }
    this.out.push(occurrence);
    return this.out.length - 1;
  }

  /**
   * The `*` of the candidate `[start, end)` is part of its name (see the header): a URN nested in a
   * URN that is not a pattern; else a URN that fills a literal (or a YAML scalar) whole, with no
   * part a wildcard alone and no other `*` on its line outside the literal.
   */
  private starInName(start: number, end: number, parent: number | undefined): boolean {
    if (parent !== undefined) return this.out[parent]?.template === false;
    if (!this.starNames) return false;
    const text = this.text;
    if (start === this.wholeStart) {
      if (end !== this.wholeEnd) return false;
    } else {
      const quote = text.charCodeAt(start - 1);
      if (start !== this.literalStart || text.charCodeAt(end) !== quote || this.starNear(start - 1, end + 1))
        return false;
    }
    return !wildcardPart(text, start, end);
  }

  /** A `*` on the line outside `[from, to)`, within STAR_CONTEXT characters either side. */
  private starNear(from: number, to: number): boolean {
    const text = this.text;
    for (let k = from - 1; k >= 0 && k >= from - STAR_CONTEXT; k--) {
      const c = text.charCodeAt(k);
      if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) break;
      if (c === CharCode.Asterisk) return true;
    }
    for (let k = to; k < text.length && k < to + STAR_CONTEXT; k++) {
      const c = text.charCodeAt(k);
      if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) break;
      if (c === CharCode.Asterisk) return true;
    }
    return false;
  }

  /** `\(`, `\.`, `\*` … at `at`: a regex escape, which makes the candidate a pattern. */
  private regexEscapeAt(at: number): boolean {
    const next = this.text.charCodeAt(at + 1);
    if (next < 128 && REGEX_META[next] === 1) {
      this.template = true;
      return true;
    }
    return false;
  }

  /** `...` at `at` is a whole part (a placeholder): followed by `)`, `,`, the end or what ends an id. */
  private ellipsisPartAt(at: number, to: number): boolean {
    const text = this.text;
    if (
      at + 3 > to ||
      text.charCodeAt(at) !== CharCode.Period ||
      text.charCodeAt(at + 1) !== CharCode.Period ||
      text.charCodeAt(at + 2) !== CharCode.Period
    )
      return false;
    if (at + 3 === to) return true;
    const c = text.charCodeAt(at + 3);
    return c === CharCode.CloseParen || c === CharCode.Comma || endsSimpleId(c);
  }

  /**
   * A literal's content after `urn:<ns>:<type>:` is taken whole as the id when it reads as one:
   * no other `urn:`, no control character, no quote (but an apostrophe between letters: o'brien),
   * single spaces between words, no space after
   * punctuation (`.`, `,`, `;`, `:`, `!`, `?`) and no `.` or `:` at the end (see the header).
   */
  private wholeIdOk(from: number, to: number): boolean {
    const text = this.text;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (
        c < CharCode.Space ||
        c === CharCode.Delete ||
        c === CharCode.LineSeparator ||
        c === CharCode.ParagraphSeparator
      )
        return false;
      if (
        isQuote(c) &&
        !(c === CharCode.SingleQuote && isLetter(text.charCodeAt(k - 1)) && isLetter(text.charCodeAt(k + 1)))
      )
        return false;
      if (c === CharCode.Space) {
        if (k === from || k === to - 1) return false;
        const before = text.charCodeAt(k - 1);
        if (
          before === CharCode.Space ||
          before === CharCode.Period ||
          before === CharCode.Comma ||
          before === CharCode.Semicolon ||
          before === CharCode.Colon ||
          before === CharCode.ExclamationMark ||
          before === CharCode.QuestionMark
        )
          return false;
      } else if (c === CharCode.u && text.startsWith('urn:', k)) {
        return false;
      }
    }
    const last = text.charCodeAt(to - 1);
    return last !== CharCode.Period && last !== CharCode.Colon;
  }

  /** Length of a recognised namespace word at `at` followed by `:`, or -1; its index in `namespaceIndex`. */
  private namespaceLengthAt(at: number, to: number): number {
    const namespaces = this.namespaces;
    for (let n = 0; n < namespaces.length; n++) {
      const ns = namespaces[n]!;
      const colonAt = at + ns.length;
      if (colonAt < to && this.text.charCodeAt(colonAt) === CharCode.Colon && this.text.startsWith(ns, at)) {
        this.namespaceIndex = n;
        return ns.length;
      }
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
    if (
      c === CharCode.OpenCurlyBrace ||
      (c === CharCode.DollarSign && text.charCodeAt(j + 1) === CharCode.OpenCurlyBrace)
    ) {
      const after = this.afterClosingBrace(c === CharCode.DollarSign ? j + 1 : j, to);
      if (after < 0) return j + 1;
      this.template = true;
      return after;
    }
    if (c === CharCode.Asterisk) {
      // A glob or regex (`urn:li:dataset:*`, `.*`), unless the URN is a whole value (starInName).
      this.star = true;
      return j + 1;
    }
    if (c === CharCode.Ellipsis) {
      // An ellipsis (`urn:li:dataset:(…)`).
      this.template = true;
      return j + 1;
    }
    if (c === CharCode.DollarSign) {
      // `$VAR` (upper case, as environment variables are written) anywhere, or `$name` starting a part;
      // `table$20240101`, `orders$snapshots`, `t$__UNPARTITIONED__` are real names.
      let k = j + 1;
      const first = text.charCodeAt(k);
      // `$(command)`: a shell's command substitution.
      if (first === CharCode.OpenParen) {
        this.template = true;
        return k;
      }
      const before = text.charCodeAt(j - 1);
      const partStart = before === CharCode.Colon || before === CharCode.OpenParen || before === CharCode.Comma;
      if (
        isUpper(first) ||
        (partStart && isWordChar(first) && !(first >= CharCode.Digit0 && first <= CharCode.Digit9))
      ) {
        let upper = true;
        while (k < to && isWordChar(text.charCodeAt(k))) {
          const w = text.charCodeAt(k);
          if (w >= CharCode.a && w <= CharCode.z) upper = false;
          k++;
        }
        if (upper || partStart) {
          this.template = true;
          return k;
        }
      }
      return j + 1;
    }
    if (c === CharCode.PercentSign) {
      const next = text.charCodeAt(j + 1);
      if (next === CharCode.s || next === CharCode.r || next === CharCode.i) {
        this.template = true;
        return j + 2;
      }
      // `%d0` is a percent-encoded byte, `%d,` a format placeholder.
      if (next === CharCode.d && !isHexDigit(text.charCodeAt(j + 2))) {
        this.template = true;
        return j + 2;
      }
      if (next === CharCode.OpenParen) {
        let k = j + 2;
        while (k < to && isPlaceholderChar(text.charCodeAt(k)) && text.charCodeAt(k) !== CharCode.Space) k++;
        const conversion = text.charCodeAt(k + 1);
        if (
          k > j + 2 &&
          k + 1 < to &&
          text.charCodeAt(k) === CharCode.CloseParen &&
          conversion >= CharCode.a &&
          conversion <= CharCode.z
        ) {
          this.template = true;
          return k + 2;
        }
      }
      // `%2C` is a percent-encoded byte; any other `%` a wildcard (`LIKE 'urn:li:dataset:%'`).
      if (!(j + 2 < to && isHexDigit(next) && isHexDigit(text.charCodeAt(j + 2)))) this.template = true;
      return j + 1;
    }
    if (c === CharCode.LessThan) {
      let k = j + 1;
      while (k < to && isPlaceholderChar(text.charCodeAt(k))) k++;
      if (k > j + 1 && k < to && text.charCodeAt(k) === CharCode.GreaterThan) {
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
    while (
      end < text.length &&
      text.charCodeAt(end) !== CharCode.LineFeed &&
      text.charCodeAt(end) !== CharCode.CarriageReturn
    )
      end++;
    const match = new Int32Array(end - from);
    const open: number[] = [];
    for (let k = from; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === CharCode.OpenCurlyBrace) open.push(k);
      else if (c === CharCode.CloseCurlyBrace && open.length > 0) match[open.pop()! - from] = k + 1;
    }
    this.braceFrom = from;
    this.braceMatch = match;
  }

  /** A string cut by concatenation: `"urn:li:dataset:(" + x` (Python, JS, Java, Go) or `'…' || x` (SQL). */
  private isConcatenationCut(end: number): boolean {
    if (end === this.wholeEnd && this.wholeStart >= 0) return this.wholeJoinedToOperand;
    const text = this.text;
    if (!isQuote(text.charCodeAt(end))) return false;
    let k = end + 1;
    while (k < text.length && (text.charCodeAt(k) === CharCode.Space || text.charCodeAt(k) === CharCode.Tab)) k++;
    const c = text.charCodeAt(k);
    return c === CharCode.Plus || (c === CharCode.Pipe && text.charCodeAt(k + 1) === CharCode.Pipe);
  }
}
