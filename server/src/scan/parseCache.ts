/**
 * Parsed URNs, remembered across scans. A document is rescanned on every keystroke and holds
 * the same URNs each time, so most parses repeat; the table finds a URN by a hash of its text
 * and hands back one shared string and one shared parse result (treat both as read-only).
 */
import { parseUrn, type ParseResult } from '../../../model/src/urn';

export interface ParsedUrn {
  urn: string;
  parsed: ParseResult;
  /** Next entry with the same hash. */
  next: ParsedUrn | undefined;
}

/** Entries per generation; two generations keep what recent scans used (about LRU, without its bookkeeping). */
const DEFAULT_GENERATION_SIZE = 50_000;
/** A document with more URNs than this is reparsed in part on every rescan. */
const MAX_GENERATION_SIZE = 250_000;
let generationSize = DEFAULT_GENERATION_SIZE;
let young = new Map<number, ParsedUrn>();
let old = new Map<number, ParsedUrn>();

function hashRegion(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  // Small integers stay unboxed map keys (31-bit on pointer-compressed V8).
  return h & 0x3fffffff;
}

function findIn(table: Map<number, ParsedUrn>, hash: number, region: string): ParsedUrn | undefined {
  for (let e = table.get(hash); e !== undefined; e = e.next) if (e.urn === region) return e;
  return undefined;
}

function remember(hash: number, urn: string, parsed: ParseResult): ParsedUrn {
  if (young.size >= generationSize) {
    old = young;
    young = new Map();
  }
  const entry: ParsedUrn = { urn, parsed, next: young.get(hash) };
  young.set(hash, entry);
  return entry;
}

/** The URN `text[start, end)` with its parse. */
export function parseUrnAt(text: string, start: number, end: number): ParsedUrn {
  const hash = hashRegion(text, start, end);
  // A slice is cheap and V8 compares it with a flat string fast (faster than startsWith).
  const region = text.slice(start, end);
  const hit = findIn(young, hash, region);
  if (hit) return hit;
  const older = findIn(old, hash, region);
  if (older) return remember(hash, older.urn, older.parsed);
  // A copy, not the slice: a slice would keep this version of the whole document alive in the table.
  const urn = (' ' + region).slice(1);
  return remember(hash, urn, parseUrn(urn));
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
  generationSize = DEFAULT_GENERATION_SIZE;
  let count = 0;
  for (const { urn, parsed } of kept) {
    if (!parsed) continue;
    const hash = hashRegion(urn, 0, urn.length);
    if (findIn(young, hash, urn)) continue;
    young.set(hash, { urn, parsed, next: young.get(hash) });
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
  generationSize = DEFAULT_GENERATION_SIZE;
}
