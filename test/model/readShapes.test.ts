/**
 * GraphQL read shapes: what DataHub's UI shows for a dataset and its columns (the edited
 * description over the ingested one), and the TypeScript shapes checked against DataHub's own
 * schema (field names, nesting and nullability).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { shownColumns, shownDatasetDescription, type GqlDataset, type GqlShapes } from '../../model/src/readShapes';
import type { CatalogKind } from '../../model/src/kinds';
import { needsShared } from '../support/shared';
import { GRAPHQL, loadDataHubSchema } from './sharedFixtures';

function dataset(over: Partial<GqlDataset>): GqlDataset {
  return {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,users,PROD)',
    properties: null,
    editableProperties: null,
    schemaMetadata: null,
    editableSchemaMetadata: null,
    ...over,
  };
}

describe('shownDatasetDescription: the edited description over the ingested one', () => {
  test('edited wins when both are set', () => {
    assert.equal(
      shownDatasetDescription(
        dataset({
          properties: { description: 'ingested' },
          editableProperties: { description: 'edited' },
        }),
      ),
      'edited',
    );
  });
  test('ingested when there is no edit, or the edit is empty or blank', () => {
    assert.equal(shownDatasetDescription(dataset({ properties: { description: 'ingested' } })), 'ingested');
    assert.equal(
      shownDatasetDescription(
        dataset({ properties: { description: 'ingested' }, editableProperties: { description: '' } }),
      ),
      'ingested',
    );
    assert.equal(
      shownDatasetDescription(
        dataset({ properties: { description: 'ingested' }, editableProperties: { description: ' \n' } }),
      ),
      'ingested',
    );
    assert.equal(
      shownDatasetDescription(
        dataset({ properties: { description: 'ingested' }, editableProperties: { description: null } }),
      ),
      'ingested',
    );
  });
  test('null when neither says anything', () => {
    assert.equal(shownDatasetDescription(dataset({})), null);
    assert.equal(
      shownDatasetDescription(dataset({ properties: { description: '' }, editableProperties: { description: null } })),
      null,
    );
  });
});

describe('shownColumns: edited entry by exact path, then by simple path, else the ingested text', () => {
  const KEY_ID = '[version=2.0].[key=True].[type=UserKey].[type=long].id';
  const VALUE_ID = '[version=2.0].[type=User].[type=long].id';
  const EMAIL = '[version=2.0].[type=User].[type=string].email';
  const fields = [
    { fieldPath: KEY_ID, description: 'ingested key id' },
    { fieldPath: VALUE_ID, description: 'ingested value id' },
    { fieldPath: EMAIL, description: null },
    { fieldPath: 'plain', description: 'ingested plain' },
  ];

  test('no edits: every column shows its ingested description, unedited', () => {
    assert.deepEqual(shownColumns(dataset({ schemaMetadata: { fields } })), [
      { fieldPath: KEY_ID, description: 'ingested key id', edited: false },
      { fieldPath: VALUE_ID, description: 'ingested value id', edited: false },
      { fieldPath: EMAIL, description: null, edited: false },
      { fieldPath: 'plain', description: 'ingested plain', edited: false },
    ]);
  });

  test('an edit stored under the exact v2 path applies to that column only, not to the one sharing its simple path', () => {
    const shown = shownColumns(
      dataset({
        schemaMetadata: { fields },
        editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: KEY_ID, description: 'edited key id' }] },
      }),
    );
    assert.deepEqual(shown.slice(0, 2), [
      { fieldPath: KEY_ID, description: 'edited key id', edited: true },
      { fieldPath: VALUE_ID, description: 'ingested value id', edited: false },
    ]);
  });

  test('an edit stored under the simple path (as spec §4.2 rule 5 writes it) applies to the v2 column', () => {
    const shown = shownColumns(
      dataset({
        schemaMetadata: { fields },
        editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'email', description: 'edited email' }] },
      }),
    );
    assert.deepEqual(shown[2], { fieldPath: EMAIL, description: 'edited email', edited: true });
  });

  test('the exact entry beats a simple-path entry for the same column', () => {
    const shown = shownColumns(
      dataset({
        schemaMetadata: { fields },
        editableSchemaMetadata: {
          editableSchemaFieldInfo: [
            { fieldPath: 'email', description: 'by simple path' },
            { fieldPath: EMAIL, description: 'by exact path' },
          ],
        },
      }),
    );
    assert.equal(shown[2]!.description, 'by exact path');
  });

  test('an empty or blank edit does not hide the ingested description', () => {
    const shown = shownColumns(
      dataset({
        schemaMetadata: { fields },
        editableSchemaMetadata: {
          editableSchemaFieldInfo: [
            { fieldPath: 'plain', description: '  ' },
            { fieldPath: VALUE_ID, description: null },
          ],
        },
      }),
    );
    assert.deepEqual(shown[3], { fieldPath: 'plain', description: 'ingested plain', edited: false });
    assert.deepEqual(shown[1], { fieldPath: VALUE_ID, description: 'ingested value id', edited: false });
  });

  test('edits for columns the schema lacks are not shown; no schema gives no columns', () => {
    const shown = shownColumns(
      dataset({
        schemaMetadata: { fields: [{ fieldPath: 'a', description: null }] },
        editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'b', description: 'orphan' }] },
      }),
    );
    assert.deepEqual(shown, [{ fieldPath: 'a', description: null, edited: false }]);
    assert.deepEqual(
      shownColumns(
        dataset({ editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'b', description: 'x' }] } }),
      ),
      [],
    );
  });
});

/**
 * The nullability of every field of a read shape, computed by the compiler from the TypeScript
 * type: a literal written against it must say `true` exactly where the type admits null.
 */
type Field<V> =
  NonNullable<V> extends ReadonlyArray<infer I>
    ? { nullable: null extends V ? true : false; items: Field<I> }
    : NonNullable<V> extends object
      ? { nullable: null extends V ? true : false; fields: Fields<NonNullable<V>> }
      : { nullable: null extends V ? true : false };
type Fields<T> = { [K in keyof T]-?: Field<T[K]> };

const leaf = <N extends boolean>(nullable: N): { nullable: N } => ({ nullable });
const PLATFORM = { nullable: false, fields: { urn: leaf(false), name: leaf(false) } } as const;

const SHAPES: { [K in CatalogKind]: Fields<GqlShapes[K]> } = {
  dataset: {
    urn: leaf(false),
    name: leaf(false),
    exists: leaf(true),
    siblings: {
      nullable: true,
      fields: {
        isPrimary: leaf(true),
        siblings: { nullable: true, items: { nullable: true, fields: { urn: leaf(false) } } },
      },
    },
    deprecation: {
      nullable: true,
      fields: {
        deprecated: leaf(false),
        note: leaf(true),
        decommissionTime: leaf(true),
        replacement: { nullable: true, fields: { urn: leaf(false) } },
      },
    },
    platform: PLATFORM,
    properties: { nullable: true, fields: { name: leaf(false), description: leaf(true) } },
    editableProperties: { nullable: true, fields: { description: leaf(true) } },
    schemaMetadata: {
      nullable: true,
      fields: {
        fields: {
          nullable: false,
          items: {
            nullable: false,
            fields: { fieldPath: leaf(false), description: leaf(true), nativeDataType: leaf(true) },
          },
        },
      },
    },
    editableSchemaMetadata: {
      nullable: true,
      fields: {
        editableSchemaFieldInfo: {
          nullable: false,
          items: { nullable: false, fields: { fieldPath: leaf(false), description: leaf(true) } },
        },
      },
    },
  },
  mlFeature: {
    urn: leaf(false),
    name: leaf(false),
    exists: leaf(true),
    deprecation: {
      nullable: true,
      fields: {
        deprecated: leaf(false),
        note: leaf(true),
        decommissionTime: leaf(true),
        replacement: { nullable: true, fields: { urn: leaf(false) } },
      },
    },
    editableProperties: { nullable: true, fields: { description: leaf(true) } },
    featureNamespace: leaf(false),
    description: leaf(true),
    properties: {
      nullable: true,
      fields: {
        description: leaf(true),
        dataType: leaf(true),
        version: { nullable: true, fields: { versionTag: leaf(true) } },
      },
    },
  },
  mlFeatureTable: {
    urn: leaf(false),
    name: leaf(false),
    exists: leaf(true),
    deprecation: {
      nullable: true,
      fields: {
        deprecated: leaf(false),
        note: leaf(true),
        decommissionTime: leaf(true),
        replacement: { nullable: true, fields: { urn: leaf(false) } },
      },
    },
    editableProperties: { nullable: true, fields: { description: leaf(true) } },
    description: leaf(true),
    platform: PLATFORM,
    properties: {
      nullable: true,
      fields: {
        description: leaf(true),
        mlFeatures: { nullable: true, items: { nullable: true, fields: { urn: leaf(false), name: leaf(false) } } },
      },
    },
  },
  mlModel: {
    urn: leaf(false),
    name: leaf(false),
    exists: leaf(true),
    deprecation: {
      nullable: true,
      fields: {
        deprecated: leaf(false),
        note: leaf(true),
        decommissionTime: leaf(true),
        replacement: { nullable: true, fields: { urn: leaf(false) } },
      },
    },
    editableProperties: { nullable: true, fields: { description: leaf(true) } },
    description: leaf(true),
    platform: PLATFORM,
    properties: {
      nullable: true,
      fields: {
        description: leaf(true),
        version: leaf(true),
        type: leaf(true),
        mlFeatures: { nullable: true, items: leaf(false) },
        groups: { nullable: true, items: { nullable: true, fields: { urn: leaf(false), name: leaf(false) } } },
      },
    },
  },
  mlModelGroup: {
    urn: leaf(false),
    name: leaf(false),
    exists: leaf(true),
    deprecation: {
      nullable: true,
      fields: {
        deprecated: leaf(false),
        note: leaf(true),
        decommissionTime: leaf(true),
        replacement: { nullable: true, fields: { urn: leaf(false) } },
      },
    },
    editableProperties: { nullable: true, fields: { description: leaf(true) } },
    description: leaf(true),
    platform: PLATFORM,
    properties: { nullable: true, fields: { description: leaf(true) } },
  },
};

interface FieldShape {
  nullable: boolean;
  items?: FieldShape;
  fields?: Record<string, FieldShape>;
}

function selectionOf(fields: Record<string, FieldShape>): string {
  const sub = (f: FieldShape): string => (f.items ? sub(f.items) : f.fields ? selectionOf(f.fields) : '');
  return `{ ${Object.entries(fields)
    .map(([k, f]) => `${k} ${sub(f)}`)
    .join(' ')} }`;
}

/** Where the shape and DataHub's type disagree on a field's presence, nullability or list-ness. */
function mismatches(type: GraphQLOutputType, shape: FieldShape, path: string): string[] {
  const out: string[] = [];
  if (shape.nullable === isNonNullType(type))
    out.push(`${path}: ${shape.nullable ? 'nullable' : 'non-null'} in the TS shape, not in DataHub's ${String(type)}`);
  const inner = getNullableType(type);
  if (Boolean(shape.items) !== isListType(inner))
    out.push(`${path}: a list in one and not in the other (${String(type)})`);
  if (shape.items && isListType(inner)) out.push(...mismatches(inner.ofType, shape.items, `${path}[]`));
  const named = getNamedType(type);
  if (shape.fields && isObjectType(named)) {
    for (const [k, f] of Object.entries(shape.fields)) {
      const field = named.getFields()[k];
      if (field) out.push(...mismatches(field.type, f, `${path}.${k}`));
      else out.push(`${path}.${k}: DataHub's ${named.name} has no such field`);
    }
  }
  return out;
}

describe("the read shapes fit DataHub's GraphQL schema", { skip: needsShared(GRAPHQL) }, () => {
  let schema: GraphQLSchema | undefined;
  const dataHub = (): GraphQLSchema => (schema ??= loadDataHubSchema());

  test('each shape, selected in full, is a valid query against the schema', () => {
    for (const [kind, fields] of Object.entries(SHAPES)) {
      const doc = parse(`query Q($urn: String!) { ${kind}(urn: $urn) ${selectionOf(fields)} }`);
      assert.deepEqual(
        validate(dataHub(), doc).map((e) => e.message),
        [],
        kind,
      );
    }
  });

  test("each field's nullability and list-ness in the TypeScript shape is DataHub's", () => {
    const problems = Object.entries(SHAPES).flatMap(([kind, fields]) => {
      const root = dataHub().getQueryType()?.getFields()[kind];
      assert.ok(root, `Query.${kind}`);
      // The query field itself is nullable (null for an unknown URN); the shape describes the entity inside.
      return mismatches(root.type, { nullable: true, fields: fields }, kind);
    });
    assert.deepEqual(problems, []);
  });

  test('the comparison is not vacuous: it reports a missing field, a wrong nullability and a wrong list-ness', () => {
    const root = dataHub().getQueryType()?.getFields()['mlModel'];
    assert.ok(root);
    const wrong: FieldShape = {
      nullable: true,
      fields: { name: leaf(true), nope: leaf(false), description: { nullable: true, items: leaf(false) } },
    };
    assert.deepEqual(mismatches(root.type, wrong, 'mlModel'), [
      "mlModel.name: nullable in the TS shape, not in DataHub's String!",
      "mlModel.nope: DataHub's MLModel has no such field",
      'mlModel.description: a list in one and not in the other (String)',
    ]);
  });
});
