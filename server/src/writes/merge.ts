/**
 * The read-merge-write rules of the aspect path as pure functions: given what the catalog holds,
 * what to write (or `undefined` when nothing needs writing). An aspect write replaces the whole
 * aspect, so each rule reads first and writes the merged aspect.
 */
import type {
  AuditStamp,
  EditableDatasetProperties,
  EditableSchemaMetadata,
  InstitutionalMemory,
} from '../../../model/src/aspects';
import { simplePath } from '../../../model/src/fieldPath';
import { sameEntity } from '../../../model/src/urn';

/** Write `editableDatasetProperties` only when the description differs; create it with `created`. */
export function mergeDatasetDescription(
  current: EditableDatasetProperties | undefined,
  description: string,
  stamp: AuditStamp,
): EditableDatasetProperties | undefined {
  if (current && current.description === description) return undefined;
  if (!current) return { description, created: stamp };
  return { ...current, description, lastModified: stamp };
}

/** Append a link only when no element has the same url; create the aspect with it. */
export function mergeLink(
  current: InstitutionalMemory | undefined,
  link: { url: string; description: string },
  stamp: AuditStamp,
): InstitutionalMemory | undefined {
  const element = { url: link.url, description: link.description, createStamp: stamp };
  if (!current) return { elements: [element] };
  if (current.elements.some((e) => e.url === link.url)) return undefined;
  return { ...current, elements: [...current.elements, element] };
}

/**
 * Set the description of the column's entry; where the aspect has no such entry, append one and
 * keep every other entry. `schemaPath` is the path as the schema spells it
 * (v2 paths stay v2). The entry is the one with exactly that path — DataHub's UI shows an edited
 * description only for the entry whose path equals the field's (useExtractFieldDescriptionInfo,
 * `pathMatchesExact`) — and only when there is none, the one with the same simple path (fieldPath.ts)
 * that does not name another field of the schema exactly (`schemaPaths`: a Kafka key's `…id` is not
 * the value's `…id`).
 */
export function mergeColumnDescription(
  current: EditableSchemaMetadata | undefined,
  schemaPath: string,
  description: string,
  stamp: AuditStamp,
  schemaPaths: readonly string[] = [],
): EditableSchemaMetadata | undefined {
  if (!current) return { editableSchemaFieldInfo: [{ fieldPath: schemaPath, description }], created: stamp };
  const wanted = simplePath(schemaPath);
  const infos = current.editableSchemaFieldInfo;
  const others = new Set(schemaPaths.filter((p) => p !== schemaPath));
  const exact = infos.findIndex((e) => e.fieldPath === schemaPath);
  const i = exact >= 0 ? exact : infos.findIndex((e) => simplePath(e.fieldPath) === wanted && !others.has(e.fieldPath));
  if (i >= 0) {
    if (infos[i]!.description === description) return undefined;
    const next = infos.slice();
    next[i] = { ...infos[i]!, description };
    return { ...current, editableSchemaFieldInfo: next, lastModified: stamp };
  }
  return {
    ...current,
    editableSchemaFieldInfo: [...infos, { fieldPath: schemaPath, description }],
    lastModified: stamp,
  };
}

/**
 * A list aspect field is replaced by what is written, so appending writes the old list followed by
 * the values it lacks, in the order given; `undefined` when none is new.
 */
export function appendUnique(
  old: readonly string[] | null | undefined,
  values: readonly string[],
): string[] | undefined {
  const out = [...(old ?? [])];
  let added = false;
  for (const v of values) {
    if (out.some((o) => sameEntity(o, v))) continue;
    out.push(v);
    added = true;
  }
  return added ? out : undefined;
}

/**
 * The description of an ML entity's properties aspect (or of its edited properties aspect), every
 * other field kept as read; `undefined` when it already says so. An entity DataHub holds with only
 * its key aspect gets the aspect with the description alone.
 */
export function mergeDescription<T extends { description?: string | null }>(
  current: T | undefined,
  description: string,
): T | undefined {
  if (current && current.description === description) return undefined;
  return { ...(current ?? ({} as T)), description };
}

/**
 * The inverse of appendUnique: the old list without every member that names the same entity as one
 * of `values` (sameEntity: `urn:li:` and `urn:svc:` spellings match), the others in their order;
 * `undefined` when none is there. Each member removed is named in `removed` as the list spelt it.
 */
export function removeAll(
  old: readonly string[] | null | undefined,
  values: readonly string[],
): { next: string[]; removed: string[] } | undefined {
  const next: string[] = [];
  const removed: string[] = [];
  for (const o of old ?? []) (values.some((v) => sameEntity(o, v)) ? removed : next).push(o);
  return removed.length > 0 ? { next, removed } : undefined;
}
