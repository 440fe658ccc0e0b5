/**
 * One error type for the whole catalog: an HTTP status and a message that says what is wrong
 * and where. The Rest.li routes send it as DataHub's error body; GraphQL maps the status to
 * DataHub's error codes (datahub-graphql-core's DataHubGraphQLErrorCode.java).
 */

export type GraphQLErrorType = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT' | 'SERVER_ERROR';

export class CatalogError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

/**
 * An error the DataHub mode answers as DataHub does, with less than the catalog knows: a Rest.li
 * 404 with no message (RestliUtils.nonExceptionResourceNotFound), or GraphQL's "An unknown error
 * occurred." (DataHubDataFetcherExceptionHandler, for exceptions that are not
 * IllegalArgumentException). `reason` says what was wrong; the catalog logs it.
 */
export class OpaqueError extends CatalogError {
  constructor(
    status: number,
    message: string,
    readonly reason: string,
  ) {
    super(status, message);
    this.name = 'OpaqueError';
  }
}

/** DataHub's GraphQL answer to an exception it does not classify: SERVER_ERROR, "An unknown error occurred.". */
export function unknownGraphQLError(reason: string): OpaqueError {
  return new OpaqueError(500, 'An unknown error occurred.', reason);
}

/** DataHub's Rest.li 404 for an absent aspect: no message at all. */
export function bareNotFound(reason: string): OpaqueError {
  return new OpaqueError(404, '', reason);
}

export function badRequest(message: string): CatalogError {
  return new CatalogError(400, message);
}

export function notFound(message: string): CatalogError {
  return new CatalogError(404, message);
}

export function unprocessable(message: string): CatalogError {
  return new CatalogError(422, message);
}

/** DataHub's GraphQL error code for an HTTP-like status (DataHubGraphQLErrorCode). */
export function graphQLErrorType(status: number): { code: number; type: GraphQLErrorType } {
  switch (status) {
    case 400:
    case 413:
    case 422:
      return { code: 400, type: 'BAD_REQUEST' };
    case 401:
    case 403:
      return { code: 403, type: 'UNAUTHORIZED' };
    case 404:
      return { code: 404, type: 'NOT_FOUND' };
    case 409:
      return { code: 409, type: 'CONFLICT' };
    default:
      return { code: 500, type: 'SERVER_ERROR' };
  }
}
