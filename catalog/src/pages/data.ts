/**
 * What the pages show, read from the store the APIs read (no copy, so a write shows on reload):
 * the catalog's entities with their names and shown descriptions for the list and search, one
 * entity's aspects, and the references to it (the tables holding a feature, a group's models).
 * Descriptions are chosen as the hovers choose them (model/src/readShapes.ts: the edited one over
 * the ingested one).
 */
import { EXISTENCE_ASPECTS, textOf, type AspectName } from '../../../model/src/aspects';
import { CATALOG_KINDS, isCatalogKind, propertiesAspectOf, type CatalogKind } from '../../../model/src/kinds';
import { shownDatasetDescription, type GqlDataset } from '../../../model/src/readShapes';
import { decodePart, parseUrn, type Urn } from '../../../model/src/urn';
import type { CompatMode } from '../compat';
import type { NamespacePolicy } from '../namespaces';
import type { AspectStore, StoredAspect } from '../store';

type Json = Record<string, unknown>;

export interface EntitySummary {
  /** The URN as stored (the canonical namespace word in the spec mode). */
  key: string;
  urn: Urn;
  entityType: CatalogKind;
  name: string;
  description: string | null;
  /** Short platform name (`hive`), for the kinds whose URN holds one. */
  platform: string | undefined;
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
