/**
 * A YAML mapping seen while walking: its scalar siblings, the URN it holds (the owner of its lists),
 * and which of its values are whole URNs. Siblings and owner are built only when a URN needs them.
 */
import { isPair, isScalar, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { ScanOptions, UrnOccurrence, YamlContext, YamlScalarRef } from '../../../server/src/scan/types';
import { findUrnsInText } from '../../../server/src/scan/text';
import { scalarSourceMap } from '../../../server/src/scan/yamlScalarSource';
import { mapRange } from '../../../server/src/scan/sourceMap';

/** Keys under which a mapping names the entity it describes (`urn:`, `dataset:`, `feature:` …). */
const URN_KEYS = new Set([
  'urn',
  'id',
  'entity',
  'dataset',
  'feature',
  'feature_table',
  'featureTable',
  'table',
  'model',
  'model_group',
  'modelGroup',
  'group',
  'mlFeature',
  'mlFeatureTable',
  'mlModel',
  'mlModelGroup',
]);

export function isUrnKey(key: string): boolean {
  return URN_KEYS.has(key) || key.endsWith('_urn') || key.endsWith('Urn');
}

/** `inFlow`: the scalar stands in a flow collection (`{…}`, `[…]`), where block scalars cannot go. */
export function scalarRef(node: Scalar, inFlow = false): YamlScalarRef {
  const [start, end] = node.range ?? [0, 0];
  const ref: YamlScalarRef = { value: scalarText(node), start, end, style: node.type ?? 'PLAIN' };
  if (inFlow) ref.flow = true;
  return ref;
}

/** The scalar as text: a string as it is, `null` as empty, anything else as written. */
export function scalarText(node: Scalar): string {
  const value = node.value;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return typeof node.source === 'string' ? node.source : String(value);
}

export function keyText(key: unknown): string {
  if (key === null || key === undefined) return '';
  if (isScalar(key)) return key.value === null ? '' : String(key.value);
  return '<complex key>';
}

/** The pair of `map` under `key`. */
export function pairAt(map: YAMLMap, key: string): Pair | undefined {
  for (const pair of map.items) if (isPair(pair) && keyText(pair.key) === key) return pair;
  return undefined;
}

type Owner = NonNullable<YamlContext['owner']>;

export class MappingFrame {
  /** Values of this mapping that are one URN each, in source order. */
  readonly urnValues: Array<{ key: string; index: number; occurrence: UrnOccurrence }> = [];
  private siblingRefs: Record<string, YamlScalarRef> | undefined;
  private readonly owners = new Map<string, Owner | undefined>();

  constructor(
    private readonly text: string,
    private readonly opts: ScanOptions,
    readonly map: YAMLMap,
  ) {}

  noteUrnValue(key: string, index: number, occurrence: UrnOccurrence): void {
    this.urnValues.push({ key, index, occurrence });
  }

  /** Scalar-valued pairs of the mapping (shared by every occurrence in it: read-only). */
  siblings(): Record<string, YamlScalarRef> {
    if (!this.siblingRefs) {
      const refs: Record<string, YamlScalarRef> = {};
      for (const pair of this.map.items) {
        if (isPair(pair) && isScalar(pair.key) && isScalar(pair.value))
          refs[keyText(pair.key)] ??= scalarRef(pair.value);
      }
      this.siblingRefs = refs;
    }
    return this.siblingRefs;
  }

  /** The URN under a URN-like key of this mapping (`urn:` first), as the owner of the list under `listKey`. */
  owner(listKey: string): Owner | undefined {
    if (!this.owners.has(listKey)) this.owners.set(listKey, this.findOwner(listKey));
    return this.owners.get(listKey);
  }

  private findOwner(listKey: string): Owner | undefined {
    const read = this.urnValues.filter((v) => v.key !== listKey && isUrnKey(v.key) && !v.occurrence.template);
    const known = read.find((v) => v.key === 'urn') ?? read[0];
    if (known) return { urn: known.occurrence.urn, start: known.occurrence.start, end: known.occurrence.end };
    // The owner's pair comes after the list: read it now.
    let best: Scalar | undefined;
    for (const pair of this.map.items) {
      if (!isPair(pair) || !isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
      const key = keyText(pair.key);
      if (key === listKey || !isUrnKey(key)) continue;
      if (key === 'urn') {
        best = pair.value;
        break;
      }
      best ??= pair.value;
    }
    if (!best) return undefined;
    const value = best.value as string;
    const whole = findUrnsInText(value, this.opts)[0];
    if (!whole || whole.template || value.trim() !== whole.urn) return undefined;
    return { urn: whole.urn, ...mapRange(scalarSourceMap(this.text, best), whole.start, whole.end, value.length) };
  }
}
