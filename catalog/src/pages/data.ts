/**
 * What the pages show, read from the store the APIs read (no copy, so a write shows on reload):
 * the catalog's entities with their names and shown descriptions for the list and search, one
 * entity's aspects, and the references to it (the tables holding a feature, a group's models).
 * Descriptions are chosen as the hovers choose them (model/src/readShapes.ts: the edited one over
 * the ingested one). The other kinds with pages (users, tags, terms, containers, jobs …) are named,
 * described and summed up as their hovers show them: the looked-up kinds through the same GraphQL
 * node the local catalog answers (graphql/viewShapes.ts) read at model/src/kinds.ts `view` paths,
 * any other kind by the `displayName`, `name` or `title` of its aspects. Lineage one hop each way
 * is read as the GraphQL `lineage` field answers it (graphql/contextShapes.ts), so a page counts
 * what the hover counts.
 */
import { EXISTENCE_ASPECTS, textOf, type AspectName } from '../../../model/src/aspects';
import { displayId } from '../../../model/src/entityNames';
import {
  CATALOG_KINDS,
  isCatalogKind,
  isLookupKind,
  isViewKind,
  kindLabels,
  LOOKUP_KINDS,
  lookupLabels,
  propertiesAspectOf,
  viewOf,
  type CatalogKind,
  type KindLabels,
} from '../../../model/src/kinds';
import { shownDatasetDescription, type GqlDataset } from '../../../model/src/readShapes';
import { decodePart, parseUrn, UI_PAGE_ENTITY_TYPES, type Urn } from '../../../model/src/urn';
import type { CompatMode } from '../compat';
import { contextFields } from '../graphql/contextShapes';
import { ReadContext } from '../graphql/readShapes';
import { viewNode } from '../graphql/viewShapes';
import type { NamespacePolicy } from '../namespaces';
import type { AspectStore, RawStoredAspect, StoredAspect } from '../store';

type Json = Record<string, unknown>;

export interface EntitySummary {
  /** The URN as stored (the canonical namespace word in the spec mode). */
  key: string;
  urn: Urn;
  /** The entity type (`dataset`, `corpuser`, `glossaryTerm` …). */
  entityType: string;
  name: string;
  description: string | null;
  /** Short platform name (`hive`), for the kinds whose URN holds one. */
  platform: string | undefined;
  /** What the hover lists beside the name (a term's parent nodes, a job's flow …), label and values. */
  facts?: Array<[string, string]>;
}

/**
 * The entity types with pages here, in the order the home page lists them: the catalog kinds, then
 * the other kinds the server looks up, then the other kinds DataHub's web UI has pages for
 * (model/src/urn.ts `uiPathSegment`). A column (`schemaField`) has its dataset's page.
 */
export const PAGE_ENTITY_TYPES: readonly string[] = [
  ...new Set<string>([...CATALOG_KINDS, ...LOOKUP_KINDS, ...UI_PAGE_ENTITY_TYPES]),
].filter((t) => t !== 'schemaField');

const PAGE_TYPES = new Set(PAGE_ENTITY_TYPES);

/** The page kinds that are not catalog kinds: stored as raw aspects, any aspect makes the entity. */
const OTHER_PAGE_TYPES: readonly string[] = PAGE_ENTITY_TYPES.filter((t) => !isCatalogKind(t));

/** Whether an entity type has pages here (a Set lookup: `constructor` is not one). */
export function hasPages(entityType: string): boolean {
  return PAGE_TYPES.has(entityType);
}

/** The entity type a URN names (`tag` for `urn:li:tag:x`). */
export function entityTypeOfUrn(urn: Urn): string {
  return urn.kind === 'other' ? urn.entityType : urn.kind;
}

/** How a kind with pages is named: kinds.ts's labels, else its type word in words (`dataProcessInstance` → `Data process instance`). */
export function kindLabelOf(entityType: string): KindLabels {
  if (isCatalogKind(entityType)) return kindLabels(entityType);
  if (isLookupKind(entityType)) return lookupLabels(entityType);
  const words = entityType
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return { label, plural: `${label}s`, word: words };
}

/**
 * The values at a dotted path (`a.b|c`, as model/src/kinds.ts `valuesAt`) of a GraphQL node whose
 * fields may be resolver functions (graphql/viewShapes.ts): each is called as the path reaches it.
 */
function resolvedValuesAt(node: unknown, path: string): string[] {
  for (const alternative of path.split('|')) {
    let here: unknown[] = [node];
    for (const step of alternative.split('.')) {
      here = here.flatMap((v) => {
        if (!isObject(v) || !Object.hasOwn(v, step)) return [];
        let next: unknown = v[step];
        if (typeof next === 'function') {
          try {
            next = (next as () => unknown)();
          } catch {
            return [];
          }
        }
        return Array.isArray(next) ? next : next === undefined || next === null ? [] : [next];
      });
    }
    const out = here.flatMap((v) =>
      typeof v === 'string' && v.trim() !== '' ? [v] : typeof v === 'number' && Number.isFinite(v) ? [String(v)] : [],
    );
    if (out.length > 0) return out;
  }
  return [];
}

/** The first value of an aspect field among `fields`, the editable aspects read first. */
function aspectField(raw: ReadonlyMap<string, RawStoredAspect>, fields: readonly string[]): string | undefined {
  const aspects = [...raw.values()].sort(
    (a, b) => Number(b.aspect.startsWith('editable')) - Number(a.aspect.startsWith('editable')),
  );
  for (const field of fields)
    for (const a of aspects) {
      const v = a.value[field];
      if (typeof v === 'string' && v.trim() !== '') return v;
    }
  return undefined;
}

const SUMMARY_ASPECTS: readonly AspectName[] = [
  ...CATALOG_KINDS.map((k) => propertiesAspectOf(k)),
  'editableDatasetProperties',
];

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/** The name a page shows: the properties' `name` where the kind has one, else the URN's own. */
export function nameOf(urn: Urn, props: Json | undefined): string {
  const named = str(props?.['name']);
  switch (urn.kind) {
    case 'dataset':
      return named || decodePart(urn.name);
    case 'mlFeature':
      return decodePart(urn.feature);
    case 'mlFeatureTable':
      return decodePart(urn.table);
    case 'mlModel':
    case 'mlModelGroup':
      return named || decodePart(urn.name);
    default:
      return '';
  }
}

/** The description DataHub's UI shows for this kind. */
export function descriptionOf(
  entityType: CatalogKind,
  aspects: ReadonlyMap<AspectName, Json | undefined>,
): string | null {
  const props = aspects.get(propertiesAspectOf(entityType));
  if (entityType !== 'dataset') {
    const d = textOf(props?.['description']);
    return d !== null && d.trim() !== '' ? d : null;
  }
  const editable = aspects.get('editableDatasetProperties');
  return shownDatasetDescription({
    urn: '',
    properties: props ? { description: textOf(props['description']) } : null,
    editableProperties: editable ? { description: textOf(editable['description']) } : null,
    schemaMetadata: null,
    editableSchemaMetadata: null,
  } satisfies GqlDataset);
}

export function platformOf(urn: Urn): string | undefined {
  return urn.kind === 'dataset' ||
    urn.kind === 'mlFeatureTable' ||
    urn.kind === 'mlModel' ||
    urn.kind === 'mlModelGroup'
    ? urn.platform
    : undefined;
}

/** One lineage hop: the entity's URN and DataHub's relationship name (`DownstreamOf`, `DerivedFrom`, `Consumes`). */
export interface LineageHop {
  urn: string;
  type: string;
}

/** Most entities a page lists per lineage direction (the GraphQL field's own bound). */
const LINEAGE_PAGE = 1000;

export class PageData {
  constructor(
    readonly store: AspectStore,
    readonly namespaces: NamespacePolicy,
    readonly compat: CompatMode,
  ) {}

  /** Whether the entity exists as the APIs say (spec: an aspect that creates it; DataHub mode: any aspect). */
  exists(key: string, entityType: CatalogKind, aspects = this.store.getAll(key)): boolean {
    if (this.compat === 'datahub') return aspects.size > 0 || this.store.hasAny(key);
    return EXISTENCE_ASPECTS[entityType].some((a) => aspects.has(a));
  }

  aspects(key: string): Map<AspectName, StoredAspect> {
    return this.store.getAll(key);
  }

  /** Every aspect stored for an entity, whatever its name (the Aspects section of a page). */
  rawAspects(key: string): Map<string, RawStoredAspect> {
    return this.store.getAllRaw(key);
  }

  /** Whether an entity of any kind with pages exists: a catalog kind as `exists`, another when any aspect is stored. */
  existsAny(key: string, urn: Urn): boolean {
    const type = entityTypeOfUrn(urn);
    if (isCatalogKind(type)) return this.exists(key, type);
    return hasPages(type) && this.store.hasAny(key);
  }

  /**
   * An entity of a kind that is not a catalog kind as its hover names it: the display name (else its
   * id), the description and the facts the hover lists.
   */
  otherSummary(
    key: string,
    requested: string,
    urn: Urn,
    raw: ReadonlyMap<string, RawStoredAspect> = this.store.getAllRaw(key),
  ): EntitySummary {
    const type = entityTypeOfUrn(urn);
    let name: string | undefined;
    let description: string | undefined;
    let facts: Array<[string, string]> = [];
    if (isViewKind(type)) {
      const view = viewOf(type);
      const node = viewNode(new ReadContext(this.store, this.namespaces, '', this.compat), requested, urn, type, key);
      name = view.name.map((p) => resolvedValuesAt(node, p)[0]).find((v) => v !== undefined);
      description = view.description.map((p) => resolvedValuesAt(node, p)[0]).find((v) => v !== undefined);
      facts = view.facts.flatMap(([label, path]): Array<[string, string]> => {
        const values = resolvedValuesAt(node, path);
        return values.length > 0 ? [[label, values.join(', ')]] : [];
      });
    } else {
      name = aspectField(raw, ['displayName', 'name', 'title']);
      description = aspectField(raw, ['description', 'definition']);
    }
    return {
      key,
      urn,
      entityType: type,
      name: name ?? displayId(urn),
      description: description ?? null,
      platform: undefined,
      facts,
    };
  }

  /** Summary of a URN of any kind with pages, and whether it exists; undefined for other kinds and what is not a URN. */
  summaryOf(text: string): { summary: EntitySummary; exists: boolean } | undefined {
    const parsed = parseUrn(text);
    const key = this.namespaces.keyOf(text);
    if (!parsed.ok || key === undefined) return undefined;
    if (isCatalogKind(parsed.urn.kind)) {
      const ref = this.reference(text);
      return ref && { summary: ref.summary, exists: ref.exists };
    }
    if (!hasPages(entityTypeOfUrn(parsed.urn))) return undefined;
    const raw = this.store.getAllRaw(key);
    return { summary: this.otherSummary(key, text, parsed.urn, raw), exists: raw.size > 0 };
  }

  /** Every entity of the catalog, by kind then name. */
  entities(): EntitySummary[] {
    const byKey = new Map<string, { entityType: CatalogKind; aspects: Map<AspectName, Json | undefined> }>();
    for (const row of this.store.listAspects(SUMMARY_ASPECTS)) {
      if (!isCatalogKind(row.entityType)) continue;
      let e = byKey.get(row.urn);
      if (!e) byKey.set(row.urn, (e = { entityType: row.entityType, aspects: new Map() }));
      e.aspects.set(row.aspect, row.value);
    }
    const out: EntitySummary[] = [];
    for (const [key, e] of byKey) {
      const exists =
        this.compat === 'datahub' ? e.aspects.size > 0 : EXISTENCE_ASPECTS[e.entityType].some((a) => e.aspects.has(a));
      const parsed = parseUrn(key);
      if (!exists || !parsed.ok) continue;
      out.push({
        key,
        urn: parsed.urn,
        entityType: e.entityType,
        name: nameOf(parsed.urn, e.aspects.get(propertiesAspectOf(e.entityType))),
        description: descriptionOf(e.entityType, e.aspects),
        platform: platformOf(parsed.urn),
      });
    }
    for (const { urn, entityType } of this.store.listKeys(OTHER_PAGE_TYPES)) {
      const parsed = parseUrn(urn);
      if (!parsed.ok || entityTypeOfUrn(parsed.urn) !== entityType) continue;
      out.push(this.otherSummary(urn, urn, parsed.urn));
    }
    return out.sort(
      (a, b) => a.entityType.localeCompare(b.entityType) || a.name.localeCompare(b.name) || a.key.localeCompare(b.key),
    );
  }

  /**
   * The entities whose `aspect` lists `targetKey` in its array `field` (a feature's tables and
   * models, a group's models), by name.
   */
  referrers(
    aspect: 'mlFeatureTableProperties' | 'mlModelProperties',
    field: 'mlFeatures' | 'groups',
    targetKey: string,
  ): EntitySummary[] {
    const out: EntitySummary[] = [];
    for (const row of this.store.listAspects([aspect], [aspect])) {
      if (!row.value || !isCatalogKind(row.entityType)) continue;
      if (!strings(row.value[field]).some((u) => this.namespaces.keyOf(u) === targetKey)) continue;
      const parsed = parseUrn(row.urn);
      if (!parsed.ok) continue;
      out.push({
        key: row.urn,
        urn: parsed.urn,
        entityType: row.entityType,
        name: nameOf(parsed.urn, row.value),
        description: descriptionOf(row.entityType, new Map([[aspect, row.value]])),
        platform: platformOf(parsed.urn),
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Summary of a URN held in an aspect (a feature of a table, a model's group), and whether it exists. */
  reference(text: string): { summary: EntitySummary; exists: boolean; props: Json | undefined } | undefined {
    const parsed = parseUrn(text);
    const key = this.namespaces.keyOf(text);
    if (!parsed.ok || key === undefined) return undefined;
    const entityType = parsed.urn.kind;
    if (!isCatalogKind(entityType)) return undefined;
    const stored = this.store.getAll(key);
    const values = new Map<AspectName, Json | undefined>([...stored].map(([n, a]) => [n, a.value]));
    return {
      summary: {
        key,
        urn: parsed.urn,
        entityType,
        name: nameOf(parsed.urn, values.get(propertiesAspectOf(entityType))),
        description: descriptionOf(entityType, values),
        platform: platformOf(parsed.urn),
      },
      exists: this.exists(key, entityType, stored),
      props: values.get(propertiesAspectOf(entityType)),
    };
  }

  /**
   * The entities one hop upstream and downstream of a catalog entity, as the GraphQL `lineage`
   * field answers them (the hover's counts): each URN once, with DataHub's relationship name.
   */
  lineage(key: string, requested: string, kind: CatalogKind): Record<'upstream' | 'downstream', LineageHop[]> {
    const ctx = new ReadContext(this.store, this.namespaces, '', this.compat);
    const field = contextFields(ctx, kind, requested, key)['lineage'] as (args: {
      input: { direction: 'UPSTREAM' | 'DOWNSTREAM'; count: number };
    }) => Json;
    const hops = (direction: 'UPSTREAM' | 'DOWNSTREAM'): LineageHop[] => {
      const answer = field({ input: { direction, count: LINEAGE_PAGE } });
      const rels = Array.isArray(answer['relationships']) ? answer['relationships'].filter(isObject) : [];
      return rels.flatMap((r) => {
        const urn = isObject(r['entity']) ? str(r['entity']['urn']) : undefined;
        return urn ? [{ urn, type: str(r['type']) ?? '' }] : [];
      });
    };
    return { upstream: hops('UPSTREAM'), downstream: hops('DOWNSTREAM') };
  }

  /**
   * The tags of each entity, on it or on one of its columns (`globalTags`, and the fields'
   * `globalTags` of `schemaMetadata` and `editableSchemaMetadata`): entity key → the tags' keys.
   */
  tagsByEntity(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    const add = (entity: string, tags: unknown): void => {
      if (!isObject(tags) || !Array.isArray(tags['tags'])) return;
      for (const t of tags['tags'].filter(isObject)) {
        const key = typeof t['tag'] === 'string' ? this.namespaces.keyOf(t['tag']) : undefined;
        if (key === undefined) continue;
        let set = out.get(entity);
        if (!set) out.set(entity, (set = new Set()));
        set.add(key);
      }
    };
    for (const { urn, value } of this.store.valuesOfAspect('globalTags')) add(urn, value);
    for (const [aspect, field] of [
      ['schemaMetadata', 'fields'],
      ['editableSchemaMetadata', 'editableSchemaFieldInfo'],
    ] as const)
      for (const { urn, value } of this.store.valuesOfAspect(aspect))
        if (isObject(value) && Array.isArray(value[field]))
          for (const f of value[field].filter(isObject)) add(urn, f['globalTags']);
    return out;
  }

  /**
   * The tags among `tagKeys` that `word` names: its id (`pii` of `urn:li:tag:pii`) or its stored
   * name, in any case, or its URN.
   */
  tagsNamed(word: string, tagKeys: Iterable<string>): Set<string> {
    const wanted = word.toLowerCase();
    const asUrn = this.namespaces.keyOf(word);
    const out = new Set<string>();
    for (const key of tagKeys) {
      if (key === asUrn) {
        out.add(key);
        continue;
      }
      const parsed = parseUrn(key);
      const id = parsed.ok && parsed.urn.kind === 'other' ? decodePart(parsed.urn.id) : '';
      if (id.toLowerCase() === wanted) out.add(key);
      else if (aspectField(this.store.getAllRaw(key), ['name'])?.toLowerCase() === wanted) out.add(key);
    }
    return out;
  }

  /** What a user did here: the links they added and the aspects last written as them. */
  byUser(userKey: string): {
    links: Array<{ entity: EntitySummary; url: string; label: string; time: number }>;
    changed: Array<{ entity: EntitySummary; aspect: AspectName; time: number }>;
  } {
    const links: Array<{ entity: EntitySummary; url: string; label: string; time: number }> = [];
    const changed: Array<{ entity: EntitySummary; aspect: AspectName; time: number }> = [];
    const summaries = new Map(this.entities().map((e) => [e.key, e]));
    const seen = new Map<string, boolean>();
    const isUser = (actor: unknown): boolean => {
      if (typeof actor !== 'string') return false;
      let is = seen.get(actor);
      if (is === undefined) seen.set(actor, (is = this.namespaces.keyOf(actor) === userKey));
      return is;
    };
    for (const row of this.store.listAspects(['institutionalMemory'])) {
      const entity = summaries.get(row.urn);
      if (!entity) continue;
      if (isUser(row.lastModified.actor)) changed.push({ entity, aspect: row.aspect, time: row.lastModified.time });
      const elements = row.value?.['elements'];
      if (!Array.isArray(elements)) continue;
      for (const el of elements.filter(isObject)) {
        const stamp = isObject(el['createStamp']) ? el['createStamp'] : {};
        if (!isUser(stamp['actor'])) continue;
        links.push({
          entity,
          url: str(el['url']) ?? '',
          label: textOf(el['description']) ?? '',
          time: typeof stamp['time'] === 'number' ? stamp['time'] : 0,
        });
      }
    }
    return { links, changed };
  }
}
