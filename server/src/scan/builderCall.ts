/**
 * Occurrences for calls that build a URN (Python builders and URN classes, Java URN classes):
 * the URN they build, parsed, with each argument's place in that URN, so an error or a warning
 * about one part points at the argument that wrote it.
 */
import { encodePart, type ParseResult } from '../../../model/src/urn';
import { closingBrackets, CodeCursor, type NonCode } from './codeCursor';
import type { UrnOccurrence } from './types';
import { parseUrnCached } from './parseCache';
import { isIdentifierChar, MAX_CALL_LENGTH } from './pythonSyntax';

/** DataHub's builders always write the `li` namespace, whatever the settings recognise. */
export const BUILDER_NAMESPACE = 'li';

/** What a call extractor finds: built URNs, and the calls other extractors report nothing inside. */
export interface BuilderScan {
  occurrences: UrnOccurrence[];
  /** Every builder call seen (read or skipped): other extractors report nothing inside them. */
  calls: Array<{ start: number; end: number }>;
}

/**
 * Read the calls whose names hold the (sorted) candidate offsets, one forward pass: a candidate in a
 * comment or string, or inside a call already read, is passed over. `callAt` says whether a call of
 * the extractor's starts at an identifier; `readCall` reads it (undefined: not closed within its bound,
 * so what it read is dropped and the calls inside it are read as candidates of their own).
 */
export function readCalls<C extends { open: number }>(
  reader: CallReader,
  candidates: readonly number[],
  callAt: (start: number) => C | undefined,
  readCall: (call: C, start: number) => { end: number } | undefined,
): BuilderScan {
  const text = reader.text;
  const code = new CodeCursor(text, reader.nonCode);
  let after = 0;
  let last = -1;
  let closes: Int32Array | undefined;
  for (const at of candidates) {
    if (at < after) continue;
    const start = identifierStart(text, at);
    if (start === last || start < after || !code.inCode(start)) continue;
    last = start;
    const call = callAt(start);
    if (!call) continue;
    if (closes && !closedSoon(closes, call.open)) continue;
    const kept = reader.occurrences.length;
    const keptCalls = reader.calls.length;
    const read = readCall(call, start);
    if (read) {
      after = read.end;
      code.skipTo(read.end);
    } else {
      reader.occurrences.length = kept;
      reader.calls.length = keptCalls;
      // From the first unclosed call on, match brackets once, so no later candidate rereads a bound's worth of text.
      closes ??= closingBrackets(text, reader.nonCode);
    }
  }
  orderOccurrences(reader.occurrences);
  return { occurrences: reader.occurrences, calls: reader.calls };
}

/**
 * V8 searches a needle this long or longer with Boyer-Moore, several times slower on a
 * file-sized text than its memchr-led search of a shorter one: longer words are searched by their
 * head, and the rest compared where the head is found.
 */
const SEARCHED_HEAD = 6;

/** Every index of each word in `text`, sorted. */
export function candidatesOf(text: string, words: readonly string[]): number[] {
  const into: number[] = [];
  for (const word of words) {
    if (word.length <= SEARCHED_HEAD) {
      for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) into.push(i);
      continue;
    }
    const head = word.slice(0, SEARCHED_HEAD);
    let after = 0;
    for (let i = text.indexOf(head); i >= 0; i = text.indexOf(head, i + 1)) {
      if (i < after || !text.startsWith(word, i)) continue;
      into.push(i);
      after = i + word.length;
    }
  }
  return words.length > 1 ? into.sort((a, b) => a - b) : into;
}

/** The start of the identifier holding `at`. */
export function identifierStart(text: string, at: number): number {
  let s = at;
  while (s > 0 && isIdentifierChar(text.charCodeAt(s - 1))) s--;
  return s;
}

/** The end of the identifier holding `at`. */
export function identifierEnd(text: string, at: number): number {
  let e = at;
  while (e < text.length && isIdentifierChar(text.charCodeAt(e))) e++;
  return e;
}

/** Calls nested deeper than this are not read (their argument counts as computed): bounds the recursion. */
export const MAX_NESTING = 8;
/** A value reader's answer: the nested call is not closed within its bound, so neither is the call that holds it. */
export const UNCLOSED = -2;

/** What a call extractor (Python URN classes, Java) keeps while it reads one document. */
export interface CallReader {
  text: string;
  /** How many calls are being read, one inside the other. */
  depth: number;
  occurrences: BuilderOccurrence[];
  calls: Array<{ start: number; end: number }>;
  /** The language's comments and strings. */
  nonCode: NonCode;
}

/** An argument as written: its value and document range; `nested` when it is itself a builder call. */
export interface ArgumentValue {
  value: string;
  start: number;
  end: number;
  nested?: UrnOccurrence;
}

/** Where an argument's text stands in the built URN, and in the document. */
export interface ArgumentSpan {
  urnStart: number;
  urnEnd: number;
  start: number;
  end: number;
  nested?: UrnOccurrence;
}

/** A builder occurrence with its arguments' spans (absent on occurrences from other extractors). */
export interface BuilderOccurrence extends UrnOccurrence {
  arguments?: ArgumentSpan[];
}

/**
 * The occurrence of a call that builds `urn` from `values` (in the order they appear in the URN;
 * plain strings are defaults, not written in the source). `failure` replaces the parse when DataHub
 * itself refuses the call (an unknown fabric, a URN of the wrong kind); its offset is in the URN.
 */
export function builderOccurrence(
  builder: string,
  urn: string,
  values: ReadonlyArray<ArgumentValue | string>,
  start: number,
  end: number,
  failure?: { message: string; argument?: ArgumentValue },
): BuilderOccurrence {
  const spans = argumentSpans(urn, values);
  let parsed: ParseResult = parseUrnCached(urn);
  const occurrence: BuilderOccurrence = {
    start,
    end,
    urn,
    parsed,
    template: false,
    source: 'builder',
    builder,
    arguments: spans,
  };
  if (failure) {
    const span = failure.argument && spans.find((s) => s.start === failure.argument!.start);
    parsed = {
      ok: false,
      error: {
        message: failure.message,
        offset: span?.urnStart ?? 0,
        length: span ? span.urnEnd - span.urnStart : urn.length,
      },
    };
    occurrence.parsed = parsed;
    const at = failure.argument ?? { start, end };
    occurrence.errorRange = { start: at.start, end: at.end, error: parsed.error };
  } else if (!parsed.ok) {
    const error = parsed.error;
    const culprit = spans.find((s) => error.offset >= s.urnStart && error.offset < s.urnEnd);
    const inner = culprit?.nested?.errorRange;
    occurrence.errorRange = inner
      ? { ...inner, error }
      : { start: culprit?.start ?? start, end: culprit?.end ?? end, error };
  }
  return occurrence;
}

/** Each written argument's place in the URN, found in order (as written, encoded, or upper-cased). */
function argumentSpans(urn: string, values: ReadonlyArray<ArgumentValue | string>): ArgumentSpan[] {
  const spans: ArgumentSpan[] = [];
  let cursor = 0;
  for (const v of values) {
    const value = typeof v === 'string' ? v : v.value;
    if (value === '') continue;
    // In order first; an argument written after one it precedes in the URN (an instance before a name) from the start.
    const found = find(urn, value, cursor) ?? find(urn, value, 0);
    if (!found) continue;
    const [at, length] = found;
    if (typeof v !== 'string') {
      spans.push({
        urnStart: at,
        urnEnd: at + length,
        start: v.start,
        end: v.end,
        ...(v.nested ? { nested: v.nested } : {}),
      });
    }
    if (at >= cursor) cursor = at + length;
  }
  return spans;
}

function find(urn: string, value: string, from: number): [number, number] | undefined {
  const at = urn.indexOf(value, from);
  if (at >= 0) return [at, value.length];
  for (const spelling of [encodePart(value), value.toUpperCase(), value.trim()]) {
    if (spelling === '' || spelling === value) continue;
    const other = urn.indexOf(spelling, from);
    if (other >= 0) return [other, spelling.length];
  }
  return undefined;
}

/**
 * The document range of the URN part `[start, end)` of a builder occurrence: the argument that wrote
 * it (or the part inside a nested call), else undefined.
 */
export function builderPartRange(
  occ: UrnOccurrence,
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  const spans = (occ as BuilderOccurrence).arguments;
  const span = spans?.find((s) => start >= s.urnStart && end <= s.urnEnd);
  if (!span) return undefined;
  if (span.nested)
    return (
      builderPartRange(span.nested, start - span.urnStart, end - span.urnStart) ?? { start: span.start, end: span.end }
    );
  return { start: span.start, end: span.end };
}

/**
 * Order an extractor's occurrences by start and give each call read as another's argument the index
 * of the call that holds it, as the text extractor does for nested URNs: the outer URN is the one
 * diagnosed and hovered (a `DatasetUrn(…)` inside `SchemaFieldUrn(…)` is part of the column's name).
 */
export function orderOccurrences(occurrences: BuilderOccurrence[]): void {
  occurrences.sort((a, b) => a.start - b.start);
  const index = new Map<UrnOccurrence, number>();
  occurrences.forEach((o, i) => index.set(o, i));
  occurrences.forEach((o, i) => {
    for (const span of o.arguments ?? []) {
      const inner = span.nested && index.get(span.nested);
      if (inner !== undefined) span.nested!.parent = i;
    }
  });
}

/** Whether the bracket opened at `open` closes within MAX_CALL_LENGTH (`closes`: offset after each bracket's closing one). */
export function closedSoon(closes: Int32Array, open: number): boolean {
  const close = closes[open]!;
  return close > open && close - open <= MAX_CALL_LENGTH;
}
