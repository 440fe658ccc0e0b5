/**
 * What a GraphQL document costs DataHub before it runs. DataHub's GraphQLEngine installs
 * graphql-java's `MaxQueryDepthInstrumentation(50)` and `MaxQueryComplexityInstrumentation(2000)`
 * (datahub-graphql-core/.../GraphQLEngine.java, Builder defaults); a document over either limit is
 * refused whole. graphql-java's default count (graphql/analysis/MaxQueryComplexityInstrumentation.java):
 * every field costs 1 plus what its children cost, `__typename` costs nothing, and a fragment
 * costs again at every spread; depth (MaxQueryDepthInstrumentation.java) counts a root field as 1.
 */
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export interface QueryCost {
  complexity: number;
  depth: number;
}

/** DataHub's defaults (GRAPHQL_QUERY_COMPLEXITY_LIMIT, GRAPHQL_QUERY_DEPTH_LIMIT). */
export const DATAHUB_COMPLEXITY_LIMIT = 2000;
export const DATAHUB_DEPTH_LIMIT = 50;

/** The cost of the (first) operation of a document, as graphql-java counts it. */
export function documentCost(document: string | DocumentNode): QueryCost {
  const doc = typeof document === 'string' ? parse(document) : document;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return { complexity: 0, depth: 0 };
  return selectionCost(operation.selectionSet, fragments, new Set());
}

function selectionCost(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, open: Set<string>): QueryCost {
  let complexity = 0;
  let depth = 0;
  for (const s of set.selections) {
    let c: QueryCost;
    if (s.kind === Kind.FIELD) {
      if (s.name.value === '__typename') continue;
      const children = s.selectionSet ? selectionCost(s.selectionSet, fragments, open) : { complexity: 0, depth: 0 };
      c = { complexity: 1 + children.complexity, depth: 1 + children.depth };
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      c = selectionCost(s.selectionSet, fragments, open);
    } else {
      const f = fragments.get(s.name.value);
      // An unknown or cyclic fragment is a validation error at the server; it costs nothing here.
      if (!f || open.has(f.name.value)) continue;
      open.add(f.name.value);
      c = selectionCost(f.selectionSet, fragments, open);
      open.delete(f.name.value);
    }
    complexity += c.complexity;
    depth = Math.max(depth, c.depth);
  }
  return { complexity, depth };
}

/** The limit a "too complex" or "too deep" GraphQL error names (graphql-java's AbortExecutionException text). */
export function refusedForCost(message: string): { what: 'complexity' | 'depth'; cost: number; limit: number } | undefined {
  const m = /maximum query (complexity|depth) exceeded (\d+) > (\d+)/i.exec(message);
  if (!m) return undefined;
  return { what: m[1]!.toLowerCase() as 'complexity' | 'depth', cost: Number(m[2]), limit: Number(m[3]) };
}
