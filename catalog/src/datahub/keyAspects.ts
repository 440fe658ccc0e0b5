/**
 * DataHub's key aspects, built from the URN as DataHub builds them for entities it has no row of
 * (`EntityUtils.getKeyEnvelopedAspect` → `EntityKeyUtils.convertUrnToEntityKey`, metadata-io):
 * the URN's parts as written, in the key record's fields (metadata-models/.../metadata/key/
 * DatasetKey.pdl, MLFeatureKey.pdl, MLFeatureTableKey.pdl, MLModelKey.pdl, MLModelGroupKey.pdl).
 * The DataHub mode answers them the way DataHub does with `alwaysIncludeKeyAspect`: every
 * entitiesV2 answer holds the key aspect, whether or not the entity was ever written.
 */
import { recordOfAspect } from '../../../model/src/entityAspects';
import { registryEntry } from '../../../model/src/registry';
import type { Urn } from '../../../model/src/urn';

/** DataHub's system actor, the `created.actor` of a key aspect made up on read (Constants.SYSTEM_ACTOR). */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

export interface KeyAspect {
  name: string;
  fqcn: string;
  value: Record<string, string>;
}

/** Splits `(a,b,c)` at the commas outside nested parentheses (DataHub's TupleKey); a bare id is one part. */
function keyParts(id: string): string[] {
  if (!id.startsWith('(') || !id.endsWith(')')) return [id];
  const parts: string[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i < id.length - 1; i++) {
    const c = id[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(id.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(id.slice(start, id.length - 1));
  return parts;
}

/** The URN's id after `urn:<ns>:<type>:`. */
function idOf(urnText: string): string {
  const third = urnText.indexOf(':', urnText.indexOf(':', 4) + 1);
  return urnText.slice(third + 1);
}

/**
 * The key aspect of a URN of any registry kind: the five kinds as above; the others by their key
 * fields in order (model/src/registry.ts), each bound to the URN's part at its place.
 */
export function keyAspectOf(urn: Urn, urnText: string): KeyAspect | undefined {
  const known = keyAspect(urn);
  if (known) return known;
  const type = urn.kind === 'other' ? urn.entityType : urn.kind;
  const entry = registryEntry(type);
  if (!entry) return undefined;
  const parts = entry.fields.length === 1 ? [idOf(urnText)] : keyParts(idOf(urnText));
  if (parts.length !== entry.fields.length) return undefined;
  const value: Record<string, string> = {};
  entry.fields.forEach((f, i) => (value[f.name] = parts[i]!));
  return { name: entry.keyAspect, fqcn: recordOfAspect(entry.keyAspect)!, value };
}

/** The key aspect of a URN of one of the five kinds; undefined for other kinds. */
export function keyAspect(urn: Urn): KeyAspect | undefined {
  const platform = (p: string): string => `urn:${urn.namespace}:dataPlatform:${p}`;
  const key = (name: string, record: string, value: Record<string, string>): KeyAspect => ({
    name,
    fqcn: `com.linkedin.metadata.key.${record}`,
    value,
  });
  switch (urn.kind) {
    case 'dataset':
      return key('datasetKey', 'DatasetKey', { platform: platform(urn.platform), name: urn.name, origin: urn.env });
    case 'mlFeature':
      return key('mlFeatureKey', 'MLFeatureKey', { featureNamespace: urn.table, name: urn.feature });
    case 'mlFeatureTable':
      return key('mlFeatureTableKey', 'MLFeatureTableKey', { platform: platform(urn.platform), name: urn.table });
    case 'mlModel':
      return key('mlModelKey', 'MLModelKey', { platform: platform(urn.platform), name: urn.name, origin: urn.env });
    case 'mlModelGroup':
      return key('mlModelGroupKey', 'MLModelGroupKey', {
        platform: platform(urn.platform),
        name: urn.name,
        origin: urn.env,
      });
    default:
      return undefined;
  }
}

/** The entitiesV2 envelope DataHub gives a key aspect it made up: version 0, created now by the system actor, no system metadata. */
export function keyEnvelope(k: KeyAspect, now: number): Record<string, unknown> {
  return { name: k.name, type: 'VERSIONED', version: 0, value: k.value, created: { time: now, actor: SYSTEM_ACTOR } };
}
