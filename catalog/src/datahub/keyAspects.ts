/**
 * DataHub's key aspects, built from the URN as DataHub builds them for entities it has no row of
 * (`EntityUtils.getKeyEnvelopedAspect` → `EntityKeyUtils.convertUrnToEntityKey`, metadata-io):
 * the URN's parts as written, in the key record's fields (metadata-models/.../metadata/key/
 * DatasetKey.pdl, MLFeatureKey.pdl, MLFeatureTableKey.pdl, MLModelKey.pdl, MLModelGroupKey.pdl).
 * The DataHub mode answers them the way DataHub does with `alwaysIncludeKeyAspect`: every
 * entitiesV2 answer holds the key aspect, whether or not the entity was ever written.
 */
import type { Urn } from '../../../model/src/urn';

/** DataHub's system actor, the `created.actor` of a key aspect made up on read (Constants.SYSTEM_ACTOR). */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

export interface KeyAspect {
  name: string;
  fqcn: string;
  value: Record<string, string>;
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
