/**
 * Parsed URNs, remembered across scans. A document is rescanned on every keystroke and holds
 * the same URNs each time, so most parses repeat; the table finds a URN by a hash of its text
 * and hands back one shared string and one shared parse result (treat both as read-only).
 *
 * A rescan also meets the URNs in the order the last scan met them, so the scanners look a URN up
 * in that order first (`lookupUrnInSequence`): the entry the last scan found at the same place in
 * its sequence is compared with the text, and the table is asked only when it differs (an edit
 * added, removed or changed a URN there; the sequence picks up again after it). As long as a
 * rescan meets the last scan's URNs at the same places, its sequence is the last one and nothing is
 * written for it; it is copied out only from the first URN that differs.
 */
import { parseUrn, type ParseResult } from '../../../model/src/urn';

export interface ParsedUrn {
  urn: string;
  parsed: ParseResult;
}

/** Entries per generation; two generations keep what recent scans used (about LRU, without its bookkeeping). */
const DEFAULT_GENERATION_SIZE = 50_000;
/** A document with more URNs than this is reparsed in part on every rescan. */
const MAX_GENERATION_SIZE = 250_000;
/** Table hashes keep 30 bits: small integers stay unboxed map keys (31-bit on pointer-compressed V8). */
const HASH_MASK = 0x3fffffff;
let generationSize = DEFAULT_GENERATION_SIZE;
/**
 * One generation of the table: open addressing over the hashes, kept in an Int32Array beside the
 * entries' indexes, so that a probe reads one array slot and touches an entry (and its string)
 * only when the hash is the same. An entry is its URN string and parse, at one index of `urns` and
 * `parses` (no object per entry: a cold scan adds one per new URN). Entries are only added, never
 * removed.
 */
class Table {
  size = 0;
  private mask = 1023;
  /** Per slot: the hash of its entry, and the entry's index in `urns` plus 1 (0: empty). */
  private hashes = new Int32Array(1024);
  private indexes = new Int32Array(1024);
  /** Per entry: its hash, shared string and parse. */
  readonly entryHashes: number[] = [];
  readonly urns: string[] = [];
  readonly parses: ParseResult[] = [];

  /** The index of the entry for `region` (whose table hash is `hash`), -1 when absent. */
  find(hash: number, region: string): number {
    const hashes = this.hashes;
    const indexes = this.indexes;
    const mask = this.mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = indexes[slot]!;
      if (index === 0) return -1;
      if (hashes[slot] === hash && this.urns[index - 1] === region) return index - 1;
    }
  }

  /** Add the entry `urn` (not present yet) with its hash and parse; returns its index. */
  add(hash: number, urn: string, parsed: ParseResult): number {
    this.entryHashes.push(hash);
    this.urns.push(urn);
    this.parses.push(parsed);
    const size = ++this.size;
    if (size * 2 > this.mask + 1) this.grow();
    else this.place(hash, size);
    return size - 1;
  }

  private place(hash: number, index: number): void {
    const mask = this.mask;
    let slot = hash & mask;
    while (this.indexes[slot] !== 0) slot = (slot + 1) & mask;
    this.hashes[slot] = hash;
    this.indexes[slot] = index;
  }

  /** Twice the slots (at most half of them used), every entry placed again. */
  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    this.mask = capacity - 1;
    this.hashes = new Int32Array(capacity);
    this.indexes = new Int32Array(capacity);
    const entryHashes = this.entryHashes;
    for (let i = 0; i < entryHashes.length; i++) this.place(entryHashes[i]!, i + 1);
  }
}

let young = new Table();
let old = new Table();
/** Counts the generations: an entry whose `generation` is this one is in `young`. */
let youngGeneration = 0;

/** Where the current scan's next URN is expected in the last scan's sequence. */
let cursor = 0;
/** After a URN found off the expected place: where the next is expected if that was a skip (-1: none). */
let skipped = -1;
/**
 * URNs in a row found nowhere near the expected place. Past MAX_MISSES the search near it stops
 * until the expected item matches again: the last scan was of another document (Check Workspace
 * reads file after file), or this stretch was added, and the table answers alone.
 */
let misses = 0;
const MAX_MISSES = 16;
/**
 * The hash of a URN's text is FNV-1a over its UTF-16 units: `h = URN_HASH_SEED`, then
 * `h = Math.imul(h ^ unit, URN_HASH_PRIME)` per unit. A scanner that walks the URN anyway computes
 * it on the way and hands it to `lookupUrnAt`, so the text is not read a second time.
 */
export const URN_HASH_SEED = 0x811c9dc5;
export const URN_HASH_PRIME = 0x01000193;

export function hashRegion(text: string, start: number, end: number): number {
  let h = URN_HASH_SEED;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193 satisfies typeof URN_HASH_PRIME);
  return h;
}

/** Add the entry to the young generation (a new one when it is full); returns its index there. */
function remember(hash: number, urn: string, parsed: ParseResult): number {
  if (young.size >= generationSize) {
    old = young;
    young = new Table();
    youngGeneration++;
  }
  return young.add(hash, urn, parsed);
}

/** The URN `text[start, end)` with its parse. */
export function parseUrnAt(text: string, start: number, end: number): ParsedUrn {
  return lookupUrnAt(text, start, end, hashRegion(text, start, end));
}

/** The URN `text[start, end)` with its parse, given the hash of that text (`hashRegion`). */
export function lookupUrnAt(text: string, start: number, end: number, fullHash: number): ParsedUrn {
  // A slice is cheap and V8 compares it with a flat string fast (faster than startsWith).
  const k = lookupRegion(text.slice(start, end), fullHash & HASH_MASK);
  return { urn: young.urns[k]!, parsed: young.parses[k]! };
}

/** The index in `young` (after this call) of the entry for `region`, added when it was not there. */
function lookupRegion(region: string, hash: number): number {
  const hit = young.find(hash, region);
  if (hit >= 0) return hit;
  const older = old.find(hash, region);
  if (older >= 0) return remember(hash, old.urns[older]!, old.parses[older]!);
  // A flat copy, not the slice: a slice would keep this version of the whole document alive in the
  // table. A join of two pieces builds one sequential string (`(' ' + region).slice(1)` was a slice of
  // a copy: two objects, and every character the parse and later readers take goes through the slice).
  const urn = [region.slice(0, 1), region.slice(1)].join('');
  return remember(hash, urn, parseUrn(urn));
}

/**
 * The URNs one scan looked up, in order: where each stood (the text and its range), its hash, and
 * what the table answered, kept flat in arrays so that following it reads memory in order (a rescan
 * of an unchanged stretch of the document touches neither the entries nor their strings). A
 * sequence's arrays are reused by the scan after next, so a rescan allocates nothing for it.
 */
class Sequence {
  length = 0;
  texts: string[] = [];
  urns: string[] = [];
  parses: ParseResult[] = [];
  /** Per item, NUMS numbers: start, end, hash, the entry's generation, 1 when its parse is ok. */
  nums = new Int32Array(NUMS * 1024);
  /** The length of the longest text an item stood in: the document's, for a scan of a whole document. */
  textLength = 0;

  /** The last two texts `sameText` compared, and whether they were equal. */
  private pairOld = '';
  private pairNew = '';
  private pairSame = false;

  /** Empty, keeping the room it has. */
  reset(): void {
    this.length = 0;
    this.textLength = 0;
    this.pairOld = '';
    this.pairNew = '';
  }

  /**
   * Empty and holding nothing it held (texts, URN strings, parses: entries the table is dropping),
   * keeping the room it has: the next scan of a document as large writes its items in place
   * instead of growing the arrays again from empty (a cold scan's `push` was ~5 % of its profile).
   */
  forget(): void {
    this.reset();
    this.texts.fill('');
    this.urns.fill('');
    this.parses.fill(FORGOTTEN);
  }

  /** How many items it has room for without growing. */
  get room(): number {
    return this.texts.length;
  }

  /**
   * Become the first `count` items of `from` (this sequence's own items are dropped), in texts no
   * longer than `textLength`; the room is kept.
   */
  copyPrefix(from: Sequence, count: number, textLength: number): void {
    this.length = count;
    this.textLength = textLength;
    for (let k = 0; k < count; k++) {
      if (k < this.texts.length) {
        this.texts[k] = from.texts[k]!;
        this.urns[k] = from.urns[k]!;
        this.parses[k] = from.parses[k]!;
      } else {
        this.texts.push(from.texts[k]!);
        this.urns.push(from.urns[k]!);
        this.parses.push(from.parses[k]!);
      }
    }
    const numbers = count * NUMS;
    if (numbers > this.nums.length) {
      let size = this.nums.length;
      while (size < numbers) size *= 2;
      this.nums = new Int32Array(size);
    }
    this.nums.set(from.nums.subarray(0, numbers));
  }

  /** Drop what lies past the end (a longer sequence's items, which would keep their texts alive). */
  trim(): void {
    this.texts.length = this.length;
    this.urns.length = this.length;
    this.parses.length = this.length;
  }

  /** Append the entry `urn`/`parsed` of `generation`, met at `text[start, end)`; returns the new item's index. */
  push(
    text: string,
    start: number,
    end: number,
    hash: number,
    generation: number,
    urn: string,
    parsed: ParseResult,
    ok: number,
  ): number {
    const k = this.length++;
    if (text.length > this.textLength) this.textLength = text.length;
    if (k < this.texts.length) {
      this.texts[k] = text;
      this.urns[k] = urn;
      this.parses[k] = parsed;
    } else {
      this.texts.push(text);
      this.urns.push(urn);
      this.parses.push(parsed);
    }
    let nums = this.nums;
    const at = k * NUMS;
    if (at + NUMS > nums.length) {
      nums = new Int32Array(nums.length * 2);
      nums.set(this.nums);
      this.nums = nums;
    }
    nums[at] = start;
    nums[at + 1] = end;
    nums[at + 2] = hash;
    nums[at + 3] = generation;
    nums[at + 4] = ok;
    return k;
  }

  /** Item `k` stands for the same URN text as `text[start, end)` (whose hash is `hash`). */
  matches(k: number, text: string, start: number, end: number, hash: number): boolean {
    const nums = this.nums;
    const at = k * NUMS;
    if (nums[at + 2] !== hash) return false;
    const s = nums[at]!;
    const e = nums[at + 1]!;
    if (e - s !== end - start) return false;
    const t = this.texts[k]!;
    // The same text at the same place: the same URN, without reading it.
    if (s === start && t.length >= WHOLE_TEXT && this.sameText(t, text)) return true;
    return t.slice(s, e) === text.slice(start, end);
  }

  /**
   * `t === text`, remembered for the last pair: `===` on two strings is one pointer compare when
   * they are one string, but reads both up to their first difference when they are two of the same
   * length (a document after an edit that kept its length), which must not happen per URN.
   */
  private sameText(t: string, text: string): boolean {
    if (t === this.pairOld && text === this.pairNew) return this.pairSame;
    this.pairOld = t;
    this.pairNew = text;
    this.pairSame = t === text;
    return this.pairSame;
  }

  /**
   * The item standing for `text[start, end)` where the document's length change puts it: an edit
   * that changed the length by d moves what follows it by d, so after an edit that removed more
   * URNs than `find` looks ahead, the item that stood at `start - d` is found by a binary search
   * over the starts (in order for a document's own items). -1 when that item stands for other text.
   */
  findShifted(text: string, start: number, end: number, hash: number): number {
    const target = start - (text.length - this.textLength);
    const nums = this.nums;
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = nums[mid * NUMS]!;
      if (s < target) lo = mid + 1;
      else if (s > target) hi = mid - 1;
      else return this.matches(mid, text, start, end, hash) ? mid : -1;
    }
    return -1;
  }

  /**
   * The item standing for `text[start, end)` nearest after `from`: one of the RESYNC_AHEAD from
   * `from` on (URNs an edit removed), or one of the RESYNC_BEHIND before it; -1.
   */
  find(from: number, text: string, start: number, end: number, hash: number): number {
    const ahead = Math.min(this.length, from + RESYNC_AHEAD);
    for (let k = from; k < ahead; k++) if (this.matches(k, text, start, end, hash)) return k;
    const behind = Math.max(0, from - 1 - RESYNC_BEHIND);
    for (let k = Math.min(from - 1, this.length) - 1; k >= behind; k--)
      if (this.matches(k, text, start, end, hash)) return k;
    return -1;
  }
}

/** Numbers per item of a Sequence. */
const NUMS = 5;
/**
 * From this length on, an item's text is compared whole with the scanned one (once per pair) so
 * that an unchanged document's URNs are not read; shorter texts (a literal's decoded content, a
 * YAML scalar) compare the URN's range.
 */
const WHOLE_TEXT = 4096;

/**
 * How far from the expected item a URN is looked for in the last sequence (see `Sequence.find`).
 * A URN found nowhere near (one an edit added) leaves the expectation where it was; after an edit
 * that removed more URNs than this, the rest of that scan asks the table.
 */
const RESYNC_AHEAD = 32;
const RESYNC_BEHIND = 8;

/** The current scan's sequence, and the one of the scan before it. */
let sequence = new Sequence();
let lastSequence = new Sequence();
/**
 * While `sharing`, the current scan's sequence is the first `shared` items of `lastSequence`: each
 * URN so far was the last scan's item at the same index, at the same place, with its entry still in
 * the young generation, so the item is what `push` would write but for its text (set in place: the
 * same characters stand at its range). `sequence` is written from the first URN that differs, after
 * a copy of that prefix (`diverge`). `sharedTextLength` is the longest text the shared items stood in.
 */
let sharing = true;
let shared = 0;
let sharedTextLength = 0;
/** The sequence the scanners read items of (`sequenceUrn` …): `lastSequence` while sharing, else `sequence`. */
let reading = sequence;

/** The current scan's URNs stop following the last scan's at the same index: its sequence is written from here. */
function diverge(): void {
  sharing = false;
  if (shared > 0) sequence.copyPrefix(lastSequence, shared, sharedTextLength);
  reading = sequence;
}

/** A scan of a whole document begins: its lookups are expected in the order of the last scan's. */
export function startScanSequence(): void {
  if (sharing) {
    // The scan before was (a prefix of) the one before it: that sequence, cut to what it met, is the last.
    if (shared > 0) {
      lastSequence.length = shared;
      lastSequence.textLength = sharedTextLength;
      lastSequence.trim();
      // The spare holds nothing for a sequence written again from its start (nor old texts meanwhile).
      sequence.reset();
      sequence.trim();
    }
  } else if (sequence.length > 0) {
    const reused = lastSequence;
    sequence.trim();
    lastSequence = sequence;
    sequence = reused;
    sequence.reset();
  }
  sharing = true;
  shared = 0;
  sharedTextLength = 0;
  reading = lastSequence;
  cursor = 0;
  skipped = -1;
  misses = 0;
}

/** What a scanner reads of a lookup in the sequence: the shared URN string and parse of item `k`. */
export function sequenceUrn(k: number): string {
  return reading.urns[k]!;
}

export function sequenceParse(k: number): ParseResult {
  return reading.parses[k]!;
}

/** Whether the parse of item `k` is ok (read without reading the parse). */
export function sequenceParseOk(k: number): boolean {
  return reading.nums[k * NUMS + 4] === 1;
}

/**
 * `lookupUrnAt` for a scanner walking a document in order; returns an item of the current sequence
 * (`sequenceUrn`, `sequenceParse`, `sequenceParseOk`). The item the last scan's sequence expects
 * here is tried first, then the one a skip found before points to, then those near (`Sequence.find`):
 * the first that stands for the same text gives its entry when that is still in the young generation
 * (else the table is asked, so that the table ends up holding what it would without the sequence).
 * A skip (found near, not expected) only moves the expectation once the next URN confirms it: a
 * URN that repeats (a platform) is found ahead after a URN an edit added, and must not carry the
 * expectation away from where the old URNs go on.
 */
export function lookupUrnInSequence(text: string, start: number, end: number, fullHash: number): number {
  const hash = fullHash & HASH_MASK;
  const last = lastSequence;
  let k = -1;
  if (sharing) {
    // While sharing, `cursor` is `shared`: every URN so far was the expected one.
    if (
      cursor < last.length &&
      last.nums[cursor * NUMS] === start &&
      last.nums[cursor * NUMS + 3] === youngGeneration &&
      last.matches(cursor, text, start, end, hash)
    ) {
      k = cursor++;
      shared++;
      skipped = -1;
      misses = 0;
      last.texts[k] = text;
      if (text.length > sharedTextLength) sharedTextLength = text.length;
      return k;
    }
    diverge();
  }
  if (cursor < last.length && last.matches(cursor, text, start, end, hash)) {
    k = cursor;
    cursor = k + 1;
    skipped = -1;
  } else if (skipped >= 0 && skipped < last.length && last.matches(skipped, text, start, end, hash)) {
    k = skipped;
    cursor = k + 1;
    skipped = -1;
  } else if (misses < MAX_MISSES) {
    k = last.find(cursor + 1, text, start, end, hash);
    if (k >= 0) skipped = k + 1;
    else misses++;
  } else {
    // Far from the expected place (an edit removed many URNs, or added some): where the length change puts it.
    k = last.findShifted(text, start, end, hash);
    if (k >= 0) {
      cursor = k + 1;
      skipped = -1;
    }
  }
  if (k >= 0) misses = 0;
  if (k >= 0) {
    const at = k * NUMS;
    if (last.nums[at + 3] === youngGeneration)
      return sequence.push(text, start, end, hash, youngGeneration, last.urns[k]!, last.parses[k]!, last.nums[at + 4]!);
  }
  const e = lookupRegion(text.slice(start, end), hash);
  const parsed = young.parses[e]!;
  return sequence.push(text, start, end, hash, youngGeneration, young.urns[e]!, parsed, parsed.ok ? 1 : 0);
}

export function parseUrnCached(urn: string): ParseResult {
  return parseUrnAt(urn, 0, urn.length).parsed;
}

/**
 * Keep room for the `count` URNs a document just scanned held, so that rescanning it after an edit
 * finds them all (the results are alive in that document's scan anyway). Grows only, up to a cap.
 */
export function reserveParseCache(count: number): void {
  generationSize = Math.min(MAX_GENERATION_SIZE, Math.max(generationSize, count));
}

/** What a forgotten item of a sequence holds instead of a parse (never read: past the sequence's length). */
const FORGOTTEN: ParseResult = Object.freeze({
  ok: false,
  error: Object.freeze({ message: 'forgotten', offset: 0, length: 0 }),
});

/**
 * Drop what the scans' sequences hold (entries the table may be dropping). With `keepRoom`, the
 * roomier one is kept, emptied, as the one the next scan writes (the other is let go: one
 * sequence's room at most, cut to the next scan's size when that scan becomes the last one);
 * without it both are let go, so closing a large document gives their memory back.
 */
function forgetSequences(keepRoom: boolean): void {
  if (keepRoom) {
    const roomier = lastSequence.room > sequence.room ? lastSequence : sequence;
    roomier.forget();
    sequence = roomier;
  } else {
    sequence = new Sequence();
  }
  lastSequence = new Sequence();
  sharing = true;
  shared = 0;
  sharedTextLength = 0;
  reading = lastSequence;
  cursor = 0;
  skipped = -1;
  misses = 0;
}

/**
 * Keep only these URNs, with their parses (the open documents' occurrences), and room for as many:
 * the URNs of documents closed since, or of files Check Workspace read, are dropped (about 1 KiB
 * each: 10,000 URNs of closed documents held ~9.5 MiB). Nothing is parsed again: the entries are
 * the shared strings and results the scans already hold. Generations shrink back from reservations
 * made for documents no longer open.
 */
export function retainParseCache(kept: Iterable<{ urn: string; parsed?: ParseResult | undefined }>): void {
  young = new Table();
  old = new Table();
  youngGeneration++;
  forgetSequences(false);
  generationSize = DEFAULT_GENERATION_SIZE;
  let count = 0;
  for (const { urn, parsed } of kept) {
    if (!parsed) continue;
    const hash = hashRegion(urn, 0, urn.length) & HASH_MASK;
    if (young.find(hash, urn) >= 0) continue;
    young.add(hash, urn, parsed);
    count++;
  }
  generationSize = Math.min(MAX_GENERATION_SIZE, Math.max(DEFAULT_GENERATION_SIZE, count));
}

/** How many URNs the table holds now (both generations). */
export function parseCacheSize(): number {
  return young.size + old.size;
}

/**
 * Empties the table (after an index build or Check Workspace, and for tests and benchmarks that
 * want cold parses); also forgets reservations. The next scan's sequence keeps its room.
 */
export function clearParseCache(): void {
  young = new Table();
  old = new Table();
  youngGeneration++;
  forgetSequences(true);
  generationSize = DEFAULT_GENERATION_SIZE;
}

/**
 * For tests: the room of the sequence the next scan writes (items it holds without growing), the
 * other sequence's room, and how many slots of both sequences' arrays hold a text, URN or parse past the sequence's length
 * (none after `clearParseCache` or `retainParseCache`: the room is kept, not what it held).
 */
export function sequenceRoomForTests(): { room: number; spare: number; held: number } {
  let held = 0;
  for (const from of [sequence, lastSequence]) {
    for (let k = from.length; k < from.room; k++) {
      if (from.texts[k] !== '' || from.urns[k] !== '' || from.parses[k] !== FORGOTTEN) held++;
    }
  }
  return { room: sequence.room, spare: lastSequence.room, held };
}

/** One item of a scan's sequence, as `scanSequenceForTests` lists it. */
export interface SequenceItem {
  text: string;
  start: number;
  end: number;
  hash: number;
  generation: number;
  ok: boolean;
  urn: string;
  parsed: ParseResult;
}

/**
 * For tests: the current scan's sequence so far (the lookups `lookupUrnInSequence` answered, in
 * order, whether shared with the last scan's or written), the last scan's as this scan follows it,
 * and the young generation's number.
 */
export function scanSequenceForTests(): { items: SequenceItem[]; last: SequenceItem[]; youngGeneration: number } {
  const list = (from: Sequence, length: number): SequenceItem[] => {
    const items: SequenceItem[] = [];
    for (let k = 0; k < length; k++) {
      const at = k * NUMS;
      items.push({
        text: from.texts[k]!,
        start: from.nums[at]!,
        end: from.nums[at + 1]!,
        hash: from.nums[at + 2]!,
        generation: from.nums[at + 3]!,
        ok: from.nums[at + 4] === 1,
        urn: from.urns[k]!,
        parsed: from.parses[k]!,
      });
    }
    return items;
  };
  return {
    items: sharing ? list(lastSequence, shared) : list(sequence, sequence.length),
    last: list(lastSequence, lastSequence.length),
    youngGeneration,
  };
}
