/**
 * A YAML scan with what DataHub's own formats say: the URN each entry stands for and each
 * reference (owner, tag, term, field id …) as an occurrence at the scalar that names it, so that
 * resolution, diagnostics, hover and rename treat them as they treat a URN written out; and the
 * format's own problems. A file in one of DataHub's formats is not read as docs-as-code columns.
 */
import type { BuilderOccurrence } from '../scan/builderCall';
import { parseUrnCached } from '../scan/parseCache';
import type { FormatText, ScanResult, UrnOccurrence, YamlColumn, YamlDescription, YamlLabel } from '../scan/types';
import { outlineOf } from './complete';
import { readDataHubYaml, type FormatDescription, type FormatModel, type FormatOptions } from './read';

export { readDataHubYaml, FORMAT_LABELS, type FormatModel, type FormatName } from './read';

/** `scan` (of a YAML text) with the format's occurrences and problems; `scan` itself when the text is in none of them. */
export function withDataHubFormat(text: string, scan: ScanResult, opts: FormatOptions = {}): ScanResult {
  const model = readDataHubYaml(text, opts);
  if (!model) return scan;
  return merge(scan, model);
}

/**
 * The first of `occurrences` (in their order) that is top-level, names `urn` and lies within
 * `[start, end)`, as `occurrences.find` would find it, found by the URN and a binary search on
 * start instead of a walk over all of them per lookup (one per reference and description of a
 * file: quadratic in the file). Exported for its test.
 */
export class TopLevelByUrn {
  private readonly byUrn = new Map<string, number[]>();
  /** Some URN's top-level occurrences are not in the order of their start: looked up by walking them all. */
  private readonly unsorted: boolean = false;

  constructor(private readonly occurrences: readonly UrnOccurrence[]) {
    for (let i = 0; i < occurrences.length; i++) {
      const o = occurrences[i]!;
      if (o.parent !== undefined) continue;
      let list = this.byUrn.get(o.urn);
      if (!list) this.byUrn.set(o.urn, (list = []));
      else if (occurrences[list[list.length - 1]!]!.start > o.start) this.unsorted = true;
      list.push(i);
    }
  }

  /** The index of that occurrence; -1 when there is none. */
  indexWithin(urn: string, start: number, end: number): number {
    const list = this.byUrn.get(urn);
    if (!list) return -1;
    const { occurrences } = this;
    let lo = 0;
    if (!this.unsorted) {
      // The first of the URN's occurrences that starts at `start` or after: the earlier ones cannot lie within.
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (occurrences[list[mid]!]!.start < start) lo = mid + 1;
        else hi = mid;
      }
    }
    for (let k = lo; k < list.length; k++) {
      const o = occurrences[list[k]!]!;
      if (o.start >= start && o.end <= end) return list[k]!;
      // Sorted by start: one that starts past `end` ends past it, and so do all after it.
      if (!this.unsorted && o.start > end) break;
    }
    return -1;
  }
}

function merge(scan: ScanResult, model: FormatModel): ScanResult {
  const added: UrnOccurrence[] = [];
  const scanned = new TopLevelByUrn(scan.occurrences);
  for (const ref of model.references) {
    if (ref.written) {
      // The scanner read this URN where it is written: mark what the file defines.
      const occ = scan.occurrences[scanned.indexWithin(ref.urn, ref.start, ref.end)];
      if (occ && ref.defines) occ.defines = true;
      if (occ) continue;
      if (ref.urn.startsWith('urn:')) continue;
    }
    const occ: UrnOccurrence = {
      start: ref.start,
      end: ref.end,
      urn: ref.urn,
      parsed: parseUrnCached(ref.urn),
      template: false,
      source: 'format',
      builder: ref.builder,
    };
    if (ref.defines) occ.defines = true;
    if (ref.byName !== undefined) occ.byName = ref.byName;
    // The parts' places, as a builder call's arguments give them (diagnostics.ts mapPart).
    if (ref.parts) (occ as BuilderOccurrence).arguments = ref.parts.map((p) => ({ ...p }));
    added.push(occ);
  }
  // One ordered list by start, each nested occurrence right after its outer one: indexes renumbered.
  const order = [...scan.occurrences.map((o, i) => ({ o, old: i })), ...added.map((o) => ({ o, old: -1 }))];
  const outerStart = (o: UrnOccurrence): number =>
    o.parent !== undefined ? scan.occurrences[o.parent]!.start : o.start;
  order.sort(
    (a, b) =>
      outerStart(a.o) - outerStart(b.o) ||
      (a.o.parent === undefined ? 0 : 1) - (b.o.parent === undefined ? 0 : 1) ||
      a.o.start - b.o.start ||
      (a.old < 0 ? 1 : 0) - (b.old < 0 ? 1 : 0),
  );
  const index = new Map<number, number>();
  order.forEach((e, i) => {
    if (e.old >= 0) index.set(e.old, i);
  });
  const occurrences = order.map((e) => e.o);
  for (const o of occurrences) if (o.parent !== undefined && o.source !== 'format') o.parent = index.get(o.parent);
  // The dataset file's descriptions, each owned by its entry's occurrence: entry descriptions and fields' (as columns).
  const merged = new TopLevelByUrn(occurrences);
  const entryIndex = (e: FormatDescription['entry']): number => merged.indexWithin(e.urn, e.start, e.end);
  const descriptions: YamlDescription[] = scan.descriptions.map((d) => ({ ...d, owner: index.get(d.owner)! }));
  const described = new Set(descriptions.map((d) => d.owner));
  const columns: YamlColumn[] = [];
  // The other formats' texts (glossary, data product, structured properties) are compared by sync
  // only: they are no docs-as-code entries (no lens, no description diagnostics of their own).
  const texts: FormatText[] = [];
  for (const d of model.descriptions) {
    const owner = entryIndex(d.entry);
    if (owner < 0) continue;
    const at = {
      insertAt: d.insertAt,
      indent: d.indent,
      ...(d.needsLineBreak ? { needsLineBreak: true } : {}),
      ...(d.description ? { description: d.description } : {}),
    };
    if (model.format !== 'datahub-dataset') texts.push({ owner, key: d.key ?? 'description', ...at });
    else if (d.field) columns.push({ dataset: owner, name: d.field, nameKey: 'id', format: true, ...at });
    // An entry named by `urn:` may already have its description read as docs-as-code: one is kept.
    else if (!described.has(owner)) {
      descriptions.push({ owner, ...at });
      described.add(owner);
    }
  }
  const labels: YamlLabel[] = [];
  for (const l of model.labels) {
    const owner = entryIndex(l.entry);
    if (owner < 0) continue;
    labels.push({
      owner,
      ...(l.field !== undefined ? { field: l.field } : {}),
      kind: l.kind,
      urn: l.urn,
      ...(l.ownershipType !== undefined ? { ownershipType: l.ownershipType } : {}),
      start: l.start,
      end: l.end,
    });
  }
  return {
    occurrences,
    columns: [],
    descriptions,
    ...(columns.length > 0 ? { formatColumns: columns } : {}),
    ...(texts.length > 0 ? { formatTexts: texts } : {}),
    problems: scan.problems,
    formatProblems: model.problems,
    format: model.format,
    ...(model.propertyValues.length > 0 ? { formatPropertyValues: model.propertyValues } : {}),
    ...(model.definitions.length > 0 ? { formatPropertyDefinitions: model.definitions } : {}),
    ...(labels.length > 0 ? { formatLabels: labels } : {}),
    formatOutline: outlineOf(model),
  };
}
