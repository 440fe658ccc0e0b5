/**
 * Finding URNs in a document: the extractors each language uses, and one merged, ordered result.
 * Pure: no I/O, no LSP types.
 */
import { extractorsOf, type ExtractorName } from '../../../model/src/languages';
import type { ScanOptions, ScanResult } from './types';
import { findUrnsInText } from './text';
import { findUrnsInYaml } from './yaml';
import { findBuilderCalls } from './python';
import { findPythonClassCalls } from './pythonClasses';
import { findJavaUrnCalls } from './java';
import { reserveParseCache, startScanSequence } from './parseCache';
import { literalSyntaxFor } from './languages';

export type { ScanOptions, ScanResult, UrnOccurrence } from './types';
export { findUrnsInText } from './text';
export { findUrnsInYaml } from './yaml';
export { findBuilderCalls } from './python';

/** What one extractor finds; `claimed` ranges are the extractor's own (nothing else reports inside them). */
interface Extraction extends ScanResult {
  claimed: Array<{ start: number; end: number }>;
}

type Extractor = (text: string, opts: ScanOptions, languageId: string) => Extraction;

/** One extractor per source kind, by the names the languages table uses. */
const EXTRACTORS = {
  text: (text, opts, languageId) => ({
    occurrences: findUrnsInText(text, { ...opts, literals: opts.literals ?? literalSyntaxFor(languageId) }),
    columns: [],
    descriptions: [],
    problems: [],
    claimed: [],
  }),
  yaml: (text, opts) => ({ ...findUrnsInYaml(text, opts), claimed: [] }),
  pythonBuilders: (text) => {
    const { occurrences, calls } = findBuilderCalls(text);
    return { occurrences, columns: [], descriptions: [], problems: [], claimed: calls };
  },
  pythonClasses: (text) => {
    const { occurrences, calls } = findPythonClassCalls(text);
    return { occurrences, columns: [], descriptions: [], problems: [], claimed: calls };
  },
  java: (text) => {
    const { occurrences, calls } = findJavaUrnCalls(text);
    return { occurrences, columns: [], descriptions: [], problems: [], claimed: calls };
  },
} satisfies Record<ExtractorName, Extractor>;

/** The extractors a language's documents go through (model/src/languages.ts); `text` alone for other languages. */
export function extractorsFor(languageId: string): readonly ExtractorName[] {
  return extractorsOf(languageId);
}

/** The URNs of a document, ordered by start; nested ones follow their outer URN. */
export function scanDocument(text: string, languageId: string, opts: ScanOptions): ScanResult {
  const names = extractorsFor(languageId);
  // The workspace index's scans keep out of the scans' sequence (ScanOptions.topLevelOnly).
  if (!opts.topLevelOnly) startScanSequence();
  const extractions = names.map((name) => EXTRACTORS[name](text, opts, languageId));
  let result: ScanResult;
  if (extractions.length === 1) {
    const { occurrences, columns, descriptions, problems } = extractions[0]!;
    result = { occurrences, columns, descriptions, problems };
  } else if (names[0] === 'text' && names.every((name, i) => i === 0 || CALL_EXTRACTORS.has(name))) {
    result = mergeCalls(extractions[0]!, extractions.slice(1));
  } else {
    result = mergeExtractions(extractions);
  }
  if (!opts.topLevelOnly) reserveParseCache(result.occurrences.length);
  return result;
}

/** Extractors of calls that build URNs: they report only occurrences and claimed calls (no columns, descriptions or problems). */
const CALL_EXTRACTORS: ReadonlySet<ExtractorName> = new Set(['pythonBuilders', 'pythonClasses', 'java']);

/**
 * `mergeExtractions` of the text extraction and call extractions, in one pass over the text's
 * occurrences (the many) instead of the general merge: the calls' occurrences (the few) are merged
 * among themselves first, then placed among the text's by start, and what the text reports inside a
 * claimed call is dropped. The result is the general merge's, order and parent indexes included.
 * The text's list (this scan's own) becomes the result in place: a forward pass gives each kept
 * occurrence its final index and moves it down over the dropped ones, a backward pass moves it up
 * to make room for the calls, so no list of every occurrence is made again.
 */
function mergeCalls(textExtraction: Extraction, callExtractions: Extraction[]): ScanResult {
  const occurrences = textExtraction.occurrences;
  const claims: Array<{ start: number; end: number }> = [];
  for (const e of callExtractions) for (const claim of e.claimed) claims.push(claim);
  if (claims.length === 0 && callExtractions.every((e) => e.occurrences.length === 0)) {
    // Only the text found anything (or nothing did): as the general merge's single busy extraction.
    return { occurrences, columns: [], descriptions: [], problems: [] };
  }
  if (occurrences.length === 0) return mergeExtractions([textExtraction, ...callExtractions]);
  const calls =
    callExtractions.length === 1 ? callExtractions[0]!.occurrences : mergeExtractions(callExtractions).occurrences;
  // As keptIndexes: the claims ordered by start (a stable sort), walked with one cursor.
  claims.sort((a, b) => a.start - b.start);
  const count = occurrences.length;
  // Final indexes: a text occurrence's by its index in the text's list (-1: dropped), a call's by its index in `calls`.
  const renumbered = new Int32Array(count).fill(-1);
  const callIndexes = new Int32Array(calls.length).fill(-1);
  let c = 0;
  let k = 0;
  let kept = 0;
  const placeCall = (): void => {
    const call = calls[k]!;
    callIndexes[k] = kept + k;
    if (call.parent !== undefined) {
      const parent = callIndexes[call.parent] ?? -1;
      if (parent < 0) delete call.parent;
      else call.parent = parent;
    }
    k++;
  };
  for (let index = 0; index < count; index++) {
    const occurrence = occurrences[index]!;
    const start = occurrence.start;
    while (c < claims.length && claims[c]!.end <= start) c++;
    if (c < claims.length && claims[c]!.start <= start) continue;
    while (k < calls.length && calls[k]!.start < start) placeCall();
    if (occurrence.parent !== undefined) {
      // Inside a URN of the text dropped for a claim (a call that ended within it: `f(urn:…(a,b]],urn:…)`):
      // dropped with it, not made top-level, as the index's top-level scan never sees it.
      const parent = renumbered[occurrence.parent] ?? -1;
      if (parent < 0) continue;
      occurrence.parent = parent;
    }
    renumbered[index] = kept + k;
    if (kept !== index) occurrences[kept] = occurrence;
    kept++;
  }
  while (k < calls.length) placeCall();
  // Room for the calls (pushed, so the list stays packed), then each occurrence to its final index, from the end.
  const total = kept + calls.length;
  if (total < count) occurrences.length = total;
  while (occurrences.length < total) occurrences.push(occurrences[0]!);
  for (let w = total - 1, t = kept - 1, q = calls.length - 1; q >= 0; w--) {
    if (callIndexes[q] === w) occurrences[w] = calls[q--]!;
    else occurrences[w] = occurrences[t--]!;
  }
  return { occurrences, columns: [], descriptions: [], problems: [] };
}

/**
 * Merge several extractions: drop what starts inside another extractor's claimed ranges, merge the
 * (already ordered) lists by start, renumber parent, column and description indexes.
 * The occurrences are this scan's own objects, so they are renumbered in place.
 */
function mergeExtractions(extractions: Extraction[]): ScanResult {
  const busy = extractions.filter((e) => e.occurrences.length > 0 || e.claimed.length > 0);
  if (busy.length <= 1) {
    const only = busy[0];
    const problems = extractions.flatMap((e) => e.problems);
    return {
      occurrences: only?.occurrences ?? [],
      columns: only?.columns ?? [],
      descriptions: only?.descriptions ?? [],
      problems,
    };
  }
  const kept = extractions.map((extraction, from) =>
    keptIndexes(
      extraction,
      extractions.flatMap((e, i) => (i === from ? [] : e.claimed)),
    ),
  );
  const renumbered = extractions.map((e) => new Int32Array(e.occurrences.length).fill(-1));
  const heads = new Array<number>(extractions.length).fill(0);
  const result: ScanResult = { occurrences: [], columns: [], descriptions: [], problems: [] };
  for (;;) {
    let pick = -1;
    let pickStart = Infinity;
    for (let from = 0; from < extractions.length; from++) {
      const index = kept[from]![heads[from]!];
      if (index === undefined) continue;
      const start = extractions[from]!.occurrences[index]!.start;
      if (start < pickStart) {
        pick = from;
        pickStart = start;
      }
    }
    if (pick < 0) break;
    const index = kept[pick]![heads[pick]!++]!;
    const occurrence = extractions[pick]!.occurrences[index]!;
    renumbered[pick]![index] = result.occurrences.length;
    if (occurrence.parent !== undefined) {
      const parent = renumbered[pick]![occurrence.parent] ?? -1;
      if (parent < 0) delete occurrence.parent;
      else occurrence.parent = parent;
    }
    result.occurrences.push(occurrence);
  }
  extractions.forEach((extraction, from) => {
    const at = (index: number): number => renumbered[from]![index] ?? -1;
    for (const column of extraction.columns)
      if (at(column.dataset) >= 0) result.columns.push({ ...column, dataset: at(column.dataset) });
    for (const d of extraction.descriptions)
      if (at(d.owner) >= 0) result.descriptions.push({ ...d, owner: at(d.owner) });
    result.problems.push(...extraction.problems);
  });
  return result;
}

/** Indexes of the occurrences (ordered by start) that do not start inside a claimed range. */
function keptIndexes(extraction: Extraction, claims: Array<{ start: number; end: number }>): number[] {
  const claimed = claims.sort((a, b) => a.start - b.start);
  const indexes: number[] = [];
  const occurrences = extraction.occurrences;
  let c = 0;
  for (let index = 0; index < occurrences.length; index++) {
    const start = occurrences[index]!.start;
    while (c < claimed.length && claimed[c]!.end <= start) c++;
    if (!(c < claimed.length && claimed[c]!.start <= start)) indexes.push(index);
  }
  return indexes;
}
