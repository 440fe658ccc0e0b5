/**
 * MetadataChangeEvents: the snapshot form DataHub's REST emitter still sends for MCEs
 * (`POST /entities?action=ingest`, body `{"entity": {"value": {"com.linkedin.metadata.snapshot.
 * DatasetSnapshot": {"urn", "aspects": [{"<record name>": {...}}]}}}, "systemMetadata": {...}}`;
 * metadata-ingestion/src/datahub/emitter/rest_emitter.py `emit_mce`, and EntityResource.ingest in
 * metadata-service/restli-servlet-impl). DataHub splits a snapshot into its aspects
 * (EntityServiceImpl.ingestSnapshotUnion: the entity type from the URN, each aspect's name from its
 * record's `@Aspect`); so does this, through the same checks as a proposal.
 *
 * Files written by DataHub's `file` sink spell record names with `com.linkedin.pegasus2avro.` and
 * keep `null`s: `pegasusForm` turns them into what the emitter posts (serialization_helper.py
 * `pre_json_transform`).
 */
import { aspectOfRecord } from '../../model/src/entityAspects';
import { isRecord } from '../../model/src/json';
import type { CompatMode } from './compat';
import { badRequest } from './errors';
import { checkAspectOfEntity, checkedWrite } from './ingest';
import type { NamespacePolicy } from './namespaces';
import type { AspectWrite } from './writes';

const AVRO_PREFIX = 'com.linkedin.pegasus2avro.';

/** DataHub's `pre_json_transform`: `com.linkedin.pegasus2avro.` union keys become `com.linkedin.`, null fields are dropped. */
export function pegasusForm(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pegasusForm);
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0]!.startsWith(AVRO_PREFIX)) {
    return { [`com.linkedin.${keys[0]!.slice(AVRO_PREFIX.length)}`]: pegasusForm(v[keys[0]!]) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = pegasusForm(x);
  return out;
}

function single(v: unknown, where: string, what: string): [string, unknown] {
  if (!isRecord(v)) throw badRequest(`${where}: expected ${what}, found ${v === null ? 'null' : typeof v}`);
  const keys = Object.keys(v);
  if (keys.length !== 1)
    throw badRequest(`${where}: expected ${what} (an object with one key), found ${keys.length} keys`);
  return [keys[0]!, v[keys[0]!]];
}

/** One snapshot (`{"<…Snapshot record>": {"urn", "aspects": [...]}}`) → one write per aspect, in order. */
export function snapshotToWrites(
  snapshot: unknown,
  where: string,
  namespaces: NamespacePolicy,
  compat: CompatMode,
  systemMetadata?: Record<string, unknown>,
): AspectWrite[] {
  const [record, body] = single(snapshot, where, 'a snapshot {"com.linkedin.metadata.snapshot.<Kind>Snapshot": {...}}');
  if (!/^com\.linkedin\.metadata\.snapshot\.[A-Za-z]+Snapshot$/.test(record)) {
    throw badRequest(`${where}: '${record}' is not a snapshot record (com.linkedin.metadata.snapshot.<Kind>Snapshot)`);
  }
  const inner = `${where}.${record}`;
  if (!isRecord(body)) throw badRequest(`${inner}: expected an object with urn and aspects`);
  const urnText = body['urn'];
  if (typeof urnText !== 'string') throw badRequest(`${inner}.urn: required (a string)`);
  const resolved = namespaces.resolve(urnText, `${inner}.urn`);
  const entityType = resolved.urn.kind === 'other' ? resolved.urn.entityType : resolved.urn.kind;
  const aspects = body['aspects'];
  if (!Array.isArray(aspects)) throw badRequest(`${inner}.aspects: required (an array)`);
  return aspects.map((a, i) => {
    const at = `${inner}.aspects[${i}]`;
    const [aspectRecord, value] = single(a, at, 'an aspect {"<record name>": {...}}');
    const aspectName = aspectOfRecord(aspectRecord);
    if (aspectName === undefined) {
      throw badRequest(`${at}: '${aspectRecord}' is not an aspect record this catalog knows of`);
    }
    checkAspectOfEntity(entityType, aspectName, at, compat);
    return checkedWrite(
      { key: resolved.key, requestedUrn: urnText, entityType, aspectName, value },
      `${at}.${aspectRecord}`,
      systemMetadata,
      undefined,
    );
  });
}

/** `{"entity": {"value": <snapshot>}, "systemMetadata": {...}}` (EntityResource's `ingest` action) → its writes. */
export function mceBodyToWrites(body: unknown, namespaces: NamespacePolicy, compat: CompatMode): AspectWrite[] {
  if (!isRecord(body)) throw badRequest('request body: expected a JSON object {"entity": {"value": {...}}}');
  const entity = body['entity'];
  if (!isRecord(entity) || entity['value'] === undefined) {
    throw badRequest(
      'entity: required ({"entity": {"value": {"com.linkedin.metadata.snapshot.<Kind>Snapshot": {...}}}})',
    );
  }
  const sm = body['systemMetadata'];
  return snapshotToWrites(entity['value'], 'entity.value', namespaces, compat, isRecord(sm) ? sm : undefined);
}

/** `{"entities": [{"value": <snapshot>}, ...], "systemMetadata": [...]}` (the `batchIngest` action) → its writes. */
export function mceBatchToWrites(body: unknown, namespaces: NamespacePolicy, compat: CompatMode): AspectWrite[] {
  if (!isRecord(body) || !Array.isArray(body['entities'])) {
    throw badRequest(
      'entities: required (an array of {"value": {"com.linkedin.metadata.snapshot.<Kind>Snapshot": {...}}})',
    );
  }
  const sms = Array.isArray(body['systemMetadata']) ? body['systemMetadata'] : [];
  return body['entities'].flatMap((e, i) => {
    if (!isRecord(e)) throw badRequest(`entities[${i}]: expected an object {"value": {...}}`);
    const sm: unknown = sms[i];
    return snapshotToWrites(e['value'], `entities[${i}].value`, namespaces, compat, isRecord(sm) ? sm : undefined);
  });
}
