/**
 * Query size limits, checked before a document is validated or run: nesting depth, the number
 * of root fields (aliases included), and the number of fields in all (fragments counted where
 * they are spread), which bounds width below the root too: 1000 roots of 200 aliases each would
 * otherwise ask for 200,000 fields. The language server sends up to 100 aliased root fields of
 * about 20 fields each per request, well inside all three.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxRootFields: number;
  maxFields: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 15, maxRootFields: 1000, maxFields: 50_000 };

/** The first limit the document breaks, as a message; undefined when it fits. */
export function checkQueryLimits(doc: DocumentNode, limits: QueryLimits): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const label = d.name ? `operation '${d.name.value}'` : 'the operation';
    const measure = new Measure(fragments);
    const roots = measure.fields(d.selectionSet);
    if (roots > limits.maxRootFields) {
      return `${label} has ${roots} root fields (aliases included); the limit is ${limits.maxRootFields} per request — split it into several requests`;
    }
    const depth = measure.depthOf(d.selectionSet);
    if (depth > limits.maxDepth) {
      return `${label} is nested ${depth} levels deep; the limit is ${limits.maxDepth}`;
    }
    const all = measure.allFields(d.selectionSet);
    if (all > limits.maxFields) {
      return `${label} selects ${all} fields in all (aliases and fragment spreads included); the limit is ${limits.maxFields} per request — split it into several requests`;
    }
  }
  return undefined;
}

/**
 * Root-field count and depth of selection sets, with fragments inlined. Results per fragment are
 * memoised, so a fragment spread many times costs once; a fragment cycle counts as empty here
 * (validation reports it).
 */
class Measure {
  private readonly count = new Map<string, number>();
  private readonly depth = new Map<string, number>();
  private readonly total = new Map<string, number>();
  private readonly open = new Set<string>();

  constructor(private readonly fragments: Map<string, FragmentDefinitionNode>) {}

  fields(set: SelectionSetNode): number {
    let n = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) n++;
      else if (s.kind === Kind.INLINE_FRAGMENT) n += this.fields(s.selectionSet);
      else n += this.viaFragment(s.name.value, this.count, (f) => this.fields(f.selectionSet));
    }
    return n;
  }

  /** Every field at every level, each fragment counted once per spread. */
  allFields(set: SelectionSetNode): number {
    let n = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) n += 1 + (s.selectionSet ? this.allFields(s.selectionSet) : 0);
      else if (s.kind === Kind.INLINE_FRAGMENT) n += this.allFields(s.selectionSet);
      else n += this.viaFragment(s.name.value, this.total, (f) => this.allFields(f.selectionSet));
    }
    return n;
  }

  depthOf(set: SelectionSetNode): number {
    let max = 0;
    for (const s of set.selections) {
      let d: number;
      if (s.kind === Kind.FIELD) d = 1 + (s.selectionSet ? this.depthOf(s.selectionSet) : 0);
      else if (s.kind === Kind.INLINE_FRAGMENT) d = this.depthOf(s.selectionSet);
      else d = this.viaFragment(s.name.value, this.depth, (f) => this.depthOf(f.selectionSet));
      if (d > max) max = d;
    }
    return max;
  }

  private viaFragment(name: string, memo: Map<string, number>, measure: (f: FragmentDefinitionNode) => number): number {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const f = this.fragments.get(name);
    if (!f || this.open.has(name)) return 0;
    this.open.add(name);
    const v = measure(f);
    this.open.delete(name);
    memo.set(name, v);
    return v;
  }
}
