/** How an entity is named to the user, shared by hover, diagnostics and messages. */
import { decodePart, type Urn } from '../../../model/src/urn';

export const KIND_LABELS: Record<Urn['kind'], string> = {
  dataset: 'Dataset',
  mlFeature: 'ML feature',
  mlFeatureTable: 'Feature table',
  mlModel: 'ML model',
  mlModelGroup: 'Model group',
  corpuser: 'User',
  dataPlatform: 'Data platform',
  schemaField: 'Schema field',
  other: 'Entity',
};

/** The entity's own name, as a person reads it. */
export function entityName(urn: Urn): string {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return decodePart(urn.name);
    case 'mlFeature':
      return decodePart(urn.feature);
    case 'mlFeatureTable':
      return decodePart(urn.table);
    case 'corpuser':
      return urn.user;
    case 'dataPlatform':
      return urn.platform;
    case 'schemaField':
      return decodePart(urn.fieldPath);
    case 'other':
      return urn.id;
  }
}

/** The parts of a URN as label/value rows (the hover shows them even when the catalog cannot answer). */
export function urnParts(urn: Urn): Array<[string, string]> {
  switch (urn.kind) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return [
        ['platform', urn.platform],
        ['name', decodePart(urn.name)],
        ['env', urn.env],
      ];
    case 'mlFeature':
      return [
        ['feature table', decodePart(urn.table)],
        ['feature', decodePart(urn.feature)],
      ];
    case 'mlFeatureTable':
      return [
        ['platform', urn.platform],
        ['feature table', decodePart(urn.table)],
      ];
    case 'corpuser':
      return [['user', urn.user]];
    case 'dataPlatform':
      return [['platform', urn.platform]];
    case 'schemaField':
      return [
        ['parent', urn.parent],
        ['field path', decodePart(urn.fieldPath)],
      ];
    case 'other':
      return [
        ['entity type', urn.entityType],
        ['id', urn.id],
      ];
  }
}
