/**
 * DataHub's text for a failed `If-Version-Match`, which its Rest.li `AspectResource` sends as the
 * `message` of a 422. It is `ValidationExceptionCollection.toString()`
 * (entity-registry/.../aspect/plugins/validation/ValidationExceptionCollection.java):
 * `ValidationExceptionCollection{EntityAspect:<Pair(urn, aspect)> Exceptions: <HashSet>}`, each
 * element an `AspectValidationException`, a Lombok `@Value` whose generated toString lists its
 * fields in declaration order — item, changeType, entityUrn, aspectName, subType, msg
 * (AspectValidationException.java, commit cd638912) — so `msg` comes last. The item is a
 * `ChangeItemImpl`, whose own toString (metadata-io/.../entity/ebean/batch/ChangeItemImpl.java)
 * prints the audit stamp, system metadata and the whole aspect as Java maps. The marker
 * `Expected version` (ConditionalWriteValidator) therefore sits hundreds of characters in, even
 * for a short URN and a small aspect, which is what a client that cuts messages must survive.
 */

export interface PreconditionItem {
  requestedUrn: string;
  aspectName: string;
  value: Record<string, unknown>;
  systemMetadata?: Record<string, unknown>;
}

/** A value as Java's `Map.toString`/`List.toString` print Pegasus data: `{k=v, …}`, `[a, b]`, bare strings. */
export function javaString(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${k}=${javaString(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

export function datahubPreconditionMessage(
  item: PreconditionItem,
  actor: string,
  now: number,
  expected: string,
  actual: string,
): string {
  const urn = item.requestedUrn;
  const changeItem =
    `ChangeItemImpl{changeType=UPSERT, auditStamp=${javaString({ actor, time: now })}, ` +
    `systemMetadata=${javaString(item.systemMetadata ?? {})}, recordTemplate=${javaString(item.value)}, ` +
    `aspectName='${item.aspectName}', urn=${urn}}`;
  const exception =
    `AspectValidationException(item=${changeItem}, changeType=UPSERT, entityUrn=${urn}, ` +
    `aspectName=${item.aspectName}, subType=PRECONDITION, msg=Expected version ${expected}, actual version ${actual})`;
  return `ValidationExceptionCollection{EntityAspect:(${urn},${item.aspectName}) Exceptions: [${exception}]}`;
}
