/**
 * Reads answered without graphql-js's `execute`: the entity lookups clients send again and again
 * (the language server's batches, a hover's document) walk the validated document over the same
 * resolvers and entity nodes `execute` would use, doing what its default resolver and value
 * completion do (a function property is called with the field's arguments; leaf values through the
 * type's `serialize`; abstract types by `__typename`). Anything else — an error of any kind, a null
 * where the schema says non-null, a directive, a response key selected twice, a mutation or a root
 * field other than the lookups, a promise — gives up (undefined), and the caller runs `execute` on
 * the same document: the answer is the same either way, only its cost differs.
 */
import {
  getArgumentValues,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FragmentDefinitionNode,
} from 'graphql';
import { selectedOperation } from '../../../model/src/queryCost';

type Json = Record<string, unknown>;

// graphql's exports, read once: in the bundle every use of an imported name goes through getters.
const { FIELD, INLINE_FRAGMENT, STRING, VARIABLE, NON_NULL_TYPE, NAMED_TYPE, FRAGMENT_DEFINITION } = Kind;
const QUERY = OperationTypeNode.QUERY;
const nonNull = isNonNullType;
const list = isListType;
const leaf = isLeafType;
const objectType = isObjectType;
const abstract = isAbstractType;
const argumentValues = getArgumentValues;
const variableValues = getVariableValues;

/** Thrown inside the walk to give up; never leaves this module. */
class GiveUp extends Error {}
const GIVE_UP = new GiveUp('not answered without the executor');

interface Collected {
  key: string;
  node: FieldNode;
  /** Undefined for `__typename`. */
  def: GraphQLField<unknown, unknown> | undefined;
}

/**
 * The fields a selection set asks of an object type, in the order `execute` collects them; undefined
 * when something in it is left to `execute` (directives, a response key twice, an unknown field).
 */
function collect(
  schema: GraphQLSchema,
  set: SelectionSetNode,
  type: GraphQLObjectType,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Collected[] | undefined {
  const out: Collected[] = [];
  const keys = new Set<string>();
  const visit = (s: SelectionSetNode, depth: number): boolean => {
    if (depth > 50) return false;
    for (const sel of s.selections) {
      if (sel.directives && sel.directives.length > 0) return false;
      if (sel.kind === FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        if (keys.has(key)) return false;
        keys.add(key);
        const name = sel.name.value;
        if (name === '__typename') {
          out.push({ key, node: sel, def: undefined });
          continue;
        }
        const def = type.getFields()[name];
        if (!def || def.resolve) return false;
        out.push({ key, node: sel, def });
      } else {
        const fragment = sel.kind === INLINE_FRAGMENT ? sel : fragments.get(sel.name.value);
        if (!fragment) return false;
        if (fragment.typeCondition) {
          const condition = schema.getType(fragment.typeCondition.name.value);
          if (!condition) return false;
          if (condition !== type && !(abstract(condition) && schema.isSubType(condition, type))) continue;
        }
        if (!visit(fragment.selectionSet, depth + 1)) return false;
      }
    }
    return true;
  };
  return visit(set, 0) ? out : undefined;
}

/**
 * A field's argument values as `getArgumentValues` gives them, without its work in the common
 * case: no argument in the document and none with a default (`{}`), or only String arguments
 * given as string literals or as variables holding strings.
 */
function argumentsOf(
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const given = node.arguments ?? [];
  if (given.length === 0 && def.args.every((a) => a.defaultValue === undefined)) return {};
  if (given.length === def.args.length && def.args.every((a) => a.defaultValue === undefined)) {
    const out: Record<string, unknown> = {};
    let simple = true;
    for (const arg of given) {
      const argDef = def.args.find((a) => a.name === arg.name.value);
      const type = argDef && (nonNull(argDef.type) ? argDef.type.ofType : argDef.type);
      const value =
        arg.value.kind === STRING
          ? arg.value.value
          : arg.value.kind === VARIABLE
            ? variables[arg.value.name.value]
            : undefined;
      if (!type || type.toString() !== 'String' || typeof value !== 'string') {
        simple = false;
        break;
      }
      out[arg.name.value] = value;
    }
    if (simple) return out;
  }
  return argumentValues(def, node, variables);
}

/**
 * The variables as `getVariableValues` coerces them, without its work when every one is a
 * `String` or `String!` given a string; undefined when they do not coerce.
 */
function variablesOf(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  inputs: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const defs = op.variableDefinitions ?? [];
  const simple = defs.every((d) => {
    const t = d.type.kind === NON_NULL_TYPE ? d.type.type : d.type;
    return t.kind === NAMED_TYPE && t.name.value === 'String' && typeof inputs[d.variable.name.value] === 'string';
  });
  if (simple) {
    const out: Record<string, unknown> = {};
    for (const d of defs) out[d.variable.name.value] = inputs[d.variable.name.value];
    return out;
  }
  const coerced = variableValues(schema, defs, inputs);
  return coerced.errors ? undefined : coerced.coerced;
}

/** Per document: each selection set's fields per object type (false: left to `execute`). */
const collectedByDoc = new WeakMap<DocumentNode, Map<SelectionSetNode, Map<GraphQLObjectType, Collected[] | false>>>();

class Walk {
  private readonly bySet: Map<SelectionSetNode, Map<GraphQLObjectType, Collected[] | false>>;
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    doc: DocumentNode,
    private readonly variables: Record<string, unknown>,
    private readonly ctx: unknown,
  ) {
    let m = collectedByDoc.get(doc);
    if (!m) collectedByDoc.set(doc, (m = new Map()));
    this.bySet = m;
    for (const d of doc.definitions) if (d.kind === FRAGMENT_DEFINITION) this.fragments.set(d.name.value, d);
  }

  fieldsOf(set: SelectionSetNode, type: GraphQLObjectType): Collected[] {
    let byType = this.bySet.get(set);
    if (!byType) this.bySet.set(set, (byType = new Map()));
    let fields = byType.get(type);
    if (fields === undefined) byType.set(type, (fields = collect(this.schema, set, type, this.fragments) ?? false));
    if (fields === false) throw GIVE_UP;
    return fields;
  }

  /** An object of `type` from `source`, as `execute` completes it. */
  object(source: unknown, type: GraphQLObjectType, set: SelectionSetNode): Json {
    if (type.isTypeOf) throw GIVE_UP;
    const out: Json = {};
    for (const f of this.fieldsOf(set, type)) {
      if (!f.def) {
        out[f.key] = type.name;
        continue;
      }
      out[f.key] = this.complete(this.resolve(source, f), f.def.type, f.node);
    }
    return out;
  }

  /** graphql-js's default field resolver. */
  resolve(source: unknown, f: Collected): unknown {
    if (source === null || (typeof source !== 'object' && typeof source !== 'function')) return undefined;
    const name = f.node.name.value;
    const property = (source as Json)[name];
    if (typeof property !== 'function') return property;
    const args = argumentsOf(f.def!, f.node, this.variables);
    const value: unknown = (property as (a: unknown, c: unknown, i: unknown) => unknown).call(source, args, this.ctx, {
      fieldName: name,
    });
    if (value instanceof Promise || value instanceof Error) throw GIVE_UP;
    return value;
  }

  complete(value: unknown, type: GraphQLOutputType, node: FieldNode): unknown {
    if (nonNull(type)) {
      const done = this.complete(value, type.ofType, node);
      if (done === null) throw GIVE_UP;
      return done;
    }
    if (value === null || value === undefined) return null;
    if (list(type)) {
      if (!Array.isArray(value)) throw GIVE_UP;
      return value.map((item) => this.complete(item, type.ofType, node));
    }
    if (leaf(type)) {
      const serialized: unknown = type.serialize(value);
      if (serialized === undefined) throw GIVE_UP;
      return serialized;
    }
    if (!node.selectionSet || typeof value !== 'object') throw GIVE_UP;
    if (objectType(type)) return this.object(value, type, node.selectionSet);
    // An interface or union: the object type its `__typename` names, when that is one of its types.
    const typename = (value as Json)['__typename'];
    if (type.resolveType || typeof typename !== 'string') throw GIVE_UP;
    const runtime = this.schema.getType(typename);
    if (!objectType(runtime) || !this.schema.isSubType(type, runtime)) throw GIVE_UP;
    return this.object(value, runtime, node.selectionSet);
  }
}

/**
 * The `data` of a query document whose root fields are all in `roots`, built without `execute`;
 * undefined when `execute` must answer it (see the file comment).
 */
export function readWithoutExecutor(
  schema: GraphQLSchema,
  doc: DocumentNode,
  operationName: string | undefined,
  variables: Json | undefined,
  rootValue: Json,
  roots: ReadonlySet<string>,
  ctx: unknown,
): Json | undefined {
  const op: OperationDefinitionNode | undefined = selectedOperation(doc, operationName);
  const queryType = schema.getQueryType();
  if (!op || op.operation !== QUERY || !queryType || (op.directives && op.directives.length > 0)) return undefined;
  for (const sel of op.selectionSet.selections)
    if (sel.kind !== FIELD || (!roots.has(sel.name.value) && sel.name.value !== '__typename')) return undefined;
  const coerced = variablesOf(schema, op, variables ?? {});
  if (!coerced) return undefined;
  try {
    const walk = new Walk(schema, doc, coerced, ctx);
    const out: Json = {};
    for (const f of walk.fieldsOf(op.selectionSet, queryType)) {
      if (!f.def) {
        out[f.key] = queryType.name;
        continue;
      }
      const resolver = rootValue[f.node.name.value];
      if (typeof resolver !== 'function') return undefined;
      const args = argumentsOf(f.def, f.node, coerced);
      const value: unknown = (resolver as (a: unknown, c: unknown, i: unknown) => unknown).call(rootValue, args, ctx, {
        fieldName: f.node.name.value,
      });
      if (value instanceof Promise || value instanceof Error) return undefined;
      out[f.key] = walk.complete(value, f.def.type, f.node);
    }
    return out;
  } catch {
    // GiveUp, or a resolver's error (a bad URN …): `execute` answers it, with its message and path.
    return undefined;
  }
}
