/**
 * A quick reader for the block YAML most files hold: mappings and sequences by indentation, keys
 * and values as plain or quoted scalars on one line, flow sequences of such scalars on one line,
 * block scalars (`|`, `|-`, `>`, `>-`), comments and blank lines. It builds the same nodes the
 * `yaml` package composes for such a text (its own classes: Scalar, YAMLMap, YAMLSeq, Pair), in a
 * fraction of its time and garbage, and gives up — returns undefined, so the caller parses with
 * the package — at anything else: flow mappings, flow sequences holding more than one-line
 * scalars, block scalars with keep chomping, an indentation digit or a comment, anchors, aliases,
 * tags, directives, document markers, multi-line plain scalars, escapes in double quotes, tabs,
 * carriage returns, byte-order marks, duplicate keys, keys over 1024 characters, empty items, odd
 * indentation, nesting over 200 levels, comment lines the package stretches a range over, a file
 * with no content.
 *
 * What is the same as the package's nodes (test/scan/yamlQuick.test.ts holds each against it on
 * generated and real files): the tree, each scalar's value (resolved by the package's own core
 * schema: `1.50`, `true`, `~` …), type, source and range, each collection's range[0] and range[1].
 * Not the same: a block collection's range[2] (the package extends it over trailing comment lines)
 * is its range[1], and comments are not kept on the nodes; the scanner reads neither.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Schema } from 'yaml';
import { CharCode } from './charCode';

/** One document as the scanner reads it: its contents and errors (none: a text with one is not read here). */
export interface QuickDocument {
  contents: YAMLMap | YAMLSeq;
  errors: readonly never[];
}

interface ScalarTag {
  default?: boolean | 'key';
  test?: RegExp;
  format?: string;
  resolve: (value: string, onError: (message: string) => void, options: object) => unknown;
}

let coreSchema: Schema | undefined;
let coreTags: readonly ScalarTag[] | undefined;

function schema(): Schema {
  if (!coreSchema) {
    coreSchema = new Document().schema;
    coreTags = coreSchema.tags.filter((t) => !(t as { collection?: string }).collection) as unknown as ScalarTag[];
  }
  return coreSchema;
}

/** Block collections nested deeper than this are left to the package. */
const MAX_DEPTH = 200;

/** What the package's tags read of the parse options (its defaults, as the scanner parses). */
const RESOLVE_OPTIONS = { intAsBigInt: false };

/** Gives up on the text: the caller parses it with the `yaml` package. */
class NotQuick extends Error {}
const NOT_QUICK = new NotQuick();

/** The text's one document, or undefined when it holds anything this reader does not read exactly. */
export function quickYaml(text: string): QuickDocument[] | undefined {
  if (text.length === 0 || text.indexOf('\t') >= 0 || text.indexOf('\r') >= 0 || text.indexOf('\ufeff') >= 0)
    return undefined;
  try {
    const reader = new QuickReader(text);
    const contents = reader.read();
    return contents ? [{ contents, errors: [] }] : undefined;
  } catch (e) {
    if (e === NOT_QUICK) return undefined;
    throw e;
  }
}

class QuickReader {
  /** The line being read: its start, the first character that is not a space, its end (its '\n' or the text's end). */
  private lineStart = 0;
  private contentAt = 0;
  private lineEnd = 0;
  private readonly schema = schema();
  /** Block collections open around the one being read. */
  private depth = 0;

  constructor(private readonly text: string) {}

  read(): YAMLMap | YAMLSeq | undefined {
    if (!this.firstContentLine(0)) return undefined;
    const indent = this.contentAt - this.lineStart;
    const node = this.blockAt(indent, this.contentAt);
    // Nothing may follow the root but blank and comment lines.
    if (this.lineStart < this.text.length) throw NOT_QUICK;
    return node;
  }

  /** Moves to the first line from `from` that holds content (not blank, not only a comment); false at the end. */
  private firstContentLine(from: number): boolean {
    const text = this.text;
    let start = from;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let i = start;
      while (i < end && text.charCodeAt(i) === CharCode.Space) i++;
      if (i < end && text.charCodeAt(i) !== CharCode.Hash) {
        this.lineStart = start;
        this.contentAt = i;
        this.lineEnd = end;
        // A document marker or directive line.
        if (
          i === start &&
          (text.startsWith('---', i) || text.startsWith('...', i) || text.charCodeAt(i) === CharCode.PercentSign)
        )
          throw NOT_QUICK;
        return true;
      }
      start = end + 1;
    }
    this.lineStart = this.contentAt = this.lineEnd = text.length;
    return false;
  }

  /** Whether a comment line deeper than `column` comes before the next content line (blank lines between). */
  private commentBeforeContent(column: number): boolean {
    const text = this.text;
    let start = this.lineEnd + 1;
    while (start < text.length) {
      let i = start;
      while (i < text.length && text.charCodeAt(i) === CharCode.Space) i++;
      const c = text.charCodeAt(i);
      if (c === CharCode.Hash) {
        if (i - start > column) return true;
      } else if (c !== CharCode.LineFeed && i < text.length) return false;
      const lf = text.indexOf('\n', i);
      if (lf < 0) return false;
      start = lf + 1;
    }
    return false;
  }

  /** Whether a comment line deeper than `column` starts in [from, to) (lines of blanks and comments). */
  private commentBetween(from: number, to: number, column: number): boolean {
    const text = this.text;
    let start = from;
    while (start < to) {
      let i = start;
      while (i < to && text.charCodeAt(i) === CharCode.Space) i++;
      if (i < to && text.charCodeAt(i) === CharCode.Hash && i - start > column) return true;
      const lf = text.indexOf('\n', i);
      if (lf < 0 || lf >= to) return false;
      start = lf + 1;
    }
    return false;
  }

  /** The next content line after the current one; its indentation, or -1 at the end. */
  private nextLine(): number {
    return this.firstContentLine(this.lineEnd + 1) ? this.contentAt - this.lineStart : -1;
  }

  /** A block mapping or sequence whose first entry starts at `at`, at column `column`. */
  private blockAt(column: number, at: number): YAMLMap | YAMLSeq {
    // Deep nesting is left to the package (which reports it): this reader never runs out of stack.
    if (++this.depth > MAX_DEPTH) throw NOT_QUICK;
    const node = this.isDash(at) ? this.sequence(column, at) : this.mapping(column, at);
    this.depth--;
    return node;
  }

  private isDash(at: number): boolean {
    if (this.text.charCodeAt(at) !== CharCode.Dash) return false;
    const next = at + 1 < this.lineEnd ? this.text.charCodeAt(at + 1) : -1;
    if (next === -1) throw NOT_QUICK; // an empty item, or its content on the next lines
    return next === CharCode.Space;
  }

  private sequence(column: number, at: number): YAMLSeq {
    const seq = new YAMLSeq(this.schema);
    let end = at;
    let dash = at;
    for (;;) {
      let content = dash + 1;
      while (content < this.lineEnd && this.text.charCodeAt(content) === CharCode.Space) content++;
      if (content >= this.lineEnd || this.text.charCodeAt(content) === CharCode.Hash) throw NOT_QUICK;
      let item: Scalar | YAMLMap | YAMLSeq;
      if (this.isDash(content)) throw NOT_QUICK; // `- - x`
      const keyEnd = this.keyEnd(content);
      /** The item is a mapping: the package ends this sequence's range[1] where that mapping's range[2] ends. */
      let lastBlock = false;
      if (keyEnd >= 0) {
        const map = this.mapping(content - this.lineStart, content);
        item = map;
        end = map.range![1];
        lastBlock = true;
      } else {
        item = this.inlineValue(content, column);
        end = item.range![2];
      }
      seq.items.push(item);
      // The next item: a dash at this column; a line less indented (or a key at it) ends the sequence.
      const indent = this.contentAt - this.lineStart;
      const atEnd = this.lineStart >= this.text.length;
      if (!atEnd && indent > column) throw NOT_QUICK;
      if (atEnd || indent < column || !this.isDash(this.contentAt)) {
        // That range[2] stretches over comment lines deeper than this column, which this reader does not follow.
        if (lastBlock && this.commentBetween(end, this.lineStart, column)) throw NOT_QUICK;
        break;
      }
      dash = this.contentAt;
    }
    seq.range = [at, end, end];
    return seq;
  }

  private mapping(column: number, at: number): YAMLMap {
    const map = new YAMLMap(this.schema);
    let end = at;
    let keyAt = at;
    const seen = new Set<unknown>();
    for (;;) {
      const keyEnd = this.keyEnd(keyAt);
      if (keyEnd < 0) throw NOT_QUICK;
      const key = this.scalar(keyAt, keyEnd, keyEnd, Scalar.PLAIN, this.text.slice(keyAt, keyEnd), true);
      if (seen.has(key.value) || seen.has(key.source)) throw NOT_QUICK;
      seen.add(key.value);
      seen.add(key.source);
      // After `key:`: a value on the line, nothing (null), or a block on the next lines.
      let valueAt = keyEnd + 1;
      while (valueAt < this.lineEnd && this.text.charCodeAt(valueAt) === CharCode.Space) valueAt++;
      let value: Scalar | YAMLMap | YAMLSeq;
      /** The value is a block collection (a sequence at the key's column when `sameColumn`). */
      let lastBlock = false;
      let sameColumn = false;
      if (valueAt < this.lineEnd) {
        if (this.text.charCodeAt(valueAt) === CharCode.Hash) throw NOT_QUICK;
        value = this.inlineValue(valueAt, column);
        end = value.range![2];
      } else {
        if (valueAt !== keyEnd + 1) throw NOT_QUICK; // `key:` with trailing spaces
        const nullAt = keyEnd + 1;
        const commentNext = this.commentBeforeContent(-1);
        const indent = this.nextLine();
        if (indent > column || (indent === column && this.isDash(this.contentAt))) {
          value = this.blockAt(indent, this.contentAt);
          end = value.range![1];
          lastBlock = true;
          sameColumn = indent === column;
        } else {
          // The package stretches an empty value over a comment line right after it, by rules of its own.
          if (commentNext) throw NOT_QUICK;
          value = this.scalar(nullAt, nullAt, nullAt, Scalar.PLAIN, '', false);
          end = nullAt;
        }
      }
      map.items.push(new Pair(key, value));
      const indent = this.contentAt - this.lineStart;
      if (this.lineStart >= this.text.length || indent < column) {
        // As in `sequence`: the last value's range[2] would stretch over deeper comment lines.
        if (lastBlock && this.commentBetween(end, this.lineStart, sameColumn ? column - 1 : column)) throw NOT_QUICK;
        break;
      }
      if (indent > column) throw NOT_QUICK;
      if (this.isDash(this.contentAt)) throw NOT_QUICK; // a dash at a mapping's column after a value
      keyAt = this.contentAt;
    }
    map.range = [at, end, end];
    return map;
  }

  /**
   * The value that starts at `at` on the current line, of an entry or item at `column`: a scalar, a
   * flow sequence of scalars, or a block scalar (the lines after it); then moves to the next
   * content line, which may not be deeper than `column` (a scalar continued on it).
   */
  private inlineValue(at: number, column: number): Scalar | YAMLSeq {
    const c = this.text.charCodeAt(at);
    let node: Scalar | YAMLSeq;
    if (c === CharCode.OpenSquareBracket) node = this.flowSequence(at);
    else if (c === CharCode.GreaterThan || c === CharCode.Pipe) return this.blockScalar(at, column);
    else node = this.inlineScalar(at);
    // The package stretches a value over the deeper comment lines after it.
    if (this.commentBeforeContent(column)) throw NOT_QUICK;
    if (this.nextLine() > column) throw NOT_QUICK;
    return node;
  }

  /** `[a, "b", c]` on one line: scalars only. */
  private flowSequence(at: number): YAMLSeq {
    const text = this.text;
    const seq = new YAMLSeq(this.schema);
    seq.flow = true;
    let i = at + 1;
    while (i < this.lineEnd && text.charCodeAt(i) === CharCode.Space) i++;
    if (text.charCodeAt(i) !== CharCode.CloseSquareBracket) {
      for (;;) {
        const item = this.flowScalar(i);
        seq.items.push(item);
        i = item.range![2];
        const c = text.charCodeAt(i);
        if (c === CharCode.CloseSquareBracket) break;
        if (c !== CharCode.Comma) throw NOT_QUICK;
        i++;
        while (i < this.lineEnd && text.charCodeAt(i) === CharCode.Space) i++;
        if (i >= this.lineEnd || text.charCodeAt(i) === CharCode.CloseSquareBracket) throw NOT_QUICK;
      }
    }
    const close = i + 1;
    this.commentOrEnd(close, true);
    seq.range = [at, close, this.nodeEnd()];
    return seq;
  }

  /** An item of a flow sequence at `at`: its range[2] is where the spaces after it end (at `,` or `]`). */
  private flowScalar(at: number): Scalar {
    const text = this.text;
    const c = text.charCodeAt(at);
    let valueEnd: number;
    let node: Scalar;
    if (c === CharCode.SingleQuote || c === CharCode.DoubleQuote) {
      const { value, close } = this.quotedValue(at, c);
      valueEnd = close + 1;
      node = new Scalar(value);
      node.source = value;
      node.type = c === CharCode.SingleQuote ? Scalar.QUOTE_SINGLE : Scalar.QUOTE_DOUBLE;
    } else {
      if (startsIndicator(text, at, this.lineEnd)) throw NOT_QUICK;
      valueEnd = at;
      for (; valueEnd < this.lineEnd; valueEnd++) {
        const ch = text.charCodeAt(valueEnd);
        if (ch === CharCode.Comma || ch === CharCode.CloseSquareBracket) break;
        if (
          ch === CharCode.Colon ||
          ch === CharCode.OpenSquareBracket ||
          ch === CharCode.OpenCurlyBrace ||
          ch === CharCode.CloseCurlyBrace ||
          ch === CharCode.Hash ||
          ch < CharCode.Space ||
          ch === CharCode.Delete
        )
          throw NOT_QUICK;
      }
      while (text.charCodeAt(valueEnd - 1) === CharCode.Space) valueEnd--;
      node = this.scalar(at, valueEnd, valueEnd, Scalar.PLAIN, text.slice(at, valueEnd), false);
    }
    let end = valueEnd;
    while (end < this.lineEnd && text.charCodeAt(end) === CharCode.Space) end++;
    node.range = [at, valueEnd, end];
    return node;
  }

  /**
   * A block scalar (`|`, `|-`, `>`, `>-`) at `at`, of an entry or item at `column`. Read here:
   * content lines at one indentation (deeper than `column`), empty lines between them, and for
   * `|` deeper lines too. Not: keep chomping (`+`), an indentation digit, a comment after the
   * indicator, lines of spaces only, an empty scalar.
   */
  private blockScalar(at: number, column: number): Scalar {
    const text = this.text;
    const literal = text.charCodeAt(at) === CharCode.Pipe;
    let headerEnd = at + 1;
    const strip = text.charCodeAt(headerEnd) === CharCode.Dash;
    if (strip) headerEnd++;
    if (headerEnd !== this.lineEnd) throw NOT_QUICK;
    const lines: string[] = [];
    let indent = -1;
    let end = this.lineEnd;
    let start = this.lineEnd + 1;
    let empty = 0;
    while (start < text.length) {
      let lineEnd = text.indexOf('\n', start);
      if (lineEnd < 0) lineEnd = text.length;
      let i = start;
      while (i < lineEnd && text.charCodeAt(i) === CharCode.Space) i++;
      if (i === lineEnd) {
        if (lineEnd !== start || indent < 0) throw NOT_QUICK; // spaces only, or before the first line
        empty++;
      } else {
        const lineIndent = i - start;
        if (indent < 0) {
          if (lineIndent <= column) throw NOT_QUICK;
          indent = lineIndent;
        }
        if (lineIndent < indent) break;
        if (lineIndent > indent && !literal) throw NOT_QUICK;
        for (let k = i; k < lineEnd; k++) {
          const ch = text.charCodeAt(k);
          if (ch < CharCode.Space || ch === CharCode.Delete) throw NOT_QUICK;
        }
        const line = text.slice(start + indent, lineEnd);
        if (lines.length > 0) lines.push(literal ? '\n'.repeat(empty + 1) : empty > 0 ? '\n'.repeat(empty) : ' ');
        lines.push(line);
        empty = 0;
        end = lineEnd < text.length ? lineEnd + 1 : text.length;
      }
      start = lineEnd + 1;
    }
    if (indent < 0) throw NOT_QUICK;
    const value = lines.join('') + (strip ? '' : '\n');
    const node = new Scalar(value);
    node.range = [at, end, end];
    node.source = value;
    node.type = literal ? Scalar.BLOCK_LITERAL : Scalar.BLOCK_FOLDED;
    // The next content line: a comment or less indented, and not deeper than `column`.
    const next = this.firstContentLine(end) ? this.contentAt - this.lineStart : -1;
    if (next > column) throw NOT_QUICK;
    return node;
  }

  /** After a value ending at `at`: spaces, then a comment (after at least one space) or the line's end. */
  private commentOrEnd(at: number, spaceBeforeHash: boolean): void {
    let i = at;
    while (i < this.lineEnd && this.text.charCodeAt(i) === CharCode.Space) i++;
    if (i < this.lineEnd && (this.text.charCodeAt(i) !== CharCode.Hash || (spaceBeforeHash && i === at)))
      throw NOT_QUICK;
  }

  /**
   * The end of a plain key starting at `at` on the current line (the offset of its ':'), or -1
   * when the line is no `key: …`. Keys that start with an indicator, hold ` #`, or end in a space
   * are not read here.
   */
  private keyEnd(at: number): number {
    const text = this.text;
    if (startsIndicator(text, at, this.lineEnd)) return -1;
    for (let i = at; i < this.lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === CharCode.Colon && (i + 1 === this.lineEnd || text.charCodeAt(i + 1) === CharCode.Space)) {
        if (i === at || text.charCodeAt(i - 1) === CharCode.Space) throw NOT_QUICK;
        // The package refuses an implicit key over 1024 characters.
        if (i - at > 1024) throw NOT_QUICK;
        return i;
      }
      if (c === CharCode.Hash && text.charCodeAt(i - 1) === CharCode.Space) return -1;
      if (c < CharCode.Space || c === CharCode.Delete) throw NOT_QUICK;
    }
    return -1;
  }

  /** A plain or quoted scalar from `at` to the end of its line (a comment allowed after it). */
  private inlineScalar(at: number): Scalar {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c === CharCode.SingleQuote || c === CharCode.DoubleQuote) return this.quoted(at, c);
    if (startsIndicator(text, at, this.lineEnd)) throw NOT_QUICK;
    let valueEnd = this.lineEnd;
    for (let i = at; i < this.lineEnd; i++) {
      const ch = text.charCodeAt(i);
      if (ch === CharCode.Hash && text.charCodeAt(i - 1) === CharCode.Space) {
        valueEnd = i;
        break;
      }
      if (ch === CharCode.Colon && (i + 1 === this.lineEnd || text.charCodeAt(i + 1) === CharCode.Space))
        throw NOT_QUICK;
      if (ch < CharCode.Space || ch === CharCode.Delete) throw NOT_QUICK;
    }
    while (text.charCodeAt(valueEnd - 1) === CharCode.Space) valueEnd--;
    return this.scalar(at, valueEnd, this.nodeEnd(), Scalar.PLAIN, text.slice(at, valueEnd), false);
  }

  /** The value of a quoted scalar on one line, and the offset of its closing quote. */
  private quotedValue(at: number, quote: number): { value: string; close: number } {
    const text = this.text;
    let value = '';
    let from = at + 1;
    for (let i = from; i < this.lineEnd; i++) {
      const ch = text.charCodeAt(i);
      if (ch < CharCode.Space || ch === CharCode.Delete) throw NOT_QUICK;
      if (quote === CharCode.DoubleQuote && ch === CharCode.Backslash) throw NOT_QUICK;
      if (ch !== quote) continue;
      if (quote === CharCode.SingleQuote && text.charCodeAt(i + 1) === CharCode.SingleQuote) {
        value += text.slice(from, i + 1);
        from = i + 2;
        i++;
        continue;
      }
      return { value: value + text.slice(from, i), close: i };
    }
    throw NOT_QUICK;
  }

  private quoted(at: number, quote: number): Scalar {
    const { value, close } = this.quotedValue(at, quote);
    this.commentOrEnd(close + 1, true);
    const node = new Scalar(value);
    node.range = [at, close + 1, this.nodeEnd()];
    node.source = value;
    node.type = quote === CharCode.SingleQuote ? Scalar.QUOTE_SINGLE : Scalar.QUOTE_DOUBLE;
    return node;
  }

  /** Where a value on the current line ends with its comment and line break. */
  private nodeEnd(): number {
    return this.lineEnd < this.text.length ? this.lineEnd + 1 : this.text.length;
  }

  /** A scalar as the package composes a plain one: its value resolved by the core schema's tags. */
  private scalar(
    start: number,
    valueEnd: number,
    end: number,
    type: Scalar.Type,
    source: string,
    atKey: boolean,
  ): Scalar {
    let node: Scalar;
    if (type !== Scalar.PLAIN) node = new Scalar(source);
    else {
      const tag = coreTags!.find((t) => (t.default === true || (atKey && t.default === 'key')) && t.test?.test(source));
      if (!tag) node = new Scalar(source);
      else {
        let failed = false;
        const resolved = tag.resolve(
          source,
          () => {
            failed = true;
          },
          RESOLVE_OPTIONS,
        );
        if (failed) throw NOT_QUICK;
        node = resolved instanceof Scalar ? resolved : new Scalar(resolved);
        if (tag.format) node.format = tag.format;
      }
    }
    node.range = [start, valueEnd, end];
    node.source = source;
    node.type = type;
    return node;
  }
}

/** A plain scalar may not start with these (or with `-`, `?`, `:` before a space): the package reads them as syntax. */
function startsIndicator(text: string, at: number, lineEnd: number): boolean {
  const c = text.charCodeAt(at);
  switch (c) {
    case CharCode.Dash:
    case CharCode.QuestionMark:
    case CharCode.Colon: {
      const next = at + 1 < lineEnd ? text.charCodeAt(at + 1) : CharCode.Space;
      return next === CharCode.Space || c !== CharCode.Dash;
    }
    case CharCode.Comma:
    case CharCode.OpenSquareBracket:
    case CharCode.CloseSquareBracket:
    case CharCode.OpenCurlyBrace:
    case CharCode.CloseCurlyBrace:
    case CharCode.Hash:
    case 38: // &
    case CharCode.Asterisk:
    case CharCode.ExclamationMark:
    case CharCode.Pipe:
    case CharCode.GreaterThan:
    case CharCode.SingleQuote:
    case CharCode.DoubleQuote:
    case CharCode.PercentSign:
    case 64: // @
    case CharCode.BackTick:
      return true;
    default:
      return false;
  }
}
