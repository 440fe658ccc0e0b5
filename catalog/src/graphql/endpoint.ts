/**
 * `POST /api/graphql` as DataHub answers it (metadata-service/graphql-servlet-impl's
 * GraphQLController.java): HTTP 200 whenever the document ran,
 * `{data, errors?, extensions: {}}`, each error with `extensions: {code, type}`; HTTP 400 when the
 * body is not a GraphQL request.
 */
import {
  execute,
  getVariableValues,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import {
  CATALOG_KINDS,
  isCatalogKind,
  isViewKind,
  viewOf,
  VIEW_KINDS,
  type LookupKind,
} from '../../../model/src/kinds';
import { badRequest, CatalogError, graphQLErrorType, OpaqueError } from '../errors';
import { addLink, type AddLinkArgs } from './addLink';
import {
  updateDatasetAsDataHub,
  updateDescriptionAsDataHub,
  updateStructuredPropertyAsDataHub,
  type UpdateStructuredPropertyArgs,
} from './datahubMutations';
import {
  addOwners,
  addTags,
  addTerms,
  removeOwner,
  removeTag,
  removeTerm,
  type AddOwnersArgs,
  type AddTagsArgs,
  type AddTermsArgs,
  type RemoveOwnerArgs,
  type RemoveTagArgs,
  type RemoveTermArgs,
} from './labels';
import { checkQueryLimits, DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits';
import { updateDataset, updateDescription, type UpdateDatasetArgs, type UpdateDescriptionArgs } from './mutations';
import {
  datahubLimitMessage,
  queryCost,
  selectedOperation,
  type DataHubQueryLimits,
} from '../../../model/src/queryCost';
import { entityNode, type ReadContext } from './readShapes';
import { viewExists, viewNode } from './viewShapes';
import { searchRoots } from './search';
import { readWithoutExecutor } from './fastRead';
import { catalogSchema } from './schema';

type Json = Record<string, unknown>;

export interface GraphQLResponse {
  status: number;
  body: Json;
}

function resolveEntity(kind: LookupKind | 'any', urn: string, ctx: ReadContext, where: string) {
  const r = ctx.namespaces.resolve(urn, where);
  const found = r.urn.kind === 'other' ? r.urn.entityType : r.urn.kind;
  if (kind === 'any' ? !isCatalogKind(found) && !isViewKind(found) : found !== kind) {
    const wanted = kind === 'any' ? [...CATALOG_KINDS, ...VIEW_KINDS].join(', ') : `a ${kind}`;
    throw badRequest(`${where}: expected ${wanted} URN, found a ${found} URN '${urn}'`);
  }
  return { ...r, entityType: found as LookupKind };
}

/** Whether the entity was written: its kind's existence aspects, or any aspect of a looked-up-only kind. */
function exists(ctx: ReadContext, key: string, kind: LookupKind): boolean {
  return isViewKind(kind) ? viewExists(ctx, key) : ctx.exists(key, kind);
}

/** The node of an entity of any looked-up kind. */
function nodeOf(ctx: ReadContext, requested: string, r: ReturnType<typeof resolveEntity>): Json | null {
  return isViewKind(r.entityType)
    ? viewNode(ctx, requested, r.urn, r.entityType, r.key)
    : entityNode(ctx, requested, r.urn, r.key);
}

/**
 * A root query field. Spec mode: the entity, or null when it does not exist (unset values are
 * null). DataHub mode: an object for every well-formed URN, its `exists` false and
 * its aspect fields null when nothing was written (DatasetType.batchLoad → batchGetV2, whose map
 * holds every URN asked for with its key aspect; EntityServiceImpl.getCorrespondingAspects).
 */
function entityQuery(kind: LookupKind | 'any') {
  return (args: { urn: string }, ctx: ReadContext, info: { fieldName: string }): Json | null => {
    const r = resolveEntity(kind, args.urn, ctx, `${info.fieldName}(urn)`);
    if (ctx.compat !== 'datahub' && !exists(ctx, r.key, r.entityType)) return null;
    return nodeOf(ctx, args.urn, r);
  };
}

/**
 * `entities(urns:)`: each URN's node in order, as `entity(urn:)` answers it (null for one never
 * written in the spec mode; DataHub's EntitiesResolver answers an object for any).
 */
function entitiesQuery(args: { urns: string[] }, ctx: ReadContext): Array<Json | null> {
  return args.urns.map((urn) => {
    const r = resolveEntity('any', urn, ctx, 'entities(urns)');
    if (ctx.compat !== 'datahub' && !exists(ctx, r.key, r.entityType)) return null;
    return nodeOf(ctx, urn, r);
  });
}

const rootValue = {
  dataset: entityQuery('dataset'),
  mlFeature: entityQuery('mlFeature'),
  mlFeatureTable: entityQuery('mlFeatureTable'),
  mlModel: entityQuery('mlModel'),
  mlModelGroup: entityQuery('mlModelGroup'),
  // A kind without a root field of its own (a query) is answered by `entity(urn:)`.
  ...Object.fromEntries(
    VIEW_KINDS.filter((k) => viewOf(k).field !== 'entity').map((k) => [viewOf(k).field, entityQuery(k)]),
  ),
  entity: entityQuery('any'),
  entities: entitiesQuery,
  entityExists: (args: { urn: string }, ctx: ReadContext, info: { fieldName: string }): boolean => {
    const r = resolveEntity('any', args.urn, ctx, `${info.fieldName}(urn)`);
    return exists(ctx, r.key, r.entityType);
  },
  updateDataset: (args: UpdateDatasetArgs, ctx: ReadContext) =>
    ctx.compat === 'datahub' ? updateDatasetAsDataHub(args, ctx) : updateDataset(args, ctx),
  updateDescription: (args: UpdateDescriptionArgs, ctx: ReadContext) =>
    ctx.compat === 'datahub' ? updateDescriptionAsDataHub(args, ctx) : updateDescription(args, ctx),
  addLink: (args: AddLinkArgs, ctx: ReadContext) => addLink(args, ctx),
  // The spec has no such mutation (its writes are updateDataset and updateDescription of dataset fields).
  updateStructuredProperty: (args: UpdateStructuredPropertyArgs, ctx: ReadContext, info: { fieldName: string }) => {
    if (ctx.compat !== 'datahub')
      throw badRequest(
        `updateStructuredProperty: this catalog does not write structured property definitions (spec §4.1: its mutations are updateDataset and updateDescription of dataset fields), so '${args.input.urn}' is not changed`,
      );
    updateStructuredPropertyAsDataHub(args, ctx);
    return entityQuery('structuredProperty')({ urn: args.input.urn }, ctx, info);
  },
  addTags: (args: AddTagsArgs, ctx: ReadContext) => addTags(args, ctx),
  removeTag: (args: RemoveTagArgs, ctx: ReadContext) => removeTag(args, ctx),
  addTerms: (args: AddTermsArgs, ctx: ReadContext) => addTerms(args, ctx),
  removeTerm: (args: RemoveTermArgs, ctx: ReadContext) => removeTerm(args, ctx),
  addOwners: (args: AddOwnersArgs, ctx: ReadContext) => addOwners(args, ctx),
  removeOwner: (args: RemoveOwnerArgs, ctx: ReadContext) => removeOwner(args, ctx),
  ...searchRoots,
};

/** The root fields `readWithoutExecutor` may answer: the entity lookups (pure reads). */
const LOOKUP_ROOTS: ReadonlySet<string> = new Set([
  'dataset',
  'mlFeature',
  'mlFeatureTable',
  'mlModel',
  'mlModelGroup',
  ...VIEW_KINDS.map((k) => viewOf(k).field).filter((f) => f !== 'entity'),
  'entity',
  'entities',
  'entityExists',
]);

const DATAHUB_MODE_SAFETY_LIMITS: QueryLimits = {
  maxDepth: Number.MAX_SAFE_INTEGER,
  maxRootFields: Number.MAX_SAFE_INTEGER,
  maxFields: DEFAULT_QUERY_LIMITS.maxFields,
};

/** Which size limits a request meets: the spec mode's own (limits.ts, checked before validation), or DataHub's (queryCost.ts, checked after). */
export type GraphQLLimits = { kind: 'spec'; limits: QueryLimits } | { kind: 'datahub'; limits: DataHubQueryLimits };

export interface GraphQLRunOptions {
  limits?: GraphQLLimits;
  /** A resolver threw something that is not a CatalogError: a bug. */
  onInternalError?: (e: Error) => void;
  /** The DataHub mode answered less than it knows (OpaqueError): why. */
  onOpaqueError?: (e: OpaqueError) => void;
  /** The name of the operation a parsed document runs (`(anonymous)` without one), for the stats. */
  onOperation?: (name: string) => void;
  /** How a document that ran was answered: walked without the executor (fastRead.ts) or by `execute`. */
  onAnswered?: (how: 'walk' | 'execute') => void;
  /** Always `execute` (the tests compare both answers). */
  executorOnly?: boolean;
}

function requestError(message: string): GraphQLResponse {
  return {
    status: 400,
    body: {
      errors: [{ message, extensions: { code: 400, type: 'BAD_REQUEST', classification: 'BadRequest' } }],
      data: null,
      extensions: {},
    },
  };
}

function errorEntry(e: GraphQLError, classification?: string): Json {
  const original = e.originalError;
  // Errors without a path come before any resolver ran (variable coercion): the request's fault.
  const fromResolver = e.path !== undefined;
  const status = original instanceof CatalogError ? original.status : fromResolver && original ? 500 : 400;
  const { code, type } = graphQLErrorType(status);
  const entry: Json = { message: e.message };
  if (e.locations) entry['locations'] = e.locations;
  if (e.path) entry['path'] = e.path;
  entry['extensions'] = {
    code,
    type,
    classification: classification ?? (fromResolver ? 'DataFetchingException' : 'ValidationError'),
  };
  return entry;
}

function withErrors(errors: readonly GraphQLError[], classification: string): GraphQLResponse {
  return {
    status: 200,
    body: { errors: errors.map((e) => errorEntry(e, classification)), data: null, extensions: {} },
  };
}

/** graphql-java's answer to an AbortExecutionException: no `data` key at all, the classification only. */
function aborted(message: string): GraphQLResponse {
  return {
    status: 200,
    body: { errors: [{ message, extensions: { classification: 'ExecutionAborted' } }], extensions: {} },
  };
}

/** DataHub's limits, checked as graphql-java does: after validation and variable coercion, before execution. */
function datahubLimitAnswer(
  doc: DocumentNode,
  limits: DataHubQueryLimits,
  variables: Json | undefined,
  operationName: string | undefined,
): GraphQLResponse | undefined {
  const op = selectedOperation(doc, operationName);
  if (!op) return undefined;
  const coerced = getVariableValues(catalogSchema(), op.variableDefinitions ?? [], variables ?? {});
  // Coercion errors are answered by execute, as graphql-java answers them before the instrumentations run.
  if (coerced.errors) return undefined;
  let cost;
  try {
    cost = queryCost(doc, { operationName, variables: coerced.coerced });
  } catch (e) {
    if (e instanceof RangeError)
      return aborted(
        `maximum query depth exceeded: the document is nested too deeply to measure (limit ${limits.maxDepth})`,
      );
    throw e;
  }
  const over = cost && datahubLimitMessage(cost, limits);
  return over ? aborted(over) : undefined;
}

/**
 * Parsed documents and their validation against the (fixed) schema, by query text. Clients send
 * the same few documents again and again (the language server's batch of N URNs of one kind), and
 * validation costs more than executing a one-entity query (bench/RESULTS.md, benchmark 7).
 */
interface KnownDocument {
  doc: DocumentNode;
  invalid?: readonly GraphQLError[];
  /** The size limits last checked on this document, and what the check answered. */
  checked?: { limits: QueryLimits; over: string | undefined };
}
const documents = new Map<string, KnownDocument>();
const MAX_DOCUMENTS = 200;
const MAX_REMEMBERED_QUERY = 100_000;

function rememberDocument(query: string, entry: KnownDocument): void {
  if (query.length > MAX_REMEMBERED_QUERY) return;
  if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value as string);
  documents.set(query, entry);
}

/** Runs one GraphQL request body (already parsed as JSON). */
export async function runGraphQL(
  body: unknown,
  ctx: ReadContext,
  opts: GraphQLRunOptions = {},
): Promise<GraphQLResponse> {
  const limits = opts.limits ?? { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return requestError('the request body must be a JSON object {"query": "...", "variables": {...}}');
  }
  const { query, variables, operationName } = body as Json;
  if (typeof query !== 'string' || query.trim() === '') {
    return requestError('query: required, a GraphQL document as a string');
  }
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return requestError('variables: expected an object');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return requestError('operationName: expected a string');
  }
  let known = documents.get(query);
  if (!known) {
    try {
      known = { doc: parse(query) };
    } catch (e) {
      if (e instanceof GraphQLError) return withErrors([e], 'InvalidSyntax');
      // graphql's parser recurses once per level: thousands of nested braces overflow its stack.
      if (e instanceof RangeError) {
        return withErrors(
          [
            new GraphQLError(
              `the document is nested too deeply to read; the limit is ${limits.limits.maxDepth} levels`,
            ),
          ],
          'ValidationError',
        );
      }
      throw e;
    }
    rememberDocument(query, known);
  }
  const doc = known.doc;
  opts.onOperation?.(selectedOperation(doc, operationName ?? undefined)?.name?.value ?? '(anonymous)');
  // The DataHub mode keeps only the catalog's cap on fields in all, a guard for the catalog itself
  // (graphql-js validation is quadratic in the fields of a level); DataHub's limits come after validation.
  // Checked on every document; the answer is kept with the document for the same limits.
  const sizeLimits = limits.kind === 'spec' ? limits.limits : DATAHUB_MODE_SAFETY_LIMITS;
  if (known.checked?.limits !== sizeLimits)
    known.checked = { limits: sizeLimits, over: checkQueryLimits(doc, sizeLimits) };
  const overLimit = known.checked.over;
  if (overLimit) return withErrors([new GraphQLError(overLimit)], 'ValidationError');
  const schema = catalogSchema();
  known.invalid ??= validate(schema, doc);
  const invalid = known.invalid;
  if (invalid.length > 0) return withErrors(invalid, 'ValidationError');
  if (limits.kind === 'datahub') {
    const over = datahubLimitAnswer(
      doc,
      limits.limits,
      (variables ?? undefined) as Json | undefined,
      operationName ?? undefined,
    );
    if (over) return over;
  }

  // The lookups answered by walking the document over the same resolvers; execute when that gives up.
  const data = opts.executorOnly
    ? undefined
    : readWithoutExecutor(
        schema,
        doc,
        operationName ?? undefined,
        (variables ?? undefined) as Json | undefined,
        rootValue,
        LOOKUP_ROOTS,
        ctx,
      );
  opts.onAnswered?.(data ? 'walk' : 'execute');
  if (data) return { status: 200, body: { data, extensions: {} } };

  const result: ExecutionResult = await execute({
    schema,
    document: doc,
    rootValue,
    contextValue: ctx,
    variableValues: (variables ?? undefined) as Json | undefined,
    operationName: operationName ?? undefined,
  });
  const out: Json = { data: result.data ?? null };
  if (result.errors && result.errors.length > 0) {
    for (const e of result.errors) {
      if (e.originalError instanceof OpaqueError) opts.onOpaqueError?.(e.originalError);
      else if (e.path !== undefined && e.originalError && !(e.originalError instanceof CatalogError))
        opts.onInternalError?.(e.originalError);
    }
    out['errors'] = result.errors.map((e) => errorEntry(e));
  }
  out['extensions'] = {};
  return { status: 200, body: out };
}
