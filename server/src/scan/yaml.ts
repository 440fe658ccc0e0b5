/**
 * The YAML extractor: URNs in scalars (keys and values, every style, flow and block collections),
 * each with its place in the document's structure, mapped back to the exact source characters.
 *
 * The file is parsed once by the `yaml` package and walked once in source order; the text between
 * scalars (comments, and whatever a syntax error left unread) goes to the text extractor, so an
 * error in one place never hides URNs elsewhere.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Scalar, type YAMLMap } from 'yaml';
import { parseUrn } from '../../../model/src/urn';
import type { ScanOptions, ScanResult, YamlContext } from './types';
import { findUrnsInText, findUrnsInValue } from './text';
import { scalarSourceMap } from './yamlScalarSource';
import { mapRange, subMap } from './sourceMap';
import { MappingFrame, keyText } from './yamlMapping';
import { describeMapping } from './yamlDocsAsCode';
import { CharCode } from './charCode';
import { quickYaml } from './yamlQuick';

/** Deeper than this, the parser (and the walk) could run out of stack: such a file is read as text. */
const MAX_NESTING = 1000;

/** `quick: false` parses with the `yaml` package even where the quick reader could (tests compare the two). */
export function findUrnsInYaml(
  text: string,
  opts: ScanOptions,
  { quick = true }: { quick?: boolean } = {},
): ScanResult {
  const result: ScanResult = { occurrences: [], columns: [], descriptions: [], problems: [] };
  const tooDeep = offsetDeeperThan(text, MAX_NESTING);
  if (tooDeep >= 0) {
    result.problems.push({
      start: tooDeep,
      end: Math.min(tooDeep + 1, text.length),
      message: `YAML nested more than ${MAX_NESTING} levels deep: read as plain text`,
    });
    findUrnsInText(text, opts, 0, text.length, result.occurrences);
    return result;
  }
  let documents: ReadonlyArray<{
    contents: unknown;
    errors: ReadonlyArray<{ pos: [number, number]; message: string }>;
  }>;
  try {
    documents =
      (quick ? quickYaml(text) : undefined) ?? parseAllDocuments(text, { prettyErrors: false, logLevel: 'silent' });
  } catch (error) {
    // The parser reports syntax errors as values; a throw is a bug in it. Keep the URNs anyway.
    result.problems.push({
      start: 0,
      end: Math.min(text.length, 1),
      message: `YAML could not be read: ${String(error)}`,
    });
    findUrnsInText(text, opts, 0, text.length, result.occurrences);
    return result;
  }
  const walker = new YamlWalker(text, opts, result);
  if (Array.isArray(documents)) {
    documents.forEach((doc, index) => {
      for (const error of doc.errors) {
        const start = Math.min(error.pos[0], text.length);
        const end = Math.max(start, Math.min(Math.max(error.pos[1], start + 1), text.length));
        result.problems.push({ start, end, message: error.message });
      }
      walker.walkDocument(doc.contents, index);
    });
  }
  walker.finish();
  return result;
}

class YamlWalker {
  private documentIndex = 0;
  private readonly path: Array<string | number> = [];
  /** How many flow collections (`[…]`, `{…}`) hold the node being read. */
  private flowDepth = 0;
  /** Characters left to read past flow commas for cut URNs: bounds the work on a hostile file. */
  private cutBudget = MAX_CUT_READ;
  /** Everything before this offset has been read, as a scalar or by the text extractor. */
  private covered = 0;
  private nextUrnAt: number;

  constructor(
    private readonly text: string,
    private readonly opts: ScanOptions,
    private readonly result: ScanResult,
  ) {
    this.nextUrnAt = text.indexOf('urn:');
  }

  walkDocument(contents: unknown, index: number): void {
    this.documentIndex = index;
    this.walkNode(contents);
  }

  finish(): void {
    this.readGapUntil(this.text.length);
  }

  /** A node that no mapping holds as a scalar value or list (a document's root, a list's collection item, a complex key). */
  private walkNode(node: unknown): void {
    if (isScalar(node)) this.readScalar(node, undefined, undefined);
    else if (isMap(node)) this.walkMap(node);
    else if (isSeq(node)) this.walkSeq(node.items, undefined, undefined, node.flow === true);
    // Aliases repeat a node read where its anchor stands.
  }

  private walkMap(map: YAMLMap): void {
    const flow = map.flow === true;
    if (flow) this.flowDepth++;
    const frame = new MappingFrame(this.text, this.opts, map);
    const items = map.items;
    const path = this.path;
    for (let p = 0; p < items.length; p++) {
      const pair = items[p];
      if (!isPair(pair)) continue;
      const key = keyText(pair.key);
      path.push(key);
      if (isScalar(pair.key)) this.readScalar(pair.key, frame, undefined);
      else if (pair.key !== null && !isAlias(pair.key)) this.walkNode(pair.key);
      const value = pair.value;
      if (isScalar(value)) {
        const index = this.readScalar(value, frame, undefined);
        if (index !== undefined) frame.noteUrnValue(key, index, this.result.occurrences[index]!);
      } else if (isSeq(value)) {
        this.walkSeq(value.items, frame, key, value.flow === true);
      } else {
        this.walkNode(value);
      }
      path.pop();
    }
    describeMapping(this.text, frame, this.result);
    if (flow) this.flowDepth--;
  }

  /** A list's items; `owner` and `listKey`: the mapping that holds the list under that key. */
  private walkSeq(
    items: readonly unknown[],
    owner: MappingFrame | undefined,
    listKey: string | undefined,
    flow: boolean,
  ): void {
    if (flow) this.flowDepth++;
    const path = this.path;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      path.push(i);
      if (isScalar(item)) this.readScalar(item, owner, listKey);
      else this.walkNode(item);
      path.pop();
    }
    if (flow) this.flowDepth--;
  }

  /**
   * Report the URNs of one scalar, held by the mapping `frame` (as a key or value, or as an item of
   * its list under `listKey`); returns the index of the occurrence when the whole value is one URN
   * (what mappings like `urn: …` hold), for descriptions and columns.
   */
  private readScalar(node: Scalar, frame: MappingFrame | undefined, listKey: string | undefined): number | undefined {
    const range = node.range;
    if (!range) return undefined;
    const text = this.text;
    const start = range[0];
    const end = range[1];
    const read = this.covered;
    this.readGapUntil(start);
    // An unclosed quote swallows the rest of the document: leave that text to the text extractor.
    const type = node.type;
    const quoted = type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE';
    if (quoted && (end - start < 2 || text.charCodeAt(end - 1) !== (type === 'QUOTE_DOUBLE' ? 34 : 39)))
      return undefined;
    // The next `urn:` of the source is now the first at or after `start` (when nothing past `start`
    // was read before). Outside double quotes, a value's `urn:` is written as such between `start` and
    // `end` (folding only adds spaces and line breaks): without one there, the value is not searched.
    const urnInSource = read > start || type === 'QUOTE_DOUBLE' || (this.nextUrnAt >= 0 && this.nextUrnAt < end);
    this.coverUntil(end);
    const value = node.value;
    if (!urnInSource || typeof value !== 'string' || value.indexOf('urn:') < 0) return undefined;
    // A value that starts with a URN is read whole, spaces included (text.ts, the whole-literal rule).
    const found = findUrnsInValue(value, this.opts);
    if (found.length === 0) return undefined;

    // Most values stand verbatim in the source (between their quotes): then a value offset plus
    // `at` is the document offset, and no map is made.
    const inner = quoted ? 1 : 0;
    const length = value.length;
    const verbatim =
      type !== 'BLOCK_LITERAL' &&
      type !== 'BLOCK_FOLDED' &&
      end - start - 2 * inner === length &&
      text.startsWith(value, start + inner);
    const at = start + inner;
    const map = verbatim ? undefined : scalarSourceMap(text, node);
    const occurrences = this.result.occurrences;
    const base = occurrences.length;
    const context = this.contextFor(frame, listKey);
    const first = skipSpaces(value, 0);
    const last = trimmedEnd(value);
    let wholeValue: number | undefined;
    // The extractor's objects are this call's own: turn them into YAML occurrences in place.
    for (let k = 0; k < found.length; k++) {
      const occurrence = found[k]!;
      const from = occurrence.start;
      const to = occurrence.end;
      if (map === undefined) {
        occurrence.start = at + from;
        occurrence.end = at + Math.max(from, Math.min(to, length));
        occurrence.map = undefined;
      } else {
        const mapped = mapRange(map, from, to, length);
        occurrence.start = mapped.start;
        occurrence.end = mapped.end;
        occurrence.map = subMap(map, from, to);
      }
      occurrence.source = 'yaml';
      occurrence.yaml = context;
      const error = occurrence.errorRange?.error;
      if (error) {
        const errorAt = from + error.offset;
        const errorEnd = errorAt + error.length;
        if (map === undefined) {
          occurrence.errorRange = {
            start: at + errorAt,
            end: at + Math.max(errorAt, Math.min(errorEnd, length)),
            error,
          };
        } else {
          const mapped = mapRange(map, errorAt, errorEnd, length);
          occurrence.errorRange = { start: mapped.start, end: mapped.end, error };
        }
      }
      if (occurrence.parent !== undefined) occurrence.parent += base;
      else if (from === first && to === last) {
        wholeValue = occurrences.length;
        if (error && this.flowDepth > 0 && type === 'PLAIN') {
          const { cut, read } = cutInFlow(text, occurrence.start, Math.min(MAX_CUT_URN, this.cutBudget));
          this.cutBudget -= read;
          if (cut) occurrence.cutInFlow = cut;
        }
      }
      occurrences.push(occurrence);
    }
    return wholeValue;
  }

  private contextFor(frame: MappingFrame | undefined, listKey: string | undefined): YamlContext {
    const context: YamlContext = {
      documentIndex: this.documentIndex,
      keyPath: this.path.slice(),
      siblings: frame ? frame.siblings() : {},
    };
    if (listKey !== undefined) {
      context.listKey = listKey;
      const owner = frame?.owner(listKey);
      if (owner) context.owner = owner;
    }
    return context;
  }

  /** Give the text between scalars (comments, unreadable parts) to the text extractor. */
  private readGapUntil(until: number): void {
    if (this.nextUrnAt >= 0 && this.nextUrnAt < until && this.nextUrnAt >= this.covered) {
      findUrnsInText(this.text, this.opts, this.covered, until, this.result.occurrences);
    }
    this.coverUntil(until);
  }

  private coverUntil(end: number): void {
    if (end > this.covered) this.covered = end;
    if (this.nextUrnAt >= 0 && this.nextUrnAt < this.covered) this.nextUrnAt = this.text.indexOf('urn:', this.covered);
  }
}

/**
 * Where the text nests deeper than `limit` (flow brackets, or block indentation, which every
 * block level adds to), or -1. An over-estimate is fine: only absurd files come near the limit.
 * Indentation: the `limit + 1`th space of a line that starts with more. Brackets: an opening one
 * that makes more than `limit` open at once, counted from the last line that starts with a letter
 * (a key at the left margin starts a new top-level entry: brackets in earlier strings no longer count).
 */
function offsetDeeperThan(text: string, limit: number): number {
  return firstOf(deepIndentAt(text, limit), deepBracketAt(text, limit));
}

function firstOf(a: number, b: number): number {
  return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}

/** `limit + 1` spaces, and the same after a line break, for the last `limit` asked. */
let deepSpaces = { limit: -1, spaces: '', line: '' };

function deepIndentAt(text: string, limit: number): number {
  if (deepSpaces.limit !== limit) {
    const spaces = ' '.repeat(limit + 1);
    deepSpaces = { limit, spaces, line: `\n${spaces}` };
  }
  // No run of that many spaces anywhere (nearly every file): no line is indented that far.
  if (text.indexOf(deepSpaces.spaces) < 0) return -1;
  if (text.startsWith(deepSpaces.spaces)) return limit;
  const at = text.indexOf(deepSpaces.line);
  return at < 0 ? -1 : at + 1 + limit;
}

const LETTER_AT_MARGIN = /\n[A-Za-z]/g;

/** The next line start after `from` whose first character is a letter, or -1 (the text's start needs none: nothing is open there). */
function marginAfter(text: string, from: number): number {
  LETTER_AT_MARGIN.lastIndex = from;
  const m = LETTER_AT_MARGIN.exec(text);
  return m ? m.index + 1 : -1;
}

/** The brackets visited in order by one search per kind (the string search outruns a loop over every character). */
function deepBracketAt(text: string, limit: number): number {
  const n = text.length;
  const next = (bracket: string, from: number): number => {
    const i = text.indexOf(bracket, from);
    return i < 0 ? n : i;
  };
  let openSquare = next('[', 0);
  let closeSquare = next(']', 0);
  let openCurly = next('{', 0);
  let closeCurly = next('}', 0);
  let flow = 0;
  let margin = marginAfter(text, 0);
  for (;;) {
    const i = Math.min(openSquare, closeSquare, openCurly, closeCurly);
    if (i >= n) return -1;
    if (margin >= 0 && margin < i) {
      flow = 0;
      margin = marginAfter(text, i);
    }
    if (i === openSquare || i === openCurly) {
      if (++flow > limit) return i;
      if (i === openSquare) openSquare = next('[', i + 1);
      else openCurly = next('{', i + 1);
    } else {
      if (flow > 0) flow--;
      if (i === closeSquare) closeSquare = next(']', i + 1);
      else closeCurly = next('}', i + 1);
    }
  }
}

/** Longest URN looked for past a flow collection's comma, and what one file may read for them in all. */
const MAX_CUT_URN = 4096;
const MAX_CUT_READ = 1 << 22;

/**
 * A plain scalar starting at `start` in a flow collection ends at the first comma: read on in the
 * source, through commas, to the `)` that closes the URN's first `(` on the same line. When what
 * that spans parses as a URN and a flow item may end right after it (`,` `]` `}`, a line end, a
 * comment, or `: ` when it is a key), that is the URN the author meant. `read` is how many
 * characters were looked at.
 */
function cutInFlow(
  text: string,
  start: number,
  maxLength: number,
): { cut?: { end: number; urn: string }; read: number } {
  const limit = Math.min(text.length, start + maxLength);
  let depth = 0;
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (
      c === CharCode.LineFeed ||
      c === CharCode.CarriageReturn ||
      c === CharCode.OpenSquareBracket ||
      c === CharCode.CloseSquareBracket ||
      c === CharCode.OpenCurlyBrace ||
      c === CharCode.CloseCurlyBrace
    )
      return { read: i - start }; // line end, [ ] { }
    if (c === CharCode.OpenParen) depth++;
    else if (c === CharCode.CloseParen && --depth <= 0) {
      const read = i + 1 - start;
      if (depth < 0 || !itemMayEndAt(text, i + 1)) return { read };
      const urn = text.slice(start, i + 1);
      return parseUrn(urn).ok ? { cut: { end: i + 1, urn }, read } : { read };
    }
  }
  return { read: limit - start };
}

/** What may follow a key's `:`: a space or tab, `,` `]` `}` or a line end. */
const ENDS_A_KEY: readonly number[] = [
  CharCode.Space,
  CharCode.Tab,
  CharCode.Comma,
  CharCode.CloseSquareBracket,
  CharCode.CloseCurlyBrace,
  CharCode.LineFeed,
  CharCode.CarriageReturn,
];

/** After spaces: `,` `]` `}`, a line end or the text's end, a comment, or a key's `:` followed by a space or one of those. */
function itemMayEndAt(text: string, at: number): boolean {
  let j = at;
  while (j < text.length && (text.charCodeAt(j) === CharCode.Space || text.charCodeAt(j) === CharCode.Tab)) j++;
  if (j >= text.length) return true;
  const c = text.charCodeAt(j);
  if (
    c === CharCode.Comma ||
    c === CharCode.CloseSquareBracket ||
    c === CharCode.CloseCurlyBrace ||
    c === CharCode.LineFeed ||
    c === CharCode.CarriageReturn
  )
    return true;
  if (c === CharCode.Hash) return j > at; // '#' starts a comment only after a space
  if (c === CharCode.Colon) return j + 1 >= text.length || ENDS_A_KEY.includes(text.charCodeAt(j + 1));
  return false;
}

function skipSpaces(value: string, from: number): number {
  let i = from;
  while (
    i < value.length &&
    (value.charCodeAt(i) === CharCode.Space ||
      value.charCodeAt(i) === CharCode.LineFeed ||
      value.charCodeAt(i) === CharCode.Tab)
  )
    i++;
  return i;
}

function trimmedEnd(value: string): number {
  let end = value.length;
  while (
    end > 0 &&
    (value.charCodeAt(end - 1) === CharCode.Space ||
      value.charCodeAt(end - 1) === CharCode.LineFeed ||
      value.charCodeAt(end - 1) === CharCode.Tab)
  )
    end--;
  return end;
}
