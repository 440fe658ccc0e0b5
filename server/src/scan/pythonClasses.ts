/**
 * The Python URN class extractor: DataHub's SDK v2 URN classes (`DatasetUrn("hive", "db.users")`,
 * `DatasetUrn.create_from_ids(…)`, `SchemaFieldUrn(DatasetUrn(…), "col")` …) and the `datahub.sdk`
 * entities that make their URN from ids (`Dataset(platform="hive", name="db.users")` …), read as
 * the URN they build when the arguments that make it are string literals (or such calls).
 * `X.from_string("urn:…")` is left to the text extractor unless DataHub would refuse it (a URN of
 * another kind, or not a URN): then it is reported here. Specs: model/src/urnClasses.ts.
 */
import {
  PY_SDK_ENTITIES,
  buildPyUrn,
  pyClassEntityType,
  pyUrnCallSpec,
  type CallSpec,
} from '../../../model/src/urnClasses';
import { skipExpression } from './codeCursor';
import {
  builderOccurrence,
  candidatesOf,
  identifierEnd,
  MAX_NESTING,
  readCalls,
  UNCLOSED,
  type ArgumentValue,
  type BuilderOccurrence,
  type BuilderScan,
  type CallReader,
} from './builderCall';
import {
  isIdentifierChar,
  isIdentifierStart,
  MAX_CALL_LENGTH,
  pythonNonCode,
  readConcatenatedLiteral,
  readStringLiteral,
  skipTrivia,
} from './pythonSyntax';
import { CharCode } from './charCode';

/** What a call is: a URN class constructor or class method, an SDK entity, or `X.from_string`. */
type CallKind = { kind: 'build'; spec: CallSpec } | { kind: 'fromString'; className: string };

interface Reader extends CallReader {
  /** Read SDK entity calls (the file imports from datahub). */
  sdk: boolean;
}

export function findPythonClassCalls(text: string): BuilderScan {
  const urnCandidates = candidatesOf(text, ['Urn']);
  // An SDK entity's name is read only in a file that imports DataHub: the import is looked for
  // only once such a name is found (no name of PY_SDK_ENTITIES holds `Urn`).
  const sdkCandidates = sdkNamesIn(text);
  const sdk = sdkCandidates.length > 0 && importsDatahub(text);
  const candidates = sdk ? urnCandidates.concat(sdkCandidates).sort((a, b) => a - b) : urnCandidates;
  if (candidates.length === 0) return { occurrences: [], calls: [] };
  const reader: Reader = { text, depth: 0, occurrences: [], calls: [], sdk, nonCode: pythonNonCode(text) };
  return readCalls(
    reader,
    candidates,
    (start) => callAt(reader, start),
    (call, start) => readCall(reader, start, call.name, call.kind, call.open),
  );
}

/**
 * The call whose name starts at `start` (`DatasetUrn(`, `DatasetUrn.create_from_ids(`, `Dataset(`),
 * or undefined. A qualified name (`urns.DatasetUrn(`) is read from the class name on.
 */
function callAt(reader: Reader, start: number): { name: string; kind: CallKind; open: number } | undefined {
  const text = reader.text;
  if (!isIdentifierStart(text.charCodeAt(start))) return undefined;
  const end = identifierEnd(text, start);
  const word = text.slice(start, end);
  let name = word;
  let p = end;
  if (text.charCodeAt(p) === CharCode.Period) {
    const methodEnd = identifierEnd(text, p + 1);
    name = `${word}.${text.slice(p + 1, methodEnd)}`;
    p = methodEnd;
  }
  while (text.charCodeAt(p) === CharCode.Space || text.charCodeAt(p) === CharCode.Tab) p++;
  if (text.charCodeAt(p) !== CharCode.OpenParen) return undefined;
  const kind = callKind(reader, word, name);
  return kind ? { name, kind, open: p } : undefined;
}

function callKind(reader: Reader, word: string, name: string): CallKind | undefined {
  const method = name.slice(word.length + 1);
  if (method === 'from_string' || method === 'create_from_string') {
    return word === 'Urn' || pyClassEntityType(word) ? { kind: 'fromString', className: word } : undefined;
  }
  const spec = pyUrnCallSpec(name);
  if (spec) return { kind: 'build', spec };
  if (reader.sdk && name === word && Object.prototype.hasOwnProperty.call(PY_SDK_ENTITIES, word)) {
    return { kind: 'build', spec: PY_SDK_ENTITIES[word]! };
  }
  return undefined;
}

/** One argument: a literal or a nested call (`value`), `None`, or anything else (`computed`). */
interface Argument {
  keyword?: string;
  value?: ArgumentValue;
  none?: boolean;
  computed?: boolean;
  start: number;
  end: number;
}

/**
 * Read the call; returns its end and the URN it stands for (built, or the literal of a from_string
 * DataHub accepts), recording an occurrence when it builds one.
 */
function readCall(
  reader: Reader,
  start: number,
  name: string,
  kind: CallKind,
  open: number,
): { end: number; urn?: string; occurrence?: BuilderOccurrence } | undefined {
  reader.depth++;
  const args = readArguments(reader, open);
  reader.depth--;
  if (!args) return undefined;
  const end = args.end;
  if (kind.kind === 'fromString') return { end, ...fromString(reader, start, end, name, kind.className, args.list) };
  const values = argumentValues(kind.spec, args.list);
  if (!values) return { end };
  const strings = values.map((v) => (typeof v === 'string' ? v : v.value));
  const fields = kind.spec.toFields ? kind.spec.toFields(strings) : strings;
  const urn = buildPyUrn(kind.spec.urnClass, fields);
  const occurrence = builderOccurrence(name, urn, values, start, end);
  reader.occurrences.push(occurrence);
  return { end, urn, occurrence };
}

/**
 * `X.from_string("…")`: DataHub refuses a string that is not a `urn:li:` URN, and (for a specific
 * class) a URN of another entity type (`Urn.from_string` in utilities/urns/_urn_base.py). Those are
 * reported here, over the whole call; a URN DataHub accepts is the text extractor's.
 */
function fromString(
  reader: Reader,
  start: number,
  end: number,
  name: string,
  className: string,
  list: Argument[],
): { urn?: string; occurrence?: BuilderOccurrence } {
  const only = list[0];
  if (list.length !== 1 || !only || only.keyword !== undefined || !only.value || only.value.nested) return {};
  const urn = only.value.value;
  const expected = pyClassEntityType(className);
  let message: string | undefined;
  if (!urn.startsWith('urn:li:')) {
    message = `${name}() needs a URN starting with 'urn:li:'`;
  } else if (expected) {
    const type = urn.slice(7, urn.indexOf(':', 7) < 0 ? urn.length : urn.indexOf(':', 7));
    if (type !== expected)
      message = `${name}() refuses a ${type || 'typeless'} URN: it reads ${expected} URNs only (DataHub raises InvalidUrnError)`;
  }
  if (!message) return { urn };
  const occurrence = builderOccurrence(name, urn, [only.value], start, end, { message, argument: only.value });
  reader.occurrences.push(occurrence);
  reader.calls.push({ start, end });
  return { urn, occurrence };
}

/** Parameter values in order (defaults applied, '' for an absent optional), or undefined when the call does not fit. */
function argumentValues(spec: CallSpec, list: Argument[]): Array<ArgumentValue | string> | undefined {
  const given: Array<Argument | undefined> = new Array<Argument | undefined>(spec.params.length);
  let positional = 0;
  for (const arg of list) {
    let index: number;
    if (arg.keyword === undefined) {
      if (spec.keywordOnly) return undefined;
      index = positional++;
      if (index >= spec.params.length) {
        if (spec.ignored) continue; // an entity's further parameters
        return undefined;
      }
    } else {
      index = spec.params.indexOf(arg.keyword);
      if (index < 0) {
        if (spec.ignored || spec.keywordOnly) continue; // an entity's other keywords (description=, schema= …)
        return undefined;
      }
      if (given[index]) return undefined;
    }
    given[index] = arg;
  }
  const values: Array<ArgumentValue | string> = [];
  for (let i = 0; i < spec.params.length; i++) {
    const param = spec.params[i]!;
    const arg = given[i];
    if (spec.ignored?.includes(param)) {
      values.push('');
      continue;
    }
    if (arg?.computed) return undefined;
    if (arg?.value) {
      values.push(arg.value);
      continue;
    }
    const fallback = spec.defaults?.[param];
    if (fallback !== undefined) values.push(fallback);
    else if (i < spec.required) return undefined;
    else values.push('');
  }
  return values;
}

/** The arguments of the call opened at `open`, or undefined when the call is not closed (still being typed). */
function readArguments(reader: Reader, open: number): { list: Argument[]; end: number } | undefined {
  const text = reader.text;
  const limit = Math.min(text.length, open + MAX_CALL_LENGTH);
  const list: Argument[] = [];
  let p = skipTrivia(text, open + 1, limit);
  while (text.charCodeAt(p) !== CharCode.CloseParen) {
    if (p >= limit) return undefined;
    const arg: Argument = { start: p, end: p };
    const c = text.charCodeAt(p);
    if (c === CharCode.Asterisk /* * or ** unpacking */) {
      arg.computed = true;
    } else if (isIdentifierStart(c) && !readStringLiteral(text, p, limit)) {
      const q = identifierEnd(text, p);
      const eq = skipTrivia(text, q, limit);
      if (text.charCodeAt(eq) === CharCode.Equals && text.charCodeAt(eq + 1) !== CharCode.Equals) {
        arg.keyword = text.slice(p, q);
        p = skipTrivia(text, eq + 1, limit);
        arg.start = p;
      }
    }
    const valueEnd = arg.computed ? -1 : readValue(reader, p, limit, arg);
    if (valueEnd === UNCLOSED) return undefined;
    const end = valueEnd >= 0 ? valueEnd : skipExpression(text, p, limit, reader.nonCode);
    if (end < 0) return undefined;
    if (valueEnd < 0) arg.computed = true;
    arg.end = end;
    list.push(arg);
    p = skipTrivia(text, end, limit);
    if (text.charCodeAt(p) === CharCode.Comma) p = skipTrivia(text, p + 1, limit);
    else if (text.charCodeAt(p) !== CharCode.CloseParen) {
      if (p >= limit) return undefined;
      // Not a plain argument (an operator follows: "a" + b, x if y else z): computed, up to the next comma.
      const rest = skipExpression(text, p, limit, reader.nonCode);
      if (rest < 0) return undefined;
      arg.computed = true;
      delete arg.value;
      p = skipTrivia(text, rest, limit);
      if (text.charCodeAt(p) === CharCode.Comma) p = skipTrivia(text, p + 1, limit);
    }
  }
  return { list, end: p + 1 };
}

/** A literal, `None` or a URN call at `p`: sets it on `arg` and returns its end; -1 for anything else, UNCLOSED for an unclosed call. */
function readValue(reader: Reader, p: number, limit: number, arg: Argument): number {
  const text = reader.text;
  const literal = readConcatenatedLiteral(text, p, limit);
  if (literal) {
    if (literal.computed) return -1;
    arg.value = { value: literal.value, start: literal.start, end: literal.end };
    return literal.end;
  }
  if (!isIdentifierStart(text.charCodeAt(p))) return -1;
  if (text.startsWith('None', p) && !isIdentifierChar(text.charCodeAt(p + 4))) {
    arg.none = true;
    return p + 4;
  }
  // A URN class call, possibly qualified (urns.DatasetUrn(…)): read from its class name.
  let segment = p;
  for (;;) {
    const call = callAt(reader, segment);
    if (call) {
      if (reader.depth >= MAX_NESTING) return -1;
      const read = readCall(reader, segment, call.name, call.kind, call.open);
      if (!read) return UNCLOSED;
      if (!read.urn) return -1;
      arg.value = { value: read.urn, start: p, end: read.end, ...(read.occurrence ? { nested: read.occurrence } : {}) };
      return read.end;
    }
    const next = identifierEnd(text, segment);
    if (text.charCodeAt(next) !== CharCode.Period || !isIdentifierStart(text.charCodeAt(next + 1))) return -1;
    segment = next + 1;
  }
}

/**
 * Every index of `Dataset`, `DataFlow` and `MLModel` (which `MLModelGroup` starts with), the names
 * of PY_SDK_ENTITIES, unsorted; the caller sorts: the two `Data` names are found by one search.
 */
function sdkNamesIn(text: string): number[] {
  const into = candidatesOf(text, ['MLModel']);
  for (let i = text.indexOf('Data'); i >= 0; i = text.indexOf('Data', i + 4)) {
    if (text.startsWith('set', i + 4) || text.startsWith('Flow', i + 4)) into.push(i);
  }
  return into;
}

/** The file imports from DataHub's package (`from datahub… import`, `import datahub…`): SDK entity names are DataHub's. */
export function importsDatahub(text: string): boolean {
  // Searched as 'datahu', then the 'b': V8 searches a needle of 7 characters or more with
  // Boyer-Moore, which on this file-sized text is several times slower than its memchr-led search
  // of a shorter needle.
  for (let i = text.indexOf('datahu'); i >= 0; i = text.indexOf('datahu', i + 6)) {
    if (text.charCodeAt(i + 6) !== CharCode.b) continue;
    const after = text.charCodeAt(i + 7);
    if (isIdentifierChar(after)) continue;
    let s = i;
    while (s > 0 && (text.charCodeAt(s - 1) === CharCode.Space || text.charCodeAt(s - 1) === CharCode.Tab)) s--;
    const lineStart = text.lastIndexOf('\n', s - 1) + 1;
    const head = text.slice(lineStart, s).trim();
    if (head === 'from' || head === 'import') return true;
  }
  return false;
}
