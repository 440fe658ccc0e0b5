/**
 * DataHub's Rest.li aspect write (`POST /aspects?action=ingestProposal[Batch]`, AspectResource in
 * metadata-service/restli-servlet-impl):
 * turns a request body into checked writes, then applies them in one transaction. Every
 * refusal names the JSON path of what is wrong; nothing is stored unless all of it is valid.
 */
import { checkAspect, isAspectName } from '../../model/src/aspects';
import { aspectsOfEntity, unknownAspectText } from '../../model/src/entityAspects';
import { isRecord } from '../../model/src/json';
import type { CompatMode } from './compat';
import { badRequest, CatalogError, unprocessable } from './errors';
import type { NamespacePolicy } from './namespaces';
import { patchOps } from './patch';
import type { AspectStore } from './store';
import { writeAspect, type AspectWrite, type WriteOutcome } from './writes';

type Json = Record<string, unknown>;

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Jackson's default nesting limit, which DataHub's GMS reads JSON with; deeper values would overflow the stack here. */
const MAX_JSON_DEPTH = 1000;

/** Whether `v` nests objects and arrays more than `limit` levels (walked without recursion). */
function nestedDeeperThan(v: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: v, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(value as Record<string, unknown>)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

function requireString(p: Json, key: string, where: string): string {
  const v = p[key];
  if (v === undefined) throw badRequest(`${where}.${key}: required`);
  if (typeof v !== 'string') throw badRequest(`${where}.${key}: expected a string, found ${kindOf(v)}`);
  return v;
}

function checkAsync(body: Json): void {
  const a = body['async'];
  if (a === undefined || a === 'true' || a === 'false' || typeof a === 'boolean') return;
  throw badRequest(`async: expected "true" or "false", found ${JSON.stringify(a)}`);
}

/**
 * Checks one proposal object and turns it into a write; `where` is its JSON path (e.g. `proposals[2]`).
 * Every entity type and aspect of DataHub's registry is taken (model/src/entityAspects.ts); the
 * value's shape is checked for the aspects the catalog reads (model/src/aspects.ts), the others are
 * stored as sent.
 */
export function proposalToWrite(
  p: unknown,
  where: string,
  namespaces: NamespacePolicy,
  compat: CompatMode = 'spec',
): AspectWrite {
  if (p === undefined) throw badRequest(`${where}: required (the body is {"proposal": {...}, "async": "false"})`);
  if (!isRecord(p)) throw badRequest(`${where}: expected an object, found ${kindOf(p)}`);

  const entityType = requireString(p, 'entityType', where);
  const entityUrn = requireString(p, 'entityUrn', where);
  const changeType = requireString(p, 'changeType', where);
  const aspectName = requireString(p, 'aspectName', where);
  if (changeType !== 'UPSERT' && changeType !== 'PATCH') {
    throw badRequest(`${where}.changeType: only UPSERT and PATCH are supported by this catalog, found '${changeType}'`);
  }
  checkAspectOfEntity(entityType, aspectName, `${where}.aspectName`, compat);

  const resolved = namespaces.resolve(entityUrn, `${where}.entityUrn`);
  const urnKind = resolved.urn.kind === 'other' ? resolved.urn.entityType : resolved.urn.kind;
  if (urnKind !== entityType) {
    throw badRequest(
      `${where}.entityUrn: '${entityUrn}' is a ${urnKind} URN, but ${where}.entityType is '${entityType}'`,
    );
  }

  const aspect = p['aspect'];
  if (aspect === undefined)
    throw badRequest(
      `${where}.aspect: required ({"value": "<aspect JSON as a string>", "contentType": "application/json"})`,
    );
  if (!isRecord(aspect)) throw badRequest(`${where}.aspect: expected an object, found ${kindOf(aspect)}`);
  const valueText = requireString(aspect, 'value', `${where}.aspect`);
  const contentType = requireString(aspect, 'contentType', `${where}.aspect`);
  if (contentType !== 'application/json') {
    throw badRequest(`${where}.aspect.contentType: only application/json is supported, found '${contentType}'`);
  }

  const systemMetadata = p['systemMetadata'];
  if (systemMetadata !== undefined && systemMetadata !== null && !isRecord(systemMetadata)) {
    throw badRequest(`${where}.systemMetadata: expected an object, found ${kindOf(systemMetadata)}`);
  }
  if (nestedDeeperThan(systemMetadata, MAX_JSON_DEPTH)) {
    throw badRequest(`${where}.systemMetadata: nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  const ifVersionMatch = readVersionHeader(p['headers'], `${where}.headers`);

  let value: unknown;
  try {
    value = JSON.parse(valueText);
  } catch (e) {
    throw unprocessable(`${where}.aspect.value: not valid JSON (${(e as Error).message})`);
  }
  if (changeType === 'PATCH') {
    const ops = patchOps(value, `${where}.aspect.value`);
    const write: AspectWrite = {
      key: resolved.key,
      requestedUrn: entityUrn,
      entityType,
      aspectName,
      value: {},
      patch: ops,
    };
    write.check = (patched) =>
      void checkedWrite({ ...write, value: patched }, `${where}.aspect.value (patched)`, undefined, undefined);
    if (isRecord(systemMetadata)) write.systemMetadata = systemMetadata;
    if (ifVersionMatch !== undefined) write.ifVersionMatch = ifVersionMatch;
    return write;
  }
  return checkedWrite(
    { key: resolved.key, requestedUrn: entityUrn, entityType, aspectName, value },
    `${where}.aspect.value`,
    isRecord(systemMetadata) ? systemMetadata : undefined,
    ifVersionMatch,
  );
}

/** The checks every aspect value passes (a JSON object, not too deep, its shape where the catalog reads it). */
export function checkedWrite(
  w: Omit<AspectWrite, 'value'> & { value: unknown },
  where: string,
  systemMetadata: Record<string, unknown> | undefined,
  ifVersionMatch: string | undefined,
): AspectWrite {
  const { value, aspectName } = w;
  if (!isRecord(value)) {
    throw unprocessable(`${where}: the ${aspectName} aspect must be a JSON object, found ${kindOf(value)}`);
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw unprocessable(`${where}: nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  if (isAspectName(aspectName)) {
    const problems = checkAspect(aspectName, value);
    if (problems.length > 0) {
      const shown = problems.slice(0, 10).map((m) => `${where}.${m}`);
      const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
      throw unprocessable(`${aspectName} is not valid: ${shown.join('; ')}${more}`);
    }
  }
  const write: AspectWrite = { ...w, value };
  if (systemMetadata) write.systemMetadata = systemMetadata;
  if (ifVersionMatch !== undefined) write.ifVersionMatch = ifVersionMatch;
  return write;
}

/**
 * Refuses an entity type DataHub's registry does not have (400) and an aspect the registry does not
 * give that type: the spec mode with a 400 naming the aspects it has, the DataHub mode as DataHub
 * does (AspectUtils.validateAspect's RuntimeException, answered 500 by RestliUtils.toTask).
 */
export function checkAspectOfEntity(entityType: string, aspectName: string, where: string, compat: CompatMode): void {
  const allowed = aspectsOfEntity(entityType);
  if (!allowed) {
    throw badRequest(
      `${where.replace(/\.aspectName$/, '.entityType')}: unknown entity type '${entityType}': not an entity of DataHub's entity registry`,
    );
  }
  if (allowed.has(aspectName)) return;
  if (compat === 'datahub')
    throw new CatalogError(500, `java.lang.RuntimeException: ${unknownAspectText(aspectName, entityType)}`);
  throw badRequest(
    `${where}: unknown aspect '${aspectName}': '${aspectName}' is not an aspect of entity type '${entityType}' ` +
      `in DataHub's entity registry ("${unknownAspectText(aspectName, entityType)}"; its aspects: ${[...allowed].join(', ')})`,
  );
}

function readVersionHeader(headers: unknown, where: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (!isRecord(headers)) throw badRequest(`${where}: expected an object of strings, found ${kindOf(headers)}`);
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v !== 'string') throw badRequest(`${where}.${k}: expected a string, found ${kindOf(v)}`);
  }
  const v = headers['If-Version-Match'];
  if (typeof v === 'string' && !/^(-1|[1-9][0-9]*)$/.test(v)) {
    throw badRequest(
      `${where}.If-Version-Match: expected a version number as a string ("-1" = only if absent), found '${v}'`,
    );
  }
  return typeof v === 'string' ? v : undefined;
}

/** `{"proposal": {...}, "async": "false"}` → one write. `async: "true"` is written synchronously too. */
export function ingestProposal(
  store: AspectStore,
  body: unknown,
  namespaces: NamespacePolicy,
  actor: string,
  compat: CompatMode,
): WriteOutcome {
  if (!isRecord(body)) throw badRequest(`request body: expected a JSON object, found ${kindOf(body)}`);
  checkAsync(body);
  const write = proposalToWrite(body['proposal'], 'proposal', namespaces, compat);
  return store.transaction(() => writeAspect(store, write, actor, Date.now(), compat));
}

/** `{"proposals": [...]}` → all written in one transaction, or none. */
export function ingestProposalBatch(
  store: AspectStore,
  body: unknown,
  namespaces: NamespacePolicy,
  actor: string,
  compat: CompatMode,
): WriteOutcome[] {
  if (!isRecord(body)) throw badRequest(`request body: expected a JSON object, found ${kindOf(body)}`);
  checkAsync(body);
  const list = body['proposals'];
  if (list === undefined) throw badRequest('proposals: required (the body is {"proposals": [...], "async": "false"})');
  if (!Array.isArray(list)) throw badRequest(`proposals: expected an array, found ${kindOf(list)}`);
  const writes = list.map((p, i) => proposalToWrite(p, `proposals[${i}]`, namespaces, compat));
  return store.transaction(() => {
    const now = Date.now();
    return writes.map((w, i) => {
      try {
        return writeAspect(store, w, actor, now, compat);
      } catch (e) {
        if (e instanceof Error) e.message = `proposals[${i}]: ${e.message}`;
        throw e;
      }
    });
  });
}
