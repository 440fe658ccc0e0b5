/**
 * What GraphQL returns for each kind, with DataHub's field names and types (its schema:
 * datahub-graphql-core/src/main/resources/entity.graphql). Unset values are null; a model with no groups has `[]`.
 * `editableProperties` and `editableSchemaMetadata` are DataHub's edited descriptions, kept
 * apart from the ingested ones as DataHub does (EditableDatasetProperties.pdl: so ingestion cannot
 * overwrite what users wrote); the ML kinds have one too (DataHub's
 * `editableMl…Properties` aspects, which its UI and updateDescription write: MLModelGroupMapper
 * `mapEditableProperties`, DescriptionUtils.updateMlModelGroupDescription).
 */
import { simplePath } from './fieldPath';
import type { ViewKind } from './kinds';

export interface GqlPlatform {
  urn?: string;
  name: string;
}

/**
 * DataHub answers an object for any well-formed URN; `exists` (EntityExistsResolver) says whether
 * the entity was ever written. Null or absent (a catalog without the field): taken as existing.
 */
export interface GqlExists {
  exists?: boolean | null;
  /**
   * DataHub's `deprecation` (the entity's deprecation aspect; null when it has none). Asked with
   * every entity, since diagnostics flag deprecated ones; absent from a catalog that lacks the field.
   */
  deprecation?: GqlDeprecation | null;
}

export interface GqlDeprecation {
  deprecated: boolean;
  note?: string | null;
  decommissionTime?: number | null;
  replacement?: { urn: string } | null;
}

export interface GqlDataset extends GqlExists {
  urn: string;
  name?: string;
  platform?: GqlPlatform;
  properties: { name?: string; description: string | null } | null;
  editableProperties: { description: string | null } | null;
  schemaMetadata: {
    fields: Array<{ fieldPath: string; description: string | null; nativeDataType?: string | null }>;
  } | null;
  editableSchemaMetadata: { editableSchemaFieldInfo: Array<{ fieldPath: string; description: string | null }> } | null;
  /** DataHub's SiblingProperties: the entity's siblings, and whether it leads them. Absent from an older catalog. */
  siblings?: { isPrimary: boolean | null; siblings: Array<{ urn: string } | null> | null } | null;
}

export interface GqlMlFeature extends GqlExists {
  urn: string;
  name: string;
  featureNamespace: string;
  description: string | null;
  /** The edited description (DataHub's `editableMl…Properties`); absent from a catalog without it. */
  editableProperties?: { description: string | null } | null;
  properties: {
    description: string | null;
    dataType: string | null;
    version: { versionTag: string | null } | null;
  } | null;
}

export interface GqlMlFeatureTable extends GqlExists {
  urn: string;
  name: string;
  description: string | null;
  /** The edited description (DataHub's `editableMl…Properties`); absent from a catalog without it. */
  editableProperties?: { description: string | null } | null;
  platform: GqlPlatform;
  properties: { description: string | null; mlFeatures: Array<{ urn?: string; name: string } | null> | null } | null;
}

export interface GqlMlModel extends GqlExists {
  urn: string;
  name: string;
  description: string | null;
  /** The edited description (DataHub's `editableMl…Properties`); absent from a catalog without it. */
  editableProperties?: { description: string | null } | null;
  platform?: GqlPlatform;
  properties: {
    description: string | null;
    version: string | null;
    type: string | null;
    mlFeatures: string[] | null;
    groups: Array<{ urn: string; name: string } | null> | null;
  } | null;
}

export interface GqlMlModelGroup extends GqlExists {
  urn: string;
  name: string;
  description: string | null;
  /** The edited description (DataHub's `editableMl…Properties`); absent from a catalog without it. */
  editableProperties?: { description: string | null } | null;
  platform: GqlPlatform;
  properties: { description: string | null } | null;
}

/**
 * A looked-up-only kind's answer (users, tags, containers …: model/src/kinds.ts `view`): read
 * through its row's paths (kinds.ts valuesAt), so it needs no shape of its own.
 */
export interface GqlViewEntity extends GqlExists {
  urn: string;
  [field: string]: unknown;
}

export type GqlShapes = {
  dataset: GqlDataset;
  mlFeature: GqlMlFeature;
  mlFeatureTable: GqlMlFeatureTable;
  mlModel: GqlMlModel;
  mlModelGroup: GqlMlModelGroup;
} & { [K in ViewKind]: GqlViewEntity };

/**
 * The description DataHub's UI shows: the edited one over the ingested one
 * (`editableProperties?.description || properties?.description`).
 */
export function shownDatasetDescription(d: GqlDataset): string | null {
  return nonEmpty(d.editableProperties?.description) ?? nonEmpty(d.properties?.description) ?? null;
}

/**
 * The description DataHub's UI shows for an ML entity: the edited one over the ingested one
 * (`getAssetDescriptionDetails`: `editableProperties?.description || properties?.description`,
 * datahub-web-react/src/app/entityV2/shared/tabs/Documentation/utils.ts), else the top-level
 * `description` that DataHub's mappers copy from the properties aspect.
 */
export function shownMlDescription(e: {
  description: string | null;
  properties: { description: string | null } | null;
  editableProperties?: { description: string | null } | null;
}): string | null {
  return (
    nonEmpty(e.editableProperties?.description) ??
    nonEmpty(e.properties?.description) ??
    nonEmpty(e.description) ??
    null
  );
}

/**
 * Each column with the description DataHub's UI shows: the edited entry with the same path,
 * else one with the same simple path (fieldPath.ts), else the ingested description.
 * An edited entry that names another column exactly is not borrowed by simple path: a Kafka
 * key's `…[key=True]…id` must not describe the value's `…id`.
 */
export function shownColumns(d: GqlDataset): Array<{ fieldPath: string; description: string | null; edited: boolean }> {
  const infos = d.editableSchemaMetadata?.editableSchemaFieldInfo ?? [];
  const fields = d.schemaMetadata?.fields ?? [];
  const fieldPaths = new Set(fields.map((f) => f.fieldPath));
  const exact = firstByKey(infos, (e) => e.fieldPath);
  const bySimple = firstByKey(
    infos.filter((e) => !fieldPaths.has(e.fieldPath)),
    (e) => simplePath(e.fieldPath),
  );
  return fields.map((f) => {
    const edited = nonEmpty((exact.get(f.fieldPath) ?? bySimple.get(simplePath(f.fieldPath)))?.description);
    return {
      fieldPath: f.fieldPath,
      description: edited ?? nonEmpty(f.description) ?? null,
      edited: edited !== undefined,
    };
  });
}

/** A column's native type as the schema gives it (`bigint`, `varchar(20)`), null when it gives none. */
export function columnType(d: GqlDataset, fieldPath: string): string | null {
  return nonEmpty(d.schemaMetadata?.fields.find((f) => f.fieldPath === fieldPath)?.nativeDataType) ?? null;
}

function nonEmpty(s: string | null | undefined): string | undefined {
  return s !== null && s !== undefined && s.trim() !== '' ? s : undefined;
}

function firstByKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) if (!out.has(key(item))) out.set(key(item), item);
  return out;
}

/** The URNs of a dataset's siblings, as the catalog lists them. */
export function siblingUrns(d: GqlDataset): string[] {
  return (d.siblings?.siblings ?? []).flatMap((x) => (x && typeof x.urn === 'string' ? [x.urn] : []));
}

/**
 * A dataset as DataHub's UI shows it with its siblings (combineEntityDataWithSiblings,
 * datahub-web-react/src/app/entity/shared/siblingUtils.ts, merges the cohort field by field):
 * here, where the dataset's own description is empty, a sibling's fills it, and each column
 * without a description takes the sibling's for the same path; a dataset without a schema takes
 * the sibling's columns. Its own text always wins (the rule; DataHub's UI lets a primary
 * sibling's text win over a secondary's own). Siblings are tried primary first. `from` is the
 * sibling that filled something.
 */
export function withSiblings(d: GqlDataset, siblings: readonly GqlDataset[]): { entity: GqlDataset; from?: string } {
  if (siblings.length === 0) return { entity: d };
  const ordered = [...siblings].sort(
    (a, b) => Number(b.siblings?.isPrimary === true) - Number(a.siblings?.isPrimary === true),
  );
  let from: string | undefined;
  let description = shownDatasetDescription(d);
  if (!description) {
    for (const s of ordered) {
      const theirs = shownDatasetDescription(s);
      if (theirs) {
        description = theirs;
        from = s.urn;
        break;
      }
    }
  }
  const own = shownColumns(d);
  let columns: Array<{ fieldPath: string; description: string | null; nativeDataType?: string | null }>;
  if (own.length === 0 && d.schemaMetadata === null) {
    const sib = ordered.find((s) => shownColumns(s).length > 0);
    columns = sib
      ? shownColumns(sib).map((c) => ({
          fieldPath: c.fieldPath,
          description: c.description,
          nativeDataType: columnType(sib, c.fieldPath),
        }))
      : [];
    if (sib && columns.length > 0) from ??= sib.urn;
  } else {
    const types = new Map((d.schemaMetadata?.fields ?? []).map((f) => [f.fieldPath, f.nativeDataType ?? null]));
    columns = own.map((c) => {
      if (c.description)
        return { fieldPath: c.fieldPath, description: c.description, nativeDataType: types.get(c.fieldPath) ?? null };
      for (const s of ordered) {
        const theirs = findSiblingColumn(shownColumns(s), c.fieldPath);
        if (theirs?.description) {
          from ??= s.urn;
          return {
            fieldPath: c.fieldPath,
            description: theirs.description,
            nativeDataType: types.get(c.fieldPath) ?? null,
          };
        }
      }
      return { fieldPath: c.fieldPath, description: null, nativeDataType: types.get(c.fieldPath) ?? null };
    });
  }
  if (!from) return { entity: d };
  return {
    entity: {
      ...d,
      editableProperties: { description: description ?? null },
      schemaMetadata: columns.length > 0 || d.schemaMetadata ? { fields: columns } : null,
      editableSchemaMetadata: null,
    },
    from,
  };
}

/** A sibling's column for `fieldPath`: the same path, else the same simple path (a dbt model and its table spell v2 paths apart). */
function findSiblingColumn<T extends { fieldPath: string }>(cols: readonly T[], fieldPath: string): T | undefined {
  return (
    cols.find((c) => c.fieldPath === fieldPath) ?? cols.find((c) => simplePath(c.fieldPath) === simplePath(fieldPath))
  );
}
