/**
 * Query depth and complexity as graphql-java measures them for the two instrumentations DataHub's
 * GraphQLEngine installs, in this order (datahub-graphql-core/.../GraphQLEngine.java; Builder
 * defaults 2000 and 50, GMS reads GRAPHQL_QUERY_COMPLEXITY_LIMIT and GRAPHQL_QUERY_DEPTH_LIMIT):
 *
 * - MaxQueryDepthInstrumentation(50) (graphql-java src/main/java/graphql/analysis/
 *   MaxQueryDepthInstrumentation.java): the deepest field, a root field being level 1;
 *   `__typename` counts like any field.
 * - MaxQueryComplexityInstrumentation(2000) (…/MaxQueryComplexityInstrumentation.java): the sum
 *   over the root fields of `1 + the complexity of its children`; `__typename` costs 0.
 *
 * Both walk the operation with graphql-java's QueryTraverser: fragments are counted at every
 * spread, inline fragments as if their fields were written in place (whatever their type
 * condition), and fields under `@skip(if: true)` / `@include(if: false)` are left out, variables
 * taken as coerced. Over a limit graphql-java throws AbortExecutionException before any field
 * runs: the answer is HTTP 200 with `errors` and no `data` key.
 */
import {
  Kind,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export interface QueryCost {
  /** graphql-java's query depth: levels of fields, a root field being 1. */
  depth: number;
  /** graphql-java's default complexity: each field 1 + its children, `__typename` 0. */
  complexity: number;
}

export interface DataHubQueryLimits {
  maxDepth: number;
  maxComplexity: number;
}

/** DataHub's defaults (GraphQLEngine.Builder). */
export const DATAHUB_QUERY_LIMITS: DataHubQueryLimits = { maxDepth: 50, maxComplexity: 2000 };

/** The operation `execute` would run, or undefined when it cannot choose one (execute reports that). */
export function selectedOperation(
  doc: DocumentNode,
  operationName?: string | null,
): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName) return ops.find((o) => o.name?.value === operationName);
  return ops.length === 1 ? ops[0] : undefined;
}

/**
 * Depth and complexity of the operation `execute` would run (see the file comment). Undefined
 * when no operation can be chosen. Each fragment is measured once and reused at each spread, so
 * this costs time in proportion to the document even when the counts are astronomic.
 */
export function queryCost(
  doc: DocumentNode,
  opts: { operationName?: string | null | undefined; variables?: Record<string, unknown> | null } = {},
): QueryCost | undefined {
  const op = selectedOperation(doc, opts.operationName);
  if (!op) return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const variables = opts.variables ?? {};
  const memo = new Map<string, QueryCost>();
  const open = new Set<string>();

  const measure = (set: SelectionSetNode): QueryCost => {
    let depth = 0;
    let complexity = 0;
    for (const s of set.selections) {
      if (skipped(s.directives, variables)) continue;
      let part: QueryCost;
      if (s.kind === Kind.FIELD) {
        const children = s.selectionSet ? measure(s.selectionSet) : { depth: 0, complexity: 0 };
        part = { depth: 1 + children.depth, complexity: s.name.value === '__typename' ? 0 : 1 + children.complexity };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        part = measure(s.selectionSet);
      } else {
        part = fragment(s.name.value);
      }
      depth = Math.max(depth, part.depth);
      complexity += part.complexity;
    }
    return { depth, complexity };
  };
  const fragment = (name: string): QueryCost => {
    const known = memo.get(name);
    if (known) return known;
    const f = fragments.get(name);
    // An unknown or cyclic fragment fails validation, which runs first; count it as nothing.
    if (!f || open.has(name)) return { depth: 0, complexity: 0 };
    open.add(name);
    const cost = measure(f.selectionSet);
    open.delete(name);
    memo.set(name, cost);
    return cost;
  };
  return measure(op.selectionSet);
}

/** graphql-java's ConditionalNodes: `@skip(if: true)` or `@include(if: false)` leave a selection out. */
function skipped(directives: readonly DirectiveNode[] | undefined, variables: Record<string, unknown>): boolean {
  for (const d of directives ?? []) {
    const arg = d.arguments?.find((a) => a.name.value === 'if');
    if (!arg) continue;
    const on = booleanOf(arg.value, variables);
    if (d.name.value === 'skip' && on === true) return true;
    if (d.name.value === 'include' && on === false) return true;
  }
  return false;
}

function booleanOf(v: ValueNode, variables: Record<string, unknown>): boolean | undefined {
  if (v.kind === Kind.BOOLEAN) return v.value;
  if (v.kind === Kind.VARIABLE) {
    const value = variables[v.name.value];
    return typeof value === 'boolean' ? value : undefined;
  }
  return undefined;
}

/** graphql-java's AbortExecutionException texts; undefined when the query fits. Depth is checked first, as the instrumentations are chained. */
export function datahubLimitMessage(cost: QueryCost, limits: DataHubQueryLimits): string | undefined {
  if (cost.depth > limits.maxDepth) return `maximum query depth exceeded ${cost.depth} > ${limits.maxDepth}`;
  if (cost.complexity > limits.maxComplexity)
    return `maximum query complexity exceeded ${cost.complexity} > ${limits.maxComplexity}`;
  return undefined;
}

/** The reverse of datahubLimitMessage: what a refusal says was too much, and the limit it names. */
export function refusedForCost(
  message: string,
): { what: 'complexity' | 'depth'; cost: number; limit: number } | undefined {
  const m = /maximum query (complexity|depth) exceeded (\d+) > (\d+)/i.exec(message);
  if (!m) return undefined;
  return { what: m[1]!.toLowerCase() as 'complexity' | 'depth', cost: Number(m[2]), limit: Number(m[3]) };
}
