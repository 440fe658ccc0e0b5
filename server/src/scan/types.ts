/**
 * What every extractor produces: URN occurrences with exact document ranges.
 * Offsets are UTF-16 offsets into the document text (what `TextDocument.positionAt` takes).
 */
import type { ParseResult, UrnError } from '../../../model/src/urn';
import type { LiteralSyntax } from './literals';
import type { SourceMap } from './sourceMap';

export type OccurrenceSource = 'text' | 'yaml' | 'builder' | 'format';

export interface UrnOccurrence {
  /** Document offsets of the URN as it stands in the source (for a builder call: the whole call). */
  start: number;
  end: number;
  /** The URN text: what the source means (YAML escapes undone; for a builder, the URN it builds). */
  urn: string;
  /** Grammar result for `urn`; absent for templates. Shared by every occurrence of the same URN: read-only. */
  parsed?: ParseResult | undefined;
  /** A templated URN (`{p}`, `${x}`, `%s`, `{}` …): never reported as malformed, never resolved. */
  template: boolean;
  source: OccurrenceSource;
  /** Document range of the parse error, when `parsed` failed (mapped through escapes). */
  errorRange?: { start: number; end: number; error: UrnError } | undefined;
  /**
   * Where `urn` is not the document's `[start, end)` verbatim (escapes undone, literals joined,
   * YAML folding): unit k of `urn` came from the document range the map gives for it.
   * Absent (or undefined) when `urn` is that slice verbatim, and for builder calls.
   */
  map?: SourceMap | undefined;
  /** For a URN nested inside another (the dataPlatform in a dataset URN): the index of the outer one. */
  parent?: number | undefined;
  /**
   * For a builder call: the builder's name, e.g. `make_dataset_urn`. For a scalar of one of
   * DataHub's YAML formats (source 'format'): how DataHub makes the URN of it, e.g. `make_user_urn`.
   */
  builder?: string;
  /** The file defines this entity (an entry of one of DataHub's YAML formats): being absent from the catalog is no problem. */
  defines?: boolean;
  /**
   * A domain named in one of DataHub's YAML formats by what may be its name (`domain: Marketing`):
   * `urn` is the name taken as an id, which DataHub tries first; when the catalog lacks it, the
   * resolution looks the domain up by this name, as DataHub's DomainRegistry does.
   */
  byName?: string;
  /** For YAML: where the URN stands in the document's structure (shared by the URNs of one scalar: read-only). */
  yaml?: YamlContext;
  /**
   * For a plain YAML scalar in a flow collection (`[…]`, `{…}`) that a comma cut: a comma ends a
   * plain value there, so `[urn:li:dataset:(p,n,PROD)]` holds `urn:li:dataset:(p` and two more
   * items. `end` is where the whole URN ends in the source and `urn` is that URN, which parses:
   * quoting `[start, end)` is the fix.
   */
  cutInFlow?: { end: number; urn: string };
}

export interface YamlScalarRef {
  value: string;
  /** Document range of the scalar node as written (quotes and block headers included). */
  start: number;
  end: number;
  /** The node's style, so an edit can keep it: PLAIN, QUOTE_SINGLE, QUOTE_DOUBLE, BLOCK_LITERAL, BLOCK_FOLDED. */
  style: string;
  /** The node stands in a flow collection (`{…}`, `[…]`): an edit there cannot be a block scalar. */
  flow?: boolean;
}

export interface YamlContext {
  /** Index of the YAML document in a multi-document file. */
  documentIndex: number;
  /** Keys and list indexes from the document root to the scalar, e.g. ['datasets', 0, 'urn']. */
  keyPath: Array<string | number>;
  /** Scalar siblings in the mapping that holds the URN (or holds the list that holds it). */
  siblings: Record<string, YamlScalarRef>;
  /** When the URN is an item of a list: the list's key (e.g. 'features'). */
  listKey?: string;
  /** When the URN is an item of a list: the URN held under a URN-like key of the mapping that owns the list. */
  owner?: { urn: string; start: number; end: number };
}

/** A column named beside a dataset URN in YAML (`columns:`/`fields:`/`schema:` entries). */
export interface YamlColumn {
  /** Index (in the occurrence list) of the dataset URN occurrence. */
  dataset: number;
  /** The column as the YAML names it (a simple path, or a fieldPath). */
  name: YamlScalarRef;
  /** Which key held the name: 'name' or 'fieldPath' (or the mapping key itself for `columns: {col: …}` maps). */
  nameKey: string;
  description?: YamlScalarRef;
  /** Where a `description:` key would be inserted (offset after the name entry's line), for pulls. */
  insertAt: number;
  /** For 'value': the end of a `~`/`null` written as the value, which the pulled text replaces. */
  replaceEnd?: number;
  /** Indentation of the entry's keys, for inserting a description. */
  indent: string;
  /** A schema field of a DataHub dataset file: its presence is checked through its schemaField URN, not here. */
  format?: boolean;
  /** How to write a description at `insertAt` (absent: 'line'). */
  insertStyle?: YamlInsertStyle;
  /** `insertAt` is the end of a document that does not end with a line break: write one first. */
  needsLineBreak?: boolean;
}

/**
 * How a description is written at `insertAt`:
 * - 'line': a new line `${indent}description: …\n` (insertAt is the start of the line after the entry's name/URN line);
 * - 'flow': inside a flow mapping `{…}`, `, description: …` (insertAt is after the last value, before `}`);
 * - 'value': the map form `columns: {user_id: …}` where the value itself is the description and is empty
 *   (insertAt is where the value goes, right after `user_id:` or after the space that follows it).
 */
export type YamlInsertStyle = 'line' | 'flow' | 'value';

/** A `description:` beside a URN in YAML (docs-as-code). */
export interface YamlDescription {
  /** Index of the owning URN occurrence. */
  owner: number;
  /** Present when the mapping has a `description:` key; an empty `description:` has value '' and an empty range after the colon. */
  description?: YamlScalarRef;
  insertAt: number;
  indent: string;
  /** How to write a description at `insertAt` (absent: 'line'). */
  insertStyle?: YamlInsertStyle;
  /** `insertAt` is the end of a document that does not end with a line break: write one first. */
  needsLineBreak?: boolean;
}

export interface ScanResult {
  occurrences: UrnOccurrence[];
  columns: YamlColumn[];
  descriptions: YamlDescription[];
  /** Problems that stopped part of a scan (a YAML syntax error): range and message, for one diagnostic each. */
  problems: Array<{ start: number; end: number; message: string }>;
  /** For a file in one of DataHub's own YAML formats: which one, and what breaks its rules. */
  format?: string;
  formatProblems?: Array<{ start: number; end: number; message: string; severity: 'error' | 'warning' }>;
  /** For a DataHub dataset file: the values it gives each structured property, checked against the property's definition. */
  formatPropertyValues?: FormatPropertyValues[];
  /** For a DataHub dataset file: its schema fields named by `id`, with their descriptions (not docs-as-code columns). */
  formatColumns?: YamlColumn[];
  /** For a DataHub structured properties file: each property's definition, as DataHub writes it from the file. */
  formatPropertyDefinitions?: FormatPropertyDefinition[];
  /**
   * For a DataHub glossary, data product or structured properties file: each entry's description
   * (a structured property's display name too) or where one goes, compared with the catalog's by sync.
   */
  formatTexts?: FormatText[];
  /** For a DataHub dataset file: the tags, glossary terms and owners its entries (and their fields) name, for push. */
  formatLabels?: YamlLabel[];
  /** For a file in one of DataHub's formats: what completion reads of the whole file (formats/complete.ts). */
  formatOutline?: FormatOutline;
}

/** DataHub's own YAML formats (server/src/formats/read.ts reads them). */
export type FormatName =
  'datahub-dataset' | 'datahub-glossary' | 'datahub-structured-properties' | 'datahub-data-product';

/** What completion in one of DataHub's YAML formats reads of the whole file, kept with its scan. */
export interface FormatOutline {
  format: FormatName;
  /** Business glossary: each term's path (`Node.Term`). */
  termPaths: readonly string[];
  /** Dataset file: where each entry's defining reference starts, and its dataset URN, in order. */
  datasetEntries: ReadonlyArray<{ start: number; urn: string }>;
}

/** A text of an entry of a DataHub glossary, data product or structured properties file (or where it goes). */
export interface FormatText {
  /** Index of the entry's occurrence: the URN the entry stands for. */
  owner: number;
  /** The key that holds it. */
  key: 'description' | 'display_name';
  /** Present when the entry has the key; an empty one has value ''. */
  description?: YamlScalarRef;
  /** Where a line with the key goes when there is none (the line after the entry's naming key). */
  insertAt: number;
  indent: string;
  /** `insertAt` is the end of a document that does not end with a line break: write one first. */
  needsLineBreak?: boolean;
}

/** A tag, glossary term or owner a DataHub dataset entry (or one of its schema fields) names. */
export interface YamlLabel {
  /** Index of the entry's occurrence. */
  owner: number;
  /** The schema field's `id`, for a field's tag or term. */
  field?: string;
  kind: 'tag' | 'term' | 'owner';
  urn: string;
  /** An owner's ownership type: an OwnershipType name (TECHNICAL_OWNER …) or an `urn:li:ownershipType:` URN. */
  ownershipType?: string;
  start: number;
  end: number;
}

/**
 * A structured property's definition as a structured properties file gives it, in the shape the
 * catalog answers one (its `StructuredPropertyDefinition`): what values of the property are checked against.
 */
export interface FormatPropertyDefinition {
  /** The property's URN. */
  urn: string;
  definition: {
    qualifiedName?: string;
    cardinality?: string;
    valueType?: { urn?: string };
    allowedValues?: Array<{ value?: { stringValue?: string; numberValue?: number } }>;
  };
}

/** The values one `structured_properties:` key gives its property (a single value, or a list of them). */
export interface FormatPropertyValues {
  /** The property's URN. */
  urn: string;
  /** Where the key is written. */
  keyStart: number;
  keyEnd: number;
  /** The value is a list. */
  list: boolean;
  values: Array<{ start: number; end: number; text: string }>;
}

export interface ScanOptions {
  /** Namespace words recognised after `urn:` (settings `catalogLens.namespaces`). */
  namespaces: readonly string[];
  /**
   * How the document's language writes string literals (scan/languages.ts `literalSyntaxFor`):
   * with it, the text extractor reads a URN that fills a literal whole (see text.ts).
   * Absent: text is read as plain text.
   */
  literals?: LiteralSyntax;
  /**
   * For the workspace index (pipeline/check.ts scanTextForIndex): the text extractor reports only
   * top-level URNs (not the platform inside a dataset: the index keeps none of those) and looks each
   * up in the parse cache's table, not in the scans' sequence (a file of the index is scanned once:
   * following the last file's sequence only misses, and would make the next scan of an open
   * document miss its own). The top-level occurrences are those of a scan without it.
   */
  topLevelOnly?: boolean;
}
