/**
 * What the catalog cache keeps of a resolution once a burst of work has ended. A found dataset in
 * the exact shape the resolve batches ask for (queries.ts: its keys in that order, nothing more)
 * is kept as one record: its texts (name, descriptions, and each column's path, description and
 * native type) joined in one string, which parts are present in a few bits, and the rarely set
 * parts (edited column descriptions, siblings) as they came: one object and one string where the
 * parsed answer has about ten of each (~0.4 KiB against ~1 KiB with six columns). Reading it gives
 * the same object back (equal field by field and in key order); the ones read lately are answered
 * again as the same objects. Every other resolution, including a deprecated dataset (its details
 * are written into the entity after the batch), is kept as it came.
 */
import type { GqlDataset } from '../../../model/src/readShapes';
import type { Resolution } from './graphqlReads';

/** Between two texts of a record. */
const SEP = '\u0001';
/** A text that is null. */
const NULL = '\u0002';

const PROPERTIES = 1;
const EDITABLE = 2;
const SCHEMA = 4;
const EXISTS_TRUE = 8;
const EXISTS_NULL = 16;
const NOT_DEPRECATED = 32;
/** The column count is kept above these bits. */
const COLUMNS_SHIFT = 6;

const DATASET_KEYS = [
  'urn',
  'properties',
  'editableProperties',
  'schemaMetadata',
  'editableSchemaMetadata',
  'exists',
  'deprecation',
  'siblings',
] as const;
const PROPERTIES_KEYS = ['name', 'description'] as const;
const EDITABLE_KEYS = ['description'] as const;
const FIELD_KEYS = ['fieldPath', 'description', 'nativeDataType'] as const;

/** A found dataset as the cache keeps it. */
export class CompactDataset {
  constructor(
    readonly urn: string,
    private readonly texts: string,
    private readonly bits: number,
    private readonly editableSchemaMetadata: GqlDataset['editableSchemaMetadata'],
    private readonly siblings: Exclude<GqlDataset['siblings'], undefined>,
  ) {}

  /** The resolution this record was made from: an equal object, made afresh. */
  make(): Resolution {
    const bits = this.bits;
    const columns = bits >>> COLUMNS_SHIFT;
    const count =
      (bits & PROPERTIES ? 2 : 0) + (bits & EDITABLE ? 1 : 0) + (bits & SCHEMA ? columns * FIELD_KEYS.length : 0);
    const texts = count === 0 ? [] : this.texts.split(SEP);
    let i = 0;
    const next = (): string | null => {
      const t = texts[i++]!;
      return t === NULL ? null : t;
    };
    let properties: GqlDataset['properties'] = null;
    if (bits & PROPERTIES) {
      const name = next();
      properties = { name, description: next() } as GqlDataset['properties'];
    }
    const editableProperties: GqlDataset['editableProperties'] = bits & EDITABLE ? { description: next() } : null;
    let schemaMetadata: GqlDataset['schemaMetadata'] = null;
    if (bits & SCHEMA) {
      const fields: NonNullable<GqlDataset['schemaMetadata']>['fields'] = [];
      for (let c = 0; c < columns; c++) {
        const fieldPath = next() as string;
        const description = next();
        fields.push({ fieldPath, description, nativeDataType: next() });
      }
      schemaMetadata = { fields };
    }
    const entity: GqlDataset = {
      urn: this.urn,
      properties,
      editableProperties,
      schemaMetadata,
      editableSchemaMetadata: this.editableSchemaMetadata,
      exists: bits & EXISTS_TRUE ? true : null,
      deprecation: bits & NOT_DEPRECATED ? { deprecated: false } : null,
      siblings: this.siblings,
    };
    return { state: 'found', kind: 'dataset', entity };
  }
}

/** What the cache keeps of `r`: a compact record when the shape allows, else `r` itself. */
export function compact(r: Resolution | CompactDataset): Resolution | CompactDataset {
  if (
    r instanceof CompactDataset ||
    r.state !== 'found' ||
    r.kind !== 'dataset' ||
    r.sibling !== undefined ||
    !sameKeys(r, RESOLUTION_KEYS)
  )
    return r;
  return compactDataset(r.entity) ?? r;
}

/**
 * The resolution a cache entry stands for: a record's is made anew (CatalogClient puts it back in
 * the cache in its record's place, so reads during a burst share one object).
 */
export function expand(kept: Resolution | CompactDataset): Resolution {
  return kept instanceof CompactDataset ? kept.make() : kept;
}

const RESOLUTION_KEYS = ['state', 'kind', 'entity'] as const;

function compactDataset(d: GqlDataset): CompactDataset | undefined {
  if (!sameKeys(d, DATASET_KEYS) || typeof d.urn !== 'string') return undefined;
  const texts: string[] = [];
  let bits = 0;
  const p = d.properties;
  if (p !== null) {
    if (!sameKeys(p, PROPERTIES_KEYS) || !text(p.name, texts) || !text(p.description, texts)) return undefined;
    bits |= PROPERTIES;
  }
  const e = d.editableProperties;
  if (e !== null) {
    if (!sameKeys(e, EDITABLE_KEYS) || !text(e.description, texts)) return undefined;
    bits |= EDITABLE;
  }
  const s = d.schemaMetadata;
  if (s !== null) {
    if (!sameKeys(s, ['fields']) || !Array.isArray(s.fields)) return undefined;
    for (const f of s.fields as unknown[]) {
      if (!sameKeys(f, FIELD_KEYS)) return undefined;
      const field = f as { fieldPath: unknown; description: unknown; nativeDataType: unknown };
      if (typeof field.fieldPath !== 'string' || !text(field.fieldPath, texts)) return undefined;
      if (!text(field.description, texts) || !text(field.nativeDataType, texts)) return undefined;
    }
    if (s.fields.length >= 1 << (31 - COLUMNS_SHIFT)) return undefined;
    bits |= SCHEMA | (s.fields.length << COLUMNS_SHIFT);
  }
  if (d.exists === true) bits |= EXISTS_TRUE;
  else if (d.exists === null) bits |= EXISTS_NULL;
  else return undefined;
  const dep = d.deprecation;
  if (dep !== null && dep !== undefined) {
    if (!sameKeys(dep, ['deprecated']) || dep.deprecated !== false) return undefined;
    bits |= NOT_DEPRECATED;
  }
  return new CompactDataset(d.urn, texts.join(SEP), bits, d.editableSchemaMetadata, d.siblings ?? null);
}

/** Adds `v` to `texts` when it is a string without the record's marks, or null. */
function text(v: unknown, texts: string[]): boolean {
  if (v === null) {
    texts.push(NULL);
    return true;
  }
  if (typeof v !== 'string' || v.includes(SEP) || v.includes(NULL)) return false;
  texts.push(v);
  return true;
}

/** Whether `o` is a plain object whose own keys are exactly `keys`, in that order. */
function sameKeys(o: unknown, keys: readonly string[]): boolean {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
  const proto: unknown = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return false;
  let i = 0;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k) || k !== keys[i]) return false;
    i++;
  }
  return i === keys.length && Object.getOwnPropertySymbols(o).length === 0;
}
