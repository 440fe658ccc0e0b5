/**
 * Where each UTF-16 unit of a decoded text (a YAML scalar's value, a string literal with its
 * escapes undone, adjacent literals joined) stands in the document. Shared by the YAML and text
 * extractors and by the features that turn a part of a URN into a document range.
 */

/**
 * Unit `k` came from the document range `[starts[k], ends[k])` (an escape: all of its units map
 * to the whole escape); or, for text written verbatim, from `offset + k`.
 */
export type SourceMap = { offset: number } | { starts: number[]; ends: number[] };

/** The document range of units `[from, to)` of a text of `length` units. */
export function mapRange(map: SourceMap, from: number, to: number, length: number): { start: number; end: number } {
  if ('offset' in map) return { start: map.offset + from, end: map.offset + Math.max(from, Math.min(to, length)) };
  if (length === 0) return { start: 0, end: 0 };
  const start = from < length ? map.starts[from]! : map.ends[length - 1]!;
  const end = to > from ? map.ends[Math.min(to, length) - 1]! : start;
  return { start, end: Math.max(start, end) };
}

/**
 * The map of units `[from, to)` alone (for a URN that is part of a decoded text), or undefined when
 * those units are the document's `[start, start + (to - from))` verbatim: no map needed.
 */
export function subMap(map: SourceMap, from: number, to: number): SourceMap | undefined {
  if ('offset' in map) return undefined;
  const base = map.starts[from];
  if (base === undefined) return undefined;
  let verbatim = true;
  for (let k = from; k < to && verbatim; k++)
    verbatim = map.starts[k] === base + (k - from) && map.ends[k] === base + (k - from) + 1;
  return verbatim ? undefined : { starts: map.starts.slice(from, to), ends: map.ends.slice(from, to) };
}

/** A decoded text being built, with its source map. */
export class MappedText {
  value = '';
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  /** `text[from, to)` copied verbatim. */
  run(text: string, from: number, to: number): void {
    if (to <= from) return;
    this.value += text.slice(from, to);
    for (let p = from; p < to; p++) {
      this.starts.push(p);
      this.ends.push(p + 1);
    }
  }

  /** `produced` came from `text[start, end)` (an escape, a folded line break). */
  made(produced: string, start: number, end: number): void {
    this.value += produced;
    for (let k = 0; k < produced.length; k++) {
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  /** Forget what was added after the first `length` units. */
  truncate(length: number): void {
    if (length >= this.value.length) return;
    this.value = this.value.slice(0, length);
    this.starts.length = length;
    this.ends.length = length;
  }

  get length(): number {
    return this.value.length;
  }
}
