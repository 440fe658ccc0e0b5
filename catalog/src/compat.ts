/**
 * The two ways the local catalog answers. `spec` (the default) follows the catalog interface the
 * extension was written against: writes to entities that do not exist fail, and so on.
 * `datahub` answers as a real DataHub (GMS) does wherever DataHub differs from the spec or is
 * stricter, so clients can be tested against DataHub's behaviour without running one; each
 * difference is listed, with the DataHub source it copies, in docs/local-catalog.md
 * ("DataHub mode").
 */

export type CompatMode = 'spec' | 'datahub';

export const COMPAT_MODES: readonly CompatMode[] = ['spec', 'datahub'];

export function isCompatMode(s: string): s is CompatMode {
  return (COMPAT_MODES as readonly string[]).includes(s);
}

/**
 * How storage keys are formed. The spec says `urn:svc:…` and `urn:li:…` name one entity, so the
 * spec mode stores every URN in the canonical namespace word; DataHub compares URNs as strings,
 * so the DataHub mode stores each URN as written.
 */
export type KeyForm = 'canonical' | 'as-written';

export function keyFormOf(mode: CompatMode): KeyForm {
  return mode === 'datahub' ? 'as-written' : 'canonical';
}
