/**
 * A catalog made up per input: entities of every kind holding hostile text, and errors with hostile
 * messages. `lookupIn` answers a URN with one of them (by a hash of the URN, so an input's answers
 * are stable), as the server's resolution cache would; code actions and hovers are given it as their lookup.
 */
import { isCatalogKind } from '../../../model/src/kinds';
import fc from 'fast-check';
import type {
  GqlDataset,
  GqlMlFeature,
  GqlMlFeatureTable,
  GqlMlModel,
  GqlMlModelGroup,
} from '../../../model/src/readShapes';
import { parseUrn } from '../../../model/src/urn';
import type { Resolution } from '../../../server/src/catalogClient/client';
import { catalogClientError, type CatalogClientError } from '../../../server/src/catalogClient/errors';
import { hostileText } from './fuzzInputs';

type Entity<T> = Omit<T, 'urn'>;

export interface SyntheticCatalog {
  datasets: Array<Entity<GqlDataset>>;
  features: Array<Entity<GqlMlFeature>>;
  tables: Array<Entity<GqlMlFeatureTable>>;
  models: Array<Entity<GqlMlModel>>;
  groups: Array<Entity<GqlMlModelGroup>>;
  errors: CatalogClientError[];
}

const text = hostileText;
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null });
const fieldPath = fc.oneof(
  fc.constantFrom(
    'user_id',
    'age',
    'email',
    'amount',
    '[version=2.0].[type=struct].[type=struct].device.[type=string].os',
    'x',
  ),
  text,
);
const platform = fc.record({ name: text });

const dataset: fc.Arbitrary<Entity<GqlDataset>> = fc.record({
  name: text,
  platform,
  properties: maybe(fc.record({ name: text, description: maybe(text) })),
  editableProperties: maybe(fc.record({ description: maybe(text) })),
  schemaMetadata: maybe(
    fc.record({
      fields: fc.array(fc.record({ fieldPath, description: maybe(text), nativeDataType: maybe(text) }), {
        maxLength: 20,
      }),
    }),
  ),
  editableSchemaMetadata: maybe(
    fc.record({
      editableSchemaFieldInfo: fc.array(fc.record({ fieldPath, description: maybe(text) }), { maxLength: 5 }),
    }),
  ),
});

const feature: fc.Arbitrary<Entity<GqlMlFeature>> = fc.record({
  name: text,
  featureNamespace: text,
  description: maybe(text),
  properties: maybe(
    fc.record({
      description: maybe(text),
      dataType: maybe(text),
      version: maybe(fc.record({ versionTag: maybe(text) })),
    }),
  ),
});

const member = fc.record({ urn: text, name: text });

const table: fc.Arbitrary<Entity<GqlMlFeatureTable>> = fc.record({
  name: text,
  description: maybe(text),
  platform,
  properties: maybe(
    fc.record({ description: maybe(text), mlFeatures: maybe(fc.array(maybe(member), { maxLength: 30 })) }),
  ),
});

const model: fc.Arbitrary<Entity<GqlMlModel>> = fc.record({
  name: text,
  description: maybe(text),
  platform,
  properties: maybe(
    fc.record({
      description: maybe(text),
      version: maybe(text),
      type: maybe(text),
      mlFeatures: maybe(fc.array(text, { maxLength: 30 })),
      groups: maybe(fc.array(maybe(member), { maxLength: 30 })),
    }),
  ),
});

const group: fc.Arbitrary<Entity<GqlMlModelGroup>> = fc.record({
  name: text,
  description: maybe(text),
  platform,
  properties: maybe(fc.record({ description: maybe(text) })),
});

const KINDS = [
  'notConfigured',
  'unauthorized',
  'forbidden',
  'unreachable',
  'timeout',
  'notFound',
  'badResponse',
  'rejected',
  'conflict',
  'cancelled',
  'badInput',
] as const;
const error: fc.Arbitrary<CatalogClientError> = fc
  .tuple(fc.constantFrom(...KINDS), text)
  .map(([kind, message]) => catalogClientError(kind, message));

export const syntheticCatalog: fc.Arbitrary<SyntheticCatalog> = fc.record({
  datasets: fc.array(dataset, { minLength: 1, maxLength: 2 }),
  features: fc.array(feature, { minLength: 1, maxLength: 2 }),
  tables: fc.array(table, { minLength: 1, maxLength: 2 }),
  models: fc.array(model, { minLength: 1, maxLength: 2 }),
  groups: fc.array(group, { minLength: 1, maxLength: 2 }),
  errors: fc.array(error, { minLength: 1, maxLength: 2 }),
});

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function pick<T>(list: readonly T[], h: number): T {
  return list[h % list.length]!;
}

/** What the catalog "answers" for each URN: found (most often), missing, an error, or not asked yet. */
export function lookupIn(cat: SyntheticCatalog): (urn: string) => Resolution | undefined {
  return (urn) => {
    const p = parseUrn(urn);
    if (!p.ok || !isCatalogKind(p.urn.kind)) return undefined;
    const h = hash(urn);
    switch (h % 7) {
      case 0:
        return undefined;
      case 1:
        return { state: 'missing' };
      case 2:
        return { state: 'error', error: pick(cat.errors, h >>> 3) };
      default:
        break;
    }
    const at = h >>> 3;
    switch (p.urn.kind) {
      case 'dataset':
        return { state: 'found', kind: 'dataset', entity: { urn, ...pick(cat.datasets, at) } };
      case 'mlFeature':
        return { state: 'found', kind: 'mlFeature', entity: { urn, ...pick(cat.features, at) } };
      case 'mlFeatureTable':
        return { state: 'found', kind: 'mlFeatureTable', entity: { urn, ...pick(cat.tables, at) } };
      case 'mlModel':
        return { state: 'found', kind: 'mlModel', entity: { urn, ...pick(cat.models, at) } };
      case 'mlModelGroup':
        return { state: 'found', kind: 'mlModelGroup', entity: { urn, ...pick(cat.groups, at) } };
      default:
        return undefined;
    }
  };
}
