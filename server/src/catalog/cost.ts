/**
 * What a GraphQL document the client sends costs DataHub before it runs: graphql-java's depth and
 * complexity (model/src/queryCost.ts, the same count the local catalog's DataHub mode enforces).
 * DataHub refuses a document over either limit whole.
 */
import { parse, type DocumentNode } from 'graphql';
import { DATAHUB_QUERY_LIMITS, queryCost, type QueryCost } from '../../../model/src/queryCost';

export { refusedForCost, type QueryCost } from '../../../model/src/queryCost';

/** DataHub's defaults (GRAPHQL_QUERY_COMPLEXITY_LIMIT, GRAPHQL_QUERY_DEPTH_LIMIT). */
export const DATAHUB_COMPLEXITY_LIMIT = DATAHUB_QUERY_LIMITS.maxComplexity;
export const DATAHUB_DEPTH_LIMIT = DATAHUB_QUERY_LIMITS.maxDepth;

/** The cost of the document's operation (of the first, when there are several). */
export function documentCost(document: string | DocumentNode): QueryCost {
  const doc = typeof document === 'string' ? parse(document) : document;
  return queryCost(doc) ?? { complexity: 0, depth: 0 };
}
