/**
 * Parsed URNs, remembered across scans. A document is rescanned on every keystroke and holds
 * the same URNs each time, so most parses repeat; the table finds a URN by a hash of its text
 * and hands back one shared string and one shared parse result (treat both as read-only).
 *
 * A rescan also meets the URNs in the order the last scan met them, so the scanners look a URN up
 * in that order first (`lookupUrnInSequence`): the entry the last scan found at the same place in
 * its sequence is compared with the text, and the table is asked only when it differs (an edit
 * added, removed or changed a URN there; the sequence picks up again after it).
 */
import { parseUrn, type ParseResult } from '../../../model/src/urn';

export interface ParsedUrn {
  urn: string;
  parsed: ParseResult;
  /** Next entry with the same hash. */
  next: ParsedUrn | undefined;
  /** The hash of `urn`, as the table keys it. */
  hash: number;
  /** The table generation that holds this entry (see `young`). */
  generation: number;
  /** Where this entry last stood in a scan's sequence (an index into `sequence` or `lastSequence`). */
  seqAt: number;
}

/** Entries per generation; two generations keep what recent scans used (about LRU, without its bookkeeping). */
const DEFAULT_GENERATION_SIZE = 50_000;
/** A document with more URNs than this is reparsed in part on every rescan. */
const MAX_GENERATION_SIZE = 250_000;
/** Table hashes keep 30 bits: small integers stay unboxed map keys (31-bit on pointer-compressed V8). */
const HASH_MASK = 0x3fffffff;
let generationSize = DEFAULT_GENERATION_SIZE;
let young = new Map<number, ParsedUrn>();
let old = new Map<number, ParsedUrn>();
/** Counts the generations: an entry whose `generation` is this one is in `young`. */
let youngGeneration = 0;

/** The entries the current scan looked up in order, and those the scan before it did. */
let sequence: ParsedUrn[] = [];
let lastSequence: ParsedUrn[] = [];
/** Where in `lastSequence` the current scan's next URN is expected. */
let cursor = 0;

/**
 * The hash of a URN's text is FNV-1a over its UTF-16 units: `h = URN_HASH_SEED`, then
 * `h = Math.imul(h ^ unit, URN_HASH_PRIME)` per unit. A scanner that walks the URN anyway computes
 * it on the way and hands it to `lookupUrnAt`, so the text is not read a second time.
 */
export const URN_HASH_SEED = 0x811c9dc5;
export const URN_HASH_PRIME = 0x01000193;

export function hashRegion(text: string, start: number, end: number): number {
  let h = URN_HASH_SEED;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), URN_HASH_PRIME);
  return h;
}

function findIn(table: Map<number, ParsedUrn>, hash: number, region: string): ParsedUrn | undefined {
  for (let e = table.get(hash); e !== undefined; e = e.next) if (e.urn === region) return e;
  return undefined;
}

function remember(hash: number, urn: string, parsed: ParseResult): ParsedUrn {
  if (young.size >= generationSize) {
    old = young;
    young = new Map();
    youngGeneration++;
  }
  const entry: ParsedUrn = { urn, parsed, next: young.get(hash), hash, generation: youngGeneration, seqAt: -1 };
  young.set(hash, entry);
  return entry;
}

/** The URN `text[start, end)` with its parse. */
export function parseUrnAt(text: string, start: number, end: number): ParsedUrn {
  return lookupUrnAt(text, start, end, hashRegion(text, start, end));
}

/** The URN `text[start, end)` with its parse, given the hash of that text (`hashRegion`). */
export function lookupUrnAt(text: string, start: number, end: number, fullHash: number): ParsedUrn {
  // A slice is cheap and V8 compares it with a flat string fast (faster than startsWith).
  return lookupRegion(text.slice(start, end), fullHash & HASH_MASK);
}

function lookupRegion(region: string, hash: number): ParsedUrn {
  const hit = findIn(young, hash, region);
  if (hit) return hit;
  const older = findIn(old, hash, region);
  if (older) return remember(hash, older.urn, older.parsed);
  // A copy, not the slice: a slice would keep this version of the whole document alive in the table.
  const urn = (' ' + region).slice(1);
  return remember(hash, urn, parseUrn(urn));
}

/** A scan of a whole document begins: its lookups are expected in the order of the last scan's. */
export function startScanSequence(): void {
  if (sequence.length > 0) {
    lastSequence = sequence;
    sequence = [];
  }
  cursor = 0;
}

/**
 * `lookupUrnAt` for a scanner walking a document in order: the entry expected here by the last
 * scan's sequence is taken when it is this URN and still in the young generation (so that the
 * table ends up holding what it would without the sequence); else the table answers, and the
 * sequence goes on after where the last scan met that entry.
 */
export function lookupUrnInSequence(text: string, start: number, end: number, fullHash: number): ParsedUrn {
  const hash = fullHash & HASH_MASK;
  const region = text.slice(start, end);
  let entry = lastSequence[cursor];
  if (entry !== undefined && entry.hash === hash && entry.generation === youngGeneration && entry.urn === region) {
    cursor++;
  } else {
    entry = lookupRegion(region, hash);
    const at = entry.seqAt;
    if (lastSequence[at] === entry) cursor = at + 1;
  }
  entry.seqAt = sequence.length;
  sequence.push(entry);
  return entry;
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

/** Drop the scans' sequences (they hold entries the table may be dropping). */
function forgetSequences(): void {
  sequence = [];
  lastSequence = [];
  cursor = 0;
}

/**
 * Keep only these URNs, with their parses (the open documents' occurrences), and room for as many:
 * the URNs of documents closed since, or of files Check Workspace read, are dropped (about 1 KiB
 * each: 10,000 URNs of closed documents held ~9.5 MiB). Nothing is parsed again: the entries are
 * the shared strings and results the scans already hold. Generations shrink back from reservations
 * made for documents no longer open.
 */
export function retainParseCache(kept: Iterable<{ urn: string; parsed?: ParseResult | undefined }>): void {
  young = new Map();
  old = new Map();
  youngGeneration++;
  forgetSequences();
  generationSize = DEFAULT_GENERATION_SIZE;
  let count = 0;
  for (const { urn, parsed } of kept) {
    if (!parsed) continue;
    const hash = hashRegion(urn, 0, urn.length) & HASH_MASK;
    if (findIn(young, hash, urn)) continue;
    young.set(hash, { urn, parsed, next: young.get(hash), hash, generation: youngGeneration, seqAt: -1 });
    count++;
  }
  generationSize = Math.min(MAX_GENERATION_SIZE, Math.max(DEFAULT_GENERATION_SIZE, count));
}

/** How many URNs the table holds now (both generations). */
export function parseCacheSize(): number {
  return young.size + old.size;
}

/** For tests and benchmarks that want cold parses; also forgets reservations. */
export function clearParseCache(): void {
  young = new Map();
  old = new Map();
  youngGeneration++;
  forgetSequences();
  generationSize = DEFAULT_GENERATION_SIZE;
}
