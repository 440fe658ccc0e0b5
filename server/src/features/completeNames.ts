/**
 * Completion of real entity names: where the cursor is writing an entity's
 * name — inside a URN literal after its platform (or feature table), or inside a string argument
 * of a builder call (`make_dataset_urn("hive", "us`), a URN class (`DatasetUrn(…)`, Java's
 * `new DatasetUrn(new DataPlatformUrn("hive"), "us`) or an SDK v2 entity (`Dataset(platform=…,
 * name="us`) — and, from what the catalog found, the items: the whole URN for a literal (so the
 * env and closing bracket come with it), the name alone for an argument.
 *
 * The looked-up-only kinds (users, groups, tags, terms, domains, containers, flows, jobs, charts,
 * dashboards …: every kinds.ts row with a `view`) complete the same way: after `urn:<ns>:<kind>:`,
 * in their builders (`make_tag_urn("pi`) and URN classes (`TagUrn("pi`), and in YAML values under
 * `owners`, `tags`, `glossary_terms` and `domain`; their items show the name DataHub's UI shows
 * and write the id (or URN), so a domain or container is found by its name, not its GUID.
 *
 * Pure: the server asks the catalog in between (catalogClient/search.ts).
 */
import { CompletionItemKind, type CompletionItem, type MarkupContent, type Range } from 'vscode-languageserver';
import type { SearchItem } from '../../../model/src/protocol';
import { displayId, entityName, kindWord, tupleParts } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { acceptCatalogUrn, insertionFor, type Destination } from '../../../model/src/insertion';
import { entityTypeOf, parseUrn, printUrn, withNamespace, type Urn } from '../../../model/src/urn';
import { isCatalogKind, isViewKind, lookupLabels, type LookupKind } from '../../../model/src/kinds';
import { ENTITY_REGISTRY } from '../../../model/src/registry';
import { JAVA_URN_CLASSES, PY_URN_CLASSES } from '../../../model/src/urnClasses';
import type { NamedItem } from '../catalogClient/search';
import { documentedLater } from './completionShape';
import { destinationAt, YAML_LANGUAGES } from './destination';

/** Where a name is being written, and what the catalog is asked for it. */
export interface NameSlot {
  kind: LookupKind;
  /** Every kind the slot takes when more than one (owners: users and groups); else only `kind`. */
  kinds?: readonly LookupKind[];
  /** The name as typed so far (the search's query). */
  typed: string;
  /**
   * A URN literal of a looked-up-only kind: the text between the slot's start and `typed`
   * (`urn:li:tag:`, `urn:li:dataFlow:(airflow,`), kept in the items' filter text.
   */
  lead?: string;
  /**
   * Key fields the entity must have, by DataHub's key field name (`orchestrator`, and through a
   * nested URN `flow.orchestrator`): the other arguments of the call.
   */
  key?: Readonly<Record<string, string>>;
  /** The key field a `name` slot writes (`jobId`); absent: the whole id. */
  field?: string;
  /**
   * What a `name` slot writes for items of a kind other than their id: the whole URN (a group among
   * owners' bare user ids), or the display name (a domain in DataHub's YAML, which resolves names;
   * the URN when the entity has none).
   */
  writes?: Readonly<Partial<Record<LookupKind, 'urn' | 'displayName'>>>;
  platform?: string;
  /** For a feature: its feature table (namespace). */
  table?: string;
  /** Offsets in the document of what an item replaces (the cursor is inside). */
  from: number;
  to: number;
  /** `urn`: the item writes the whole URN in namespace `ns`; `name`: only the name. */
  insert: 'urn' | 'name';
  ns: string;
  /** What the item's text lands in (the literal or scalar around the slot). */
  destination: Destination;
}

/**
 * A call that takes an entity's name: its kind, parameters in order, and which of them are the
 * name, platform, table; for a looked-up-only kind, the key field the name is (`field`) and the
 * key fields other parameters give (`key`: parameter → key field).
 */
interface NameCall {
  kind: LookupKind;
  params: readonly string[];
  name: string;
  platform?: string;
  table?: string;
  field?: string;
  key?: Readonly<Record<string, string>>;
}

const PLATFORM_NAME_ENV = ['platform', 'name', 'env'] as const;
/**
 * The calls read here, after model/src/builders.ts (mce_builder), model/src/urnClasses.ts (URN
 * classes, SDK v2 entities) and the Java URN classes (li-utils' DatasetUrn.java …).
 */
const NAME_CALLS: Readonly<Record<string, NameCall>> = {
  make_dataset_urn: { kind: 'dataset', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  make_ml_model_urn: {
    kind: 'mlModel',
    params: ['platform', 'model_name', 'env'],
    name: 'model_name',
    platform: 'platform',
  },
  make_ml_model_group_urn: {
    kind: 'mlModelGroup',
    params: ['platform', 'group_name', 'env'],
    name: 'group_name',
    platform: 'platform',
  },
  make_ml_feature_table_urn: {
    kind: 'mlFeatureTable',
    params: ['platform', 'feature_table_name'],
    name: 'feature_table_name',
    platform: 'platform',
  },
  make_ml_feature_urn: {
    kind: 'mlFeature',
    params: ['feature_table_name', 'feature_name'],
    name: 'feature_name',
    table: 'feature_table_name',
  },
  DatasetUrn: { kind: 'dataset', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlModelUrn: { kind: 'mlModel', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MLModelUrn: { kind: 'mlModel', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlModelGroupUrn: { kind: 'mlModelGroup', params: PLATFORM_NAME_ENV, name: 'name', platform: 'platform' },
  MlFeatureTableUrn: { kind: 'mlFeatureTable', params: ['platform', 'name'], name: 'name', platform: 'platform' },
  MLFeatureTableUrn: { kind: 'mlFeatureTable', params: ['platform', 'name'], name: 'name', platform: 'platform' },
  MlFeatureUrn: { kind: 'mlFeature', params: ['feature_namespace', 'name'], name: 'name', table: 'feature_namespace' },
  MLFeatureUrn: { kind: 'mlFeature', params: ['feature_namespace', 'name'], name: 'name', table: 'feature_namespace' },
  'DatasetUrn.create_from_ids': {
    kind: 'dataset',
    params: ['platform_id', 'table_name', 'env', 'platform_instance'],
    name: 'table_name',
    platform: 'platform_id',
  },
  // datahub.sdk (v2): keyword arguments, the order of the leading ones not pinned down.
  Dataset: {
    kind: 'dataset',
    params: ['platform', 'name', 'platform_instance', 'env'],
    name: 'name',
    platform: 'platform',
  },
  MLModel: { kind: 'mlModel', params: ['id', 'platform'], name: 'id', platform: 'platform' },
  MLModelGroup: { kind: 'mlModelGroup', params: ['id', 'platform'], name: 'id', platform: 'platform' },
  // mce_builder's builders of the looked-up-only kinds.
  make_tag_urn: { kind: 'tag', params: ['tag'], name: 'tag' },
  make_user_urn: { kind: 'corpuser', params: ['username'], name: 'username' },
  make_group_urn: { kind: 'corpGroup', params: ['groupname'], name: 'groupname' },
  make_term_urn: { kind: 'glossaryTerm', params: ['term'], name: 'term' },
  make_domain_urn: { kind: 'domain', params: ['domain'], name: 'domain' },
  make_container_urn: { kind: 'container', params: ['guid'], name: 'guid' },
  make_data_flow_urn: {
    kind: 'dataFlow',
    params: ['orchestrator', 'flow_id', 'cluster', 'platform_instance'],
    name: 'flow_id',
    field: 'flowId',
    key: { orchestrator: 'orchestrator', cluster: 'cluster' },
  },
  make_data_job_urn: {
    kind: 'dataJob',
    params: ['orchestrator', 'flow_id', 'job_id', 'cluster', 'platform_instance'],
    name: 'job_id',
    field: 'jobId',
    key: { orchestrator: 'flow.orchestrator', flow_id: 'flow.flowId', cluster: 'flow.cluster' },
  },
  make_data_job_urn_with_flow: {
    kind: 'dataJob',
    params: ['flow_urn', 'job_id'],
    name: 'job_id',
    field: 'jobId',
    key: { flow_urn: 'flow' },
  },
  make_chart_urn: {
    kind: 'chart',
    params: ['platform', 'name', 'platform_instance'],
    name: 'name',
    field: 'chartId',
    key: { platform: 'dashboardTool' },
  },
  make_dashboard_urn: {
    kind: 'dashboard',
    params: ['platform', 'name', 'platform_instance'],
    name: 'name',
    field: 'dashboardId',
    key: { platform: 'dashboardTool' },
  },
  // The class methods of datahub.metadata.urns that build these URNs from ids (avro_codegen.py).
  'DataFlowUrn.create_from_ids': {
    kind: 'dataFlow',
    params: ['orchestrator', 'flow_id', 'env', 'platform_instance'],
    name: 'flow_id',
    field: 'flowId',
    key: { orchestrator: 'orchestrator', env: 'cluster' },
  },
  'DataJobUrn.create_from_ids': {
    kind: 'dataJob',
    params: ['data_flow_urn', 'job_id'],
    name: 'job_id',
    field: 'jobId',
    key: { data_flow_urn: 'flow' },
  },
  'CorpUserUrn.create_from_id': { kind: 'corpuser', params: ['id'], name: 'id' },
  'CorpGroupUrn.create_from_id': { kind: 'corpGroup', params: ['id'], name: 'id' },
  'DomainUrn.create_from_id': { kind: 'domain', params: ['id'], name: 'id' },
  'TagUrn.create_from_id': { kind: 'tag', params: ['id'], name: 'id' },
  // datahub.sdk (v2) DataFlow: keyword arguments → DataFlowUrn.create_from_ids(orchestrator=platform, flow_id=name, env=env).
  DataFlow: {
    kind: 'dataFlow',
    params: ['name', 'platform', 'platform_instance', 'env'],
    name: 'name',
    field: 'flowId',
    key: { platform: 'orchestrator', env: 'cluster' },
  },
  make_ml_primary_key_urn: {
    kind: 'mlPrimaryKey',
    params: ['feature_table_name', 'primary_key_name'],
    name: 'primary_key_name',
    field: 'name',
    key: { feature_table_name: 'featureNamespace' },
  },
};

/**
 * The index of the key field that is an entity's own name: the last, or the one before the last
 * of three or more (`(orchestrator,flowId,cluster)`), as displayId reads a tuple.
 */
function ownField(count: number): number {
  return count > 2 ? count - 2 : count - 1;
}

/**
 * The URN classes of the looked-up-only kinds (Python's datahub.metadata.urns and Java's
 * li-utils classes), read from urnClasses.ts: their parameters are the key's fields in order, the
 * name the entity's own field, the others filter.
 */
function urnClassCalls(): Record<string, NameCall> {
  const out: Record<string, NameCall> = {};
  const add = (className: string, entityType: string, params: readonly string[]): void => {
    const fields = ENTITY_REGISTRY.get(entityType)?.fields;
    if (!isViewKind(entityType) || !fields || fields.length !== params.length || NAME_CALLS[className]) return;
    const own = ownField(fields.length);
    const key: Record<string, string> = {};
    params.forEach((p, i) => {
      if (i !== own) key[p] = fields[i]!.name;
    });
    out[className] = { kind: entityType, params, name: params[own]!, field: fields[own]!.name, key };
  };
  for (const [className, c] of Object.entries(PY_URN_CLASSES))
    add(
      className,
      c.entityType,
      c.fields.map(([name]) => name),
    );
  for (const [className, c] of Object.entries(JAVA_URN_CLASSES))
    if (!out[className])
      add(
        className,
        c.entityType,
        (ENTITY_REGISTRY.get(c.entityType)?.fields ?? []).map((f) => f.name).slice(0, c.params.length),
      );
  return out;
}

const CLASS_CALLS: Readonly<Record<string, NameCall>> = urnClassCalls();

/** The call named `callee` (`datahub.emitter.mce_builder.make_tag_urn` as `make_tag_urn`). */
function nameCall(callee: string): NameCall | undefined {
  const short = callee.slice(callee.lastIndexOf('.') + 1);
  for (const table of [NAME_CALLS, CLASS_CALLS]) {
    if (Object.hasOwn(table, callee)) return table[callee];
    if (Object.hasOwn(table, short)) return table[short];
  }
  return undefined;
}

/** How far back a call's start is looked for. */
const LOOK_BACK = 1500;

/** An argument that is a call of its own (`DataFlowUrn("airflow", "etl", "PROD")`): read past, its value unknown. */
const NESTED_CALL = String.raw`[A-Za-z_][\w.]*\s*\((?:[^()"'\n]|"[^"\n]*"|'[^'\n]*')*\)`;
const ARG = String.raw`\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:"[^"\n]*"|'[^'\n]*'|[\w.]+|new\s+\w+\s*\(\s*"[^"\n]*"\s*\)|${NESTED_CALL})\s*`;
const CALL_RE = new RegExp(
  String.raw`(?:^|[^\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s*\(((?:${ARG},)*)\s*(?:([A-Za-z_]\w*)\s*=\s*)?(["'])([^"'\\\n]*)$`,
);
const ARG_RE = new RegExp(
  String.raw`\s*(?:([A-Za-z_]\w*)\s*=\s*)?(?:"([^"\n]*)"|'([^'\n]*)'|([\w.]+)|new\s+\w+\s*\(\s*"([^"\n]*)"\s*\)|${NESTED_CALL})\s*,`,
  'y',
);

/** `urn:li:dataPlatform:hive` (any word) or `hive` → `hive`. */
function platformOf(value: string): string {
  const m = /^urn:[^:]+:dataPlatform:(.+)$/.exec(value);
  return m ? m[1]! : value;
}

/**
 * The slot at `offset` of `text`, when a name is being written there; `namespaces` are the words
 * URN literals are recognised in.
 */
export function nameSlotAt(
  text: string,
  offset: number,
  namespaces: readonly string[],
  languageId: string,
): NameSlot | undefined {
  const start = Math.max(0, offset - LOOK_BACK);
  const before = text.slice(start, offset);
  const after = text.slice(offset, offset + 300);
  const slot =
    literalSlot(before, after, offset, namespaces) ??
    viewLiteralSlot(before, after, offset, namespaces) ??
    callSlot(before, after, offset) ??
    (YAML_LANGUAGES.has(languageId) ? yamlSlot(text, offset) : undefined);
  return (
    slot && {
      ...slot,
      destination: destinationAt(text, slot.insert === 'urn' ? slot.from : offset - slot.typed.length, languageId),
    }
  );
}

/** What a name in a URN literal may hold. */
const LITERAL_NAME = String.raw`[^,()\s'"\x60]*`;
/** The rest of a URN literal after the cursor: what an item replaces too. */
const LITERAL_REST = new RegExp(String.raw`^${LITERAL_NAME}(?:,[A-Za-z_]*)?\)?`);

interface LiteralRes {
  /** A dataset or ML entity's name after its platform. */
  tuple: RegExp;
  /** A feature's name after its feature table. */
  feature: RegExp;
  /** The outermost URN of any kind before the cursor. */
  view: RegExp;
}

/** The expressions of literalSlot and viewLiteralSlot for one list of namespaces, made once per list. */
const literalResOf = new Map<string, LiteralRes | undefined>();
function literalRes(namespaces: readonly string[]): LiteralRes | undefined {
  const nsAlt = namespaces.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  if (literalResOf.has(nsAlt)) return literalResOf.get(nsAlt);
  const res = nsAlt
    ? {
        tuple: new RegExp(
          String.raw`urn:(${nsAlt}):(dataset|mlModel|mlModelGroup|mlFeatureTable):\(urn:\1:dataPlatform:([^,()\s]+),(${LITERAL_NAME})$`,
        ),
        feature: new RegExp(String.raw`urn:(${nsAlt}):mlFeature:\(([^,()\s]+),(${LITERAL_NAME})$`),
        view: new RegExp(String.raw`(?:^|[^\w:(,.])(urn:(${nsAlt}):([A-Za-z]\w*):([^\s'"\x60[\]{}<>]*))$`),
      }
    : undefined;
  // A handful of lists in a session (one per settings scope); cleared past 32 to stay small.
  if (literalResOf.size > 32) literalResOf.clear();
  literalResOf.set(nsAlt, res);
  return res;
}

function literalSlot(
  before: string,
  after: string,
  offset: number,
  namespaces: readonly string[],
): Omit<NameSlot, 'destination'> | undefined {
  const res = literalRes(namespaces);
  if (!res) return undefined;
  // The rest of the URN after the cursor: what an item replaces too.
  const rest = LITERAL_REST.exec(after)?.[0].length ?? 0;
  const slot = (
    m: RegExpExecArray,
    kind: LookupKind,
    part: { platform: string } | { table: string },
  ): Omit<NameSlot, 'destination'> => ({
    kind,
    typed: m[m.length - 1]!,
    ...part,
    from: offset - m[0].length,
    to: offset + rest,
    insert: 'urn',
    ns: m[1]!,
  });
  const m = res.tuple.exec(before);
  if (m) return slot(m, m[2] as LookupKind, { platform: m[3]! });
  const f = res.feature.exec(before);
  if (f) return slot(f, 'mlFeature', { table: f[2]! });
  return undefined;
}

/**
 * A URN literal of a looked-up-only kind being written (`urn:li:tag:pi`, `urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),lo`):
 * the outermost URN before the cursor, its kind a row of kinds.ts with a `view`. The query is
 * what is typed of the id (of a tuple id, its last part); the items write the whole URN.
 */
function viewLiteralSlot(
  before: string,
  after: string,
  offset: number,
  namespaces: readonly string[],
): Omit<NameSlot, 'destination'> | undefined {
  const res = literalRes(namespaces);
  if (!res) return undefined;
  const m = res.view.exec(before);
  if (!m || !isViewKind(m[3]!)) return undefined;
  const kind = m[3];
  const id = m[4]!;
  const tuple = (ENTITY_REGISTRY.get(kind)?.fields.length ?? 1) > 1;
  let depth = 0;
  if (tuple) {
    if (id !== '' && !id.startsWith('(')) return undefined;
    for (const c of id) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    // A tuple closed before the cursor is a URN already written.
    if (id !== '' && depth <= 0) return undefined;
  } else if (/[(),]/.test(id)) return undefined;
  const typed = tuple ? (/[^(,:]*$/.exec(id)?.[0] ?? '') : id;
  let rest = 0;
  if (tuple) {
    for (let d = depth; rest < after.length;) {
      const c = after[rest]!;
      if (/[\s'"`[\]{}<>]/.test(c)) break;
      rest++;
      if (c === '(') d++;
      else if (c === ')' && --d <= 0) break;
    }
  } else {
    rest = /^[^\s'"`,()[\]{}<>]*/.exec(after)![0].length;
  }
  const whole = m[1]!;
  return {
    kind,
    typed,
    lead: whole.slice(0, whole.length - typed.length),
    from: offset - whole.length,
    to: offset + rest,
    insert: 'urn',
    ns: m[2]!,
  };
}

/**
 * The YAML keys whose values name entities of looked-up-only kinds, as DataHub's YAML files
 * (dataset, data product, glossary) write them: a bare name (`tags: [pii]`, `owners: [jdoe]`)
 * or a URN.
 */
const YAML_KEYS: Readonly<Record<string, readonly LookupKind[]>> = {
  owners: ['corpuser', 'corpGroup'],
  tags: ['tag'],
  glossary_terms: ['glossaryTerm'],
  glossaryTerms: ['glossaryTerm'],
  terms: ['glossaryTerm'],
  domain: ['domain'],
};

/**
 * What a bare value of a key takes other than an id: a bare owner is a user (DataHub's YAML reads
 * it with make_user_urn), so a group is written as its URN; `domain` takes a domain's name or URN
 * (DataHub's DomainRegistry resolves the name), never its id.
 */
const YAML_WRITES: Readonly<Record<string, NonNullable<NameSlot['writes']>>> = {
  owners: { corpGroup: 'urn' },
  domain: { domain: 'displayName' },
};

const YAML_KEY_LINE = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:\s*(?:#.*)?$/;

/** The indentation of a line (spaces). */
function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

/**
 * The key whose list holds the item whose `-` stands at column `dash` of line `at`: the nearest
 * line above, not deeper, that is a key with no value of its own (sibling items passed over).
 */
function keyOfList(lines: readonly string[], at: number, dash: number): string | undefined {
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const indent = indentOf(line);
    if (indent > dash) continue;
    if (indent === dash && /^\s*-(?:\s|$)/.test(line)) continue;
    const k = YAML_KEY_LINE.exec(line);
    return k ? k[3] : undefined;
  }
  return undefined;
}

/**
 * A value under one of YAML_KEYS being written: `tags: [pi`, `domain: Mark`, a list item
 * `  - jd` under `owners:`, or an owner's `id:` in a list item under `owners:`. A value that
 * starts with `urn:` is a URN literal (viewLiteralSlot), not a name.
 */
function yamlSlot(text: string, offset: number): Omit<NameSlot, 'destination'> | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(lineStart, offset);
  const VALUE = String.raw`(["']?)([^"'[\]{},#\n]*)$`;
  const lines = text.slice(Math.max(0, lineStart - 20_000), lineStart).split('\n');
  const here = lines.length - 1;
  lines[here] = line;
  let key: string | undefined;
  let quote = '';
  let typed = '';
  const keyed = new RegExp(String.raw`^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:\s+(?:\[(?:[^\]\n]*,)?\s*)?${VALUE}`).exec(
    line,
  );
  const item = new RegExp(String.raw`^(\s*)-\s+${VALUE}`).exec(line);
  if (keyed) {
    [, , , key, quote = '', typed = ''] = keyed;
    if (key === 'id') {
      // An owner written as a mapping: `- id: jdoe` (or `id:` on a later line of the item).
      const dash = keyed[2] ? keyed[1]!.length : itemDashAbove(lines, here, keyed[1]!.length);
      key = dash !== undefined && keyOfList(lines, here, dash) === 'owners' ? 'owners' : undefined;
    }
  } else if (item) {
    [, , quote = '', typed = ''] = item;
    key = keyOfList(lines, here, item[1]!.length);
  }
  if (key === undefined || !Object.hasOwn(YAML_KEYS, key)) return undefined;
  if (/^urn:|: /.test(typed) || (quote === '' && typed.startsWith(' '))) return undefined;
  const kinds = YAML_KEYS[key]!.filter((k) => isViewKind(k));
  if (kinds.length === 0) return undefined;
  const rest = (quote ? new RegExp(`^[^${quote}\\n]*`) : /^[^,\]}\n#]*/).exec(text.slice(offset, offset + 300))![0];
  return {
    kind: kinds[0]!,
    ...(kinds.length > 1 ? { kinds } : {}),
    typed,
    from: offset - typed.length,
    to: offset + (quote ? rest.length : rest.trimEnd().length),
    insert: 'name',
    ns: 'li',
    ...(Object.hasOwn(YAML_WRITES, key) ? { writes: YAML_WRITES[key] } : {}),
  };
}

/** The column of the `-` of the list item that a key at column `indent` of line `at` continues. */
function itemDashAbove(lines: readonly string[], at: number, indent: number): number | undefined {
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const d = /^(\s*)-\s+/.exec(line);
    if (indentOf(line) < indent) return d && d[0].length === indent ? d[1]!.length : undefined;
  }
  return undefined;
}

function callSlot(before: string, after: string, offset: number): Omit<NameSlot, 'destination'> | undefined {
  const m = CALL_RE.exec(before);
  if (!m) return undefined;
  const callee = m[1]!;
  const call = nameCall(callee);
  if (!call) return undefined;
  // The arguments before this one: positional ones fill the parameters in order, keywords by name.
  const values = new Map<string, string>();
  let positional = 0;
  const args = m[2]!;
  ARG_RE.lastIndex = 0;
  for (let a = ARG_RE.exec(args); a; a = ARG_RE.exec(args)) {
    const param = a[1] ?? call.params[positional++];
    const value = a[2] ?? a[3] ?? a[5];
    if (param !== undefined && value !== undefined) values.set(param, value);
  }
  const param = m[3] ?? call.params[positional];
  if (param !== call.name) return undefined;
  const quote = m[4]!;
  const typed = m[5]!;
  const rest = after.indexOf(quote);
  const tail = rest >= 0 && !after.slice(0, rest).includes('\n') ? rest : 0;
  const platform = call.platform !== undefined ? values.get(call.platform) : undefined;
  const table = call.table !== undefined ? values.get(call.table) : undefined;
  const key: Record<string, string> = {};
  for (const [p, field] of Object.entries(call.key ?? {})) {
    const v = values.get(p);
    if (v !== undefined) key[field] = v;
  }
  return {
    kind: call.kind,
    typed,
    ...(platform ? { platform: platformOf(platform) } : {}),
    ...(table ? { table } : {}),
    ...(call.field ? { field: call.field } : {}),
    ...(Object.keys(key).length > 0 ? { key } : {}),
    from: offset - typed.length,
    to: offset + tail,
    insert: 'name',
    ns: 'li',
  };
}

/** The name as the URN spells it (DataHub's reserved-character escapes kept): what a builder argument takes. */
function spelledName(urn: Urn): string | undefined {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return urn.name;
    case 'mlFeatureTable':
      return urn.table;
    case 'mlFeature':
      return urn.feature;
    default:
      return undefined;
  }
}

/** Whether `urn` fits the slot: its platform and feature table (a catalog may ignore a filter). */
function fits(slot: NameSlot, urn: Urn): boolean {
  if (slot.platform !== undefined && 'platform' in urn && urn.kind !== 'dataPlatform' && urn.platform !== slot.platform)
    return false;
  if (slot.table !== undefined && (urn.kind !== 'mlFeature' || urn.table !== slot.table)) return false;
  return true;
}

/**
 * The completion items of what the catalog found for `slot`, in the catalog's order; `range` is
 * the slot's. An item is offered only for a well-formed URN of the slot's kind whose text the
 * slot's literal can hold as it is (model/src/insertion.ts); `refused` hears of every other one.
 * The label is the name exactly as it is inserted. The items' documentation is made when they are
 * answered (completionShape.ts documentedLater).
 */
export function nameItems(
  slot: NameSlot,
  found: readonly SearchItem[],
  range: Range,
  refused: (urn: string, reason: string) => void = () => {},
): CompletionItem[] {
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const kind = slot.kind;
  if (!isCatalogKind(kind)) return items;
  for (const item of found) {
    const accepted = acceptCatalogUrn(item.urn, [kind]);
    if (!accepted.ok) {
      refused(item.urn, accepted.reason);
      continue;
    }
    if (!fits(slot, accepted.urn)) continue;
    const urn = printUrn(withNamespace(accepted.urn, slot.ns));
    const name = spelledName(accepted.urn);
    if (name === undefined) continue;
    const written = insertionFor(slot.insert === 'urn' ? urn : name, slot.destination);
    if (!written.ok) {
      refused(item.urn, written.reason);
      continue;
    }
    const newText = written.text;
    if (seen.has(newText)) continue;
    seen.add(newText);
    const where = item.platform ?? (accepted.urn.kind === 'mlFeature' ? accepted.urn.table : undefined);
    const shownWhere = where ? inertText(where, 'plain', 60) : undefined;
    const kindShown = kindWord(item.kind);
    items.push(
      documentedLater(
        {
          label: name,
          kind: CompletionItemKind.Reference,
          detail: shownWhere ? `${shownWhere} ${kindShown}` : kindShown,
          labelDetails: { description: shownWhere ?? kindShown },
          // The catalog ranked them: that order, as the editor sorts by sortText.
          sortText: String(items.length).padStart(4, '0'),
          filterText: newText,
          textEdit: { range, newText },
        },
        () => entityDocumentation(item.description, urn),
      ),
    );
  }
  return items;
}

/**
 * An item's documentation: the description the catalog holds (made inert) and the URN. Made only
 * when the item is answered with it, or resolved (completionShape.ts).
 */
function entityDocumentation(description: string | undefined, urn: string): MarkupContent {
  const shown = description ? inertText(description, 'markdown', 600) : '*No description in the catalog.*';
  return { kind: 'markdown', value: `${shown}\n\n\`${urn.replace(/`/g, '')}\`` };
}

/**
 * A looked-up-only entity's key, by DataHub's key field names (registry.ts), with the fields of a
 * nested URN under its field's name: `flow`, `flow.orchestrator`, `flow.flowId`, `jobId`.
 */
function keyValues(urn: Urn): Map<string, string> {
  const out = new Map<string, string>();
  const fields = ENTITY_REGISTRY.get(entityTypeOf(urn))?.fields ?? [];
  const id = urn.kind === 'other' ? urn.id : entityName(urn);
  const parts = fields.length > 1 && id.startsWith('(') ? tupleParts(id) : [id];
  fields.forEach((f, i) => {
    const v = parts[i];
    if (v === undefined) return;
    out.set(f.name, v);
    const nested = f.type === 'urn' ? parseUrn(v) : undefined;
    if (nested?.ok) for (const [k, x] of keyValues(nested.urn)) out.set(`${f.name}.${k}`, x);
  });
  return out;
}

/** Whether an entity's key has the values the slot's other arguments give (a platform as its name or URN). */
function fitsKey(slot: NameSlot, values: ReadonlyMap<string, string>): boolean {
  return Object.entries(slot.key ?? {}).every(([field, want]) => {
    const have = values.get(field);
    return have !== undefined && platformOf(have) === platformOf(want);
  });
}

/**
 * The completion items of the looked-up-only entities the catalog found for `slot` (users,
 * groups, tags, terms …), in the catalog's order: labelled with the name DataHub's UI shows (the
 * id when there is none), detailed with the kind and id, written as the slot takes it (the whole
 * URN in a URN literal, else the id or the key field the call takes; a group among owners as its
 * URN). The filter text holds the display name and the id, so typing either finds the entity (a
 * domain or container by its name, not its GUID). Every text goes through insertionFor;
 * `refused` hears of what cannot be written.
 */
export function namedItems(
  slot: NameSlot,
  found: readonly NamedItem[],
  range: Range,
  refused: (urn: string, reason: string) => void = () => {},
): CompletionItem[] {
  const kinds: readonly string[] = slot.kinds ?? [slot.kind];
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const item of found) {
    const accepted = acceptCatalogUrn(item.urn);
    if (!accepted.ok) {
      refused(item.urn, accepted.reason);
      continue;
    }
    const type = entityTypeOf(accepted.urn);
    if (!kinds.includes(type) || !isViewKind(type)) {
      refused(item.urn, `it names a ${type}, not a ${kinds.join(' or ')}`);
      continue;
    }
    const values = keyValues(accepted.urn);
    if (!fitsKey(slot, values)) continue;
    const urn = printUrn(withNamespace(accepted.urn, slot.ns));
    const id = accepted.urn.kind === 'other' ? accepted.urn.id : entityName(accepted.urn);
    const writes = slot.insert === 'urn' ? 'urn' : slot.writes?.[type];
    // What the slot takes, first choice first: a display name the place cannot hold as it is falls back to the URN.
    const candidates =
      writes === 'urn'
        ? [urn]
        : writes === 'displayName'
          ? [...(item.displayName ? [item.displayName] : []), urn]
          : [slot.field !== undefined ? values.get(slot.field) : id];
    let written: ReturnType<typeof insertionFor> | undefined;
    for (const value of candidates) {
      if (value === undefined) continue;
      written = insertionFor(value, slot.destination);
      if (written.ok) break;
    }
    if (!written) continue;
    if (!written.ok) {
      refused(item.urn, written.reason);
      continue;
    }
    const newText = written.text;
    if (seen.has(newText)) continue;
    seen.add(newText);
    const shown = item.displayName ? inertText(item.displayName, 'plain', 80) : undefined;
    const label = shown ?? (slot.insert === 'urn' ? inertText(displayId(accepted.urn), 'plain', 80) : newText);
    const kindLabel = lookupLabels(type).label;
    const named = shown && shown !== newText ? `${shown} ` : '';
    const lead = slot.lead ?? '';
    const filterText =
      slot.insert === 'urn'
        ? newText.startsWith(lead)
          ? `${lead}${named}${newText.slice(lead.length)}`
          : newText
        : `${named}${newText}`;
    items.push(
      documentedLater(
        {
          label,
          kind: CompletionItemKind.Reference,
          detail: `${kindLabel} ${inertText(id, 'plain', 120)}`,
          labelDetails: { description: kindLabel },
          // The catalog ranked them: that order, as the editor sorts by sortText.
          sortText: String(items.length).padStart(4, '0'),
          filterText,
          textEdit: { range, newText },
        },
        () => entityDocumentation(item.description, urn),
      ),
    );
  }
  return items;
}
