/** The GraphQL documents the catalog tests send; each is valid against DataHub's schema. */

export const DATASET_QUERY = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn type name exists description
    platform { urn name }
    properties { name qualifiedName description customProperties { key value } }
    editableProperties { description }
    schemaMetadata { name platformUrn fields { fieldPath description nativeDataType type nullable } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
    institutionalMemory { elements { url description label author { urn username } created { time actor } } }
  }
}`;

/** What the language server asks for a dataset (its read shape plus DataHub's edited descriptions). */
export const DATASET_DESCRIPTIONS = `query datasetDescriptions($urn: String!) {
  dataset(urn: $urn) {
    urn
    properties { description }
    editableProperties { description }
    schemaMetadata { fields { fieldPath description } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
  }
}`;

export const MLFEATURE_QUERY = `query feature($urn: String!) {
  mlFeature(urn: $urn) {
    urn type name featureNamespace description dataType exists
    properties { description dataType version { versionTag } sources { urn name platform { name } } }
  }
}`;

export const MLFEATURE_TABLE_QUERY = `query featureTable($urn: String!) {
  mlFeatureTable(urn: $urn) {
    urn type name description
    platform { urn name }
    properties { description mlFeatures { urn name featureNamespace exists } }
  }
}`;

export const MLMODEL_QUERY = `query model($urn: String!) {
  mlModel(urn: $urn) {
    urn type name description
    platform { urn name }
    properties {
      description version type mlFeatures
      groups { urn name }
      trainingMetrics { name description value }
      hyperParams { name description value }
    }
  }
}`;

export const MLMODEL_GROUP_QUERY = `query modelGroup($urn: String!) {
  mlModelGroup(urn: $urn) {
    urn type name description
    platform { urn name }
    properties { description }
  }
}`;

export const ENTITY_EXISTS = `query exists($urn: String!) { entityExists(urn: $urn) }`;

export const ENTITY_QUERY = `query entity($urn: String!) {
  entity(urn: $urn) {
    urn type
    ... on Dataset { name }
    ... on MLFeature { name featureNamespace }
    ... on MLModel { name }
  }
}`;

export const UPDATE_DATASET = `mutation updateDataset($urn: String!, $input: DatasetUpdateInput!) {
  updateDataset(urn: $urn, input: $input) {
    urn
    properties { description }
    editableProperties { description }
    institutionalMemory { elements { url description author { urn } created { time actor } } }
  }
}`;

export const UPDATE_DESCRIPTION = `mutation updateDescription($input: DescriptionUpdateInput!) {
  updateDescription(input: $input)
}`;

const SELECTIONS: Record<string, string> = {
  dataset: 'urn properties { description } schemaMetadata { fields { fieldPath description } }',
  mlFeature: 'urn name featureNamespace description properties { description dataType version { versionTag } }',
  mlFeatureTable: 'urn name description platform { name } properties { description mlFeatures { name } }',
  mlModel: 'urn name description properties { description version type mlFeatures groups { urn name } }',
  mlModelGroup: 'urn name description platform { name } properties { description }',
};

/**
 * One document resolving many URNs, as the language server sends it: one aliased root field
 * per URN, each URN a variable.
 */
export function batchDocument(items: Array<{ kind: string; urn: string }>): {
  query: string;
  variables: Record<string, string>;
} {
  const defs = items.map((_, i) => `$u${i}: String!`).join(', ');
  const fields = items.map((it, i) => `  e${i}: ${it.kind}(urn: $u${i}) { ${SELECTIONS[it.kind]} }`).join('\n');
  const variables = Object.fromEntries(items.map((it, i) => [`u${i}`, it.urn]));
  return { query: `query resolveEntities(${defs}) {\n${fields}\n}`, variables };
}
