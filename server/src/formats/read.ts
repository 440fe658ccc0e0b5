/**
 * DataHub's own YAML formats read as DataHub reads them: which format a file is (by its shape,
 * never by its name), the URN each entry stands for, the references in it (each with the URN
 * DataHub makes of it), and what breaks the format's rules. Pure.
 */
import { createHash } from 'node:crypto';
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Scalar, type YAMLMap } from 'yaml';
import { REGISTRY_ENTITY_TYPES } from '../../../model/src/registry';
import { editDistance, suggestKind } from '../../../model/src/urn';
import type { FormatName, FormatPropertyDefinition, FormatPropertyValues, YamlScalarRef } from '../scan/types';
import { keyText, scalarRef } from '../scan/yamlMapping';
import { quickYaml } from '../scan/yamlQuick';
import { LEVELS, isOwnershipType, type LevelName } from './schema';

export type { FormatName } from '../scan/types';

export const FORMAT_LABELS: Readonly<Record<FormatName, string>> = {
  'datahub-dataset': 'DataHub dataset YAML (`datahub dataset upsert -f`)',
  'datahub-glossary': 'DataHub business glossary YAML (`datahub-business-glossary` source)',
  'datahub-structured-properties': 'DataHub structured properties YAML (`datahub properties upsert -f`)',
  'datahub-data-product': 'DataHub data product YAML (`datahub dataproduct upsert -f`)',
};

export interface FormatProblem {
  start: number;
  end: number;
  message: string;
  severity: 'error' | 'warning';
}

/** A scalar of the file that stands for a URN, as DataHub makes it (`builder`, e.g. `make_user_urn`). */
export interface FormatReference {
  start: number;
  end: number;
  urn: string;
  builder: string;
  /** The file defines the entity (a dataset entry, a glossary node or term, a field of an entry). */
  defines?: boolean;
  /** The value is already a URN written out (the scanner reads it): nothing to add for it. */
  written?: boolean;
  /** Where the parts of `urn` (`[urnStart, urnEnd)`) are written, when the entry's keys spell them apart. */
  parts?: Array<{ urnStart: number; urnEnd: number; start: number; end: number }>;
  /**
   * A domain written as a name: DataHub takes `urn` (the name as an id) when the catalog has it,
   * else the domain whose name this is.
   */
  byName?: string;
}

/** Where a mapping of the format stands: its level, and the range of its keys. */
export interface FormatMapping {
  level: LevelName;
  start: number;
  end: number;
  keys: string[];
}

export interface FormatModel {
  format: FormatName;
  references: FormatReference[];
  problems: FormatProblem[];
  mappings: FormatMapping[];
  /** The values of each `structured_properties:` key (dataset file). */
  propertyValues: FormatPropertyValues[];
  /** Structured properties file: each property's definition, as `datahub properties upsert` writes it. */
  definitions: FormatPropertyDefinition[];
  /** Business glossary: the path of each term (`Node.Term`), as `inherits` and the like name it. */
  termPaths: string[];
  /**
   * Each entry's description (or where one goes), for compare, pull and push: a dataset entry's and
   * each of its schema fields'; a glossary node's and term's; the data product's; each structured
   * property's (and its `display_name`).
   */
  descriptions: FormatDescription[];
  /** Dataset file: the tags, glossary terms and owners each entry (or a schema field of it named by `id`) names, for push. */
  labels: FormatLabel[];
}

/**
 * A tag, glossary term or owner that a dataset entry, or one of its schema fields, names: what a
 * push appends when the catalog's dataset lacks it.
 */
export interface FormatLabel {
  /** The entry's defining reference (its range and URN). */
  entry: { start: number; end: number; urn: string };
  /** The schema field's `id`, for a field's tag or term. */
  field?: string;
  kind: 'tag' | 'term' | 'owner';
  urn: string;
  /**
   * An owner's ownership type as dataset.py's `_mint_owner` makes it: TECHNICAL_OWNER for a bare
   * name, else the `type` of `{id, type}` upper-cased, or the `urn:li:ownershipType:` URN it is.
   */
  ownershipType?: string;
  /** The scalar that names it. */
  start: number;
  end: number;
}

/**
 * A description of an entry (`field` absent) or of one of a dataset entry's schema fields, and
 * where to write one; with `key: 'display_name'`, a structured property's display name instead.
 * An empty `description:` (no value, `~`, `""`) is a description of value ''.
 */
export interface FormatDescription {
  /** The entry's defining reference (its range and URN): the occurrence the description belongs to. */
  entry: { start: number; end: number; urn: string };
  /** The field's `id`, for a field's description. */
  field?: YamlScalarRef;
  /** Which key holds the text (absent: `description`). */
  key?: 'display_name';
  description?: YamlScalarRef;
  /** Where a `description:` line goes when there is none: the start of the line after the naming key's, at `indent`. */
  insertAt: number;
  indent: string;
  needsLineBreak?: boolean;
}

export interface FormatOptions {
  /** The glossary source's `enable_auto_id`: term and node ids are GUIDs of their paths. */
  enableAutoId?: boolean;
  /** false: parse with the `yaml` package even where the quick reader could (tests compare the two). */
  quick?: boolean;
}

/** The format of a YAML text and what it says; undefined when it is not one of DataHub's formats. */
export function readDataHubYaml(text: string, opts: FormatOptions = {}): FormatModel | undefined {
  // Most YAML is in neither format: a file without any of their telling keys is not parsed again.
  if (!TELLING_KEY.test(text)) return undefined;
  let docs: ReadonlyArray<Pick<Document.Parsed, 'contents'> & { range?: Document.Parsed['range'] }>;
  try {
    docs =
      ((opts.quick ?? true) ? (quickYaml(text) as Array<Pick<Document.Parsed, 'contents'>> | undefined) : undefined) ??
      (parseAllDocuments(text, { prettyErrors: false, logLevel: 'silent' }) as Document.Parsed[]);
  } catch {
    return undefined;
  }
  if (!Array.isArray(docs) || docs.length === 0) return undefined;
  const format = recognise(docs);
  if (!format) return undefined;
  const reader = new Reader(format, opts, text);
  docs.forEach((doc, i) => {
    if (i > 0 && doc.contents !== null) {
      const at = doc.range?.[0] ?? 0;
      reader.problem(
        at,
        at + 1,
        'DataHub reads one YAML document per file: the documents after the first are not read',
        'error',
      );
    }
    reader.document(doc.contents);
  });
  reader.model.references.sort((a, b) => a.start - b.start);
  reader.model.problems.sort((a, b) => a.start - b.start);
  return reader.model;
}

/** A line whose key may make a file one of the formats (what recognise looks for, as text). */
const TELLING_KEY =
  /^[ \t]*(?:-[ \t]+)?(?:platform|nodes|terms|glossary_terms|downstreams|structured_properties|subtypes?|external_url|schema|domain|qualified_name|entity_types|cardinality|allowed_values|value_entity_types|type_qualifier|urn[ \t]*:[ \t]*['"]?urn:li:structuredProperty)[ \t]*:/m;

/** Keys only DataHub's dataset file has (Catalog Lens's docs-as-code mappings have `urn` and `description` too). */
const DATASET_ONLY_KEYS = [
  'platform',
  'glossary_terms',
  'downstreams',
  'structured_properties',
  'subtype',
  'subtypes',
  'external_url',
];
const GLOSSARY_ROOT_MARKS = ['version', 'owners', 'source', 'source_type', 'url'];

function recognise(docs: readonly Document.Parsed[]): FormatName | undefined {
  for (const doc of docs) {
    const root = doc.contents;
    if (isMap(root) && isDataProduct(root)) return 'datahub-data-product';
    if (isMap(root) && isGlossaryRoot(root)) return 'datahub-glossary';
    if (isSeq(root) && root.items.some((item) => isMap(item) && isPropertyDefinition(item)))
      return 'datahub-structured-properties';
    const items = isSeq(root) ? root.items : [root];
    if (items.some((item) => isMap(item) && isDatasetEntry(item))) return 'datahub-dataset';
  }
  return undefined;
}

function isGlossaryRoot(root: YAMLMap): boolean {
  const has = (k: string): boolean => root.items.some((p) => isPair(p) && keyText(p.key) === k);
  return (
    (isSeq(valueAt(root, 'nodes')) || isSeq(valueAt(root, 'terms'))) && GLOSSARY_ROOT_MARKS.some(has) && !has('urn')
  );
}

/** Keys only a structured property definition has (beside `id`/`urn` and `type`). */
const PROPERTY_ONLY_KEYS = [
  'qualified_name',
  'entity_types',
  'cardinality',
  'allowed_values',
  'value_entity_types',
  'type_qualifier',
];

/** A list item of `datahub properties upsert -f`: a `StructuredProperties` (the file is a list of them). */
function isPropertyDefinition(map: YAMLMap): boolean {
  const keys = map.items.flatMap((p) => (isPair(p) ? [keyText(p.key)] : []));
  if (keys.includes('platform')) return false;
  const urn = valueAt(map, 'urn');
  if (isScalar(urn) && typeof urn.value === 'string' && urn.value.startsWith('urn:li:structuredProperty:')) return true;
  return keys.includes('id') && keys.some((k) => PROPERTY_ONLY_KEYS.includes(k));
}

/** The mapping of `datahub dataproduct upsert -f`: `id` and `domain` at the root (a dataset entry has `platform`). */
function isDataProduct(map: YAMLMap): boolean {
  const keys = map.items.flatMap((p) => (isPair(p) ? [keyText(p.key)] : []));
  return keys.includes('id') && keys.includes('domain') && !keys.includes('platform') && !keys.includes('urn');
}

function isDatasetEntry(map: YAMLMap): boolean {
  const keys = map.items.flatMap((p) => (isPair(p) ? [keyText(p.key)] : []));
  if (keys.includes('id') && keys.includes('platform')) return true;
  const urn = valueAt(map, 'urn');
  if (!isScalar(urn) || typeof urn.value !== 'string' || !urn.value.startsWith('urn:li:dataset:')) return false;
  if (keys.some((k) => DATASET_ONLY_KEYS.includes(k))) return true;
  const schema = valueAt(map, 'schema');
  return isMap(schema) && (valueAt(schema, 'fields') !== undefined || valueAt(schema, 'file') !== undefined);
}

function valueAt(map: YAMLMap, key: string): unknown {
  for (const p of map.items) if (isPair(p) && keyText(p.key) === key) return p.value;
  return undefined;
}

function stringAt(map: YAMLMap, key: string): Scalar | undefined {
  const v = valueAt(map, key);
  return isScalar(v) && v.value !== null && v.value !== undefined && typeof v.value !== 'object' ? v : undefined;
}

function keyRange(r: { start: number; end: number }): { keyStart: number; keyEnd: number } {
  return { keyStart: r.start, keyEnd: r.end };
}

function isNumber(s: string): boolean {
  return s.trim() !== '' && Number.isFinite(Number(s));
}

function textOf(node: Scalar): string {
  return typeof node.value === 'string' ? node.value : String(node.value);
}

/** UrnEncoder.encode_string: the reserved characters of a URN part, percent-encoded. */
export function encodeUrnPart(s: string): string {
  return s.replace(/[,()␟]/g, (c) => encodeURIComponent(c));
}

/** mce_builder.make_dataset_urn (without DATAHUB_DATASET_URN_TO_LOWER), the platform given by name or URN. */
export function makeDatasetUrn(platform: string, name: string, env = 'PROD'): string {
  return `urn:li:dataset:(${makePlatformUrn(platform)},${name},${env})`;
}

export function makePlatformUrn(platform: string): string {
  return platform.startsWith('urn:li:dataPlatform:') ? platform : `urn:li:dataPlatform:${platform}`;
}

/** make_user_urn: a name becomes a corpuser URN; a corpuser or corpGroup URN is kept. */
export function makeUserUrn(name: string): string {
  return name.startsWith('urn:li:corpuser:') || name.startsWith('urn:li:corpGroup:') ? name : `urn:li:corpuser:${name}`;
}

export function makeGroupUrn(name: string): string {
  return name.startsWith('urn:li:corpGroup:') || name.startsWith('urn:li:corpuser:')
    ? name
    : `urn:li:corpGroup:${name}`;
}

export function makeTagUrn(tag: string): string {
  return tag.startsWith('urn:li:tag:') ? tag : `urn:li:tag:${tag}`;
}

/** A structured property's URN from its id (`Urn.make_structured_property_urn`: a URN is kept). */
export function makeStructuredPropertyUrn(id: string): string {
  return id.startsWith('urn:li:structuredProperty:') ? id : `urn:li:structuredProperty:${id}`;
}

/** Urn.make_entity_type_urn: `urn:li:entityType:datahub.<name>` unless already an entityType URN. */
export function makeEntityTypeUrn(name: string): string {
  return name.startsWith('urn:li:entityType:') ? name : `urn:li:entityType:datahub.${name}`;
}

export function makeDataProductUrn(id: string): string {
  return id.startsWith('urn:li:dataProduct:') ? id : `urn:li:dataProduct:${id}`;
}

export function makeTermUrn(term: string): string {
  return term.startsWith('urn:li:glossaryTerm:') ? term : `urn:li:glossaryTerm:${term}`;
}

/**
 * business_glossary.create_id: `id` when given; else the path joined by `.`, as a GUID of it
 * (datahub_guid) when auto ids are on or the path holds a character URNs reserve (`,()␟%`).
 */
export function glossaryId(path: readonly string[], id: string | undefined, enableAutoId: boolean): string {
  if (id !== undefined) return id;
  const joined = path.join('.');
  return enableAutoId || /[,()␟%]/.test(joined) ? datahubGuid({ path: joined }) : joined;
}

/** mce_builder.datahub_guid: the MD5 of the object as Python's `json.dumps(sort_keys=True, separators=(",", ":"))` writes it. */
export function datahubGuid(obj: Record<string, string>): string {
  const json = `{${Object.keys(obj)
    .sort()
    .map((k) => `${pythonJson(k)}:${pythonJson(obj[k]!)}`)
    .join(',')}}`;
  return createHash('md5').update(json, 'utf8').digest('hex');
}

/** A string as Python's json.dumps writes it (ensure_ascii: every non-ASCII unit escaped). */
function pythonJson(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function glossaryUrn(
  kind: 'glossaryTerm' | 'glossaryNode',
  path: readonly string[],
  id: string | undefined,
  enableAutoId: boolean,
): string {
  const prefix = `urn:li:${kind}:`;
  if (id !== undefined && id.startsWith(prefix)) return id;
  return prefix + glossaryId(path, id, enableAutoId);
}

interface GlossaryRef {
  node: Scalar;
  value: string;
  key: string;
}

class Reader {
  readonly model: FormatModel;
  /** Glossary: `Node.Term` path → the URN of the term or node (business_glossary.populate_path_vs_id). */
  private readonly paths = new Map<string, string>();
  private readonly glossaryRefs: GlossaryRef[] = [];

  constructor(
    format: FormatName,
    private readonly opts: FormatOptions,
    private readonly text: string,
  ) {
    this.model = {
      format,
      references: [],
      problems: [],
      mappings: [],
      propertyValues: [],
      definitions: [],
      termPaths: [],
      descriptions: [],
      labels: [],
    };
  }

  /**
   * The description of `map` (a block mapping named by `named`), or where a `description:` line
   * goes: nothing when the mapping is a flow one or its `description:` is not a single value. An
   * empty one (`description:`, `~`) is the empty text at the value's place. With `key`, that key's
   * text instead (a structured property's `display_name`).
   */
  private description(
    map: YAMLMap,
    named: Scalar,
    entry: FormatDescription['entry'],
    field?: YamlScalarRef,
    key?: 'display_name',
  ): void {
    if (map.flow) return;
    const raw = valueAt(map, key ?? 'description');
    const empty = isScalar(raw) && (raw.value === null || raw.value === undefined);
    const description = empty ? raw : stringAt(map, key ?? 'description');
    if (raw !== undefined && !description) return;
    const at = this.at(named).start;
    const lineStart = this.text.lastIndexOf('\n', at - 1) + 1;
    const lineEnd = this.text.indexOf('\n', at);
    this.model.descriptions.push({
      entry,
      ...(field ? { field } : {}),
      ...(key ? { key } : {}),
      ...(description ? { description: scalarRef(description) } : {}),
      insertAt: lineEnd < 0 ? this.text.length : lineEnd + 1,
      indent: ' '.repeat(this.keyColumn(named, lineStart)),
      ...(lineEnd < 0 ? { needsLineBreak: true } : {}),
    });
  }

  /** The column of the key whose value is `named` (the keys of its mapping stand there). */
  private keyColumn(named: Scalar, lineStart: number): number {
    const m = /^[ \t]*(?:-[ \t]+)*/.exec(this.text.slice(lineStart, this.at(named).start));
    return m ? m[0].length : 0;
  }

  problem(start: number, end: number, message: string, severity: FormatProblem['severity']): void {
    this.model.problems.push({ start, end, message, severity });
  }

  private at(node: unknown): { start: number; end: number } {
    const r = (node as { range?: [number, number, number] } | null)?.range;
    return r ? { start: r[0], end: Math.max(r[1], r[0] + 1) } : { start: 0, end: 1 };
  }

  private ref(
    node: Scalar,
    urn: string,
    builder: string,
    defines = false,
    parts?: FormatReference['parts'],
    byName?: string,
  ): void {
    const { start, end } = this.at(node);
    const written = textOf(node) === urn;
    this.model.references.push({
      start,
      end,
      urn,
      builder,
      ...(defines ? { defines } : {}),
      ...(written ? { written } : {}),
      ...(parts ? { parts } : {}),
      ...(byName !== undefined ? { byName } : {}),
    });
  }

  document(root: unknown): void {
    if (root === null || root === undefined) return;
    if (this.model.format === 'datahub-glossary') {
      if (isMap(root)) this.glossary(root);
      else this.problem(this.at(root).start, this.at(root).end, 'A business glossary is a mapping', 'error');
      return;
    }
    if (this.model.format === 'datahub-data-product') {
      if (isMap(root)) this.dataProduct(root);
      else this.problem(this.at(root).start, this.at(root).end, 'A data product file is a mapping', 'error');
      return;
    }
    if (this.model.format === 'datahub-structured-properties') {
      if (!isSeq(root)) {
        const r = this.at(root);
        this.problem(r.start, r.end, 'A structured properties file is a list of property definitions', 'error');
        return;
      }
      for (const item of root.items) {
        if (isMap(item)) this.property(item);
        else
          this.problem(
            this.at(item).start,
            this.at(item).end,
            'A structured property is a mapping (`id`, `type` …)',
            'error',
          );
      }
      return;
    }
    const items = isSeq(root) ? root.items : [root];
    for (const item of items) {
      if (isMap(item)) this.dataset(item);
      else
        this.problem(
          this.at(item).start,
          this.at(item).end,
          'A dataset entry is a mapping (`id`, `platform` …)',
          'error',
        );
    }
  }

  /** The keys of a mapping against its level: unknown keys, required keys, shapes and allowed values. */
  private checkKeys(map: YAMLMap, level: LevelName): void {
    const spec = LEVELS[level];
    const keys: string[] = [];
    for (const pair of map.items) {
      if (!isPair(pair)) continue;
      const key = keyText(pair.key);
      keys.push(key);
      const r = this.at(pair.key);
      const ks = spec.keys[key];
      if (!ks) {
        const near = Object.keys(spec.keys).find(
          (k) => k.toLowerCase() === key.toLowerCase() || editDistance(k, key, 2) <= (key.length > 5 ? 2 : 1),
        );
        const hint = near ? ` (did you mean ${near}?)` : '';
        this.problem(
          r.start,
          r.end,
          spec.strict
            ? `'${key}' is not a key of ${spec.model}: DataHub refuses the file${hint}`
            : `'${key}' is not a key of ${spec.model}: DataHub ignores it${hint}`,
          spec.strict ? 'error' : 'warning',
        );
        continue;
      }
      const v = pair.value;
      if (v === null || v === undefined || (isScalar(v) && v.value === null)) continue;
      if (ks.shape === 'list' && !isSeq(v)) this.problem(r.start, r.end, `'${key}' takes a list`, 'error');
      else if (ks.shape === 'map' && !isMap(v)) this.problem(r.start, r.end, `'${key}' takes a mapping`, 'error');
      else if (ks.shape === 'scalar' && !isScalar(v))
        this.problem(r.start, r.end, `'${key}' takes a single value`, 'error');
      if (ks.values && isScalar(v)) {
        const value = textOf(v);
        const vr = this.at(v);
        const ok =
          ks.compare === 'ownershipType'
            ? isOwnershipType(value)
            : ks.values.includes(ks.compare === 'lowerCased' ? value.toLowerCase() : value);
        if (!ok)
          this.problem(vr.start, vr.end, `'${value}' is not a value of '${key}': ${ks.values.join(', ')}`, 'error');
        else if (ks.compare === 'lowerCased' && value !== value.toLowerCase())
          this.problem(
            vr.start,
            vr.end,
            `'${key}' should be lower-case: DataHub reads it as '${value.toLowerCase()}'`,
            'warning',
          );
      }
    }
    for (const [key, ks] of Object.entries(spec.keys)) {
      if (ks.required && !keys.includes(key)) {
        const r = this.at(map.items.find(isPair)?.key ?? map);
        this.problem(r.start, r.end, `${spec.model} needs '${key}'`, 'error');
      }
    }
    const range = this.at(map);
    this.model.mappings.push({ level, start: range.start, end: range.end, keys });
  }

  // ---- the dataset file ----

  private dataset(map: YAMLMap): void {
    this.checkKeys(map, 'dataset');
    const id = stringAt(map, 'id');
    const platform = stringAt(map, 'platform');
    const env = stringAt(map, 'env');
    const urnNode = stringAt(map, 'urn');
    let urn: string | undefined;
    let named: Scalar | undefined;
    if (urnNode) {
      urn = textOf(urnNode);
      named = urnNode;
      this.ref(urnNode, urn, 'Dataset.urn', true);
    } else if (id && platform) {
      named = id;
      urn = makeDatasetUrn(textOf(platform), textOf(id), env ? textOf(env) : 'PROD');
      // Each part of the URN where the entry writes it: a diagnostic of the env stands on `env:`'s value.
      const platformUrn = makePlatformUrn(textOf(platform));
      const at = 'urn:li:dataset:('.length;
      const nameAt = at + platformUrn.length + 1;
      const envAt = nameAt + textOf(id).length + 1;
      const parts: NonNullable<FormatReference['parts']> = [
        { urnStart: at, urnEnd: at + platformUrn.length, ...this.at(platform) },
        { urnStart: nameAt, urnEnd: envAt - 1, ...this.at(id) },
      ];
      if (env) parts.push({ urnStart: envAt, urnEnd: urn.length - 1, ...this.at(env) });
      this.ref(id, urn, 'make_dataset_urn', true, parts);
    } else {
      const r = this.at(map.items.find(isPair)?.key ?? map);
      this.problem(r.start, r.end, 'A dataset entry needs `urn`, or `id` and `platform`', 'error');
    }
    const entry = named && urn ? { ...this.at(named), urn } : undefined;
    if (named && entry) this.description(map, named, entry);
    if (platform) this.ref(platform, makePlatformUrn(textOf(platform)), 'make_data_platform_urn');
    this.labels(map, { tags: 'tags', terms: 'glossary_terms', owners: 'owners' });
    if (entry) this.pushedLabels(map, { tags: 'tags', terms: 'glossary_terms', owners: 'owners' }, entry);
    this.names(map, 'downstreams', (d) => d, 'DatasetPatchBuilder');
    this.propertyKeys(map);
    const schema = valueAt(map, 'schema');
    if (isMap(schema)) {
      this.checkKeys(schema, 'datasetSchema');
      const file = stringAt(schema, 'file');
      if (file && !textOf(file).endsWith('.avsc')) {
        const r = this.at(file);
        this.problem(r.start, r.end, 'The schema file must be a .avsc file', 'error');
      }
      const fields = valueAt(schema, 'fields');
      if (isSeq(fields)) for (const f of fields.items) if (isMap(f)) this.field(f, urn, entry);
    }
  }

  private field(map: YAMLMap, dataset: string | undefined, entry: FormatDescription['entry'] | undefined): void {
    this.checkKeys(map, 'schemaField');
    const id = stringAt(map, 'id');
    // A field named by its `id` (a simple path) in an entry the catalog may have: its description pulled and pushed.
    if (id && entry && !stringAt(map, 'urn')) this.description(map, id, entry, scalarRef(id));
    const urn = stringAt(map, 'urn');
    if (urn) this.ref(urn, textOf(urn), 'SchemaFieldSpecification.urn', true);
    else if (id && dataset)
      this.ref(id, `urn:li:schemaField:(${dataset},${encodeUrnPart(textOf(id))})`, 'make_schema_field_urn', true);
    if (!id && !urn) {
      const r = this.at(map.items.find(isPair)?.key ?? map);
      this.problem(r.start, r.end, 'A schema field needs `id` or `urn`', 'error');
    }
    this.labels(map, { tags: 'globalTags', terms: 'glossaryTerms' });
    if (id && entry && !urn) this.pushedLabels(map, { tags: 'globalTags', terms: 'glossaryTerms' }, entry, textOf(id));
    this.propertyKeys(map);
  }

  /** The keys of `structured_properties`: each names a structured property by its id (or URN). */
  private propertyKeys(map: YAMLMap): void {
    const v = valueAt(map, 'structured_properties');
    if (!isMap(v)) return;
    for (const pair of v.items) {
      if (!isPair(pair) || !isScalar(pair.key) || pair.key.value === null) continue;
      const urn = makeStructuredPropertyUrn(textOf(pair.key));
      this.ref(pair.key, urn, 'make_structured_property_urn');
      const value = pair.value;
      const items = isSeq(value) ? value.items : [value];
      const values = items.flatMap((item) =>
        isScalar(item) && item.value !== null && typeof item.value !== 'object'
          ? [{ ...this.at(item), text: textOf(item) }]
          : [],
      );
      this.model.propertyValues.push({ urn, ...keyRange(this.at(pair.key)), list: isSeq(value), values });
    }
  }

  /**
   * The tags, glossary terms and owners of a dataset entry, a schema field or a data product, under
   * the keys each model names them: tags by make_tag_urn, terms by make_term_urn, and owners (a
   * user name, or an `Ownership` `{id, type}`) by make_user_urn (dataset.py and dataproduct.py's
   * `_mint_owner`).
   */
  private labels(map: YAMLMap, keys: { tags: string; terms: string; owners?: string }): void {
    this.names(map, keys.tags, makeTagUrn, 'make_tag_urn');
    this.names(map, keys.terms, makeTermUrn, 'make_term_urn');
    const owners = keys.owners === undefined ? undefined : valueAt(map, keys.owners);
    if (!isSeq(owners)) return;
    for (const o of owners.items) {
      if (isScalar(o) && o.value !== null) this.ref(o, makeUserUrn(textOf(o)), 'make_user_urn');
      else if (isMap(o)) {
        this.checkKeys(o, 'datasetOwner');
        const oid = stringAt(o, 'id');
        if (oid) this.ref(oid, makeUserUrn(textOf(oid)), 'make_user_urn');
      }
    }
  }

  /**
   * The tags, terms and owners of a dataset entry (or of its field `field`) as a push appends them:
   * each with the URN `labels` gives it, an owner with its ownership type. An owner whose type is
   * missing or not one DataHub knows is left out (the format's check says why).
   */
  private pushedLabels(
    map: YAMLMap,
    keys: { tags: string; terms: string; owners?: string },
    entry: FormatLabel['entry'],
    field?: string,
  ): void {
    const push = (node: Scalar, kind: FormatLabel['kind'], urn: string, ownershipType?: string): void => {
      this.model.labels.push({
        entry,
        ...(field !== undefined ? { field } : {}),
        kind,
        urn,
        ...(ownershipType !== undefined ? { ownershipType } : {}),
        ...this.at(node),
      });
    };
    const each = (key: string, kind: FormatLabel['kind'], make: (s: string) => string): void => {
      const v = valueAt(map, key);
      if (!isSeq(v)) return;
      for (const item of v.items) if (isScalar(item) && item.value !== null) push(item, kind, make(textOf(item)));
    };
    each(keys.tags, 'tag', makeTagUrn);
    each(keys.terms, 'term', makeTermUrn);
    const owners = keys.owners === undefined ? undefined : valueAt(map, keys.owners);
    if (!isSeq(owners)) return;
    for (const o of owners.items) {
      if (isScalar(o) && o.value !== null) push(o, 'owner', makeUserUrn(textOf(o)), 'TECHNICAL_OWNER');
      else if (isMap(o)) {
        const oid = stringAt(o, 'id');
        const type = stringAt(o, 'type');
        if (!oid || !type || !isOwnershipType(textOf(type))) continue;
        const t = textOf(type);
        // What DataHub's addOwners takes: an OwnershipType other than CUSTOM, or an ownership type's URN.
        if (t.toUpperCase() === 'CUSTOM' || (t.startsWith('urn:li:') && !t.startsWith('urn:li:ownershipType:')))
          continue;
        push(oid, 'owner', makeUserUrn(textOf(oid)), t.startsWith('urn:li:') ? t : t.toUpperCase());
      }
    }
  }

  /**
   * A data product's or a glossary term's `domain`, as DataHub's DomainRegistry
   * (metadata-ingestion/src/datahub/utilities/registries/domain_registry.py) takes it: a
   * `urn:li:domain:` URN as written; an id with four `-` (a GUID) not looked up, made into
   * `urn:li:domain:<id>` (dataproduct.py's make_domain_urn); anything else first as the id
   * `urn:li:domain:<name>`, and when the catalog has no such domain, as the name of one
   * (get_domain_urn_by_name): `byName` says so to the resolution.
   */
  private domain(node: Scalar): void {
    const value = textOf(node);
    if (value.startsWith('urn:li:domain:')) this.ref(node, value, 'DomainRegistry');
    // Another kind's URN is read by the scanner where it stands: no domain has it as id or name.
    else if (value.startsWith('urn:')) return;
    else if (value.split('-').length === 5) this.ref(node, `urn:li:domain:${value}`, 'make_domain_urn');
    else this.ref(node, `urn:li:domain:${value}`, 'DomainRegistry', false, undefined, value);
  }

  /** The scalars of the list under `key`, each a reference made by `make`. */
  private names(map: YAMLMap, key: string, make: (s: string) => string, builder: string): void {
    const v = valueAt(map, key);
    if (!isSeq(v)) return;
    for (const item of v.items) if (isScalar(item) && item.value !== null) this.ref(item, make(textOf(item)), builder);
  }

  // ---- structured property definitions ----

  private property(map: YAMLMap): void {
    this.checkKeys(map, 'structuredProperty');
    const id = stringAt(map, 'id');
    const urnNode = stringAt(map, 'urn');
    let urn: string | undefined;
    if (urnNode) {
      urn = textOf(urnNode);
      this.ref(urnNode, urn, 'StructuredProperties.urn', true);
    } else if (id) {
      // urn_must_be_present: the URN is made of the id as written (a URN id is not kept as it is).
      urn = `urn:li:structuredProperty:${textOf(id)}`;
      this.ref(id, urn, 'StructuredProperties.urn', true);
    } else {
      const r = this.at(map.items.find(isPair)?.key ?? map);
      this.problem(
        r.start,
        r.end,
        'A structured property needs `id` or `urn` (id must be present if urn is not)',
        'error',
      );
    }
    const qualified = stringAt(map, 'qualified_name');
    if (qualified && urn?.startsWith('urn:li:structuredProperty:')) {
      const fqn = urn.slice('urn:li:structuredProperty:'.length);
      if (textOf(qualified) !== fqn) {
        const r = this.at(qualified);
        this.problem(
          r.start,
          r.end,
          `qualified_name must be the id of the URN ('${fqn}'): DataHub refuses it`,
          'error',
        );
      }
    }
    for (const key of ['entity_types', 'value_entity_types']) this.entityTypes(valueAt(map, key));
    const qualifier = valueAt(map, 'type_qualifier');
    if (isMap(qualifier)) {
      this.checkKeys(qualifier, 'typeQualifier');
      this.entityTypes(valueAt(qualifier, 'allowed_types'));
    }
    const type = stringAt(map, 'type');
    const typeName = type ? textOf(type).toLowerCase() : undefined;
    const allowed = valueAt(map, 'allowed_values');
    if (urn?.startsWith('urn:li:structuredProperty:')) {
      this.definition(map, urn, typeName);
      // The definition's description and displayName (StructuredProperties.create).
      const named = urnNode ?? id;
      if (named) {
        const entry = { ...this.at(named), urn };
        this.description(map, named, entry);
        this.description(map, named, entry, undefined, 'display_name');
      }
    }
    if (isSeq(allowed)) {
      for (const a of allowed.items) {
        if (!isMap(a)) {
          const r = this.at(a);
          this.problem(r.start, r.end, 'An allowed value is a mapping: `value` and `description`', 'error');
          continue;
        }
        this.checkKeys(a, 'allowedValue');
        const value = stringAt(a, 'value');
        if (value && typeName === 'number' && !isNumber(textOf(value))) {
          const r = this.at(value);
          this.problem(
            r.start,
            r.end,
            `'${textOf(value)}' is not a number, and the property's type is number`,
            'error',
          );
        }
      }
    }
  }

  /**
   * The definition `StructuredProperties.create` writes (structuredproperties.py): the value type
   * `Urn.make_data_type_urn(type)` of the lower-cased type, the cardinality as written (SINGLE when
   * absent: StructuredPropertyDefinition.pdl's default), the allowed values (numbers for a
   * `number` property).
   */
  private definition(map: YAMLMap, urn: string, typeName: string | undefined): void {
    const cardinality = stringAt(map, 'cardinality');
    const allowed = valueAt(map, 'allowed_values');
    const values = isSeq(allowed)
      ? allowed.items.flatMap((a) => {
          const v = isMap(a) ? stringAt(a, 'value') : undefined;
          if (!v) return [];
          const text = textOf(v);
          return [
            { value: typeName === 'number' && isNumber(text) ? { numberValue: Number(text) } : { stringValue: text } },
          ];
        })
      : [];
    this.model.definitions.push({
      urn,
      definition: {
        qualifiedName: urn.slice('urn:li:structuredProperty:'.length),
        cardinality: cardinality ? textOf(cardinality) : 'SINGLE',
        ...(typeName ? { valueType: { urn: `urn:li:dataType:datahub.${typeName}` } } : {}),
        ...(values.length > 0 ? { allowedValues: values } : {}),
      },
    });
  }

  /** A list of entity type names (`dataset`, `schemaField` …), each made into an entityType URN. */
  private entityTypes(v: unknown): void {
    if (!isSeq(v)) return;
    for (const item of v.items) {
      if (!isScalar(item) || item.value === null) continue;
      const name = textOf(item);
      const bare = name.startsWith('urn:li:entityType:datahub.')
        ? name.slice('urn:li:entityType:datahub.'.length)
        : name;
      if (name.startsWith('urn:li:entityType:') && bare === name) continue;
      if (REGISTRY_ENTITY_TYPES.includes(bare)) continue;
      const near = suggestKind(bare);
      const r = this.at(item);
      this.problem(
        r.start,
        r.end,
        `'${name}' is not an entity type of DataHub's registry${near ? ` (did you mean ${near}?)` : ''}`,
        'warning',
      );
    }
  }

  // ---- the data product file ----

  private dataProduct(map: YAMLMap): void {
    this.checkKeys(map, 'dataProduct');
    const id = stringAt(map, 'id');
    if (id) {
      const urn = makeDataProductUrn(textOf(id));
      this.ref(id, urn, 'DataProduct.urn', true);
      // dataProductProperties.description (dataproduct.py's generate_mcp).
      this.description(map, id, { ...this.at(id), urn });
    }
    const domain = stringAt(map, 'domain');
    if (domain) this.domain(domain);
    this.labels(map, { tags: 'tags', terms: 'terms', owners: 'owners' });
    // assets_must_be_urns: each asset is a URN (the scanner reads it, and resolution checks it against the catalog).
    const assets = valueAt(map, 'assets');
    const assetUrns = new Set<string>();
    if (isSeq(assets))
      for (const a of assets.items) {
        if (!isScalar(a) || a.value === null) continue;
        assetUrns.add(textOf(a));
        if (!textOf(a).startsWith('urn:li:')) {
          const r = this.at(a);
          this.problem(r.start, r.end, `asset '${textOf(a)}' is not an urn: DataHub refuses the file`, 'error');
        } else this.ref(a, textOf(a), 'DataProductAssociation');
      }
    // output_ports_must_be_from_asset_list.
    const ports = valueAt(map, 'output_ports');
    if (isSeq(ports))
      for (const p of ports.items) {
        if (!isScalar(p) || p.value === null || assetUrns.has(textOf(p))) continue;
        const r = this.at(p);
        this.problem(
          r.start,
          r.end,
          `Output port ${textOf(p)} is not in asset list: DataHub refuses the file`,
          'error',
        );
      }
    const memory = valueAt(map, 'institutional_memory');
    if (isMap(memory)) {
      this.checkKeys(memory, 'institutionalMemory');
      const elements = valueAt(memory, 'elements');
      if (isSeq(elements)) for (const e of elements.items) if (isMap(e)) this.checkKeys(e, 'institutionMemoryElement');
    }
  }

  // ---- the business glossary ----

  private glossary(root: YAMLMap): void {
    this.checkKeys(root, 'glossary');
    // `version: 1` is the string "1" to DataHub too (pydantic coerces it): the allowed-values check compares the text.
    this.owners(valueAt(root, 'owners'));
    this.children(root, []);
    // References are resolved once every path of the file is known (business_glossary.populate_path_vs_id).
    const enableAutoId = this.opts.enableAutoId === true;
    const nearPath = nearPaths([...this.paths.keys()]);
    for (const r of this.glossaryRefs) {
      const inFile = this.paths.get(r.value);
      if (inFile) {
        this.ref(r.node, inFile, 'make_glossary_term_urn', true);
        continue;
      }
      this.ref(r.node, glossaryUrn('glossaryTerm', [r.value], undefined, enableAutoId), 'make_glossary_term_urn');
      const near = nearPath(r.value);
      if (near) {
        const at = this.at(r.node);
        this.problem(at.start, at.end, `'${r.value}' is not a term of this file (did you mean ${near}?)`, 'warning');
      }
    }
  }

  private children(parent: YAMLMap, path: readonly string[]): void {
    const enableAutoId = this.opts.enableAutoId === true;
    const terms = valueAt(parent, 'terms');
    if (isSeq(terms)) {
      for (const t of terms.items) {
        if (!isMap(t)) continue;
        this.checkKeys(t, 'glossaryTerm');
        const name = stringAt(t, 'name');
        if (!name) continue;
        const id = stringAt(t, 'id');
        const termPath = [...path, textOf(name)];
        const urn = glossaryUrn('glossaryTerm', termPath, id ? textOf(id) : undefined, enableAutoId);
        this.paths.set(termPath.join('.'), urn);
        this.model.termPaths.push(termPath.join('.'));
        this.ref(name, urn, 'make_glossary_term_urn', true);
        if (id && textOf(id) === urn) this.ref(id, urn, 'make_glossary_term_urn', true);
        // The term's `description` is glossaryTermInfo.definition (business_glossary.get_mces_from_term).
        this.description(t, name, { ...this.at(name), urn });
        this.owners(valueAt(t, 'owners'));
        for (const key of ['inherits', 'contains', 'values', 'related_terms']) {
          const v = valueAt(t, key);
          if (!isSeq(v)) continue;
          for (const item of v.items)
            if (isScalar(item) && item.value !== null) this.glossaryRefs.push({ node: item, value: textOf(item), key });
        }
        this.links(t);
        const domain = stringAt(t, 'domain');
        if (domain) this.domain(domain);
      }
    }
    const nodes = valueAt(parent, 'nodes');
    if (isSeq(nodes)) {
      for (const n of nodes.items) {
        if (!isMap(n)) continue;
        this.checkKeys(n, 'glossaryNode');
        const name = stringAt(n, 'name');
        if (!name) continue;
        const id = stringAt(n, 'id');
        const nodePath = [...path, textOf(name)];
        const urn = glossaryUrn('glossaryNode', nodePath, id ? textOf(id) : undefined, enableAutoId);
        this.paths.set(nodePath.join('.'), urn);
        this.ref(name, urn, 'make_glossary_node_urn', true);
        if (id && textOf(id) === urn) this.ref(id, urn, 'make_glossary_node_urn', true);
        // The node's `description` is glossaryNodeInfo.definition (business_glossary.get_mces_from_node).
        this.description(n, name, { ...this.at(name), urn });
        this.owners(valueAt(n, 'owners'));
        this.links(n);
        this.children(n, nodePath);
      }
    }
  }

  private links(map: YAMLMap): void {
    const v = valueAt(map, 'knowledge_links');
    if (isSeq(v)) for (const l of v.items) if (isMap(l)) this.checkKeys(l, 'knowledgeLink');
  }

  /** `owners:` of the glossary: one `Owners` mapping or a list of them. */
  private owners(v: unknown): void {
    const all = isSeq(v) ? v.items : v === undefined ? [] : [v];
    for (const o of all) {
      if (!isMap(o)) {
        if (o !== null && !(isScalar(o) && o.value === null)) {
          const r = this.at(o);
          this.problem(r.start, r.end, 'owners takes a mapping (`users`, `groups`, `type`) or a list of them', 'error');
        }
        continue;
      }
      this.checkKeys(o, 'glossaryOwners');
      this.names(o, 'users', makeUserUrn, 'make_user_urn');
      this.names(o, 'groups', makeGroupUrn, 'make_group_urn');
    }
  }
}

/** nearPaths' scratch: one count per UTF-16 unit, all 0 between calls. */
const unmatched = new Int32Array(0x10000);

/**
 * The "did you mean" of a glossary reference not in the file: the first of `paths` (file order) that is the
 * reference in other case, within 3 edits of it, ends with `.reference`, or, for a dotted reference, has its last
 * name — what `paths.find` with those four tests gives. The three text tests are map lookups; the edit distance is
 * computed only for paths before the first of their answers whose length and letters could be within 3 edits (the
 * letters' bag distance, counted in one pass over the path, is a lower bound of the distance).
 */
export function nearPaths(paths: readonly string[]): (reference: string) => string | undefined {
  const firstOf = (m: Map<string, number>, key: string, i: number): void => {
    if (!m.has(key)) m.set(key, i);
  };
  const lower = new Map<string, number>();
  const suffix = new Map<string, number>(); // ".b.c" and ".c" of "a.b.c"
  const lastName = new Map<string, number>();
  paths.forEach((p, i) => {
    firstOf(lower, p.toLowerCase(), i);
    for (let dot = p.indexOf('.'); dot >= 0; dot = p.indexOf('.', dot + 1)) firstOf(suffix, p.slice(dot), i);
    firstOf(lastName, p.slice(p.lastIndexOf('.') + 1), i);
  });
  const memo = new Map<string, string | undefined>();
  return (reference) => {
    if (memo.has(reference)) return memo.get(reference);
    const none = paths.length;
    const dotted = reference.includes('.');
    let best = Math.min(
      lower.get(reference.toLowerCase()) ?? none,
      suffix.get(`.${reference}`) ?? none,
      dotted ? (lastName.get(reference.slice(reference.lastIndexOf('.') + 1)) ?? none) : none,
    );
    // unmatched[c]: the reference's units c not matched by the path's so far (below 0: the path's extra ones).
    for (let j = 0; j < reference.length; j++) unmatched[reference.charCodeAt(j)]!++;
    for (let i = 0; i < best; i++) {
      const p = paths[i]!;
      if (Math.abs(p.length - reference.length) > 3) continue;
      let onlyPath = 0;
      let j = 0;
      for (; j < p.length && onlyPath <= 3; j++) if (--unmatched[p.charCodeAt(j)]! < 0) onlyPath++;
      while (j > 0) unmatched[p.charCodeAt(--j)]!++;
      const onlyReference = reference.length - (p.length - onlyPath);
      if (onlyPath > 3 || onlyReference > 3) continue;
      if (editDistance(p, reference, 3) <= 3) best = i;
    }
    for (let j = 0; j < reference.length; j++) unmatched[reference.charCodeAt(j)]!--;
    const near = best < none ? paths[best] : undefined;
    memo.set(reference, near);
    return near;
  };
}
