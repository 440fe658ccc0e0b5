/**
 * URN grammar of the catalog: `urn:<ns>:<entityType>:<id>`, a multi-part id in parentheses split on
 * commas at depth 1, as DataHub's parsers read it
 * (li-utils/src/main/javaPegasus/com/linkedin/common/urn/TupleKey.java,
 * metadata-ingestion/src/datahub/utilities/urns/_urn_base.py).
 *
 * A URN value keeps each part exactly as the URN text spells it: a dataset name with an
 * encoded comma stays `a%2Cb`, so `print(parse(t)) === t` and `parse(print(u))` equals `u`.
 * `decodePart` gives the human reading; the builders in `builders.ts` do the encoding.
 * Which entity types exist and how many key parts each has comes from DataHub's entity
 * registry (`registry.ts`).
 */
import { CATALOG_KINDS, type CatalogKind } from './kinds';
import { ENTITY_REGISTRY, REGISTRY_ENTITY_TYPES, type RegistryEntry } from './registry';
import { isWhiteSpace } from './whiteSpace';

/** The kinds with a URN value of their own: the catalog kinds (kinds.ts) and `corpuser`. */
export type SpecKind = CatalogKind | 'corpuser';
export type UrnKind = SpecKind | 'dataPlatform';

export interface DataPlatformUrn {
  kind: 'dataPlatform';
  namespace: string;
  platform: string;
}
export interface DatasetUrn {
  kind: 'dataset';
  namespace: string;
  platform: string;
  name: string;
  env: string;
}
export interface MlFeatureUrn {
  kind: 'mlFeature';
  namespace: string;
  table: string;
  feature: string;
}
export interface MlFeatureTableUrn {
  kind: 'mlFeatureTable';
  namespace: string;
  platform: string;
  table: string;
}
export interface MlModelUrn {
  kind: 'mlModel';
  namespace: string;
  platform: string;
  name: string;
  env: string;
}
export interface MlModelGroupUrn {
  kind: 'mlModelGroup';
  namespace: string;
  platform: string;
  name: string;
  env: string;
}
export interface CorpUserUrn {
  kind: 'corpuser';
  namespace: string;
  user: string;
}
/**
 * A column (or field) of a parent entity: `urn:li:schemaField:(<parent urn>,<field path>)`.
 * `parent` is the parent URN as written; `dataset` its value when the parent is a dataset;
 * `fieldPath` stays encoded as written (`decodePart` gives the reading).
 */
export interface SchemaFieldUrn {
  kind: 'schemaField';
  namespace: string;
  parent: string;
  dataset?: DatasetUrn;
  fieldPath: string;
}
/**
 * Another entity type of DataHub's registry (tag, container, dataJob …): checked against its key
 * (model/src/registry.ts), never resolved. `registered: false` marks a type no registry knows
 * (a custom entity type): only its frame is checked.
 */
export interface OtherUrn {
  kind: 'other';
  namespace: string;
  entityType: string;
  id: string;
  registered?: false;
}

export type Urn =
  | DataPlatformUrn
  | DatasetUrn
  | MlFeatureUrn
  | MlFeatureTableUrn
  | MlModelUrn
  | MlModelGroupUrn
  | CorpUserUrn
  | SchemaFieldUrn
  | OtherUrn;

export type KnownUrn = Exclude<Urn, OtherUrn>;

/** Roles of the parts of a URN, used for ranges (hover, colouring, errors). */
export type PartRole =
  'namespace' | 'kind' | 'platform' | 'name' | 'env' | 'table' | 'feature' | 'user' | 'id' | 'parent' | 'fieldPath';

/** Read-only: spans near a URN's start are shared between parse results (see `span`). */
export interface PartSpan {
  readonly role: PartRole;
  readonly start: number;
  readonly end: number;
}

export interface UrnError {
  message: string;
  /** Offset of what is wrong, from the start of the parsed text. */
  offset: number;
  /** Length of what is wrong (at least 1 where the text has a character there). */
  length: number;
}

export type ParseResult =
  | { ok: true; urn: Urn; parts: PartSpan[]; platformUrn?: { readonly start: number; readonly end: number } }
  | { ok: false; error: UrnError };

type Parsed = ParseResult & { ok: true };

export const SPEC_KINDS: readonly SpecKind[] = [...CATALOG_KINDS, 'corpuser'];
export const URN_KINDS: readonly UrnKind[] = [...SPEC_KINDS, 'dataPlatform'];

/**
 * DataHub's FabricType values (li-utils/src/main/pegasus/com/linkedin/common/FabricType.pdl), newest
 * list. Other env strings are a warning, not an error.
 */
export const FABRIC_TYPES: readonly string[] = [
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'PRD',
  'TST',
  'SIT',
  'SBX',
  'SANDBOX',
];

const NAMESPACE_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** A custom entity type (one no registry knows) is still a word, as DataHub's entity names are. */
const ENTITY_TYPE_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
const UNIT_SEPARATOR = '\u241F';
/**
 * How deep URN parts may nest (a schemaField of a dataset nests its platform 2 deep; DataHub's
 * own keys never go past 3). Bounds the recursion on hostile input.
 */
export const MAX_URN_NESTING = 4;
interface TupleShape {
  roles: PartRole[];
  labels: string[];
}

const TUPLES: Record<Exclude<SpecKind, 'corpuser'>, TupleShape> = {
  dataset: { roles: ['platform', 'name', 'env'], labels: ['platform', 'name', 'env'] },
  mlFeature: { roles: ['table', 'feature'], labels: ['feature table', 'feature'] },
  mlFeatureTable: { roles: ['platform', 'table'], labels: ['platform', 'feature table'] },
  mlModel: { roles: ['platform', 'name', 'env'], labels: ['platform', 'model name', 'env'] },
  mlModelGroup: { roles: ['platform', 'name', 'env'], labels: ['platform', 'group name', 'env'] },
};

/** Labels of a registry entry's key fields, for messages (built once per entry, on first need). */
const LABELS = new Map<RegistryEntry, string[]>();
function labelsOf(entry: RegistryEntry): string[] {
  let l = LABELS.get(entry);
  if (!l) LABELS.set(entry, (l = entry.fields.map((f) => f.label)));
  return l;
}

class Failure {
  constructor(readonly error: UrnError) {}
}

function fail(message: string, offset: number, length: number): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- control flow inside the parser, caught just below (instanceof Failure); not an Error, so no stack is captured on this hot path
  throw new Failure({ message, offset, length: Math.max(0, length) });
}

/** Parse one URN: the whole of `text` must be the URN. */
export function parseUrn(text: string): ParseResult {
  try {
    return parseAt(text, 0, text.length, undefined, 0, undefined);
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    // An error at the very end (a missing part) has no character to cover: keep its range inside the text.
    const offset = Math.min(e.error.offset, text.length);
    return { ok: false, error: { ...e.error, offset, length: Math.min(e.error.length, text.length - offset) } };
  }
}

/** What a nested URN must be: a spec kind's platform, or any URN (a key field DataHub types `Urn`). */
type Nested = undefined | 'platform' | 'any';

function parseAt(
  text: string,
  from: number,
  to: number,
  outerNamespace: string | undefined,
  depth: number,
  nested: Nested,
): Parsed {
  if (depth > MAX_URN_NESTING)
    fail(`URNs nested more than ${MAX_URN_NESTING} levels deep are not read`, from, to - from);
  if (!text.startsWith('urn:', from) || from + 4 > to) {
    fail("a URN starts with 'urn:'", from, Math.min(4, to - from) || 1);
  }
  const nsStart = from + 4;
  const nsEnd = indexBefore(text, ':', nsStart, to);
  if (nsEnd < 0)
    fail("expected ':' after the namespace (urn:<namespace>:<entity type>:<id>)", nsStart, to - nsStart || 1);
  const nsWord = commonWord(text, nsStart, nsEnd);
  const namespace = nsWord >= 0 ? COMMON_WORDS[nsWord]! : text.slice(nsStart, nsEnd);
  if (!(nsWord >= 0 ? COMMON_NAMESPACE_OK[nsWord] === 1 : NAMESPACE_RE.test(namespace))) {
    fail(
      namespace ? `namespace '${namespace}' must be a word such as li` : 'namespace is empty',
      nsStart,
      nsEnd - nsStart || 1,
    );
  }
  if (outerNamespace !== undefined && namespace !== outerNamespace) {
    fail(`namespace '${namespace}' differs from the enclosing URN's '${outerNamespace}'`, nsStart, nsEnd - nsStart);
  }
  const kindStart = nsEnd + 1;
  const kindEnd = indexBefore(text, ':', kindStart, to);
  const paren = indexBefore(text, '(', kindStart, kindEnd < 0 ? to : kindEnd);
  if (paren >= 0) {
    fail(`expected ':' between the entity type '${text.slice(kindStart, paren)}' and '('`, paren, 1);
  }
  if (kindEnd < 0) {
    fail(`expected ':' after the entity type (urn:${namespace}:<entity type>:<id>)`, kindStart, to - kindStart || 1);
  }
  const typeWord = commonWord(text, kindStart, kindEnd);
  const entityType = typeWord >= 0 ? COMMON_WORDS[typeWord]! : text.slice(kindStart, kindEnd);
  const entry = typeWord >= 0 ? COMMON_ENTRIES[typeWord] : ENTITY_REGISTRY.get(entityType);
  // Not in the registry: a typo of a registry type (or not a word) is an error; any other word is a custom type.
  const hint = entry ? undefined : suggestKind(entityType);
  if (!entry && (hint !== undefined || !ENTITY_TYPE_RE.test(entityType))) {
    fail(
      entityType
        ? `unknown entity type '${entityType}'${hint ? ` (did you mean ${hint}?)` : ''}`
        : 'entity type is empty',
      kindStart,
      kindEnd - kindStart || 1,
    );
  }
  if (nested === 'platform' && entityType !== 'dataPlatform') {
    fail(`platform must be urn:${namespace}:dataPlatform:<name>, found a ${entityType} URN`, from, to - from);
  }
  const nsPart = span('namespace', nsStart, nsEnd);
  const kindPart = span('kind', kindStart, kindEnd);
  const idStart = kindEnd + 1;
  if (idStart >= to) fail(`the ${entityType} id is missing after '${text.slice(from, idStart)}'`, idStart, 1);
  if (isTupleKind(entityType)) {
    return parseTuple(text, idStart, to, namespace, entityType, nsPart, kindPart, depth);
  }
  if (entityType === 'dataPlatform' || entityType === 'corpuser') {
    const role: PartRole = entityType === 'dataPlatform' ? 'platform' : 'user';
    checkSimpleId(text, idStart, to, entityType === 'dataPlatform' ? 'platform name' : 'user id');
    const parts: PartSpan[] = [nsPart, kindPart, span(role, idStart, to)];
    const id = text.slice(idStart, to);
    const urn: Urn =
      entityType === 'dataPlatform'
        ? { kind: 'dataPlatform', namespace, platform: id }
        : { kind: 'corpuser', namespace, user: id };
    return { ok: true, urn, parts };
  }
  const parts: PartSpan[] = [nsPart, kindPart];
  if (!entry) {
    // A custom entity type: its key is unknown, so only the frame is checked (and nothing nested is read).
    if (text.charCodeAt(idStart) === 40 /* ( */) {
      splitTuple(text, idStart, to).forEach(([s, e], i) => {
        if (s === e) fail(`part ${i + 1} of the ${entityType} id is empty`, s, 1);
      });
    } else {
      checkSimpleId(text, idStart, to, 'id');
    }
    parts.push(span('id', idStart, to));
    return {
      ok: true,
      urn: { kind: 'other', namespace, entityType, id: text.slice(idStart, to), registered: false },
      parts,
    };
  }
  if (entry.fields.length === 1 && text.charCodeAt(idStart) !== 40 /* ( */) {
    checkSimpleId(text, idStart, to, 'id');
    parts.push(span('id', idStart, to));
    return { ok: true, urn: { kind: 'other', namespace, entityType, id: text.slice(idStart, to) }, parts };
  }
  return parseKeyTuple(text, idStart, to, namespace, entry, parts, depth);
}

function isTupleKind(t: string): t is keyof typeof TUPLES {
  return t === 'dataset' || t === 'mlFeature' || t === 'mlFeatureTable' || t === 'mlModel' || t === 'mlModelGroup';
}

/** The parts of a tuple id, which must be `(…)` with exactly `labels.length` parts. */
function tupleParts(
  text: string,
  idStart: number,
  to: number,
  namespace: string,
  kind: string,
  labels: readonly string[],
): Array<[number, number]> {
  checkTupleFrame(text, idStart, to, namespace, kind, labels);
  return piecesFound(labels.length);
}

function checkNotEmpty(s: number, e: number, label: string): void {
  if (s === e) fail(`${label} is empty`, s, 1);
}

function checkEnv(text: string, s: number, e: number, label: string): string {
  // An env is a word of letters, digits and '_' (checked by character codes, no regex).
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) {
      const env = text.slice(s, e);
      fail(`${label} must be a word such as PROD, found '${env}'`, s, e - s);
    }
  }
  return wordAt(text, s, e);
}

/**
 * Words the parser meets in most URNs (namespaces, entity types, envs), handed out as one shared
 * string each instead of a new slice per URN.
 */
const COMMON_WORDS: readonly string[] = [
  'li',
  'dataset',
  'dataPlatform',
  'corpuser',
  'mlFeature',
  'mlFeatureTable',
  'mlModel',
  'mlModelGroup',
  'schemaField',
  'PROD',
  'DEV',
  'TEST',
  'QA',
  'STG',
  'tag',
  'glossaryTerm',
  'corpGroup',
  'domain',
  'container',
  'dataJob',
  'dataFlow',
  'chart',
  'dashboard',
];

/** Per common word: its length and first character (compared before the text is read further). */
const COMMON_LENGTHS = Int32Array.from(COMMON_WORDS, (w) => w.length);
const COMMON_FIRSTS = Int32Array.from(COMMON_WORDS, (w) => w.charCodeAt(0));
/** Per common word: 1 when it is a namespace NAMESPACE_RE accepts, and its registry entry as an entity type. */
const COMMON_NAMESPACE_OK = Int32Array.from(COMMON_WORDS, (w) => (NAMESPACE_RE.test(w) ? 1 : 0));
const COMMON_ENTRIES: ReadonlyArray<RegistryEntry | undefined> = COMMON_WORDS.map((w) => ENTITY_REGISTRY.get(w));

/** The index in COMMON_WORDS of the word `text[s, e)`, -1 when it is none of them. */
function commonWord(text: string, s: number, e: number): number {
  const n = e - s;
  if (n <= 0) return -1;
  const c = text.charCodeAt(s);
  for (let k = 0; k < COMMON_WORDS.length; k++) {
    if (COMMON_LENGTHS[k] === n && COMMON_FIRSTS[k] === c && text.startsWith(COMMON_WORDS[k]!, s)) return k;
  }
  return -1;
}

/** `text.slice(s, e)`, the shared string when it is one of COMMON_WORDS. */
function wordAt(text: string, s: number, e: number): string {
  const k = commonWord(text, s, e);
  return k >= 0 ? COMMON_WORDS[k]! : text.slice(s, e);
}

/** Part spans ending before this offset are shared (see `span`). */
const SHARED_SPAN_LIMIT = 96;
const SHARED_SPANS = new Map<PartRole, Array<PartSpan | undefined>>();

/**
 * The part span `{ role, start, end }`. Spans near the start of a URN are one shared object per
 * role and offsets (parse results are read-only, and most URNs put their parts at the same few
 * offsets), so that a parse keeps fewer objects alive.
 */
function span(role: PartRole, start: number, end: number): PartSpan {
  if (end >= SHARED_SPAN_LIMIT) return { role, start, end };
  let grid = SHARED_SPANS.get(role);
  if (grid === undefined) SHARED_SPANS.set(role, (grid = new Array<PartSpan | undefined>(SHARED_SPAN_LIMIT ** 2)));
  const at = start * SHARED_SPAN_LIMIT + end;
  return (grid[at] ??= Object.freeze({ role, start, end }));
}

const SHARED_PLATFORM_URNS = new Array<{ readonly start: number; readonly end: number } | undefined>(
  SHARED_SPAN_LIMIT ** 2,
);

/** A tuple's `platformUrn` range, shared as `span` shares part spans. */
function platformUrnSpan(start: number, end: number): { readonly start: number; readonly end: number } {
  if (end >= SHARED_SPAN_LIMIT) return { start, end };
  return (SHARED_PLATFORM_URNS[start * SHARED_SPAN_LIMIT + end] ??= Object.freeze({ start, end }));
}

/**
 * Bounds of the pieces `splitTupleInto` found: piece k is `[PIECES[2k], PIECES[2k + 1])`. Shared by
 * every parse: a caller reads what it needs before it parses anything nested.
 */
let PIECES = new Int32Array(16);
/** The '(' still open while `splitTupleInto` walks (a stack of offsets, reused). */
let OPENED = new Int32Array(16);

/**
 * `splitTuple` without allocating: the pieces go to PIECES; returns their count. Fails as
 * `splitTuple` does, on the same character with the same message.
 */
function splitTupleInto(text: string, open: number, to: number): number {
  let count = 0;
  let depth = 0;
  let partStart = open + 1;
  for (let i = open; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 /* ( */) {
      if (depth === OPENED.length) {
        const grown = new Int32Array(depth * 2);
        grown.set(OPENED);
        OPENED = grown;
      }
      OPENED[depth++] = i;
    } else if (c === 41 /* ) */) {
      depth--;
      if (depth === 0) {
        count = pushPiece(count, partStart, i);
        if (i + 1 < to && text.charCodeAt(i + 1) === 41)
          fail("unbalanced parenthesis: this ')' has no matching '('", i + 1, 1);
        if (i !== to - 1) fail(`unexpected text after the closing ')': '${text.slice(i + 1, to)}'`, i + 1, to - i - 1);
        return count;
      }
    } else if (c === 44 /* , */ && depth === 1) {
      count = pushPiece(count, partStart, i);
      partStart = i + 1;
    }
  }
  // The innermost '(' left open is the likeliest mistake (a name holding an unencoded '(').
  fail("unbalanced parenthesis: this '(' is never closed", depth > 0 ? OPENED[depth - 1]! : open, 1);
}

function pushPiece(count: number, start: number, end: number): number {
  if (2 * count + 2 > PIECES.length) {
    const grown = new Int32Array(PIECES.length * 2);
    grown.set(PIECES);
    PIECES = grown;
  }
  PIECES[2 * count] = start;
  PIECES[2 * count + 1] = end;
  return count + 1;
}

/** `tupleParts` for the fixed tuples (2 or 3 parts): the same checks, the pieces left in PIECES. */
function checkTupleFrame(
  text: string,
  idStart: number,
  to: number,
  namespace: string,
  kind: string,
  labels: readonly string[],
): void {
  if (text.charCodeAt(idStart) !== 40 /* ( */) {
    fail(
      `expected '(' after 'urn:${namespace}:${kind}:': a ${kind} URN is urn:${namespace}:${kind}:(${labels.join(',')})`,
      idStart,
      1,
    );
  }
  const count = splitTupleInto(text, idStart, to);
  if (count !== labels.length) {
    fail(
      `expected ${labels.length} part${labels.length === 1 ? '' : 's'} (${labels.join(', ')}), found ${count}`,
      idStart,
      to - idStart,
    );
  }
}

/** The span of the platform name `platformAt` read last. */
let PLATFORM_PART: PartSpan = { role: 'platform', start: 0, end: 0 };

/**
 * The platform part `text[s, e)` of a tuple: `urn:<namespace>:dataPlatform:<name>`, read in place
 * when it is spelt that way (the same checks `parseAt` makes of it), else by `parseAt`. Returns the
 * platform name and leaves its span in PLATFORM_PART.
 */
function platformAt(text: string, s: number, e: number, namespace: string, depth: number, label: string): string {
  checkNotEmpty(s, e, label);
  if (!text.startsWith('urn:', s)) {
    fail(`platform must be urn:${namespace}:dataPlatform:<name>, found '${text.slice(s, e)}'`, s, e - s);
  }
  const kindStart = s + 5 + namespace.length;
  const idStart = kindStart + 13;
  if (
    depth + 1 <= MAX_URN_NESTING &&
    idStart < e &&
    text.startsWith(namespace, s + 4) &&
    text.charCodeAt(kindStart - 1) === 58 /* : */ &&
    text.startsWith('dataPlatform:', kindStart)
  ) {
    checkSimpleId(text, idStart, e, 'platform name');
    PLATFORM_PART = span('platform', idStart, e);
    return text.slice(idStart, e);
  }
  const nested = parseAt(text, s, e, namespace, depth + 1, 'platform');
  if (nested.urn.kind !== 'dataPlatform') throw new Error('parseAt returned a non-platform URN for a platform part');
  PLATFORM_PART = nested.parts[2]!;
  return nested.urn.platform;
}

/** A name part `text[s, e)` (not a platform, not an env), checked. */
function nameAt(text: string, s: number, e: number, label: string): string {
  checkNotEmpty(s, e, label);
  checkName(text, s, e, label);
  return text.slice(s, e);
}

function envAt(text: string, s: number, e: number, label: string): string {
  checkNotEmpty(s, e, label);
  return checkEnv(text, s, e, label);
}

function parseTuple(
  text: string,
  idStart: number,
  to: number,
  namespace: string,
  kind: keyof typeof TUPLES,
  nsPart: PartSpan,
  kindPart: PartSpan,
  depth: number,
): Parsed {
  const labels = TUPLES[kind].labels;
  checkTupleFrame(text, idStart, to, namespace, kind, labels);
  // The pieces are read before anything nested is parsed (a nested parse reuses PIECES).
  const s0 = PIECES[0]!;
  const e0 = PIECES[1]!;
  const s1 = PIECES[2]!;
  const e1 = PIECES[3]!;
  const s2 = PIECES[4]!;
  const e2 = PIECES[5]!;
  if (kind === 'mlFeature') {
    const table = nameAt(text, s0, e0, labels[0]!);
    const feature = nameAt(text, s1, e1, labels[1]!);
    return {
      ok: true,
      urn: { kind, namespace, table, feature },
      parts: [nsPart, kindPart, span('table', s0, e0), span('feature', s1, e1)],
    };
  }
  const platform = platformAt(text, s0, e0, namespace, depth, labels[0]!);
  const platformPart = PLATFORM_PART;
  const platformUrn = platformUrnSpan(s0, e0);
  if (kind === 'mlFeatureTable') {
    const table = nameAt(text, s1, e1, labels[1]!);
    return {
      ok: true,
      urn: { kind, namespace, platform, table },
      parts: [nsPart, kindPart, platformPart, span('table', s1, e1)],
      platformUrn,
    };
  }
  const name = nameAt(text, s1, e1, labels[1]!);
  const env = envAt(text, s2, e2, labels[2]!);
  const parts: PartSpan[] = [nsPart, kindPart, platformPart, span('name', s1, e1), span('env', s2, e2)];
  let urn: Urn;
  switch (kind) {
    case 'dataset':
      urn = { kind, namespace, platform, name, env };
      break;
    case 'mlModel':
      urn = { kind, namespace, platform, name, env };
      break;
    case 'mlModelGroup':
      urn = { kind, namespace, platform, name, env };
      break;
  }
  return { ok: true, urn, parts, platformUrn };
}

/**
 * A registry entity's key as a tuple: exactly one part per key field (DataHub's
 * EntityKeyUtils), a field typed `Urn` holding a URN that is parsed in turn.
 */
function parseKeyTuple(
  text: string,
  idStart: number,
  to: number,
  namespace: string,
  entry: RegistryEntry,
  parts: PartSpan[],
  depth: number,
): Parsed {
  const pieces = tupleParts(text, idStart, to, namespace, entry.entityType, labelsOf(entry));
  let first: Parsed | undefined;
  for (let i = 0; i < pieces.length; i++) {
    const [s, e] = pieces[i]!;
    const field = entry.fields[i]!;
    checkNotEmpty(s, e, field.label);
    if (field.type === 'urn') {
      if (!text.startsWith('urn:', s)) {
        fail(
          `${field.label} must be a URN (urn:${namespace}:<entity type>:<id>), found '${text.slice(s, e)}'`,
          s,
          e - s,
        );
      }
      const nested = parseAt(text, s, e, namespace, depth + 1, 'any');
      if (i === 0) first = nested;
    } else if (field.type === 'enum') {
      checkEnv(text, s, e, field.label);
    } else {
      checkName(text, s, e, field.label);
    }
  }
  if (entry.entityType === 'schemaField' && first) {
    const [ps, pe] = pieces[0]!;
    const [fs, fe] = pieces[1]!;
    parts.push({ role: 'parent', start: ps, end: pe });
    const dataset = first.urn.kind === 'dataset' ? first.urn : undefined;
    if (dataset) {
      for (const p of first.parts) if (p.role === 'platform' || p.role === 'name' || p.role === 'env') parts.push(p);
    }
    parts.push({ role: 'fieldPath', start: fs, end: fe });
    const parent = text.slice(ps, pe);
    const fieldPath = text.slice(fs, fe);
    const urn: SchemaFieldUrn = dataset
      ? { kind: 'schemaField', namespace, parent, dataset, fieldPath }
      : { kind: 'schemaField', namespace, parent, fieldPath };
    return dataset && first.platformUrn
      ? { ok: true, urn, parts, platformUrn: first.platformUrn }
      : { ok: true, urn, parts };
  }
  parts.push(span('id', idStart, to));
  return {
    ok: true,
    urn: { kind: 'other', namespace, entityType: entry.entityType, id: text.slice(idStart, to) },
    parts,
  };
}

/** Split `(a,b,c)` at commas of depth 1 (DataHub's TupleKey rule); returns part spans. */
function splitTuple(text: string, open: number, to: number): Array<[number, number]> {
  return piecesFound(splitTupleInto(text, open, to));
}

/** The first `count` pieces of PIECES, as spans. */
function piecesFound(count: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  for (let k = 0; k < count; k++) pieces.push([PIECES[2 * k]!, PIECES[2 * k + 1]!]);
  return pieces;
}

function checkName(text: string, s: number, e: number, label: string): void {
  // Character codes, not regexes: this runs for every part of every URN of every scan.
  if (e > s && (isWhiteSpace(text.charCodeAt(s)) || isWhiteSpace(text.charCodeAt(e - 1)))) {
    fail(
      `${label} '${text.slice(s, e)}' has leading or trailing whitespace, which DataHub keeps as part of the name`,
      s,
      e - s,
    );
  }
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x29 && c < 0x7f) continue;
    if (c === 0x28 || c === 0x29) {
      const ch = text[i]!;
      fail(`'${ch}' is not allowed inside ${article(label)}; DataHub writes it as ${ch === '(' ? '%28' : '%29'}`, i, 1);
    }
    if (c === 0x241f) fail(`'\u241F' is reserved in URNs; DataHub writes it as %E2%90%9F`, i, 1);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
      fail(
        `a control character (U+${c.toString(16).padStart(4, '0').toUpperCase()}) is not allowed in ${article(label)}`,
        i,
        1,
      );
  }
}

/**
 * A one-part id (platform, user, tag …). DataHub refuses a comma there in strict mode
 * ("Simple URN … contains comma character"); inner spaces are accepted, as DataHub does.
 */
function checkSimpleId(text: string, s: number, e: number, label: string): void {
  checkName(text, s, e, label);
  const comma = indexBefore(text, ',', s, e);
  if (comma >= 0) fail(`',' is not allowed in ${article(label)}; DataHub writes it as %2C`, comma, 1);
}

/** 'an id', 'a user id': the labels are fixed words, none of which starts with a vowel sound written 'u'. */
function article(label: string): string {
  return `${/^[aeio]/i.test(label) ? 'an' : 'a'} ${label}`;
}

function indexBefore(text: string, ch: string, from: number, to: number): number {
  const i = text.indexOf(ch, from);
  return i >= 0 && i < to ? i : -1;
}

/** Names shorter than this get no edit-distance suggestion: 'foo', 'job', 'chat' may well be custom types. */
const MIN_FUZZY_LENGTH = 6;
/**
 * From this length on, two edits still count as a typo (dataPltformInstnce); below it, one (datset).
 * Not lower: dataHubFile and dataHubRole (11 characters) are two edits apart.
 */
const TWO_EDITS_LENGTH = 12;
const LOWER_TYPES: ReadonlyArray<readonly [string, string]> = REGISTRY_ENTITY_TYPES.map(
  (t) => [t, t.toLowerCase()] as const,
);

/**
 * The registry entity type that `entityType` (not itself a registry type) is a mistake for, if any:
 *  1. the same letters in another case (`Dataset`, `SCHEMAFIELD`): DataHub's names are case-sensitive;
 *  2. a plural of a registry type (`tags`, `datasets`);
 *  3. names of at least 6 characters: the nearest registry type 1 edit away (2 edits from 12
 *     characters on), an edit being an insertion, deletion, substitution or swap of neighbours.
 * Anything else is not a typo: a type no registry knows is a custom entity type.
 */
export function suggestKind(entityType: string): string | undefined {
  const lower = entityType.toLowerCase();
  for (const [t, l] of LOWER_TYPES) if (l === lower) return t;
  for (const [t, l] of LOWER_TYPES)
    if (lower.length === l.length + 1 && lower.endsWith('s') && lower.startsWith(l)) return t;
  if (entityType.length < MIN_FUZZY_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = (entityType.length >= TWO_EDITS_LENGTH ? 2 : 1) + 1;
  for (const [t, l] of LOWER_TYPES) {
    const d = editDistance(lower, l, bestDistance - 1);
    if (d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  return best;
}

/** Edit distance (Levenshtein with adjacent swaps), stopping early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  // Optimal string alignment: a swap of two neighbours (PRDO → PROD) is one edit, as typos are.
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prevPrev[j - 2]! + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prevPrev = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Print a URN value; the inverse of `parseUrn`. */
export function printUrn(urn: Urn): string {
  return printIn(urn, urn.namespace);
}

/**
 * printUrn(withNamespace(urn, ns)) (the entity key: ns `_`), printed without the respelt copy for
 * the kinds whose only namespace word is theirs and their platform's, as one flat string of its
 * own: its parts joined (Array.prototype.join copies them into one sequential string), not
 * concatenated — a template literal makes a tree of concatenations (V8's cons strings) that a
 * map flattens into a second copy when it first hashes it, and that keeps the parse's strings
 * (slices of the URN's own copy) alive for as long as the key is kept. The workspace index keeps
 * the key as it is.
 */
export function printUrnIn(urn: Urn, ns: string): string {
  if (urn.kind === 'schemaField' || urn.kind === 'other') {
    const printed = printUrn(withNamespace(urn, ns));
    return [printed.slice(0, 1), printed.slice(1)].join('');
  }
  return printJoined(urn, ns);
}

/** printUrn of `urn` with the namespace word `ns` in place of its own (its fields as they are). */
function printIn(urn: Urn, ns: string): string {
  const platform = (p: string): string => `urn:${ns}:dataPlatform:${p}`;
  switch (urn.kind) {
    case 'dataPlatform':
      return platform(urn.platform);
    case 'corpuser':
      return `urn:${ns}:corpuser:${urn.user}`;
    case 'dataset':
      return `urn:${ns}:dataset:(${platform(urn.platform)},${urn.name},${urn.env})`;
    case 'mlModel':
      return `urn:${ns}:mlModel:(${platform(urn.platform)},${urn.name},${urn.env})`;
    case 'mlModelGroup':
      return `urn:${ns}:mlModelGroup:(${platform(urn.platform)},${urn.name},${urn.env})`;
    case 'mlFeature':
      return `urn:${ns}:mlFeature:(${urn.table},${urn.feature})`;
    case 'mlFeatureTable':
      return `urn:${ns}:mlFeatureTable:(${platform(urn.platform)},${urn.table})`;
    case 'schemaField':
      return `urn:${ns}:schemaField:(${urn.parent},${urn.fieldPath})`;
    case 'other':
      return `urn:${ns}:${urn.entityType}:${urn.id}`;
  }
}

/** printUrn of `urn` with the namespace word `ns` in place of its own (its fields as they are), its parts joined (printUrnIn). */
function printJoined(urn: Exclude<Urn, { kind: 'schemaField' | 'other' }>, ns: string): string {
  switch (urn.kind) {
    case 'dataPlatform':
      return ['urn:', ns, ':dataPlatform:', urn.platform].join('');
    case 'corpuser':
      return ['urn:', ns, ':corpuser:', urn.user].join('');
    case 'dataset':
      return ['urn:', ns, ':dataset:(urn:', ns, ':dataPlatform:', urn.platform, ',', urn.name, ',', urn.env, ')'].join(
        '',
      );
    case 'mlModel':
      return ['urn:', ns, ':mlModel:(urn:', ns, ':dataPlatform:', urn.platform, ',', urn.name, ',', urn.env, ')'].join(
        '',
      );
    case 'mlModelGroup':
      return [
        'urn:',
        ns,
        ':mlModelGroup:(urn:',
        ns,
        ':dataPlatform:',
        urn.platform,
        ',',
        urn.name,
        ',',
        urn.env,
        ')',
      ].join('');
    case 'mlFeature':
      return ['urn:', ns, ':mlFeature:(', urn.table, ',', urn.feature, ')'].join('');
    case 'mlFeatureTable':
      return ['urn:', ns, ':mlFeatureTable:(urn:', ns, ':dataPlatform:', urn.platform, ',', urn.table, ')'].join('');
  }
}

/** The URN that names the same entity in namespace `ns` (used to compare `li` and `svc` spellings). */
export function withNamespace<U extends Urn>(urn: U, ns: string): U {
  if (urn.kind === 'schemaField') {
    // The parent is URN text in the same namespace (the parser insists): respell it too.
    const dataset = urn.dataset ? { ...urn.dataset, namespace: ns } : undefined;
    const parent = dataset ? printUrn(dataset) : respell(urn.parent, urn.namespace, ns);
    return { ...urn, namespace: ns, parent, ...(dataset ? { dataset } : {}) };
  }
  if (urn.kind === 'other') return { ...urn, namespace: ns, id: respell(urn.id, urn.namespace, ns) };
  return { ...urn, namespace: ns };
}

/**
 * What names one entity whichever namespace word spells it (`li`, `svc` …): the URN printed in one
 * stand-in namespace, as the local catalog keys its entities (catalog/src/namespaces.ts); text
 * that is no URN is its own key.
 */
export function entityKey(text: string): string {
  const p = parseUrn(text);
  return p.ok ? printUrn(withNamespace(p.urn, '_')) : text;
}

/** Whether two URN texts name the same entity, whichever namespace word each is written in. */
export function sameEntity(a: string, b: string): boolean {
  return a === b || entityKey(a) === entityKey(b);
}

/** The URNs nested in `text` with namespace `from` spelt with `to`. */
function respell(text: string, from: string, to: string): string {
  return from === to ? text : text.split(`urn:${from}:`).join(`urn:${to}:`);
}

const RESERVED_ENCODED: Record<string, string> = { '%2C': ',', '%28': '(', '%29': ')', '%E2%90%9F': UNIT_SEPARATOR };

/** The human reading of a part: DataHub's reserved-character escapes undone (nothing else is decoded). */
export function decodePart(part: string): string {
  if (!part.includes('%')) return part;
  return part.replace(/%2C|%28|%29|%E2%90%9F/gi, (m) => RESERVED_ENCODED[m.toUpperCase()] ?? m);
}

/** DataHub's UrnEncoder.encode_string: escape only the reserved characters of a tuple part. */
export function encodePart(part: string): string {
  return part.replace(/[,()\u241F]/g, (c) =>
    c === UNIT_SEPARATOR ? '%E2%90%9F' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A URN as one REST path segment: Python's quote(urn, safe=""), as DataHub's `Urn.url_encode` does. */
export function encodeUrnForPath(urn: string): string {
  return encodeURIComponent(urn).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * DataHub's web UI path name of each entity type that has a page there: each entity class's
 * `getPathName()` in datahub-web-react/src/app/entity (`dataset/DatasetEntity.tsx`,
 * `mlFeature/MLFeatureEntity.tsx` `features`, `mlFeatureTable/MLFeatureTableEntity.tsx`
 * `featureTables`, `mlModel/MLModelEntity.tsx` `mlModels`, `mlModelGroup/MLModelGroupEntity.tsx`,
 * `mlPrimaryKey/MLPrimaryKeyEntity.tsx` `mlPrimaryKeys`, `user/User.tsx` `user`, `group/Group.tsx`
 * `group`, `dataPlatform/DataPlatformEntity.tsx` `platform`,
 * `dataPlatformInstance/DataPlatformInstanceEntity.tsx`, `tag/Tag.tsx`,
 * `glossaryTerm/GlossaryTermEntity.tsx`, `glossaryNode/GlossaryNodeEntity.tsx`,
 * `domain/DomainEntity.tsx`, `container/ContainerEntity.tsx`, `dataFlow/DataFlowEntity.tsx`
 * `pipelines`, `dataJob/DataJobEntity.tsx` `tasks`, `chart/ChartEntity.tsx`,
 * `dashboard/DashboardEntity.tsx`, `dataProduct/DataProductEntity.tsx`,
 * `dataProcessInstance/DataProcessInstanceEntity.tsx`,
 * `businessAttribute/BusinessAttributeEntity.tsx` `business-attribute`,
 * `structuredProperty/StructuredPropertyEntity.tsx` (its graph name), `application/ApplicationEntity.tsx`,
 * `dataContract/DataContractEntity.tsx` `dataContracts`,
 * `ermodelrelationships/ERModelRelationshipEntity.tsx`; `mlModelDeployment` in
 * app/entityV2/mlModelDeployment/MLModelDeploymentEntity.tsx). An entity
 * type not listed here keeps its own name as the path (what DataHub's registry falls back to).
 */
const UI_PATHS: ReadonlyMap<string, string> = new Map([
  ['dataset', 'dataset'],
  ['mlFeature', 'features'],
  ['mlFeatureTable', 'featureTables'],
  ['mlModel', 'mlModels'],
  ['mlModelGroup', 'mlModelGroup'],
  ['mlPrimaryKey', 'mlPrimaryKeys'],
  ['mlModelDeployment', 'mlModelDeployment'],
  ['corpuser', 'user'],
  ['corpGroup', 'group'],
  ['dataPlatform', 'platform'],
  ['dataPlatformInstance', 'dataPlatformInstance'],
  ['tag', 'tag'],
  ['glossaryTerm', 'glossaryTerm'],
  ['glossaryNode', 'glossaryNode'],
  ['domain', 'domain'],
  ['container', 'container'],
  ['dataFlow', 'pipelines'],
  ['dataJob', 'tasks'],
  ['chart', 'chart'],
  ['dashboard', 'dashboard'],
  ['dataProduct', 'dataProduct'],
  ['dataProcessInstance', 'dataProcessInstance'],
  ['businessAttribute', 'business-attribute'],
  ['structuredProperty', 'structuredProperty'],
  ['application', 'application'],
  ['dataContract', 'dataContracts'],
  ['erModelRelationship', 'erModelRelationship'],
  ['schemaField', 'schemaField'],
]);

/** The entity types DataHub's web UI has a page for, in the table's order. */
export const UI_PAGE_ENTITY_TYPES: readonly string[] = [...UI_PATHS.keys()];

/** DataHub's web UI path segment for an entity kind (each entity's `getPathName` in datahub-web-react). */
export function uiPathSegment(kind: Urn['kind'], entityType?: string): string {
  const type = kind === 'other' ? entityType : kind;
  if (type === undefined) return 'entity';
  return UI_PATHS.get(type) ?? type;
}

/** DataHub's urlEncodeUrn: the URN stays readable; only characters that break a path are escaped. */
export function encodeUrnForUi(urn: string): string {
  return urn.replace(/[%/?#[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The entity type as DataHub names it (e.g. for `entityType` of a proposal). */
export function entityTypeOf(urn: Urn): string {
  return urn.kind === 'other' ? urn.entityType : urn.kind;
}

/**
 * The longest URN DataHub takes, URL-encoded (UrnValidationUtil.validateUrn refuses longer ones;
 * schemaField URNs are exempt). The workspace index leaves longer ones out: no catalog holds them.
 */
export const MAX_URN_ENCODED_LENGTH = 512;

/**
 * The length of `text` URL-encoded as DataHub measures it (Java's URLEncoder, UTF-8): ASCII
 * letters, digits, `.`, `-`, `*`, `_` and space take one character, every other byte three.
 */
export function urlEncodedLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 46 ||
      c === 45 ||
      c === 42 ||
      c === 95 ||
      c === 32
    )
      n += 1;
    else if (c < 0x80) n += 3;
    else if (c < 0x800) n += 6;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 12;
        i++;
      } else n += 9;
    } else n += 9;
  }
  return n;
}

/** Whether DataHub would refuse `text` (of kind `kind`) as longer than MAX_URN_ENCODED_LENGTH URL-encoded. */
export function overUrnLengthLimit(text: string, kind: Urn['kind']): boolean {
  if (kind === 'schemaField') return false;
  // Encoding never shortens: past the limit as written is past it encoded, whatever its size.
  return text.length > MAX_URN_ENCODED_LENGTH || urlEncodedLength(text) > MAX_URN_ENCODED_LENGTH;
}
