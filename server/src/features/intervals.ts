/**
 * Ranges (start inclusive, end exclusive) found by offset without walking them all: an index built
 * once per array (a scan's occurrences, one published set of diagnostics) and kept beside it while
 * the array lives. A lookup costs a binary search plus the ranges that start before the offset and
 * could still reach it, so a hover costs the same in a document of 200 lines or of 100,000 URNs.
 */

export interface Ranged {
  readonly start: number;
  readonly end: number;
}

/** The ranges sorted by start (then by their place in the array), with the furthest end reached so far. */
interface IntervalIndex {
  /** Positions in the array, sorted by start, ties in array order. */
  order: Int32Array;
  starts: Float64Array;
  /** maxEnd[i]: the largest end among order[0..i]. */
  maxEnd: Float64Array;
}

const indexes = new WeakMap<readonly Ranged[], IntervalIndex>();

function build(items: readonly Ranged[]): IntervalIndex {
  const n = items.length;
  const order = new Int32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && items[i]!.start < items[i - 1]!.start) sorted = false;
  }
  if (!sorted) {
    const positions = Array.from(order);
    positions.sort((a, b) => items[a]!.start - items[b]!.start || a - b);
    order.set(positions);
  }
  const starts = new Float64Array(n);
  const maxEnd = new Float64Array(n);
  let furthest = -Infinity;
  for (let i = 0; i < n; i++) {
    const r = items[order[i]!]!;
    starts[i] = r.start;
    if (r.end > furthest) furthest = r.end;
    maxEnd[i] = furthest;
  }
  return { order, starts, maxEnd };
}

/** Builds the index of `items` now (it is otherwise built at the first lookup). The array must not change afterwards. */
export function indexRanges(items: readonly Ranged[]): void {
  if (!indexes.has(items)) indexes.set(items, build(items));
}

/**
 * Calls `visit` with the array position of every range of `items` that holds `offset`
 * (start ≤ offset < end), in no particular order. The array must not change once looked up.
 */
export function forEachRangeAt(items: readonly Ranged[], offset: number, visit: (position: number) => void): void {
  let index = indexes.get(items);
  if (!index) {
    index = build(items);
    indexes.set(items, index);
  }
  const { order, starts, maxEnd } = index;
  // The last range that starts at or before the offset.
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  // Back from there while some range that starts earlier still ends after the offset.
  for (let i = lo - 1; i >= 0 && maxEnd[i]! > offset; i--) {
    const position = order[i]!;
    if (items[position]!.end > offset) visit(position);
  }
}

/** The first range of `items` (in array order) that holds `offset` and passes `accept`. */
export function firstRangeAt<T extends Ranged>(
  items: readonly T[],
  offset: number,
  accept: (item: T) => boolean = () => true,
): T | undefined {
  let first = -1;
  forEachRangeAt(items, offset, (p) => {
    if ((first < 0 || p < first) && accept(items[p]!)) first = p;
  });
  return first < 0 ? undefined : items[first];
}

/** Every range of `items` that holds `offset`, in array order. */
export function rangesAt<T extends Ranged>(items: readonly T[], offset: number): T[] {
  const positions: number[] = [];
  forEachRangeAt(items, offset, (p) => positions.push(p));
  return positions.sort((a, b) => a - b).map((p) => items[p]!);
}

/** Every range of `items` whose end lies in `[from, to]`, in array order. The array must not change once looked up. */
export function rangesEndingIn<T extends Ranged>(items: readonly T[], from: number, to: number): T[] {
  let index = indexes.get(items);
  if (!index) {
    index = build(items);
    indexes.set(items, index);
  }
  const { order, starts, maxEnd } = index;
  // The first range by start whose furthest end so far reaches `from` (maxEnd only grows).
  let lo = 0;
  let hi = maxEnd.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (maxEnd[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  // From there until ranges start after `to` (a range ends at or after its start).
  // Positions come in start order, which is array order for a scan's occurrences (the usual case):
  // sorted again only when one comes before the last.
  const positions: number[] = [];
  let inOrder = true;
  for (let i = lo; i < starts.length && starts[i]! <= to; i++) {
    const position = order[i]!;
    const end = items[position]!.end;
    if (end >= from && end <= to) {
      if (positions.length > 0 && position < positions[positions.length - 1]!) inOrder = false;
      positions.push(position);
    }
  }
  if (!inOrder) positions.sort((a, b) => a - b);
  const out = new Array<T>(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = items[positions[i]!]!;
  return out;
}
