/**
 * DataHub's own YAML formats, key by key, as DataHub's models take them:
 * - the dataset file of `datahub dataset upsert -f`: the pydantic models of
 *   metadata-ingestion/src/datahub/api/entities/dataset/dataset.py (`Dataset`, `SchemaSpecification`,
 *   `SchemaFieldSpecification`, `Ownership`);
 * - the business glossary of the `datahub-business-glossary` source: the models of
 *   metadata-ingestion/src/datahub/ingestion/source/metadata/business_glossary.py
 *   (`BusinessGlossaryConfig`, `GlossaryNodeConfig`, `GlossaryTermConfig`, `Owners`, `KnowledgeCard`).
 * - the structured property definitions of `datahub properties upsert -f`: the `ConfigModel`s of
 *   metadata-ingestion/src/datahub/api/entities/structuredproperties/structuredproperties.py
 *   (`StructuredProperties`, `AllowedValue`, `TypeQualifierAllowedTypes`);
 * - the data product file of `datahub dataproduct upsert -f`: the models of
 *   metadata-ingestion/src/datahub/api/entities/dataproduct/dataproduct.py (`DataProduct`, read with
 *   `parse_obj_allow_extras`, so unknown keys are ignored; `Ownership`, `InstitutionMemory`,
 *   `InstitutionMemoryElement`).
 * A `BaseModel` ignores keys it does not know (a Warning: DataHub drops them silently); a
 * `ConfigModel` forbids them (an Error: DataHub refuses the file).
 */
import { FABRIC_TYPES } from '../../../model/src/urn';

export type LevelName =
  | 'dataset'
  | 'datasetSchema'
  | 'schemaField'
  | 'datasetOwner'
  | 'glossary'
  | 'glossaryNode'
  | 'glossaryTerm'
  | 'glossaryOwners'
  | 'knowledgeLink'
  | 'structuredProperty'
  | 'allowedValue'
  | 'typeQualifier'
  | 'dataProduct'
  | 'institutionalMemory'
  | 'institutionMemoryElement';

export type ValueShape = 'scalar' | 'list' | 'map' | 'any';

export interface KeySpec {
  doc: string;
  shape: ValueShape;
  /** The level of the mapping (or of each list item that is a mapping) under this key. */
  of?: LevelName;
  /** Allowed values, compared as DataHub compares them (ownership types: upper-cased). */
  values?: readonly string[];
  required?: boolean;
  /** Values completion offers where DataHub does not check them (envs, term sources). */
  suggested?: readonly string[];
  /** How `values` are compared: ownership types upper-cased or any `urn:li:` URN; property types lower-cased (with a Warning). */
  compare?: 'ownershipType' | 'lowerCased';
}

export interface LevelSpec {
  /** What DataHub's model is called, for messages and hovers. */
  model: string;
  keys: Readonly<Record<string, KeySpec>>;
  /** A `ConfigModel` (extra keys forbidden: DataHub refuses them) rather than a `BaseModel` (ignored). */
  strict: boolean;
}

/** OwnershipTypeClass's values: what `validate_ownership_type` accepts (upper-cased), or any `urn:li:` URN (CUSTOM). */
export const OWNERSHIP_TYPES: readonly string[] = [
  'CUSTOM',
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'DEVELOPER',
  'DATAOWNER',
  'DELEGATE',
  'PRODUCER',
  'CONSUMER',
  'STAKEHOLDER',
];

const TERM_SOURCES = ['INTERNAL', 'EXTERNAL'];

/** AllowedTypes of structuredproperties.py: what `check_allowed_type` takes once the type is lower-cased. */
export const PROPERTY_TYPES: readonly string[] = ['string', 'rich_text', 'number', 'date', 'urn'];

/** PropertyCardinality, the enum of StructuredPropertyDefinition's `cardinality`. */
export const CARDINALITIES: readonly string[] = ['SINGLE', 'MULTIPLE'];

const s = (doc: string, extra: Partial<KeySpec> = {}): KeySpec => ({ doc, shape: 'scalar', ...extra });
const list = (doc: string, extra: Partial<KeySpec> = {}): KeySpec => ({ doc, shape: 'list', ...extra });
const map = (doc: string, extra: Partial<KeySpec> = {}): KeySpec => ({ doc, shape: 'map', ...extra });

export const LEVELS: Readonly<Record<LevelName, LevelSpec>> = {
  dataset: {
    model: 'Dataset',
    strict: false,
    keys: {
      id: s('The dataset name on its platform (with `platform` and `env`, makes the URN when `urn` is absent).'),
      platform: s('The data platform, by name (`hive`) or as a `urn:li:dataPlatform:` URN.'),
      env: s('The environment (fabric) of the dataset URN. Default `PROD`.', { suggested: FABRIC_TYPES }),
      urn: s('The dataset URN; when absent, DataHub makes it from `platform`, `id` and `env`.'),
      description: s('The dataset description (datasetProperties).'),
      name: s('The display name. Default: `id`.'),
      schema: map('The schema: `fields` (and/or an `.avsc` `file`).', { of: 'datasetSchema' }),
      downstreams: list('Dataset URNs that get this dataset as an upstream (COPY lineage).'),
      properties: map('Custom properties, string to string.'),
      subtype: s('One subtype name.'),
      subtypes: list('Subtype names.'),
      tags: list('Tags, by name or `urn:li:tag:` URN.'),
      glossary_terms: list('Glossary terms, by id or `urn:li:glossaryTerm:` URN.'),
      owners: list('Owners: a user name (TECHNICAL_OWNER) or `{id, type}`.', { of: 'datasetOwner' }),
      structured_properties: map('Structured property values, by property id.'),
      external_url: s('A link to the dataset outside DataHub.'),
    },
  },
  datasetSchema: {
    model: 'SchemaSpecification',
    strict: false,
    keys: {
      file: s('An Avro schema file (`.avsc`) to read the fields from.'),
      fields: list('The schema fields.', { of: 'schemaField' }),
    },
  },
  schemaField: {
    model: 'SchemaFieldSpecification',
    strict: false,
    keys: {
      id: s('The field path (simple form); with the dataset URN it names the schemaField URN.'),
      urn: s('The schemaField URN; either `id` or `urn` must be present.'),
      structured_properties: map('Structured property values of the field, by property id.'),
      type: s('The field type.'),
      nativeDataType: s('The type as the platform names it.'),
      jsonPath: s('The JSON path of the field.'),
      nullable: s('Whether the field may be null.'),
      description: s('The field description.'),
      label: s('The field label.'),
      created: map('Audit stamp of creation.'),
      lastModified: map('Audit stamp of the last change.'),
      recursive: s('Whether the field is recursive.'),
      globalTags: list('Tags of the field, by name or URN.'),
      glossaryTerms: list('Glossary terms of the field, by id or URN.'),
      isPartOfKey: s('Whether the field is part of the key.'),
      isPartitioningKey: s('Whether the field is a partitioning key.'),
      jsonProps: map('Extra properties as JSON.'),
    },
  },
  datasetOwner: {
    model: 'Ownership',
    strict: true,
    keys: {
      id: s('The owner: a user name, or a `urn:li:corpuser:`/`urn:li:corpGroup:` URN.', { required: true }),
      type: s('The ownership type (TECHNICAL_OWNER, BUSINESS_OWNER …) or an `urn:li:ownershipType:` URN.', {
        required: true,
        values: OWNERSHIP_TYPES,
        compare: 'ownershipType',
      }),
    },
  },
  glossary: {
    model: 'BusinessGlossaryConfig',
    strict: true,
    keys: {
      version: s('The file format version: only `1` is supported.', { required: true, values: ['1'] }),
      source: s('Default `source_ref` of the terms.'),
      owners: map('Default owners of the nodes and terms: `users`, `groups`, `type`.', {
        shape: 'any',
        of: 'glossaryOwners',
        required: true,
      }),
      url: s('Default `source_url` of the terms.'),
      source_type: s('Default `term_source` of the terms. Default `INTERNAL`.', { suggested: TERM_SOURCES }),
      terms: list('Terms at the root of the glossary.', { of: 'glossaryTerm' }),
      nodes: list('Term groups (glossary nodes).', { of: 'glossaryNode' }),
    },
  },
  glossaryNode: {
    model: 'GlossaryNodeConfig',
    strict: true,
    keys: {
      id: s('The node id (or `urn:li:glossaryNode:` URN); default: the path of names joined by `.`.'),
      name: s('The node name: part of the path of everything under it.', { required: true }),
      description: s('The node definition.', { required: true }),
      owners: map('Owners of the node (default: the parent’s).', { shape: 'any', of: 'glossaryOwners' }),
      terms: list('Terms of this node.', { of: 'glossaryTerm' }),
      nodes: list('Child nodes.', { of: 'glossaryNode' }),
      knowledge_links: list('Links: `url` and `label`.', { of: 'knowledgeLink' }),
      custom_properties: map('Custom properties, string to string.'),
    },
  },
  glossaryTerm: {
    model: 'GlossaryTermConfig',
    strict: true,
    keys: {
      id: s('The term id (or `urn:li:glossaryTerm:` URN); default: the path of names joined by `.`.'),
      name: s('The term name: the last part of its path.', { required: true }),
      description: s('The term definition.', { required: true }),
      term_source: s('INTERNAL or EXTERNAL (default: the file’s `source_type`).', { suggested: TERM_SOURCES }),
      source_ref: s('Where the term comes from (default: the file’s `source`).'),
      source_url: s('A link to the term’s source (default: the file’s `url`).'),
      owners: map('Owners of the term (default: the parent’s).', { shape: 'any', of: 'glossaryOwners' }),
      inherits: list('Terms this one is a kind of (IsA), by path `Node.Term` or id.'),
      contains: list('Terms this one has (HasA), by path or id.'),
      values: list('Terms that are values of this one, by path or id.'),
      related_terms: list('Related terms, by path or id.'),
      custom_properties: map('Custom properties, string to string.'),
      knowledge_links: list('Links: `url` and `label`.', { of: 'knowledgeLink' }),
      domain: s('The domain of the term, by name or `urn:li:domain:` URN.'),
    },
  },
  glossaryOwners: {
    model: 'Owners',
    strict: true,
    keys: {
      type: s('The ownership type (default DEVELOPER), or an `urn:li:ownershipType:` URN.', {
        values: OWNERSHIP_TYPES,
        compare: 'ownershipType',
      }),
      typeUrn: s('An `urn:li:ownershipType:` URN for a custom type.'),
      users: list('User names (or URNs).'),
      groups: list('Group names (or URNs).'),
    },
  },
  knowledgeLink: {
    model: 'KnowledgeCard',
    strict: true,
    keys: {
      url: s('The link.'),
      label: s('What the link is.'),
    },
  },
  structuredProperty: {
    model: 'StructuredProperties',
    strict: true,
    keys: {
      id: s('The property id: the URN is `urn:li:structuredProperty:<id>` when `urn` is absent.'),
      urn: s('The property URN (`urn:li:structuredProperty:…`); either `id` or `urn` must be present.'),
      qualified_name: s('The qualified name; must be the id of the URN.'),
      type: s('The value type: string, rich_text, number, date or urn (lower-cased by DataHub).', {
        required: true,
        values: PROPERTY_TYPES,
        compare: 'lowerCased',
      }),
      value_entity_types: list('For type `urn`: the entity types the values may be.'),
      description: s('What the property means.'),
      display_name: s('The name shown in the UI.'),
      entity_types: list('The entity types the property applies to (`dataset`, `schemaField` …).'),
      cardinality: s('SINGLE (one value) or MULTIPLE.', { values: CARDINALITIES }),
      allowed_values: list('The values the property may take: `value` and `description`.', { of: 'allowedValue' }),
      type_qualifier: map('For type `urn`: `allowed_types`, the entity types of the values.', { of: 'typeQualifier' }),
      immutable: s('Whether a value, once set, may not change. Default false.'),
    },
  },
  allowedValue: {
    model: 'AllowedValue',
    strict: true,
    keys: {
      value: s('An allowed value.', { required: true }),
      description: s('What the value means.'),
    },
  },
  typeQualifier: {
    model: 'TypeQualifierAllowedTypes',
    strict: true,
    keys: {
      allowed_types: list('Entity types the values may be.', { required: true }),
    },
  },
  dataProduct: {
    model: 'DataProduct',
    strict: false,
    keys: {
      id: s('The data product id (or `urn:li:dataProduct:` URN).', { required: true }),
      domain: s('The domain, by name or `urn:li:domain:` URN: DataHub refuses a domain it cannot resolve.', {
        required: true,
      }),
      assets: list('URNs of the entities in the data product.'),
      display_name: s('The name shown in the UI.'),
      owners: list('Owners: a user name (TECHNICAL_OWNER) or `{id, type}`.', { of: 'datasetOwner' }),
      institutional_memory: map('Links: `elements`, each with `url` and `description`.', {
        of: 'institutionalMemory',
      }),
      description: s('The data product description.'),
      tags: list('Tags, by name or `urn:li:tag:` URN.'),
      terms: list('Glossary terms, by id or `urn:li:glossaryTerm:` URN.'),
      properties: map('Custom properties, string to string.'),
      external_url: s('A link to the data product outside DataHub.'),
      output_ports: list('Assets that are output ports: each must be in `assets`.'),
    },
  },
  institutionalMemory: {
    model: 'InstitutionMemory',
    strict: true,
    keys: {
      elements: list('The links.', { of: 'institutionMemoryElement' }),
    },
  },
  institutionMemoryElement: {
    model: 'InstitutionMemoryElement',
    strict: true,
    keys: {
      url: s('The link.', { required: true }),
      description: s('What the link is.', { required: true }),
    },
  },
};

/** Whether `value` is an ownership type DataHub takes (`validate_ownership_type`: any `urn:li:` URN, or an enum value in any case). */
export function isOwnershipType(value: string): boolean {
  return value.startsWith('urn:li:') || OWNERSHIP_TYPES.includes(value.toUpperCase());
}
