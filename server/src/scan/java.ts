/**
 * The Java URN extractor: DataHub's `com.linkedin.common.urn` classes read as the URN they build —
 * `new DatasetUrn(new DataPlatformUrn("hive"), "db.users", FabricType.PROD)`, `new DataJobUrn(new
 * DataFlowUrn(…), "task")`, `UrnUtils.toDatasetUrn("hive", "db.users", "PROD")` — when every argument
 * is a plain string literal, a `FabricType.X` constant or such a call. `X.createFromString("urn:…")`
 * is left to the text extractor unless DataHub would refuse it (a URN of another kind). Only plain
 * string literals are read; text blocks (`"""…"""`) and concatenations count as computed.
 * Specs: model/src/urnClasses.ts.
 */
import { JAVA_URN_CLASSES, URN_UTILS_FABRICS, buildJavaUrn, type JavaParam } from '../../../model/src/urnClasses';
import {
  builderOccurrence,
  candidatesOf,
  identifierEnd,
  identifierStart,
  MAX_NESTING,
  readCalls,
  UNCLOSED,
  type ArgumentValue,
  type BuilderOccurrence,
  type BuilderScan,
  type CallReader,
} from './builderCall';
import { isIdentifierChar, isIdentifierStart, MAX_CALL_LENGTH } from './pythonSyntax';
import { BROKEN, NOT_NON_CODE, skipExpression, type NonCode } from './codeCursor';
import { cEscape, JAVA_ESCAPES, skipCTrivia as skipTrivia } from './literals';
import { CharCode } from './charCode';

type Reader = CallReader;

type JavaCall =
  | { kind: 'new'; className: string; start: number; open: number; name: string }
  | { kind: 'toDatasetUrn'; start: number; open: number; name: string }
  | { kind: 'fromString'; className: string; start: number; open: number; name: string };

export function findJavaUrnCalls(text: string): BuilderScan {
  const candidates = candidatesOf(text, ['Urn']);
  if (candidates.length === 0) return { occurrences: [], calls: [] };
  const reader: Reader = { text, depth: 0, occurrences: [], calls: [], nonCode: javaNonCode(text) };
  return readCalls(
    reader,
    candidates,
    (start) => callAt(reader, start, identifierEnd(text, start)),
    (call) => readCall(reader, call),
  );
}

/** The call around the class name at [start, end): `new X(`, `X.createFromString(`, `UrnUtils.toDatasetUrn(`. */
function callAt(reader: Reader, start: number, end: number): JavaCall | undefined {
  const text = reader.text;
  const word = text.slice(start, end);
  let p = skipTrivia(text, end);
  if (text.charCodeAt(p) === CharCode.OpenParen) {
    if (!Object.prototype.hasOwnProperty.call(JAVA_URN_CLASSES, word)) return undefined;
    const newAt = newKeywordBefore(text, start);
    return newAt < 0 ? undefined : { kind: 'new', className: word, start: newAt, open: p, name: `new ${word}` };
  }
  if (text.charCodeAt(p) !== CharCode.Period) return undefined;
  const methodStart = skipTrivia(text, p + 1);
  const methodEnd = identifierEnd(text, methodStart);
  const method = text.slice(methodStart, methodEnd);
  p = skipTrivia(text, methodEnd);
  if (text.charCodeAt(p) !== CharCode.OpenParen) return undefined;
  const name = `${word}.${method}`;
  if (word === 'UrnUtils' && method === 'toDatasetUrn') return { kind: 'toDatasetUrn', start, open: p, name };
  if (method === 'createFromString' && Object.prototype.hasOwnProperty.call(JAVA_URN_CLASSES, word)) {
    return { kind: 'fromString', className: word, start, open: p, name };
  }
  return undefined;
}

/** The offset of `new` before a (possibly qualified) class name at `start`, or -1. */
function newKeywordBefore(text: string, start: number): number {
  let s = start;
  // Qualified: new com.linkedin.common.urn.DatasetUrn(
  while (s > 1 && text.charCodeAt(s - 1) === CharCode.Period) {
    s = identifierStart(text, s - 1);
  }
  let p = s;
  while (
    p > 0 &&
    (text.charCodeAt(p - 1) === CharCode.Space ||
      text.charCodeAt(p - 1) === CharCode.Tab ||
      text.charCodeAt(p - 1) === CharCode.LineFeed ||
      text.charCodeAt(p - 1) === CharCode.CarriageReturn)
  )
    p--;
  if (p === s || p < 3 || text.slice(p - 3, p) !== 'new') return -1;
  if (p > 3 && isIdentifierChar(text.charCodeAt(p - 4))) return -1;
  return p - 3;
}

/** An argument: a plain string, a FabricType constant, a nested URN call; anything else is computed. */
interface Argument {
  kind: 'string' | 'fabric' | 'urn' | 'computed';
  value?: ArgumentValue;
  /** For a nested URN: its entity type. */
  entityType?: string;
}

function readCall(
  reader: Reader,
  call: JavaCall,
): { end: number; urn?: string; entityType?: string; occurrence?: BuilderOccurrence } | undefined {
  reader.depth++;
  const args = readArguments(reader, call.open);
  reader.depth--;
  if (!args) return undefined;
  const { list, end } = args;
  switch (call.kind) {
    case 'new': {
      const spec = JAVA_URN_CLASSES[call.className]!;
      if (list.length !== spec.params.length || !list.every((a, i) => fits(a, spec.params[i]!))) return { end };
      const values = list.map((a) => a.value!);
      const urn = buildJavaUrn(
        call.className,
        values.map((v) => v.value),
      );
      const occurrence = builderOccurrence(call.name, urn, values, call.start, end);
      reader.occurrences.push(occurrence);
      return { end, urn, entityType: spec.entityType, occurrence };
    }
    case 'toDatasetUrn': {
      // UrnUtils.java: new DatasetUrn(new DataPlatformUrn(platformName), datasetName, toFabricType(origin)).
      if (list.length !== 3 || !list.every((a) => a.kind === 'string')) return { end };
      const [platform, name, origin] = list.map((a) => a.value!) as [ArgumentValue, ArgumentValue, ArgumentValue];
      const fabric = origin.value.toUpperCase();
      const urn = buildJavaUrn('DatasetUrn', [`urn:li:dataPlatform:${platform.value}`, name.value, fabric]);
      const failure = URN_UTILS_FABRICS.includes(fabric)
        ? undefined
        : {
            message: `UrnUtils.toFabricType accepts ${URN_UTILS_FABRICS.join(', ')} only: '${origin.value}' throws IllegalArgumentException`,
            argument: origin,
          };
      const occurrence = builderOccurrence(
        call.name,
        urn,
        [platform, name, { ...origin, value: fabric }],
        call.start,
        end,
        failure,
      );
      reader.occurrences.push(occurrence);
      return { end, urn, entityType: 'dataset', occurrence };
    }
    case 'fromString': {
      // <X>Urn.createFromUrn (e.g. DatasetUrn.java): the namespace must be li and the entity type X's.
      const only = list[0];
      if (list.length !== 1 || only?.kind !== 'string') return { end };
      const urn = only.value!.value;
      const expected = JAVA_URN_CLASSES[call.className]!.entityType;
      const colon = urn.indexOf(':', 7);
      const type = urn.startsWith('urn:li:') ? urn.slice(7, colon < 0 ? urn.length : colon) : undefined;
      if (type === expected) return { end, urn, entityType: expected };
      const message =
        type === undefined
          ? `${call.name} needs a URN starting with 'urn:li:' (URISyntaxException)`
          : `${call.name} refuses a ${type || 'typeless'} URN: it reads ${expected} URNs only (URISyntaxException)`;
      const occurrence = builderOccurrence(call.name, urn, [only.value!], call.start, end, {
        message,
        argument: only.value!,
      });
      reader.occurrences.push(occurrence);
      reader.calls.push({ start: call.start, end });
      return { end };
    }
  }
}

function fits(arg: Argument, param: JavaParam): boolean {
  if (param === 'string') return arg.kind === 'string';
  if (param === 'fabric') return arg.kind === 'fabric';
  return arg.kind === 'urn' && arg.entityType === param.urn;
}

function readArguments(reader: Reader, open: number): { list: Argument[]; end: number } | undefined {
  const text = reader.text;
  const limit = Math.min(text.length, open + MAX_CALL_LENGTH);
  const list: Argument[] = [];
  let p = skipTrivia(text, open + 1, limit);
  while (text.charCodeAt(p) !== CharCode.CloseParen) {
    if (p >= limit) return undefined;
    const arg: Argument = { kind: 'computed' };
    let end = readValue(reader, p, limit, arg);
    if (end === UNCLOSED) return undefined;
    if (end >= 0) {
      const next = skipTrivia(text, end, limit);
      if (text.charCodeAt(next) !== CharCode.Comma && text.charCodeAt(next) !== CharCode.CloseParen) {
        arg.kind = 'computed'; // "a" + b, x ? y : z …
        end = skipExpression(text, next, limit, reader.nonCode);
      }
    } else {
      arg.kind = 'computed';
      end = skipExpression(text, p, limit, reader.nonCode);
    }
    if (end < 0) return undefined;
    list.push(arg);
    p = skipTrivia(text, end, limit);
    if (text.charCodeAt(p) === CharCode.Comma) p = skipTrivia(text, p + 1, limit);
  }
  return { list, end: p + 1 };
}

/** A plain literal, a FabricType constant or a URN call at `p`: sets `arg`, returns its end; -1 otherwise, UNCLOSED for an unclosed call. */
function readValue(reader: Reader, p: number, limit: number, arg: Argument): number {
  const text = reader.text;
  if (text.charCodeAt(p) === CharCode.DoubleQuote) {
    const literal = readJavaString(text, p, limit);
    if (!literal || literal.textBlock) return -1;
    arg.kind = 'string';
    arg.value = { value: literal.value, start: p, end: literal.end };
    return literal.end;
  }
  if (!isIdentifierStart(text.charCodeAt(p))) return -1;
  // A dotted name: FabricType.PROD (possibly qualified), or the start of a URN call.
  let segment = p;
  for (;;) {
    const end = identifierEnd(text, segment);
    const word = text.slice(segment, end);
    if (word === 'new') {
      const classStart = skipTrivia(text, end, limit);
      let classEnd = identifierEnd(text, classStart);
      while (text.charCodeAt(classEnd) === CharCode.Period) classEnd = identifierEnd(text, classEnd + 1);
      const nameStart = identifierStart(text, classEnd);
      const call = callAt(reader, nameStart, classEnd);
      return call ? nested(reader, call, p, arg) : -1;
    }
    const next = skipTrivia(text, end, limit);
    if (word === 'FabricType' && text.charCodeAt(next) === CharCode.Period) {
      const constantStart = skipTrivia(text, next + 1, limit);
      const constantEnd = identifierEnd(text, constantStart);
      if (constantEnd === constantStart || text.charCodeAt(skipTrivia(text, constantEnd, limit)) === CharCode.OpenParen)
        return -1;
      arg.kind = 'fabric';
      arg.value = { value: text.slice(constantStart, constantEnd), start: p, end: constantEnd };
      return constantEnd;
    }
    if (text.charCodeAt(next) === CharCode.Period) {
      const call = callAt(reader, segment, end);
      if (call) return nested(reader, call, p, arg);
      segment = skipTrivia(text, next + 1, limit);
      if (!isIdentifierStart(text.charCodeAt(segment))) return -1;
      continue;
    }
    return -1;
  }
}

function nested(reader: Reader, call: JavaCall, p: number, arg: Argument): number {
  if (reader.depth >= MAX_NESTING) return -1;
  const read = readCall(reader, call);
  if (!read) return UNCLOSED;
  if (read.urn === undefined) return -1;
  arg.kind = 'urn';
  arg.entityType = read.entityType!;
  arg.value = { value: read.urn, start: p, end: read.end, ...(read.occurrence ? { nested: read.occurrence } : {}) };
  return read.end;
}

interface JavaString {
  value: string;
  end: number;
  textBlock: boolean;
}

/** The string literal or text block at `at` (escapes undone for plain literals), or undefined when unclosed. */
function readJavaString(text: string, at: number, limit = text.length): JavaString | undefined {
  if (text.startsWith('"""', at)) {
    let q = at + 3;
    for (;;) {
      const close = text.indexOf('"""', q);
      if (close < 0 || close >= limit) return undefined;
      if (text.charCodeAt(close - 1) === CharCode.Backslash) {
        q = close + 1;
        continue;
      }
      return { value: '', end: close + 3, textBlock: true };
    }
  }
  let value = '';
  let q = at + 1;
  let chunk = q;
  while (q < limit) {
    const c = text.charCodeAt(q);
    if (c === CharCode.DoubleQuote) return { value: value + text.slice(chunk, q), end: q + 1, textBlock: false };
    if (c === CharCode.LineFeed || c === CharCode.CarriageReturn) return undefined;
    if (c === CharCode.Backslash) {
      value += text.slice(chunk, q);
      const escape = cEscape(text, q, JAVA_ESCAPES);
      if (!escape) return undefined;
      value += escape.produced;
      q += escape.length;
      chunk = q;
      continue;
    }
    q++;
  }
  return undefined;
}

/** Java's comments, strings, text blocks and char literals, for the code cursor and the argument walk. */
function javaNonCode(text: string): NonCode {
  return {
    end: (at, limit) => {
      const c = text.charCodeAt(at);
      if (
        c === CharCode.Slash &&
        (text.charCodeAt(at + 1) === CharCode.Slash || text.charCodeAt(at + 1) === CharCode.Asterisk)
      )
        return skipTrivia(text, at, limit);
      if (c === CharCode.DoubleQuote) return readJavaString(text, at, limit)?.end ?? BROKEN;
      if (c !== CharCode.SingleQuote) return NOT_NON_CODE;
      const close = text.charCodeAt(at + 1) === CharCode.Backslash ? text.indexOf("'", at + 3) : at + 2;
      return close < 0 || close >= limit ? BROKEN : close + 1;
    },
    brokenEnd: (at) => {
      // An unclosed text block or char literal runs to the end; an unclosed string, to the end of its line.
      if (text.charCodeAt(at) === CharCode.SingleQuote || text.startsWith('"""', at)) return text.length;
      const lf = text.indexOf('\n', at);
      return lf < 0 ? text.length : lf;
    },
  };
}
