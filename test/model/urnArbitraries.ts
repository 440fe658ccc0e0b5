/**
 * fast-check generators of valid URN values and of URN-like texts, built without the model's
 * printer so that a round trip through `printUrn`/`parseUrn` checks something independent.
 */
import fc from 'fast-check';
import {
  encodePart,
  FABRIC_TYPES,
  suggestKind,
  URN_KINDS,
  type CorpUserUrn,
  type DataPlatformUrn,
  type DatasetUrn,
  type MlFeatureTableUrn,
  type MlFeatureUrn,
  type MlModelGroupUrn,
  type MlModelUrn,
  type OtherUrn,
  type SchemaFieldUrn,
  type Urn,
} from '../../model/src/urn';
import { ENTITY_REGISTRY, REGISTRY_ENTITY_TYPES, type KeyFieldType } from '../../model/src/registry';

/** Property runs per property: enough to reach the rarer characters of the alphabets below. */
export const RUNS = 2000;

const ASCII_NAME_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:%@=+~$&!*\'"[]{}<>?#;|^`\\',
];
const UNICODE_CHARS = ['é', 'ü', 'ß', 'Ω', 'ж', '日', '本', '°', 'µ', '😀', '\u00A0', '\u{1F431}', '\u0301'];
const RESERVED = [',', '(', ')', '\u241F'];

/** One character a name may hold as written in a URN: everything but the reserved ones and controls. */
const nameChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ASCII_NAME_CHARS) },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE_CHARS) },
  { weight: 1, arbitrary: fc.constant(' ') },
);

const trimmed = (s: string): boolean => s.length > 0 && s.trim() === s;

/** A tuple part as DataHub writes it: no reserved characters, no whitespace at either end. */
const plainName = fc.string({ unit: nameChar, minLength: 1, maxLength: 24 }).filter(trimmed);

/** A name with reserved characters, encoded the way DataHub's UrnEncoder does. */
const encodedName = fc
  .string({ unit: fc.oneof(nameChar, fc.constantFrom(...RESERVED)), minLength: 1, maxLength: 24 })
  .map(encodePart)
  .filter(trimmed);

export const tupleName = fc.oneof({ weight: 3, arbitrary: plainName }, { weight: 1, arbitrary: encodedName });

/** A one-part id (platform, user, tag): like a name, and also without a comma. */
export const simpleId = tupleName.filter((s) => !s.includes(','));

export const namespace = fc.oneof(fc.constantFrom('li', 'svc'), fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,7}$/));

export const env = fc.oneof(fc.constantFrom(...FABRIC_TYPES), fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/));

export const dataPlatformUrn: fc.Arbitrary<DataPlatformUrn> = fc.record({
  kind: fc.constant('dataPlatform' as const),
  namespace,
  platform: simpleId,
});
export const corpUserUrn: fc.Arbitrary<CorpUserUrn> = fc.record({
  kind: fc.constant('corpuser' as const),
  namespace,
  user: simpleId,
});
export const datasetUrn: fc.Arbitrary<DatasetUrn> = fc.record({
  kind: fc.constant('dataset' as const),
  namespace,
  platform: simpleId,
  name: tupleName,
  env,
});
export const mlModelUrn: fc.Arbitrary<MlModelUrn> = fc.record({
  kind: fc.constant('mlModel' as const),
  namespace,
  platform: simpleId,
  name: tupleName,
  env,
});
export const mlModelGroupUrn: fc.Arbitrary<MlModelGroupUrn> = fc.record({
  kind: fc.constant('mlModelGroup' as const),
  namespace,
  platform: simpleId,
  name: tupleName,
  env,
});
export const mlFeatureUrn: fc.Arbitrary<MlFeatureUrn> = fc.record({
  kind: fc.constant('mlFeature' as const),
  namespace,
  table: tupleName,
  feature: tupleName,
});
export const mlFeatureTableUrn: fc.Arbitrary<MlFeatureTableUrn> = fc.record({
  kind: fc.constant('mlFeatureTable' as const),
  namespace,
  platform: simpleId,
  table: tupleName,
});

/** The text of a dataset URN, spelled out here rather than by `printUrn`. */
export function datasetText(ns: string, platform: string, name: string, envWord: string): string {
  return `urn:${ns}:dataset:(urn:${ns}:dataPlatform:${platform},${name},${envWord})`;
}

/** Registry entity types the model has no typed value for: they parse as kind 'other'. */
export const OTHER_REGISTRY_KINDS: readonly string[] = REGISTRY_ENTITY_TYPES.filter(
  (t) => t !== 'schemaField' && !(URN_KINDS as readonly string[]).includes(t),
);

/** A key part of a field typed `type`, in namespace `ns` (a nested URN shares its namespace). */
function keyPart(type: KeyFieldType, ns: string): fc.Arbitrary<string> {
  if (type === 'enum') return env;
  if (type === 'string') return tupleName;
  return fc.oneof(
    datasetUrn.map((d) => datasetText(ns, d.platform, d.name, d.env)),
    simpleId.map((p) => `urn:${ns}:dataPlatform:${p}`),
    fc.tuple(tupleName, tupleName).map(([a, b]) => `urn:${ns}:dataFlow:(${a},${b},prod)`),
  );
}

/** An id that fits the key of a registry entity type: the bare id, or one tuple part per key field. */
function registryId(entityType: string, ns: string): fc.Arbitrary<string> {
  const fields = ENTITY_REGISTRY.get(entityType)!.fields;
  if (fields.length === 1) return simpleId;
  return fc.tuple(...fields.map((f) => keyPart(f.type, ns))).map((ps) => `(${ps.join(',')})`);
}

export const registeredOtherUrn: fc.Arbitrary<OtherUrn> = fc
  .tuple(namespace, fc.constantFrom(...OTHER_REGISTRY_KINDS))
  .chain(([ns, entityType]) =>
    registryId(entityType, ns).map((id) => ({ kind: 'other' as const, namespace: ns, entityType, id })),
  );

/** Entity types no registry knows, and that are not a typo of one: custom types. */
export const customEntityType = fc
  .stringMatching(/^[a-z][A-Za-z0-9_]{0,15}$/)
  .filter((t) => !ENTITY_REGISTRY.has(t) && suggestKind(t) === undefined);

/** Ids of custom types: one part, or any tuple frame (parts may be URNs; they are not read). */
const customId = fc.oneof(
  simpleId,
  fc
    .array(
      fc.oneof(
        tupleName,
        datasetUrn.map((d) => datasetText(d.namespace, d.platform, d.name, d.env)),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((ps) => `(${ps.join(',')})`),
);

export const customUrn: fc.Arbitrary<OtherUrn> = fc.record({
  kind: fc.constant('other' as const),
  namespace,
  entityType: customEntityType,
  id: customId,
  registered: fc.constant(false as const),
});

export const otherUrn: fc.Arbitrary<OtherUrn> = fc.oneof(registeredOtherUrn, customUrn);

/** A schemaField of a dataset (typed `dataset`) or of another parent (a chart, a custom entity). */
export const schemaFieldUrn: fc.Arbitrary<SchemaFieldUrn> = fc.oneof(
  fc.tuple(datasetUrn, tupleName).map(([d, fieldPath]): SchemaFieldUrn => ({
    kind: 'schemaField',
    namespace: d.namespace,
    parent: datasetText(d.namespace, d.platform, d.name, d.env),
    dataset: { ...d },
    fieldPath,
  })),
  fc.tuple(namespace, tupleName, tupleName, tupleName).map(([ns, tool, chart, fieldPath]): SchemaFieldUrn => ({
    kind: 'schemaField',
    namespace: ns,
    parent: `urn:${ns}:chart:(${tool},${chart})`,
    fieldPath,
  })),
);

export const ARBITRARY_BY_KIND: Readonly<Record<Urn['kind'], fc.Arbitrary<Urn>>> = {
  dataPlatform: dataPlatformUrn,
  corpuser: corpUserUrn,
  dataset: datasetUrn,
  mlModel: mlModelUrn,
  mlModelGroup: mlModelGroupUrn,
  mlFeature: mlFeatureUrn,
  mlFeatureTable: mlFeatureTableUrn,
  schemaField: schemaFieldUrn,
  other: otherUrn,
};

/** Texts assembled from URN pieces: they reach deep into the grammar, valid or not. */
export const urnishText = fc
  .array(
    fc.constantFrom(
      'urn:',
      'li',
      'svc',
      ':',
      '(',
      ')',
      ',',
      'dataset',
      'dataPlatform',
      'mlFeature',
      'mlFeatureTable',
      'mlModel',
      'mlModelGroup',
      'corpuser',
      'tag',
      'schemaField',
      'hive',
      'db.users',
      'PROD',
      ' ',
      '\t',
      '\u241F',
      '\n',
      '\u0085',
      '%2C',
      'é',
      '😀',
      '',
    ),
    { maxLength: 24 },
  )
  .map((ps) => ps.join(''));

/** A valid URN text with one edit (a character deleted, inserted or replaced) somewhere. */
export const editedUrnText = fc
  .tuple(
    fc.oneof(...Object.values(ARBITRARY_BY_KIND)).map((u) => textOf(u)),
    fc.nat(),
    fc.constantFrom('delete', 'insert', 'replace'),
    fc.constantFrom('(', ')', ',', ':', ' ', '\u241F', '\u0000', 'x', '%'),
  )
  .map(([text, at, edit, ch]) => {
    const i = at % (text.length + 1);
    if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'insert') return text.slice(0, i) + ch + text.slice(i);
    return text.slice(0, i) + ch + text.slice(i + 1);
  });

/** A URN's text written out by hand for each kind (independent of `printUrn`). */
export function textOf(u: Urn): string {
  const p = (name: string): string => `urn:${u.namespace}:dataPlatform:${name}`;
  switch (u.kind) {
    case 'dataPlatform':
      return p(u.platform);
    case 'corpuser':
      return `urn:${u.namespace}:corpuser:${u.user}`;
    case 'dataset':
      return datasetText(u.namespace, u.platform, u.name, u.env);
    case 'mlModel':
      return `urn:${u.namespace}:mlModel:(${p(u.platform)},${u.name},${u.env})`;
    case 'mlModelGroup':
      return `urn:${u.namespace}:mlModelGroup:(${p(u.platform)},${u.name},${u.env})`;
    case 'mlFeature':
      return `urn:${u.namespace}:mlFeature:(${u.table},${u.feature})`;
    case 'mlFeatureTable':
      return `urn:${u.namespace}:mlFeatureTable:(${p(u.platform)},${u.table})`;
    case 'schemaField':
      return `urn:${u.namespace}:schemaField:(${u.parent},${u.fieldPath})`;
    case 'other':
      return `urn:${u.namespace}:${u.entityType}:${u.id}`;
  }
}

/**
 * A tuple part of up to 120 characters, plain or encoded: with it URNs pass 96 characters, where
 * the parser stops sharing part spans (model/src/urn.ts SHARED_SPAN_LIMIT).
 */
export const longTupleName = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: nameChar, minLength: 40, maxLength: 120 }).filter(trimmed) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.oneof(nameChar, fc.constantFrom(...RESERVED)), minLength: 40, maxLength: 120 })
      .map(encodePart)
      .filter(trimmed),
  },
);

/** URNs of the tuple kinds with long names (longTupleName): most are longer than 96 characters. */
export const longNameUrn: fc.Arbitrary<Urn> = fc.oneof(
  fc.record({ kind: fc.constant('dataset' as const), namespace, platform: simpleId, name: longTupleName, env }),
  fc.record({ kind: fc.constant('mlModel' as const), namespace, platform: simpleId, name: longTupleName, env }),
  fc.record({ kind: fc.constant('mlFeature' as const), namespace, table: longTupleName, feature: longTupleName }),
  fc.record({ kind: fc.constant('mlFeatureTable' as const), namespace, platform: simpleId, table: longTupleName }),
  fc
    .tuple(namespace, simpleId, longTupleName, env, longTupleName)
    .map(([ns, platform, name, envWord, fieldPath]): SchemaFieldUrn => ({
      kind: 'schemaField',
      namespace: ns,
      parent: datasetText(ns, platform, name, envWord),
      dataset: { kind: 'dataset', namespace: ns, platform, name, env: envWord },
      fieldPath,
    })),
);
