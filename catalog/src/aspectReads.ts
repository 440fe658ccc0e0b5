/**
 * DataHub's Rest.li aspect reads (notes §2): `GET /aspects/{urn}?aspect=…&version=0` and
 * `GET /entitiesV2/{urn}?aspects=List(a,b)`.
 */
import { ASPECT_FQCN, ASPECT_NAMES, isAspectName, isEntityType, type AspectName, type EntityType } from '../../model/src/aspects';
import { badRequest, notFound } from './errors';
import { checkAspectOfEntity } from './ingest';
import type { NamespacePolicy, ResolvedUrn } from './namespaces';
import type { AspectStore, StoredAspect } from './store';

/** The URN of a path segment such as `/aspects/<segment>`: percent-decoded once, as Rest.li does. */
export function urnFromPath(segment: string): string {
  if (segment === '') throw badRequest('the URN is missing from the path (GET /aspects/{url-encoded urn}?aspect=<name>&version=0)');
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`the URN in the path is not valid percent-encoding: '${segment}' (encode it with encodeURIComponent)`);
  }
}

function entityOf(namespaces: NamespacePolicy, urnText: string): { resolved: ResolvedUrn; entityType: EntityType } {
  const resolved = namespaces.resolve(urnText, 'urn');
  const kind = resolved.urn.kind === 'other' ? resolved.urn.entityType : resolved.urn.kind;
  if (!isEntityType(kind)) {
    throw badRequest(`urn: '${urnText}' is a ${kind} URN; this catalog stores dataset, mlFeature, mlFeatureTable, mlModel and mlModelGroup`);
  }
  return { resolved, entityType: kind };
}

function aspectParam(name: string, where: string): AspectName {
  if (!isAspectName(name)) throw badRequest(`${where}: unknown aspect '${name}' (known: ${ASPECT_NAMES.join(', ')})`);
  return name;
}

/** `{"aspect": {"<FQCN>": value}, "version": 0}`; 404 when the aspect is absent. */
export function readAspect(store: AspectStore, namespaces: NamespacePolicy, urnText: string, query: URLSearchParams): unknown {
  const { resolved, entityType } = entityOf(namespaces, urnText);
  const name = query.get('aspect');
  if (name === null || name === '') throw badRequest('aspect: required query parameter (?aspect=<name>&version=0)');
  const aspect = aspectParam(name, 'aspect');
  checkAspectOfEntity(entityType, aspect, 'aspect');
  const version = query.get('version') ?? '0';
  if (version !== '0') {
    throw badRequest(`version: only version=0 (the latest) is kept by this catalog, found '${version}'`);
  }
  const stored = store.get(resolved.key, aspect);
  if (!stored) throw notFound(`aspect ${aspect} of ${urnText} not found`);
  return { aspect: { [ASPECT_FQCN[aspect]]: stored.value }, version: 0 };
}

/** Aspect names of `?aspects=List(a,b)` (Rest.li 2.0) or `?aspects=a&aspects=b` (1.0); undefined = all. */
export function aspectList(query: URLSearchParams): AspectName[] | undefined {
  const raw = query.getAll('aspects');
  if (raw.length === 0) return undefined;
  const names: string[] = [];
  for (const r of raw) {
    const m = /^List\((.*)\)$/s.exec(r);
    names.push(...(m ? m[1]!.split(',') : [r]).map((s) => s.trim()).filter((s) => s !== ''));
  }
  return names.map((n) => aspectParam(n, 'aspects'));
}

/** `{"entityName", "urn", "aspects": {name: envelope}}`; absent aspects are left out (the entity need not exist). */
export function readEntity(store: AspectStore, namespaces: NamespacePolicy, urnText: string, query: URLSearchParams): unknown {
  const { resolved, entityType } = entityOf(namespaces, urnText);
  const wanted = aspectList(query);
  const all = store.getAll(resolved.key);
  const aspects: Record<string, unknown> = {};
  for (const [name, stored] of all) {
    if (wanted === undefined || wanted.includes(name)) aspects[name] = envelope(stored);
  }
  return { entityName: entityType, urn: urnText, aspects };
}

function envelope(s: StoredAspect): unknown {
  return {
    name: s.aspect,
    type: 'VERSIONED',
    version: 0,
    value: s.value,
    // DataHub's EnvelopedAspect.created is the stamp of the version returned, i.e. its last change.
    created: s.lastModified,
    systemMetadata: s.systemMetadata,
  };
}
