/**
 * The catalog's GraphQL schema is a subset of DataHub's: same
 * type names and kinds, every field, argument and input field with the same type string,
 * every enum value and interface DataHub has. So a document valid here is valid at DataHub.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { catalogSchema } from '../../catalog/src/graphql/schema';
import { datahubSchema, skipWithoutShared } from '../support/datahubSchema';

function kindOf(t: GraphQLNamedType): string {
  if (isObjectType(t)) return 'object';
  if (isInterfaceType(t)) return 'interface';
  if (isUnionType(t)) return 'union';
  if (isEnumType(t)) return 'enum';
  if (isInputObjectType(t)) return 'input';
  return 'scalar';
}

/** Every way `ours` is not a subset of `theirs`, one line each. */
function subsetProblems(ours: GraphQLSchema, theirs: GraphQLSchema): string[] {
  const problems: string[] = [];
  if (ours.getQueryType()?.name !== theirs.getQueryType()?.name) problems.push('query root type name differs');
  if (ours.getMutationType()?.name !== theirs.getMutationType()?.name) problems.push('mutation root type name differs');
  for (const [name, t] of Object.entries(ours.getTypeMap())) {
    if (name.startsWith('__')) continue;
    const d = theirs.getType(name);
    if (!d) {
      problems.push(`type ${name} does not exist in DataHub's schema`);
      continue;
    }
    if (kindOf(t) !== kindOf(d)) {
      problems.push(`${name} is a ${kindOf(t)} here, a ${kindOf(d)} in DataHub`);
      continue;
    }
    if ((isObjectType(t) || isInterfaceType(t)) && (isObjectType(d) || isInterfaceType(d))) {
      const theirFields = d.getFields();
      for (const i of t.getInterfaces()) {
        if (!d.getInterfaces().some((x) => x.name === i.name))
          problems.push(`${name} implements ${i.name}, DataHub's does not`);
      }
      for (const f of Object.values(t.getFields())) {
        const df = theirFields[f.name];
        if (!df) {
          problems.push(`${name}.${f.name} does not exist in DataHub`);
          continue;
        }
        if (String(f.type) !== String(df.type))
          problems.push(`${name}.${f.name}: ${String(f.type)} here, ${String(df.type)} in DataHub`);
        for (const a of f.args) {
          const da = df.args.find((x) => x.name === a.name);
          if (!da) problems.push(`${name}.${f.name}(${a.name}) does not exist in DataHub`);
          else if (String(a.type) !== String(da.type))
            problems.push(`${name}.${f.name}(${a.name}): ${String(a.type)} here, ${String(da.type)} in DataHub`);
        }
        for (const da of df.args) {
          if (isNonNullType(da.type) && !f.args.some((a) => a.name === da.name))
            problems.push(`${name}.${f.name}: DataHub requires argument ${da.name}`);
        }
      }
    } else if (isInputObjectType(t) && isInputObjectType(d)) {
      const theirFields = d.getFields();
      const ourFields = t.getFields();
      for (const f of Object.values(ourFields)) {
        const df = theirFields[f.name];
        if (!df) problems.push(`input ${name}.${f.name} does not exist in DataHub`);
        else if (String(f.type) !== String(df.type))
          problems.push(`input ${name}.${f.name}: ${String(f.type)} here, ${String(df.type)} in DataHub`);
      }
      for (const df of Object.values(theirFields)) {
        if (isNonNullType(df.type) && df.defaultValue === undefined && !ourFields[df.name])
          problems.push(`input ${name}: DataHub requires ${df.name}`);
      }
    } else if (isEnumType(t) && isEnumType(d)) {
      for (const v of t.getValues())
        if (!d.getValue(v.name)) problems.push(`enum ${name} value ${v.name} does not exist in DataHub`);
    } else if (isUnionType(t) && isUnionType(d)) {
      for (const m of t.getTypes())
        if (!d.getTypes().some((x) => x.name === m.name))
          problems.push(`union ${name} member ${m.name} not in DataHub`);
    } else if (isScalarType(t) && !isScalarType(d)) {
      problems.push(`${name} is not a scalar in DataHub`);
    }
  }
  return problems;
}

describe("the catalog's GraphQL schema", () => {
  test("is a subset of DataHub's schema (types, kinds, fields, arguments, input fields, enum values)", (t) => {
    if (skipWithoutShared(t)) return;
    assert.deepEqual(subsetProblems(catalogSchema(), datahubSchema()!), []);
  });

  test('the subset check finds a field whose type differs, a missing field and a missing enum value', (t) => {
    if (skipWithoutShared(t)) return;
    const wrong = buildSchema(`
      type Query { mlModel(urn: String!): MLModel }
      type MLModel { urn: String name: String! madeUp: Int }
      enum EntityType { DATASET NOT_A_TYPE }
    `);
    assert.deepEqual(subsetProblems(wrong, datahubSchema()!), [
      'mutation root type name differs',
      'MLModel.urn: String here, String! in DataHub',
      'MLModel.madeUp does not exist in DataHub',
      'enum EntityType value NOT_A_TYPE does not exist in DataHub',
    ]);
  });

  test('names the types and root fields the spec reads (§2.4, §4.1)', () => {
    const s = catalogSchema();
    const query = s.getQueryType()!.getFields();
    assert.deepEqual(
      ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'].map((f) => String(query[f]?.type)),
      ['Dataset', 'MLFeature', 'MLFeatureTable', 'MLModel', 'MLModelGroup'],
    );
    const mutation = s.getMutationType()!.getFields();
    assert.equal(String(mutation['updateDataset']?.type), 'Dataset');
    assert.equal(String(mutation['updateDescription']?.type), 'Boolean');
  });
});
