/**
 * DataHub's Rest.li aspect write (`POST /aspects?action=ingestProposal[Batch]`, AspectResource in
 * metadata-service/restli-servlet-impl):
 * turns a request body into checked writes, then applies them in one transaction. Every
 * refusal names the JSON path of what is wrong; nothing is stored unless all of it is valid.
 */
import { ASPECTS_BY_ENTITY, ASPECT_NAMES, checkAspect, isAspectName, type AspectName } from '../../model/src/aspects';
import { CATALOG_KINDS, isCatalogKind, type CatalogKind } from '../../model/src/kinds';
import { isRecord } from '../../model/src/json';
import type { CompatMode } from './compat';
import { badRequest, unprocessable } from './errors';
import type { NamespacePolicy } from './namespaces';
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

/** Checks one proposal object and turns it into a write; `where` is its JSON path (e.g. `proposals[2]`). */
export function proposalToWrite(p: unknown, where: string, namespaces: NamespacePolicy): AspectWrite {
  if (p === undefined) throw badRequest(`${where}: required (the body is {"proposal": {...}, "async": "false"})`);
  if (!isRecord(p)) throw badRequest(`${where}: expected an object, found ${kindOf(p)}`);

  const entityType = requireString(p, 'entityType', where);
  const entityUrn = requireString(p, 'entityUrn', where);
  const changeType = requireString(p, 'changeType', where);
  const aspectName = requireString(p, 'aspectName', where);
  if (changeType !== 'UPSERT') {
    throw badRequest(`${where}.changeType: only UPSERT is supported by this catalog, found '${changeType}'`);
  }
  if (!isCatalogKind(entityType)) {
    throw badRequest(`${where}.entityType: unknown entity type '${entityType}' (known: ${CATALOG_KINDS.join(', ')})`);
  }
  if (!isAspectName(aspectName)) {
    throw badRequest(`${where}.aspectName: unknown aspect '${aspectName}' (known: ${ASPECT_NAMES.join(', ')})`);
  }
  checkAspectOfEntity(entityType, aspectName, `${where}.aspectName`);

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
  if (!isRecord(value)) {
    throw unprocessable(
      `${where}.aspect.value: the ${aspectName} aspect must be a JSON object, found ${kindOf(value)}`,
    );
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw unprocessable(`${where}.aspect.value: nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  const problems = checkAspect(aspectName, value);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).map((m) => `${where}.aspect.value.${m}`);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    throw unprocessable(`${aspectName} is not valid: ${shown.join('; ')}${more}`);
  }

  const write: AspectWrite = { key: resolved.key, requestedUrn: entityUrn, entityType, aspectName, value };
  if (isRecord(systemMetadata)) write.systemMetadata = systemMetadata;
  if (ifVersionMatch !== undefined) write.ifVersionMatch = ifVersionMatch;
  return write;
}

export function checkAspectOfEntity(entityType: CatalogKind, aspectName: AspectName, where: string): void {
  const allowed = ASPECTS_BY_ENTITY[entityType];
  if (!allowed.includes(aspectName)) {
    throw badRequest(
      `${where}: '${aspectName}' is not an aspect of entity type '${entityType}' (its aspects: ${allowed.join(', ')})`,
    );
  }
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
  const write = proposalToWrite(body['proposal'], 'proposal', namespaces);
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
  const writes = list.map((p, i) => proposalToWrite(p, `proposals[${i}]`, namespaces));
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
