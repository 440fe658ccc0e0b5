/**
 * A straightforward reading of the URN grammar, for the property test that compares the
 * parser of model/src/urn.ts with it (urnReference.test.ts): the parser as it stood before it was
 * rewritten to allocate less (closures, arrays of part spans, a record of values, every nested
 * URN parsed by the general rule). Its results and errors are the parser's, field for field.
 */
import { ENTITY_REGISTRY, type RegistryEntry } from '../../model/src/registry';
import {
  MAX_URN_NESTING,
  suggestKind,
  type ParseResult,
  type PartRole,
  type PartSpan,
  type SchemaFieldUrn,
  type SpecKind,
  type Urn,
  type UrnError,
} from '../../model/src/urn';
import { isWhiteSpace } from '../../model/src/whiteSpace';

type Parsed = ParseResult & { ok: true };

const NAMESPACE_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
const ENV_RE = /^[A-Za-z0-9_]+$/;
/** A custom entity type (one no registry knows) is still a word, as DataHub's entity names are. */
const ENTITY_TYPE_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
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
/** Parse one URN the straightforward way: the whole of `text` must be the URN. */
export function referenceParseUrn(text: string): ParseResult {
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
  const namespace = text.slice(nsStart, nsEnd);
  if (!NAMESPACE_RE.test(namespace)) {
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
  const entityType = text.slice(kindStart, kindEnd);
  const entry = ENTITY_REGISTRY.get(entityType);
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
  const parts: PartSpan[] = [
    { role: 'namespace', start: nsStart, end: nsEnd },
    { role: 'kind', start: kindStart, end: kindEnd },
  ];
  const idStart = kindEnd + 1;
  if (idStart >= to) fail(`the ${entityType} id is missing after '${text.slice(from, idStart)}'`, idStart, 1);

  if (entityType === 'dataPlatform' || entityType === 'corpuser') {
    const role: PartRole = entityType === 'dataPlatform' ? 'platform' : 'user';
    checkSimpleId(text, idStart, to, entityType === 'dataPlatform' ? 'platform name' : 'user id');
    parts.push({ role, start: idStart, end: to });
    const id = text.slice(idStart, to);
    const urn: Urn =
      entityType === 'dataPlatform'
        ? { kind: 'dataPlatform', namespace, platform: id }
        : { kind: 'corpuser', namespace, user: id };
    return { ok: true, urn, parts };
  }
  if (isTupleKind(entityType)) {
    return parseTuple(text, idStart, to, namespace, entityType, parts, depth);
  }
  if (!entry) {
    // A custom entity type: its key is unknown, so only the frame is checked (and nothing nested is read).
    if (text.charCodeAt(idStart) === 40 /* ( */) {
      splitTuple(text, idStart, to).forEach(([s, e], i) => {
        if (s === e) fail(`part ${i + 1} of the ${entityType} id is empty`, s, 1);
      });
    } else {
      checkSimpleId(text, idStart, to, 'id');
    }
    parts.push({ role: 'id', start: idStart, end: to });
    return {
      ok: true,
      urn: { kind: 'other', namespace, entityType, id: text.slice(idStart, to), registered: false },
      parts,
    };
  }
  if (entry.fields.length === 1 && text.charCodeAt(idStart) !== 40 /* ( */) {
    checkSimpleId(text, idStart, to, 'id');
    parts.push({ role: 'id', start: idStart, end: to });
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
  if (text.charCodeAt(idStart) !== 40 /* ( */) {
    fail(
      `expected '(' after 'urn:${namespace}:${kind}:': a ${kind} URN is urn:${namespace}:${kind}:(${labels.join(',')})`,
      idStart,
      1,
    );
  }
  const pieces = splitTuple(text, idStart, to);
  if (pieces.length !== labels.length) {
    fail(
      `expected ${labels.length} part${labels.length === 1 ? '' : 's'} (${labels.join(', ')}), found ${pieces.length}`,
      idStart,
      to - idStart,
    );
  }
  return pieces;
}

function checkNotEmpty(s: number, e: number, label: string): void {
  if (s === e) fail(`${label} is empty`, s, 1);
}

function checkEnv(text: string, s: number, e: number, label: string): void {
  const env = text.slice(s, e);
  if (!ENV_RE.test(env)) fail(`${label} must be a word such as PROD, found '${env}'`, s, e - s);
}

function parseTuple(
  text: string,
  idStart: number,
  to: number,
  namespace: string,
  kind: keyof typeof TUPLES,
  parts: PartSpan[],
  depth: number,
): Parsed {
  const shape = TUPLES[kind];
  const pieces = tupleParts(text, idStart, to, namespace, kind, shape.labels);
  const values: Record<string, string> = {};
  let platformUrn: { start: number; end: number } | undefined;
  pieces.forEach(([s, e], i) => {
    const role = shape.roles[i]!;
    const label = shape.labels[i]!;
    checkNotEmpty(s, e, label);
    if (role === 'platform') {
      if (!text.startsWith('urn:', s)) {
        fail(`platform must be urn:${namespace}:dataPlatform:<name>, found '${text.slice(s, e)}'`, s, e - s);
      }
      const nested = parseAt(text, s, e, namespace, depth + 1, 'platform');
      if (nested.urn.kind !== 'dataPlatform')
        throw new Error('parseAt returned a non-platform URN for a platform part');
      values['platform'] = nested.urn.platform;
      platformUrn = { start: s, end: e };
      parts.push(...nested.parts.filter((p) => p.role === 'platform'));
      return;
    }
    if (role === 'env') {
      checkEnv(text, s, e, label);
    } else {
      checkName(text, s, e, label);
    }
    values[role] = text.slice(s, e);
    parts.push({ role, start: s, end: e });
  });
  let urn: Urn;
  switch (kind) {
    case 'dataset':
      urn = { kind, namespace, platform: values['platform']!, name: values['name']!, env: values['env']! };
      break;
    case 'mlModel':
      urn = { kind, namespace, platform: values['platform']!, name: values['name']!, env: values['env']! };
      break;
    case 'mlModelGroup':
      urn = { kind, namespace, platform: values['platform']!, name: values['name']!, env: values['env']! };
      break;
    case 'mlFeature':
      urn = { kind, namespace, table: values['table']!, feature: values['feature']! };
      break;
    case 'mlFeatureTable':
      urn = { kind, namespace, platform: values['platform']!, table: values['table']! };
      break;
  }
  return platformUrn ? { ok: true, urn, parts, platformUrn } : { ok: true, urn, parts };
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
  parts.push({ role: 'id', start: idStart, end: to });
  return {
    ok: true,
    urn: { kind: 'other', namespace, entityType: entry.entityType, id: text.slice(idStart, to) },
    parts,
  };
}

/** Split `(a,b,c)` at commas of depth 1 (DataHub's TupleKey rule); returns part spans. */
function splitTuple(text: string, open: number, to: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  const opened: number[] = [];
  let partStart = open + 1;
  for (let i = open; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 /* ( */) {
      opened.push(i);
    } else if (c === 41 /* ) */) {
      opened.pop();
      if (opened.length === 0) {
        pieces.push([partStart, i]);
        if (i + 1 < to && text[i + 1] === ')') fail("unbalanced parenthesis: this ')' has no matching '('", i + 1, 1);
        if (i !== to - 1) fail(`unexpected text after the closing ')': '${text.slice(i + 1, to)}'`, i + 1, to - i - 1);
        return pieces;
      }
    } else if (c === 44 /* , */ && opened.length === 1) {
      pieces.push([partStart, i]);
      partStart = i + 1;
    }
  }
  // The innermost '(' left open is the likeliest mistake (a name holding an unencoded '(').
  fail("unbalanced parenthesis: this '(' is never closed", opened[opened.length - 1] ?? open, 1);
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
