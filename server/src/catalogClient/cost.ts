/**
 * What a GraphQL document the client sends costs DataHub before it runs: graphql-java's depth and
 * complexity (model/src/queryCost.ts, the same count the local catalog's DataHub mode enforces).
 * DataHub refuses a document over either limit whole.
 */
import { parse, type DocumentNode } from 'graphql';
import { queryCost, type QueryCost } from '../../../model/src/queryCost';

export { refusedForCost, type QueryCost } from '../../../model/src/queryCost';

/** The cost of the document's operation (of the first, when there are several). */
export function documentCost(document: string | DocumentNode): QueryCost {
  const doc = typeof document === 'string' ? parse(document) : document;
  return queryCost(doc) ?? { complexity: 0, depth: 0 };
}
