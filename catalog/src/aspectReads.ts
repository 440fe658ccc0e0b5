/**
 * DataHub's Rest.li aspect reads (AspectResource and EntityV2Resource in
 * metadata-service/restli-servlet-impl): `GET /aspects/{urn}?aspect=…&version=0` and
 * `GET /entitiesV2/{urn}?aspects=List(a,b)`. The spec mode accepts `List(a,b)` with or without
 * the protocol header and refuses unknown aspect names; the DataHub mode reads the parameters as
 * the request's Rest.li protocol says (datahub/restli.ts), answers unknown names as absent, and
 * puts the entity's key aspect in every entitiesV2 answer, as DataHub does.
 */
import { ASPECT_FQCN, isAspectName } from '../../model/src/aspects';
import { aspectsOfEntity, recordOfAspect, TIMESERIES_ASPECTS } from '../../model/src/entityAspects';
import type { CompatMode } from './compat';
import { keyAspectOf, keyEnvelope } from './datahub/keyAspects';
import { arrayParam, type RestLiProtocol } from './datahub/restli';
import { badRequest, bareNotFound, notFound } from './errors';
import { checkAspectOfEntity } from './ingest';
import type { NamespacePolicy, ResolvedUrn } from './namespaces';
import type { AspectStore, RawStoredAspect } from './store';
import { entityExists } from './writes';

export interface ReadRules {
  compat: CompatMode;
  /** The request's Rest.li protocol (DataHub mode only reads it). */
  protocol: RestLiProtocol;
}

/** The URN of a path segment such as `/aspects/<segment>`: percent-decoded once, as Rest.li does. */
export function urnFromPath(segment: string): string {
  if (segment === '')
    throw badRequest('the URN is missing from the path (GET /aspects/{url-encoded urn}?aspect=<name>&version=0)');
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(
      `the URN in the path is not valid percent-encoding: '${segment}' (encode it with encodeURIComponent)`,
    );
  }
}

function entityOf(namespaces: NamespacePolicy, urnText: string): { resolved: ResolvedUrn; entityType: string } {
  const resolved = namespaces.resolve(urnText, 'urn');
  const kind = resolved.urn.kind === 'other' ? resolved.urn.entityType : resolved.urn.kind;
  if (!aspectsOfEntity(kind)) {
    throw badRequest(`urn: '${urnText}' is a ${kind} URN, an entity type DataHub's entity registry does not have`);
  }
  return { resolved, entityType: kind };
}

/** The Pegasus record name `GET /aspects` answers an aspect under (the aspect's name when the table has none). */
export function recordName(aspect: string): string {
  return isAspectName(aspect) ? ASPECT_FQCN[aspect] : (recordOfAspect(aspect) ?? aspect);
}

/**
 * `{"aspect": {"<FQCN>": value}, "version": 0}`; 404 when the aspect is absent. The key aspect
 * (`datasetKey` …), which DataHub's Python SDK reads to learn whether an entity exists, is answered
 * once the entity exists, in both modes.
 */
export function readAspect(
  store: AspectStore,
  namespaces: NamespacePolicy,
  urnText: string,
  query: URLSearchParams,
  rules: ReadRules,
): unknown {
  const { resolved, entityType } = entityOf(namespaces, urnText);
  const name = query.get('aspect');
  if (name === null || name === '') throw badRequest('aspect: required query parameter (?aspect=<name>&version=0)');
  const version = query.get('version') ?? '0';
  if (version !== '0') {
    throw badRequest(`version: only version=0 (the latest) is kept by this catalog, found '${version}'`);
  }
  if (rules.compat === 'datahub') return readAspectAsDataHub(store, resolved, urnText, name);
  checkAspectOfEntity(entityType, name, 'aspect', 'spec');
  const key = keyAspectOf(resolved.urn, urnText);
  if (key && name === key.name) {
    if (!entityExists(store, resolved.key, entityType, 'spec')) throw notFound(`${urnText} does not exist: no ${name}`);
    return { aspect: { [key.fqcn]: key.value }, version: 0 };
  }
  const stored = store.getRaw(resolved.key, name);
  if (!stored) throw notFound(`aspect ${name} of ${urnText} not found`);
  return { aspect: { [recordName(name)]: stored.value }, version: 0 };
}

/**
 * DataHub's AspectResource.get: the row, or a 404 with no message (any name, known or not, is
 * looked up: EntityServiceImpl.getVersionedAspect returns null). The key aspect exists once any
 * aspect was written.
 */
function readAspectAsDataHub(store: AspectStore, resolved: ResolvedUrn, urnText: string, name: string): unknown {
  const key = keyAspectOf(resolved.urn, urnText);
  if (key && name === key.name && store.hasAny(resolved.key)) return { aspect: { [key.fqcn]: key.value }, version: 0 };
  const stored = store.getRaw(resolved.key, name);
  if (!stored) throw bareNotFound(`aspect ${name} of ${urnText} not found`);
  return { aspect: { [recordName(name)]: stored.value }, version: 0 };
}

/** Aspect names of `?aspects=List(a,b)` (Rest.li 2.0) or `?aspects=a&aspects=b` (1.0), each one of the entity type's; undefined = all. */
export function aspectList(query: URLSearchParams, entityType: string): string[] | undefined {
  const names = arrayParam(query, 'aspects', '2.0');
  for (const n of names ?? []) checkAspectOfEntity(entityType, n, 'aspects', 'spec');
  return names;
}

/** `{"entityName", "urn", "aspects": {name: envelope}}`; absent aspects are left out (the entity need not exist). */
export function readEntity(
  store: AspectStore,
  namespaces: NamespacePolicy,
  urnText: string,
  query: URLSearchParams,
  rules: ReadRules,
): unknown {
  const { resolved, entityType } = entityOf(namespaces, urnText);
  // DataHub mode: names are not checked (EntityV2Resource passes them on as strings).
  const wanted: readonly string[] | undefined =
    rules.compat === 'datahub' ? arrayParam(query, 'aspects', rules.protocol) : aspectList(query, entityType);
  const aspects: Record<string, unknown> = {};
  for (const [name, stored] of store.getAllRaw(resolved.key)) {
    if (wanted === undefined || wanted.includes(name)) aspects[name] = envelope(stored);
  }
  const key = keyAspectOf(resolved.urn, urnText);
  if (key && rules.compat === 'datahub') {
    // EntityServiceImpl.getCorrespondingAspects adds the key aspect for every URN asked for (alwaysIncludeKeyAspect).
    aspects[key.name] = keyEnvelope(key, Date.now());
  } else if (key && wanted?.includes(key.name) && entityExists(store, resolved.key, entityType, 'spec')) {
    aspects[key.name] = keyEnvelope(key, Date.now());
  }
  return { entityName: entityType, urn: urnText, aspects };
}

function envelope(s: RawStoredAspect): unknown {
  return {
    name: s.aspect,
    type: TIMESERIES_ASPECTS.has(s.aspect) ? 'TIMESERIES' : 'VERSIONED',
    version: 0,
    value: s.value,
    // DataHub's EntityAspect envelope's `created` is the stamp of the version returned, i.e. its last change.
    created: s.lastModified,
    systemMetadata: s.systemMetadata,
  };
}
