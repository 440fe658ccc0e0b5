/**
 * The one write path every write goes through (Rest.li proposals, GraphQL mutations, the sample
 * data): existence rule (a write to an entity that does not exist fails), conditional writes
 * (DataHub's If-Version-Match), versions and audit stamps. Call `writeAspect` inside `store.transaction`.
 */
import { EXISTENCE_ASPECTS } from '../../model/src/aspects';
import { isCatalogKind, type CatalogKind } from '../../model/src/kinds';
import type { CompatMode } from './compat';
import { datahubPreconditionMessage } from './datahub/validationText';
import { CatalogError, notFound, unprocessable } from './errors';
import { applyPatch, type PatchOp } from './patch';
import type { AspectStore, RawStoredAspect } from './store';

export interface AspectWrite {
  /** Storage key of the entity. */
  key: string;
  /** The URN as the caller wrote it, for messages. */
  requestedUrn: string;
  /** Any entity type of DataHub's registry (model/src/entityAspects.ts). */
  entityType: string;
  /** Any aspect the registry gives that type. */
  aspectName: string;
  value: Record<string, unknown>;
  /** A PATCH: applied to the stored value (or `{}`) when written, then `check`ed; `value` is not used. */
  patch?: readonly PatchOp[];
  /** The value checks of the aspect (ingest.ts), for a patched value. */
  check?: (value: Record<string, unknown>) => void;
  /** DataHub's `If-Version-Match`: the current version as a string, "-1" = only if absent. */
  ifVersionMatch?: string;
  systemMetadata?: Record<string, unknown>;
}

export interface WriteOutcome {
  version: number;
  /** False when the value equals the stored one: no new version. */
  changed: boolean;
}

export const DEFAULT_RUN_ID = 'no-run-id-provided';

/**
 * Whether an entity exists. Spec mode: it holds one of the aspects that create it. DataHub mode:
 * it holds any aspect, as DataHub's `EntityService.exists` asks for the key aspect, which every
 * upsert writes along with the first aspect (EntityServiceImpl.ingestAspectsToLocalDB →
 * DefaultAspectsUtil). A kind the specification does not cover (container, tag, corpuser …) exists
 * once any aspect is stored, in both modes.
 */
export function entityExists(store: AspectStore, key: string, entityType: string, compat: CompatMode): boolean {
  if (compat === 'datahub' || !isCatalogKind(entityType)) return store.hasAny(key);
  return EXISTENCE_ASPECTS[entityType].some((a) => store.has(key, a));
}

/** Whether writing `aspectName` creates the entity: always in the DataHub mode and for kinds the specification does not cover. */
export function writeCreates(entityType: string, aspectName: string, compat: CompatMode): boolean {
  if (compat === 'datahub' || !isCatalogKind(entityType)) return true;
  return (EXISTENCE_ASPECTS[entityType] as readonly string[]).includes(aspectName);
}

export function existenceRuleText(entityType: CatalogKind): string {
  const aspects = EXISTENCE_ASPECTS[entityType];
  return `a ${entityType} comes to exist when its ${aspects.join(' or ')} aspect is written`;
}

/** 404 naming the URN and how the entity comes to exist: a write to an entity that does not exist fails. */
export function missingEntityError(requestedUrn: string, entityType: CatalogKind, attempted: string): CatalogError {
  return notFound(
    `${attempted} failed: ${requestedUrn} does not exist, and nothing was stored. ` +
      `${capitalize(existenceRuleText(entityType))}; write that first.`,
  );
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The spec mode's short form of DataHub's text; the DataHub mode sends DataHub's long one. */
export function versionMismatchError(
  requestedUrn: string,
  aspect: string,
  expected: string,
  actual: string,
): CatalogError {
  return unprocessable(
    `ValidationExceptionCollection{EntityAspect:(${requestedUrn},${aspect}) Exceptions: [Expected version ${expected}, actual version ${actual}]}`,
  );
}

/**
 * Writes one aspect; throws (rolling back the caller's transaction) when a rule refuses it. In the
 * DataHub mode an upsert to an entity that does not exist creates it (DataHub's UPSERT does).
 */
export function writeAspect(
  store: AspectStore,
  w: AspectWrite,
  actor: string,
  now: number,
  compat: CompatMode,
): WriteOutcome {
  if (!writeCreates(w.entityType, w.aspectName, compat) && !entityExists(store, w.key, w.entityType, compat)) {
    throw missingEntityError(w.requestedUrn, w.entityType as CatalogKind, `Writing ${w.aspectName}`);
  }
  const current = store.getRaw(w.key, w.aspectName);
  if (w.patch) {
    const patched = applyPatch(current?.value ?? {}, w.patch, `${w.requestedUrn} ${w.aspectName} patch`);
    w.check?.(patched);
    w = { ...w, value: patched };
  }
  const actual = current ? String(current.version) : '-1';
  const observed = {
    lastObserved: numberOr(w.systemMetadata?.['lastObserved'], now),
    runId: stringOr(w.systemMetadata?.['runId'], DEFAULT_RUN_ID),
  };
  if (w.ifVersionMatch !== undefined && w.ifVersionMatch !== actual) {
    throw compat === 'datahub'
      ? unprocessable(
          datahubPreconditionMessage(
            { ...w, systemMetadata: { ...(w.systemMetadata ?? {}), ...observed } },
            actor,
            now,
            w.ifVersionMatch,
            actual,
          ),
        )
      : versionMismatchError(w.requestedUrn, w.aspectName, w.ifVersionMatch, actual);
  }
  if (current && stableJson(current.value) === stableJson(w.value)) {
    // DataHub records the observation of an unchanged aspect without a new version.
    store.put({ ...current, systemMetadata: { ...current.systemMetadata, ...observed } });
    return { version: current.version, changed: false };
  }
  const version = current ? current.version + 1 : 1;
  const stamp = { time: now, actor };
  const next: RawStoredAspect = {
    urn: w.key,
    aspect: w.aspectName,
    entityType: w.entityType,
    value: w.value,
    version,
    created: current?.created ?? stamp,
    lastModified: stamp,
    systemMetadata: { ...(w.systemMetadata ?? {}), ...observed, version: String(version) },
  };
  store.put(next);
  return { version, changed: true };
}

/** JSON with object keys sorted, so that key order alone is not a change. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function numberOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' && v !== '' ? v : fallback;
}
