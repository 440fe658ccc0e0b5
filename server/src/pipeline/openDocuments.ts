/**
 * The pipeline for the editor's open documents: each is scanned once per version, checked at
 * once when it opens and after a pause in typing, with syntax errors shown on their own when the
 * catalog is slow, and a check overtaken by an edit dropped. json-language-features' pattern
 * (version-keyed cache, debounce, stale results dropped).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Settings, SkippedFile } from '../../../model/src/protocol';
import type { PlainDiagnostic } from '../features/diagnostics';
import { indexRanges } from '../features/intervals';
import { parseCacheSize, retainParseCache } from '../scan/parseCache';
import type { ScanResult } from '../scan/types';
import type { SuggestionLookup } from '../resolution/didYouMean';
import { resolvableItems, resolveItems, unknownItems, type ResolvableItem } from '../resolution/resolve';
import { diagnose, scanText, type PipelineDeps } from './check';

const DEBOUNCE_MS = 200;
/** URNs of closed documents the parse cache may keep before a close drops them (about 1 KiB each). */
const PARSES_KEPT_ANYWAY = 1_000;
/** How long diagnostics wait for the catalog before malformed URNs are shown on their own. */
const SYNTAX_FIRST_MS = 300;

/** What the open documents' pipeline is given by the wiring. */
export interface OpenDocumentsDeps extends PipelineDeps {
  documents: { get(uri: string): TextDocument | undefined; all(): TextDocument[] };
  /** Diagnostics of this version of the document. */
  publish(doc: TextDocument, diagnostics: PlainDiagnostic[]): void;
  /** No diagnostics for `uri` (closed, or no longer scanned). */
  clear(uri: string): void;
  /** A document was skipped for its size: said once per document. */
  skipped(file: SkippedFile): void;
  /**
   * Near names the catalog knows for URNs it lacks (did-you-mean): asked after the diagnostics are
   * out, which are published again with them. Absent: no suggestions.
   */
  suggest?(settings: Settings, items: ResolvableItem[], signal: AbortSignal): Promise<SuggestionLookup>;
  /**
   * The catalog answered (found or missing, not an error) about URNs of the open document `uri`
   * that it had no answer for when its check began: what the editor shows from the answers, such
   * as inlay hints, may change.
   */
  answered?(uri: string, settings: Settings): void;
}

/** An open document with its settings, and its scan when its language is scanned and its size allowed. */
export interface OpenDocument {
  doc: TextDocument;
  settings: Settings;
  scan: ScanResult | undefined;
}

export class OpenDocuments {
  /** Each open document's last scan, with the document object and version it was made from. */
  private readonly scans = new Map<string, { doc: TextDocument; version: number; result: ScanResult }>();
  private readonly skippedNoticeSent = new Set<string>();
  private readonly pending = new Map<
    string,
    { timer: NodeJS.Timeout | undefined; abort: AbortController | undefined }
  >();
  private readonly opened = new Set<string>();
  /** The diagnostics last published for each open document, with the version they were made from. */
  private readonly shown = new Map<string, { version: number; diagnostics: readonly PlainDiagnostic[] }>();
  /** The document links last made for each open document: its version and the settings they were made with. */
  private readonly links = new Map<
    string,
    { version: number; scan: ScanResult; key: string; links: readonly unknown[] }
  >();

  constructor(private readonly ctx: OpenDocumentsDeps) {}

  /** The document's scan, from the cache while its version is the same; undefined when it is not scanned. */
  scanOf(doc: TextDocument, s: Settings): ScanResult | undefined {
    if (!s.languages.includes(doc.languageId)) return undefined;
    const text = doc.getText();
    if (text.length > s.maxFileSize) {
      if (!this.skippedNoticeSent.has(doc.uri)) {
        this.skippedNoticeSent.add(doc.uri);
        this.ctx.log(
          `skipped ${doc.uri}: ${text.length} characters is over catalogLens.maxFileSize (${s.maxFileSize})`,
        );
        this.ctx.skipped({ uri: doc.uri, size: text.length, limit: s.maxFileSize });
      }
      return undefined;
    }
    const hit = this.scans.get(doc.uri);
    if (hit && hit.doc === doc && hit.version === doc.version) return hit.result;
    const result = scanText(text, doc.languageId, s);
    // Kept only for the document open now: a closed one's scan must not stand for a reopened one's
    // (which may have the same version number).
    if (this.ctx.documents.get(doc.uri) === doc) this.scans.set(doc.uri, { doc, version: doc.version, result });
    return result;
  }

  /** What every request handler starts from: the open document `uri`, its settings and scan; undefined when it is not open. */
  async open(uri: string): Promise<OpenDocument | undefined> {
    const asked = this.ctx.documents.get(uri);
    if (!asked) return undefined;
    const settings = await this.ctx.settingsFor(asked.uri);
    // Closed, or closed and opened again, while the settings were read: the document open now (a
    // reopened one may have the old one's version number with another text), never the old one.
    const doc = this.ctx.documents.get(uri);
    if (!doc) return undefined;
    return { doc, settings, scan: this.scanOf(doc, settings) };
  }

  /** The document changed (didOpen fires a change too): a document seen for the first time is checked at once. */
  changed(uri: string): void {
    const first = !this.opened.has(uri);
    this.opened.add(uri);
    this.schedule(uri, first ? 0 : DEBOUNCE_MS);
  }

  closed(uri: string): void {
    const p = this.pending.get(uri);
    if (p?.timer) clearTimeout(p.timer);
    p?.abort?.abort();
    this.pending.delete(uri);
    this.opened.delete(uri);
    this.scans.delete(uri);
    this.shown.delete(uri);
    this.links.delete(uri);
    this.skippedNoticeSent.delete(uri);
    this.ctx.clear(uri);
    this.dropClosedParses();
  }

  /**
   * The parse cache keeps the URNs of documents since closed: keep only the open documents' (a
   * rescan after an edit finds them all), when that frees anything worth a walk over them.
   */
  private dropClosedParses(): void {
    let open = 0;
    for (const { result } of this.scans.values()) open += result.occurrences.length;
    if (parseCacheSize() <= open + PARSES_KEPT_ANYWAY) return;
    retainParseCache([...this.scans.values()].flatMap(({ result }) => result.occurrences));
  }

  /**
   * What the editor shows for this version of the document: the diagnostics last published from it
   * (by its own check or by Check Workspace); undefined when none were published for this version
   * yet. The hover reads them, so that it need not check the whole document again per hover.
   */
  shownDiagnostics(doc: TextDocument): readonly PlainDiagnostic[] | undefined {
    const hit = this.shown.get(doc.uri);
    return hit && hit.version === doc.version ? hit.diagnostics : undefined;
  }

  /**
   * The document links of this version of the document, made by `make` from its `scan` once per
   * version (and per `key`, the settings they depend on): every documentLink request of the same
   * version gets them without building each link's page again.
   */
  linksOf<T>(doc: TextDocument, scan: ScanResult, key: string, make: () => readonly T[]): readonly T[] {
    const hit = this.links.get(doc.uri);
    if (hit && hit.version === doc.version && hit.scan === scan && hit.key === key) return hit.links as readonly T[];
    const links = make();
    if (this.ctx.documents.get(doc.uri) === doc) this.links.set(doc.uri, { version: doc.version, scan, key, links });
    return links;
  }

  /**
   * Publishes the diagnostics of this version of an open document, and keeps them for
   * shownDiagnostics with their index by position (built here, once per published set).
   */
  publish(doc: TextDocument, diagnostics: PlainDiagnostic[]): void {
    if (this.ctx.documents.get(doc.uri) === doc) {
      indexRanges(diagnostics);
      this.shown.set(doc.uri, { version: doc.version, diagnostics });
    }
    this.ctx.publish(doc, diagnostics);
  }

  /** Check every open document again (settings changed, the catalog came back, a write landed). */
  revalidateAll(): void {
    for (const d of this.ctx.documents.all()) this.schedule(d.uri, 0);
  }

  /** Scan every document again at its next request (settings changed, or Refresh). */
  forgetScans(): void {
    this.scans.clear();
    this.links.clear();
  }

  /** How many documents the editor has open. */
  count(): number {
    return this.ctx.documents.all().length;
  }

  /** Platforms of the URNs in the scanned documents, for completion. */
  knownPlatforms(): string[] {
    const seen = new Set<string>();
    for (const { result } of this.scans.values()) {
      for (const o of result.occurrences)
        if (o.parsed?.ok && 'platform' in o.parsed.urn) seen.add(o.parsed.urn.platform);
    }
    return [...seen];
  }

  /** `catalogLens/knownUrns`: the URNs of the open documents (or of the one `uri` names; of one kind), sorted. */
  async knownUrns(kind: string | undefined, uri?: string): Promise<string[]> {
    const seen = new Set<string>();
    for (const d of this.ctx.documents.all()) {
      if (uri !== undefined && d.uri !== uri) continue;
      const s = await this.ctx.settingsFor(d.uri);
      for (const o of this.scanOf(d, s)?.occurrences ?? []) {
        if (o.parsed?.ok && !o.template && (!kind || o.parsed.urn.kind === kind)) seen.add(o.urn);
      }
    }
    return [...seen].sort();
  }

  private schedule(uri: string, delay: number): void {
    const p = this.pending.get(uri);
    if (p?.timer) clearTimeout(p.timer);
    p?.abort?.abort();
    const timer = setTimeout(() => {
      void this.validate(uri);
    }, delay);
    this.pending.set(uri, { timer, abort: undefined });
  }

  private async validate(uri: string): Promise<void> {
    const doc = this.ctx.documents.get(uri);
    if (!doc) return;
    const p = this.pending.get(uri);
    p?.abort?.abort();
    const abort = new AbortController();
    this.pending.set(uri, { timer: undefined, abort });
    const s = await this.ctx.settingsFor(uri);
    // Closed (and maybe opened again, with its own check scheduled) while the settings were read.
    if (this.ctx.documents.get(uri) !== doc) return;
    const scan = this.scanOf(doc, s);
    if (!scan) {
      this.shown.delete(uri);
      this.ctx.clear(uri);
      return;
    }
    const version = doc.version;
    let syntaxShown = false;
    const early = setTimeout(() => {
      syntaxShown = true;
      if (!abort.signal.aborted)
        this.publish(
          doc,
          diagnose(scan, () => undefined, s),
        );
    }, SYNTAX_FIRST_MS);
    try {
      const client = this.ctx.clientFor(s);
      const items = resolvableItems([scan]);
      // The URNs the catalog had no answer for: once it says found or missing, what is shown from its answers may change.
      const unanswered = this.ctx.answered ? items.filter((i) => client.cached(i.urn) === undefined) : [];
      const resolved = await resolveItems(client, items, abort.signal);
      if (unanswered.some((i) => resolved(i.urn)?.state === 'found' || resolved(i.urn)?.state === 'missing'))
        this.ctx.answered?.(uri, s);
      // Resolved: the syntax-only publish must not come after this one (did-you-mean is awaited
      // below, and a timer left running replaced these diagnostics with the syntax-only ones).
      clearTimeout(early);
      const stale = (): boolean => abort.signal.aborted || this.ctx.documents.get(uri)?.version !== version;
      if (stale()) return;
      this.publish(doc, diagnose(scan, resolved, s, undefined, this.ctx.propertyDefinitions));
      // Did-you-mean comes second: the diagnostics do not wait for the searches.
      const unknown = this.ctx.suggest ? unknownItems(scan, resolved) : [];
      if (unknown.length === 0 || !this.ctx.suggest) return;
      const suggestions = await this.ctx.suggest(s, unknown, abort.signal);
      if (stale() || !unknown.some((i) => (suggestions(i.urn)?.length ?? 0) > 0)) return;
      this.publish(doc, diagnose(scan, resolved, s, suggestions, this.ctx.propertyDefinitions));
    } catch (e) {
      this.ctx.log(`diagnostics of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!syntaxShown)
        this.publish(
          doc,
          diagnose(scan, () => undefined, s),
        );
    } finally {
      clearTimeout(early);
    }
  }
}
