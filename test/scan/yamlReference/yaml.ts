/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- charCodeAt compared with CharCode, as server/src/scan does */
/**
 * The YAML extractor as it was before its allocations were cut: the reference that
 * test/scan/yamlDifferential.test.ts holds the extractor of server/src/scan to. Not used elsewhere.
 */
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
import type { ScanOptions, ScanResult, YamlContext } from '../../../server/src/scan/types';
import { findUrnsInText, findUrnsInValue } from '../../../server/src/scan/text';
import { scalarSourceMap } from '../../../server/src/scan/yamlScalarSource';
import { mapRange, subMap } from '../../../server/src/scan/sourceMap';
import { MappingFrame, keyText } from './yamlMapping';
import { describeMapping } from './yamlDocsAsCode';
import { CharCode } from '../../../server/src/scan/charCode';

/** Deeper than this, the parser (and the walk) could run out of stack: such a file is read as text. */
const MAX_NESTING = 1000;

export function findUrnsInYaml(text: string, opts: ScanOptions): ScanResult {
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
  let documents: ReturnType<typeof parseAllDocuments>;
  try {
    documents = parseAllDocuments(text, { prettyErrors: false, logLevel: 'silent' });
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

/** Where the scalar being read stands: the mapping that holds it (or holds its list), and the list's key. */
interface Holder {
  frame: MappingFrame | undefined;
  listKey: string | undefined;
}

const NO_HOLDER: Holder = { frame: undefined, listKey: undefined };

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
    this.walkNode(contents, NO_HOLDER);
  }

  finish(): void {
    this.readGapUntil(this.text.length);
  }

  private walkNode(node: unknown, holder: Holder): void {
    if (isScalar(node)) this.readScalar(node, holder);
    else if (isMap(node)) this.walkMap(node);
    else if (isSeq(node)) this.walkSeq(node.items, undefined, undefined, node.flow === true);
    // Aliases repeat a node read where its anchor stands.
  }

  private walkMap(map: YAMLMap): void {
    const flow = map.flow === true;
    if (flow) this.flowDepth++;
    try {
      this.walkPairs(map);
    } finally {
      if (flow) this.flowDepth--;
    }
  }

  private walkPairs(map: YAMLMap): void {
    const frame = new MappingFrame(this.text, this.opts, map);
    for (const pair of map.items) {
      if (!isPair(pair)) continue;
      const key = keyText(pair.key);
      this.path.push(key);
      if (isScalar(pair.key)) this.readScalar(pair.key, { frame, listKey: undefined });
      else if (pair.key !== null && !isAlias(pair.key)) this.walkNode(pair.key, NO_HOLDER);
      const value = pair.value;
      if (isScalar(value)) {
        const index = this.readScalar(value, { frame, listKey: undefined });
        if (index !== undefined) frame.noteUrnValue(key, index, this.result.occurrences[index]!);
      } else if (isSeq(value)) {
        this.walkSeq(value.items, frame, key, value.flow === true);
      } else {
        this.walkNode(value, NO_HOLDER);
      }
      this.path.pop();
    }
    describeMapping(this.text, frame, this.result);
  }

  private walkSeq(
    items: readonly unknown[],
    owner: MappingFrame | undefined,
    listKey: string | undefined,
    flow: boolean,
  ): void {
    if (flow) this.flowDepth++;
    try {
      items.forEach((item, i) => {
        this.path.push(i);
        if (isScalar(item)) this.readScalar(item, { frame: owner, listKey });
        else this.walkNode(item, NO_HOLDER);
        this.path.pop();
      });
    } finally {
      if (flow) this.flowDepth--;
    }
  }

  /**
   * Report the URNs of one scalar; returns the index of the occurrence when the whole value is
   * one URN (what mappings like `urn: …` hold), for descriptions and columns.
   */
  private readScalar(node: Scalar, holder: Holder): number | undefined {
    const range = node.range;
    if (!range) return undefined;
    this.readGapUntil(range[0]);
    // An unclosed quote swallows the rest of the document: leave that text to the text extractor.
    if (isUnclosedQuote(this.text, node)) return undefined;
    this.coverUntil(range[1]);
    const value = node.value;
    if (typeof value !== 'string' || value.indexOf('urn:') < 0) return undefined;
    // A value that starts with a URN is read whole, spaces included (text.ts, the whole-literal rule).
    const found = findUrnsInValue(value, this.opts);
    if (found.length === 0) return undefined;

    const map = scalarSourceMap(this.text, node);
    const occurrences = this.result.occurrences;
    const base = occurrences.length;
    const context = this.contextFor(holder);
    let wholeValue: number | undefined;
    // The extractor's objects are this call's own: turn them into YAML occurrences in place.
    for (const occurrence of found) {
      const local = { start: occurrence.start, end: occurrence.end };
      const mapped = mapRange(map, local.start, local.end, value.length);
      occurrence.start = mapped.start;
      occurrence.end = mapped.end;
      occurrence.map = subMap(map, local.start, local.end);
      occurrence.source = 'yaml';
      occurrence.yaml = context;
      const error = occurrence.errorRange?.error;
      if (error) {
        const errorAt = local.start + error.offset;
        occurrence.errorRange = { ...mapRange(map, errorAt, errorAt + error.length, value.length), error };
      }
      if (occurrence.parent !== undefined) occurrence.parent += base;
      else if (local.start === skipSpaces(value, 0) && local.end === trimmedEnd(value)) {
        wholeValue = occurrences.length;
        if (error && this.flowDepth > 0 && node.type === 'PLAIN') {
          const { cut, read } = cutInFlow(this.text, occurrence.start, Math.min(MAX_CUT_URN, this.cutBudget));
          this.cutBudget -= read;
          if (cut) occurrence.cutInFlow = cut;
        }
      }
      occurrences.push(occurrence);
    }
    return wholeValue;
  }

  private contextFor(holder: Holder): YamlContext {
    const keyPath = this.path.slice();
    const context: YamlContext = {
      documentIndex: this.documentIndex,
      keyPath,
      siblings: holder.frame?.siblings() ?? {},
    };
    if (holder.listKey !== undefined) {
      context.listKey = holder.listKey;
      const owner = holder.frame?.owner(holder.listKey);
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
 */
function offsetDeeperThan(text: string, limit: number): number {
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === CharCode.LineFeed) {
      lineStart = true;
      indent = 0;
    } else if (lineStart && c === CharCode.Space) {
      if (++indent > limit) return i;
    } else {
      // A key at the left margin starts a new top-level entry: brackets in earlier strings no longer count.
      if (lineStart && indent === 0 && ((c >= CharCode.A && c <= CharCode.Z) || (c >= CharCode.a && c <= CharCode.z)))
        flow = 0;
      lineStart = false;
      if (c === CharCode.OpenSquareBracket || c === CharCode.OpenCurlyBrace) {
        if (++flow > limit) return i;
      } else if ((c === CharCode.CloseSquareBracket || c === CharCode.CloseCurlyBrace) && flow > 0) {
        flow--;
      }
    }
  }
  return -1;
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

function isUnclosedQuote(text: string, node: Scalar): boolean {
  const quote = node.type === 'QUOTE_DOUBLE' ? 34 : node.type === 'QUOTE_SINGLE' ? 39 : 0;
  const [start, end] = node.range ?? [0, 0];
  return quote !== 0 && (end - start < 2 || text.charCodeAt(end - 1) !== quote);
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
