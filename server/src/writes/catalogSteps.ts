/**
 * The steps every write command takes with the catalog, whatever its write path: a fresh check
 * that entities exist, and read-merge-write of one aspect with If-Version-Match (retried with
 * jitter on a conflict). A catalog error ends the command (refusal.ts).
 */
import { isCatalogKind, type CatalogKind } from '../../../model/src/kinds';
import { ML_KINDS, propertiesAspectOf } from '../../../model/src/kinds';
import type { AspectName, AuditStamp } from '../../../model/src/aspects';
import { kindWord } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import type { Settings } from '../../../model/src/protocol';
import { parseUrn, type Urn } from '../../../model/src/urn';
import type { CatalogClient, Resolution } from '../catalogClient/client';
import type { ParsedArg } from './args';
import { failed, failedFrom, label } from './refusal';

const MAX_ATTEMPTS = 25;

/** What one run of a write command works with. */
export interface StepDeps {
  settings: Settings;
  client: CatalogClient;
  signal: AbortSignal | undefined;
  /** `systemMetadata.runId` of every aspect this command writes (see runIdFor). */
  runId: string;
}

/** The properties aspect of each ML kind: what createEntity writes, and where ingestion puts a description. */
export const PROPERTIES_ASPECT: Partial<Record<Urn['kind'], AspectName>> = Object.fromEntries(
  ML_KINDS.map((k) => [k, propertiesAspectOf(k)]),
);

/**
 * Read the aspect with its version, merge, write with `If-Version-Match`; on a conflict read
 * again and merge again (bounded). Returns whether anything was written. `why` names why a
 * command on the GraphQL path writes through the aspect path (which then needs the GMS address).
 */
export async function readMergeWrite<T>(
  ctx: StepDeps,
  urn: ParsedArg,
  aspectName: AspectName,
  merge: (current: T | undefined) => T | undefined,
  why?: string,
): Promise<boolean> {
  if (why && !ctx.client.gmsUrl)
    failed(
      'notConfigured',
      `${why}, which needs catalogLens.url (DataHub's metadata service, GMS); nothing was written`,
    );
  for (let attempt = 1; ; attempt++) {
    const current = await read<T>(ctx, urn.text, aspectName);
    const next = merge(current.value);
    if (next === undefined) return false;
    const r = await ctx.client.writeAspect(
      {
        entityType: urn.urn.kind,
        urn: urn.text,
        aspectName,
        value: next,
        ifVersion: current.value === undefined ? '-1' : current.version,
        runId: ctx.runId,
      },
      ctx.signal,
    );
    if (r.ok) return true;
    if (r.error.kind !== 'conflict' || attempt >= MAX_ATTEMPTS) {
      if (r.error.kind === 'conflict')
        failed('conflict', `${label(urn.urn)} kept changing under ${MAX_ATTEMPTS} attempts; nothing was written`);
      failedFrom(r.error);
    }
    await jitter(attempt);
  }
}

/** One aspect with its version ("-1" and no value when the entity does not have it). */
export async function read<T>(
  ctx: StepDeps,
  urn: string,
  aspectName: AspectName,
): Promise<{ value: T | undefined; version: string }> {
  const r = await ctx.client.readAspects(urn, [aspectName], ctx.signal);
  if (!r.ok) return failedFrom(r.error);
  const env = r.aspects[aspectName];
  return env ? { value: env.value as T, version: env.version } : { value: undefined, version: '-1' };
}

/** Writes one aspect whole, only if it is still at `ifVersion` ("-1": only if absent). */
export async function write(
  ctx: StepDeps,
  urn: ParsedArg,
  aspectName: AspectName,
  value: unknown,
  ifVersion: string,
): Promise<void> {
  const r = await ctx.client.writeAspect(
    { entityType: urn.urn.kind, urn: urn.text, aspectName, value, ifVersion, runId: ctx.runId },
    ctx.signal,
  );
  if (!r.ok)
    failedFrom(
      r.error.kind === 'conflict'
        ? {
            ...r.error,
            message: `${label(urn.urn)} was created or changed by someone else meanwhile; nothing was written`,
          }
        : r.error,
    );
}

/**
 * A write to an entity that does not exist must fail: the client checks existence itself, because
 * DataHub's upserts would create the entity.
 */
export async function mustExist(ctx: StepDeps, urn: string, kind: CatalogKind): Promise<Resolution> {
  const p = parseUrn(urn);
  const found = await resolveFresh(ctx, p.ok ? [{ text: urn, urn: p.urn }] : []);
  const r = found.get(urn);
  if (!r) return failed('cancelled', 'cancelled');
  if (r.state === 'missing') {
    failed(
      'notFound',
      `${p.ok ? label(p.urn) : urn} is not in the catalog; nothing was written (${kind === 'mlFeature' || kind === 'mlModel' ? 'an' : 'a'} ${kindWord(kind)} must exist before it is described)`,
    );
  }
  return r;
}

/**
 * What the catalog says now of each URN (the cache is bypassed: a write must not rest on an old
 * answer), in one request; an error or a cancellation ends the command.
 */
export async function resolveFresh(ctx: StepDeps, urns: readonly ParsedArg[]): Promise<Map<string, Resolution>> {
  const items = urns
    .filter((u) => isCatalogKind(u.urn.kind))
    .map((u) => ({ urn: u.text, kind: u.urn.kind as CatalogKind }));
  ctx.client.invalidate(items.map((i) => i.urn));
  const res = await ctx.client.resolve(items, ctx.signal);
  const broken = items
    .map((i) => res.get(i.urn))
    .find((r): r is Extract<Resolution, { state: 'error' }> => r?.state === 'error');
  if (broken) failedFrom(broken.error);
  if (items.some((i) => !res.has(i.urn))) failed('cancelled', 'cancelled');
  return res;
}

/** The URNs the catalog does not have (an object with `exists` false counts as absent), quoted for a message. */
export function missingOf(found: Map<string, Resolution>, urns: readonly ParsedArg[]): string[] {
  return urns.filter((u) => found.get(u.text)?.state === 'missing').map((u) => inertText(u.text, 'notification'));
}

export function stamp(ctx: StepDeps): AuditStamp {
  return { time: Date.now(), actor: ctx.settings.actor };
}

/**
 * The wait before attempt `attempt + 1`: exponential backoff with full jitter (up to 20 ms, 40, 80 …,
 * at most 1 s), so writers that met on one aspect spread out instead of meeting again.
 */
function jitter(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(1_000, 10 * 2 ** attempt);
  return new Promise((r) => setTimeout(r, ms));
}
