/**
 * What GraphQL returns for each kind (spec §2.4, with DataHub's field names and types from
 * `shared/fixtures/datahub-graphql`). Unset values are null; a model with no groups has `[]`.
 * `editableProperties` and `editableSchemaMetadata` are DataHub's edited descriptions, kept
 * apart from the ingested ones as DataHub does (notes §9); the ML kinds have one too (DataHub's
 * `editableMl…Properties` aspects, which its UI and updateDescription write: MLModelGroupMapper
 * `mapEditableProperties`, DescriptionUtils.updateMlModelGroupDescription).
 */
import { simplePath } from './fieldPath';

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

export interface GqlShapes {
  dataset: GqlDataset;
  mlFeature: GqlMlFeature;
  mlFeatureTable: GqlMlFeatureTable;
  mlModel: GqlMlModel;
  mlModelGroup: GqlMlModelGroup;
}

/** The description DataHub's UI shows: the edited one over the ingested one (notes §9). */
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
 * else one with the same simple path (spec §4.2 rule 5), else the ingested description.
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

function nonEmpty(s: string | null | undefined): string | undefined {
  return s !== null && s !== undefined && s.trim() !== '' ? s : undefined;
}

function firstByKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) if (!out.has(key(item))) out.set(key(item), item);
  return out;
}
