/** Request counts, read by tests (in process, or over HTTP at /_catalog-lens/stats). */

export interface CatalogStats {
  /** POST /api/graphql requests. */
  graphql: number;
  /** POST /aspects?action=ingestProposal and …Batch requests. */
  aspectWrites: number;
  /** GET /aspects/… and GET /entitiesV2/… requests. */
  aspectReads: number;
  /** Requests per raw path (query string left out), e.g. `/api/graphql`, `/aspects/urn%3Ali%3A…`. */
  byPath: Record<string, number>;
  /** GraphQL documents read, by the name of the operation they run (`resolveEntities`, `searchEntities` …). */
  graphqlOperations: Record<string, number>;
  reset(): void;
}

export function createStats(): CatalogStats {
  const stats: CatalogStats = {
    graphql: 0,
    aspectWrites: 0,
    aspectReads: 0,
    byPath: {},
    graphqlOperations: {},
    reset() {
      stats.graphql = 0;
      stats.aspectWrites = 0;
      stats.aspectReads = 0;
      stats.byPath = {};
      stats.graphqlOperations = {};
    },
  };
  return stats;
}

export function countRequest(stats: CatalogStats, method: string, path: string): void {
  if (path.startsWith('/_catalog-lens/')) return;
  stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;
  if (method === 'POST' && path === '/api/graphql') stats.graphql++;
  else if (method === 'POST' && path === '/aspects') stats.aspectWrites++;
  else if (method === 'GET' && (path.startsWith('/aspects/') || path.startsWith('/entitiesV2/'))) stats.aspectReads++;
}

/** Counts a GraphQL document by its operation's name. */
export function countOperation(stats: CatalogStats, name: string): void {
  stats.graphqlOperations[name] = (stats.graphqlOperations[name] ?? 0) + 1;
}

export function statsSnapshot(stats: CatalogStats): Omit<CatalogStats, 'reset'> {
  return {
    graphql: stats.graphql,
    aspectWrites: stats.aspectWrites,
    aspectReads: stats.aspectReads,
    byPath: { ...stats.byPath },
    graphqlOperations: { ...stats.graphqlOperations },
  };
}
