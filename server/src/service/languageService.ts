/**
 * The language service: every request of the editor, answered from the open documents' pipeline,
 * the catalog's answers (resolution/) and the workspace index, in LSP's terms. The handlers
 * (handlers/) only route a request here; what each feature computes is in features/.
 */
import { CATALOG_KINDS, isCatalogKind, type CatalogKind } from '../../../model/src/kinds';
import { ClientCommands, ServerCommands } from '../../../model/src/commandIds';
import {
  CompletionItemKind,
  DocumentHighlightKind,
  ErrorCodes,
  ResponseError,
  SymbolKind,
  type CancellationToken,
  type CodeAction,
  type CodeActionParams,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type DocumentHighlight,
  type DocumentLink,
  type Hover,
  type InlayHint,
  type Location,
  type MarkedString,
  type MarkupContent,
  type Position,
  type PrepareRenameResult,
  type Range,
  type SymbolInformation,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { entityPageUrl } from '../../../model/src/entityPage';
import { findField } from '../../../model/src/fieldPath';
import { inertText } from '../../../model/src/inertText';
import { shownColumns } from '../../../model/src/readShapes';
import {
  SEARCH_PAGE,
  type DataHubYamlParams,
  type DataHubYamlResult,
  type DataHubYamlWrite,
  type DescriptionParams,
  type DescriptionResult,
  type EntityPageParams,
  type EntityPageResult,
  type LineageParams,
  type LineageResult,
  type MembersParams,
  type MembersResult,
  type SearchParams,
  type SearchResult,
  type Settings,
  type UrnAt,
  type UsagesResult,
} from '../../../model/src/protocol';
import { entityKey, parseUrn, printUrn, type Urn } from '../../../model/src/urn';
import type { ClientSession } from '../clientSession';
import { codeActionsFor } from '../features/codeActions';
import { catalogDescription, diagnosticsFor } from '../features/diagnostics';
import { nameItems, namedItems, nameSlotAt, type NameSlot } from '../features/completeNames';
import { completionsAt } from '../features/completion';
import { KeptCompletions, resolveCompletion, shapeCompletions } from '../features/completionShape';
import {
  SYNCED_FORMATS,
  labelLine,
  labelWrites,
  syncEntries,
  writeLine,
  yamlSyncPlan,
  type CatalogLabels,
  type SyncWrite,
} from '../features/yamlSync';
import {
  FormatReadings,
  formatCompletionsAt,
  formatKeyAt,
  formatReferenceAt,
  type FormatReferenceSlot,
} from '../formats/complete';
import type { PropertyDefinitionShape } from '../formats/propertyValues';
import { destinationAt } from '../features/destination';
import { insertionFor } from '../../../model/src/insertion';
import { simplePath } from '../../../model/src/fieldPath';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { extractorsFor } from '../scan';
import { diagnosticsHoverAt, hoverLookup, hoverOn } from '../features/hover';
import { nameHints } from '../features/inlayHints';
import { markdownAsPlain } from '../features/markdown';
import { linksIn } from '../features/links';
import { symbolText } from '../features/symbols';
import { renameAt, renamedUrn, renameEdits, renameWorkspaceEdit, type FileRename } from '../features/rename';
import { enclosingAt, occurrenceAt, urnAtOffset } from '../features/urnAt';
import type { IndexService } from '../index/indexService';
import { cancelled, signalOf, toLspDocumentLink, toLspHover } from '../lsp';
import { keepJsonOf } from '../transport/messageWriter';
import { scanText } from '../pipeline/check';
import type { OpenDocuments } from '../pipeline/openDocuments';
import { lookupOf } from '../resolution/lookup';
import { resolveItems } from '../resolution/resolve';
import type { ResolutionService } from '../resolution/resolution';
import { parseUrnCached } from '../scan/parseCache';
import type { SettingsStore } from '../settings';
import { editOutsideWorkspace, fileNameOf, normalUri } from '../workspace';
import { listMembers } from '../writes/members';
import { ownerTypeUrn } from '../../../model/src/aspects';
import { entityName } from '../../../model/src/entityNames';
import { isRecord } from '../../../model/src/json';
import type { CatalogClient, ResolutionLookup } from '../catalogClient/client';
import type { EntityContext } from '../resolution/context';
import type { ScanResult, UrnOccurrence } from '../scan/types';

export interface LanguageServiceDeps {
  openDocuments: OpenDocuments;
  resolution: ResolutionService;
  index: IndexService;
  settings: SettingsStore;
  session: () => ClientSession;
  log: (message: string) => void;
}

const SYMBOL_KINDS: Partial<Record<Urn['kind'], SymbolKind>> = {
  dataset: SymbolKind.Struct,
  mlFeature: SymbolKind.Field,
  mlFeatureTable: SymbolKind.Class,
  mlModel: SymbolKind.Function,
  mlModelGroup: SymbolKind.Module,
};

/** Other editors send what they like: custom requests' params are read field by field. */
type Unchecked<T> = Partial<Record<keyof T, unknown>> | null | undefined;

type OpenDocumentOf = NonNullable<Awaited<ReturnType<OpenDocuments['open']>>>;

export class CatalogLanguageService {
  /** The catalog search of the newest completion: a newer one stops it (typing on makes it moot). */
  private completing: AbortController | undefined;
  /** Whether the last completion's search failed: a failure is logged once until one succeeds again. */
  private completionFailing = false;
  /** What the items of the last completion lists left for completionItem/resolve. */
  private readonly keptCompletions = new KeptCompletions();

  constructor(private readonly deps: LanguageServiceDeps) {}

  /** The hover at `position`: Markdown, or plain text for an editor that shows only that. */
  async doHover(uri: string, position: Position, token: CancellationToken): Promise<Hover | null> {
    const hover = await this.markdownHover(uri, position, token);
    if (!hover || this.deps.session().hoverMarkdown) return hover;
    return { ...hover, contents: asPlain(hover.contents) };
  }

  /**
   * Completions at `position`, in the form the editor declared it takes (features/completionShape.ts):
   * documentation left for completionItem/resolve, the edit range given once; documentation as
   * plain text for an editor that shows only that.
   */
  async doComplete(
    uri: string,
    position: Position,
    token: CancellationToken,
  ): Promise<CompletionItem[] | CompletionList> {
    const found = await this.completions(uri, position, token);
    const session = this.deps.session();
    return shapeCompletions(
      found,
      { resolveDocumentation: session.completionResolveDocumentation, editRange: session.completionEditRange },
      this.keptCompletions,
      session.completionMarkdown ? undefined : plainDocumentation,
    );
  }

  /** completionItem/resolve: the item with what it left for it (doComplete), from what the server kept. */
  resolveCompletion(item: CompletionItem): CompletionItem {
    return resolveCompletion(
      item,
      this.keptCompletions,
      this.deps.session().completionMarkdown ? undefined : plainDocumentation,
    );
  }

  private async markdownHover(uri: string, position: Position, token: CancellationToken): Promise<Hover | null> {
    const open = await this.deps.openDocuments.open(uri);
    if (!open?.scan) return null;
    const offset = open.doc.offsetAt(position);
    let at = occurrenceAt(open.scan, offset);
    const { resolution } = this.deps;
    const session = this.deps.session();
    if (!at) {
      // On a key of one of DataHub's YAML formats: what the key is.
      const key = open.scan.format ? formatKeyAt(open.doc.getText(), offset, open.scan.format) : undefined;
      const keyHover = key
        ? toLspHover(open.doc, { range: { start: key.start, end: key.end }, markdown: key.markdown })
        : null;
      if (session.hoverShowsDiagnostics) return keyHover;
      // Off a URN, an editor whose hover box shows no diagnostics gets the messages of those there.
      const shown =
        this.deps.openDocuments.shownDiagnostics(open.doc) ??
        diagnosticsFor(open.scan, resolution.cached(open.settings), open.settings.diagnostics);
      const hover = diagnosticsHoverAt(shown, offset);
      return hover ? toLspHover(open.doc, hover) : keyHover;
    }
    // The request's signal is made when the catalog is asked: answers the cache holds need none.
    let signal: AbortSignal | undefined;
    const signalNow = (): AbortSignal | undefined => (signal ??= signalOf(token));
    // What else the catalog knows (owners, tags, deprecation, lineage) is asked with the entity.
    // Answers the cache holds are taken at once (hoverAnswersNow); the rest are asked.
    const ask = async (
      lookup: ReturnType<typeof hoverLookup>,
    ): Promise<[ResolutionLookup, EntityContext | undefined]> => {
      const answers = await resolution.hoverAnswers(lookup, open.settings, signalNow());
      if (token.isCancellationRequested) throw cancelled();
      return answers;
    };
    let lookup = hoverLookup(at);
    // A domain written by what may be its name: hovered as the domain DataHub's DomainRegistry finds.
    if (lookup && at.occurrence.byName !== undefined) {
      const named = await this.domainByName(at, lookup, open.settings, signalNow());
      if (token.isCancellationRequested) throw cancelled();
      if (named) {
        at = named.at;
        lookup = hoverLookup(at);
      }
    }
    let [resolved, context] = resolution.hoverAnswersNow(lookup, open.settings) ?? (await ask(lookup));
    if (token.isCancellationRequested) throw cancelled();
    // A nested URN the catalog lacks (a mistyped platform) is hovered as the URN it is part of.
    const outer = lookup && resolved(lookup.urn)?.state === 'missing' ? enclosingAt(open.scan, at) : undefined;
    if (outer) {
      at = outer;
      lookup = hoverLookup(at);
      [resolved, context] = resolution.hoverAnswersNow(lookup, open.settings) ?? (await ask(lookup));
    }
    const shown = this.deps.openDocuments.shownDiagnostics(open.doc);
    const linkSettings = resolution.linkSettings(open.settings);
    // The same hover again (the mouse resting on a URN): the answer made last time, when all it
    // was made from is the same. Without the diagnostics the editor shows, the hover checks the
    // whole document with every answer, so it is made anew.
    const kept = shown ? hoversKept.get(open.scan) : undefined;
    const made = {
      doc: open.doc,
      version: open.doc.version,
      occurrence: at.occurrence,
      at,
      settings: open.settings,
      url: linkSettings.url,
      answer: lookup ? resolved(lookup.urn) : undefined,
      context,
      shown,
      session,
    };
    const hit = kept?.get(offset);
    if (hit && sameHoverInputs(hit.made, made)) return hit.hover;
    const hover = hoverOn(
      open.scan,
      at,
      offset,
      linkSettings,
      resolved,
      {
        linkTooltips: session.linkTooltips,
        lineageLinks: session.clientCommands,
        diagnosticMessages: !session.hoverShowsDiagnostics,
        ...(shown ? { shown } : {}),
      },
      context,
    );
    const answer = hover ? frozenHover(toLspHover(open.doc, hover)) : null;
    if (shown) {
      let forScan = hoversKept.get(open.scan);
      if (!forScan) hoversKept.set(open.scan, (forScan = new Map()));
      else if (forScan.size >= HOVERS_KEPT && !forScan.has(offset)) forScan.clear();
      forScan.set(offset, { made, hover: answer });
    }
    return answer;
  }

  /**
   * The domain a `domain:` of DataHub's YAML names by its name (UrnOccurrence.byName) when the
   * catalog has no domain of that id: `at` made the occurrence of the domain's own URN.
   */
  private async domainByName(
    at: NonNullable<ReturnType<typeof occurrenceAt>>,
    lookup: ReturnType<typeof hoverLookup>,
    settings: Settings,
    signal: AbortSignal | undefined,
  ): Promise<{ at: NonNullable<ReturnType<typeof occurrenceAt>> } | undefined> {
    const byName = at.occurrence.byName;
    if (!lookup || byName === undefined) return undefined;
    const resolved = await this.deps.resolution.answersFor({ ...lookup, byName }, settings, signal);
    const found = resolved(lookup.urn);
    const urn = found?.state === 'found' ? (found.entity as { urn?: unknown }).urn : undefined;
    if (typeof urn !== 'string' || urn === lookup.urn) return undefined;
    const parsed = parseUrnCached(urn);
    return parsed.ok ? { at: { occurrence: { ...at.occurrence, urn, parsed } } } : undefined;
  }

  private async completions(
    uri: string,
    position: Position,
    token: CancellationToken,
  ): Promise<CompletionItem[] | CompletionList> {
    // Opening scans the document: platforms of this very document count as seen.
    const open = await this.deps.openDocuments.open(uri);
    if (!open || !open.settings.languages.includes(open.doc.languageId)) return [];
    const { doc, settings } = open;
    const yaml = extractorsFor(doc.languageId).includes('yaml');
    // Each reading of the text made once per request; the whole text's is its scan's when there is one.
    const readings = yaml
      ? new FormatReadings(
          doc.getText(),
          doc.offsetAt(position),
          open.scan ? (open.scan.formatOutline ?? null) : undefined,
        )
      : undefined;
    // DataHub's own YAML formats: the keys of the mapping at the cursor, or the allowed values of its key.
    if (readings) {
      const keys = formatCompletionsAt(doc.getText(), doc.offsetAt(position), readings);
      if (keys && keys.length > 0)
        return keys.map((k, i) => ({
          label: k.label,
          kind: k.kind === 'key' ? CompletionItemKind.Property : CompletionItemKind.EnumMember,
          detail: k.detail,
          documentation: { kind: 'markdown', value: k.documentation },
          sortText: String(i).padStart(3, '0'),
          textEdit: { range: { start: doc.positionAt(k.from), end: doc.positionAt(k.to) }, newText: k.insertText },
        }));
    }
    // A reference of one of DataHub's YAML formats: what the file and the workspace offer, then the catalog's.
    const ref = readings ? formatReferenceAt(doc.getText(), doc.offsetAt(position), readings) : undefined;
    const local = ref ? await this.formatReferenceItems(doc, settings, ref, token) : [];
    if (token.isCancellationRequested) throw cancelled();
    const slot = ref
      ? referenceSlot(ref, doc.getText(), doc.languageId)
      : nameSlotAt(doc.getText(), doc.offsetAt(position), settings.namespaces, doc.languageId);
    if (ref && !slot) return local;
    if (!slot) {
      const line = doc.getText({ start: { line: position.line, character: 0 }, end: position });
      return completionsAt(line, position, settings.namespaces, this.deps.openDocuments.knownPlatforms());
    }
    this.completing?.abort();
    const abort = (this.completing = new AbortController());
    token.onCancellationRequested(() => abort.abort());
    const kind = slot.kind;
    const refused = (urn: string, reason: string) =>
      this.deps.log(`completion: not offering ${inertText(urn, 'plain', 200)}: ${reason}`);
    // Datasets and ML entities: the catalog's autocomplete; users, tags, terms …: a search with their display names.
    const catalogKind = isCatalogKind(kind) && slot.kinds === undefined;
    const found: { error: string } | { error?: undefined; total: number; listed: number; items: ItemsIn } = catalogKind
      ? listed(
          await this.deps.resolution.search(
            settings,
            {
              query: slot.typed,
              kinds: [kind],
              ...(slot.platform ? { platform: slot.platform } : {}),
              count: SEARCH_PAGE,
              mode: 'complete',
            },
            abort.signal,
          ),
          (items, range) => nameItems(slot, items, range, refused),
        )
      : listed(
          await this.deps.resolution.searchNamed(settings, slot.kinds ?? [kind], slot.typed, SEARCH_PAGE, abort.signal),
          (items, range) => namedItems(slot, items, range, refused),
        );
    if (this.completing === abort) this.completing = undefined;
    if (token.isCancellationRequested) throw cancelled();
    if (found.error !== undefined) {
      // Logged once until a search succeeds: completion goes on quietly without the catalog's names.
      if (!this.completionFailing) this.deps.log(`completion: no names from the catalog: ${found.error}`);
      this.completionFailing = true;
      return { isIncomplete: true, items: local };
    }
    this.completionFailing = false;
    const range = { start: doc.positionAt(slot.from), end: doc.positionAt(slot.to) };
    // The file's and the workspace's first; the catalog's after them, but not again.
    // With none of their own (all but DataHub's YAML references) the catalog's items are the list as they are.
    const shown = new Set(local.map((i) => i.textEdit?.newText));
    const catalogItems =
      local.length === 0
        ? found.items(range)
        : found
            .items(range)
            .filter((i) => !shown.has(i.textEdit?.newText))
            .map((i, n) => {
              // The item itself, not a copy: its documentation is made when it is answered (documentedLater).
              i.sortText = String(local.length + n).padStart(4, '0');
              return i;
            });
    return {
      // More than listed: the editor asks again as the name grows; else it filters this list itself.
      isIncomplete: found.total > found.listed || found.listed >= SEARCH_PAGE,
      items: local.length === 0 ? catalogItems : [...local, ...catalogItems],
    };
  }

  /**
   * The items a reference of DataHub's YAML takes from the file, the workspace and the catalog's
   * answers rather than its search: the fields of the entry's dataset (its schema in the catalog),
   * the terms of the glossary by path, the structured properties the workspace defines, and a
   * property's allowed values (the workspace's definition, else the catalog's). Each written
   * through insertionFor; the catalog's texts made inert.
   */
  private async formatReferenceItems(
    doc: TextDocument,
    settings: Settings,
    ref: FormatReferenceSlot,
    token: CancellationToken,
  ): Promise<CompletionItem[]> {
    const destination = destinationAt(doc.getText(), ref.from, doc.languageId);
    const range = { start: doc.positionAt(ref.from), end: doc.positionAt(ref.to) };
    const items: CompletionItem[] = [];
    const add = (value: string, detail: string, documentation: string, kind: CompletionItemKind): void => {
      const written = insertionFor(value, destination);
      if (!written.ok) {
        this.deps.log(`completion: not offering ${inertText(value, 'plain', 200)}: ${written.reason}`);
        return;
      }
      if (items.some((i) => i.textEdit?.newText === written.text)) return;
      items.push({
        label: written.text,
        kind,
        detail,
        documentation: { kind: 'markdown', value: documentation },
        sortText: String(items.length).padStart(4, '0'),
        filterText: written.text,
        textEdit: { range, newText: written.text },
      });
    };
    const signal = signalOf(token);
    switch (ref.ref) {
      case 'field': {
        const resolved = await this.deps.resolution.answersFor({ urn: ref.dataset, kind: 'dataset' }, settings, signal);
        const res = resolved(ref.dataset);
        if (res?.state !== 'found' || res.kind !== 'dataset') return [];
        for (const c of shownColumns(res.entity))
          add(
            simplePath(c.fieldPath),
            'field of the catalog’s schema',
            c.description ? inertText(c.description, 'markdown', 600) : '*No description in the catalog.*',
            CompletionItemKind.Field,
          );
        return items;
      }
      case 'termPath':
        for (const path of ref.paths)
          add(path, 'term of this glossary', 'A term this file defines.', CompletionItemKind.Reference);
        return items;
      case 'propertyId': {
        // What the index holds now: completion does not wait for a build.
        for (const { urn, uri } of this.deps.index.index.propertyDefinitions())
          add(
            urn.slice('urn:li:structuredProperty:'.length),
            'structured property of the workspace',
            `Defined in ${inertText(fileNameOf(uri), 'markdown', 200)}.`,
            CompletionItemKind.Property,
          );
        return items;
      }
      case 'propertyValue': {
        const local = this.deps.index.index.propertyDefinition(ref.property);
        let definition: PropertyDefinitionShape | null | undefined = local?.definition;
        if (!definition) {
          const lookup = { urn: ref.property, kind: 'structuredProperty' as const };
          const res = (await this.deps.resolution.answersFor(lookup, settings, signal))(ref.property);
          definition =
            res?.state === 'found' && res.kind === 'structuredProperty'
              ? (res.entity as { definition?: PropertyDefinitionShape | null }).definition
              : undefined;
        }
        // A number property's values are written as numbers (a plain scalar YAML reads as one).
        const type = definition?.valueType?.urn ?? definition?.valueType?.info?.type ?? '';
        if (/number$/i.test(type) && destination.place === 'yaml') destination.number = true;
        const from = local
          ? `Allowed by ${inertText(fileNameOf(local.uri), 'markdown', 200)}.`
          : 'Allowed by the catalog’s definition.';
        for (const a of definition?.allowedValues ?? []) {
          const v = a.value;
          const value =
            v?.numberValue !== undefined && v.numberValue !== null
              ? String(v.numberValue)
              : (v?.stringValue ?? undefined);
          const described = (a as { description?: unknown }).description;
          if (value !== undefined)
            add(
              value,
              'allowed value',
              typeof described === 'string' && described.trim() !== ''
                ? `${inertText(described, 'markdown', 600)}\n\n${from}`
                : from,
              CompletionItemKind.EnumMember,
            );
        }
        return items;
      }
      default:
        return [];
    }
  }

  /**
   * The catalog's names beside the ids of the lines the editor shows (`textDocument/inlayHint`):
   * read from what the catalog has already answered, never asked here (the document's check asks,
   * then the editor is told to ask for hints again).
   */
  async inlayHints(uri: string, range: Range): Promise<InlayHint[]> {
    const open = await this.deps.openDocuments.open(uri);
    if (!open?.scan || !open.settings.inlayHints.names) return [];
    const { doc, scan } = open;
    const cached = this.deps.resolution.cached(open.settings);
    return nameHints(doc.getText(), scan, cached, doc.offsetAt(range.start), doc.offsetAt(range.end)).map(
      (h): InlayHint => ({ position: doc.positionAt(h.offset), label: h.label, tooltip: h.tooltip, paddingLeft: true }),
    );
  }

  async doLinks(uri: string): Promise<DocumentLink[]> {
    const open = await this.deps.openDocuments.open(uri);
    if (!open?.scan) return [];
    const s = this.deps.resolution.linkSettings(open.settings);
    const { scan, doc } = open;
    // Made once per version of the document (and link settings), then answered from the pipeline
    // as they are, with their JSON kept from the first answer.
    const key = `${s.url}\n${s.uiUrl}\n${s.entityUrlTemplate}`;
    return this.deps.openDocuments.linksOf(doc, scan, key, () =>
      keptLinks(linksIn(scan, s).map((l) => toLspDocumentLink(doc, l))),
    ) as DocumentLink[];
  }

  async doCodeActions(params: CodeActionParams): Promise<CodeAction[]> {
    const open = await this.deps.openDocuments.open(params.textDocument.uri);
    if (!open?.scan) return [];
    const { trusted, clientCommands } = this.deps.session();
    const cached = this.deps.resolution.cached(open.settings);
    return codeActionsFor({ doc: open.doc, scan: open.scan, params, trusted, clientCommands, cached });
  }

  /** `catalogLens/urnAt`: the URN under the cursor, for palette commands. */
  async urnAt(uri: string, position: Position): Promise<UrnAt | null> {
    const open = await this.deps.openDocuments.open(uri);
    return open?.scan ? urnAtOffset(open.scan, open.doc.offsetAt(position)) : null;
  }

  /** `catalogLens/knownUrns`: the URNs of the open documents (or of one), of one kind or all. */
  knownUrns(params: { kind?: unknown; uri?: unknown } | null | undefined): Promise<string[]> {
    const kind = typeof params?.kind === 'string' ? params.kind : undefined;
    return this.deps.openDocuments.knownUrns(kind, typeof params?.uri === 'string' ? params.uri : undefined);
  }

  async members(params: MembersParams, token: CancellationToken): Promise<MembersResult> {
    const s = await this.deps.settings.get(typeof params?.uri === 'string' ? params.uri : undefined);
    return listMembers(this.deps.resolution.clientFor(s), params, signalOf(token));
  }

  /**
   * `catalogLens/description`: the description the catalog shows now for an entity or a dataset's
   * column (edited over ingested, as DataHub's UI), read through the cache.
   */
  async description(params: Unchecked<DescriptionParams>, token: CancellationToken): Promise<DescriptionResult> {
    if (typeof params?.urn !== 'string') return { error: 'catalogLens/description: urn must be a string' };
    const fieldPath = typeof params.fieldPath === 'string' ? params.fieldPath : undefined;
    const parsed = parseUrnCached(params.urn);
    const lookup = parsed.ok ? lookupOf(parsed.urn, params.urn) : undefined;
    if (!lookup) return { error: `${inertText(params.urn, 'plain', 200)} is not a dataset or ML entity` };
    const column = fieldPath ?? lookup.column;
    if (column !== undefined && lookup.kind !== 'dataset') return { error: 'only datasets have columns' };
    const s = await this.deps.settings.get(typeof params.uri === 'string' ? params.uri : undefined);
    const client = this.deps.resolution.clientFor(s);
    const res = (await client.resolve([{ urn: lookup.urn, kind: lookup.kind }], signalOf(token))).get(lookup.urn);
    if (!res) return { error: 'the catalog was not asked' };
    if (res.state === 'missing') return { error: `${inertText(lookup.urn, 'plain', 200)} is not in the catalog` };
    if (res.state === 'error') return { error: res.error.message };
    if (column === undefined) return { description: catalogDescription(res) ?? null };
    if (res.kind !== 'dataset') return { error: 'only datasets have columns' };
    return { description: findField(shownColumns(res.entity), column)?.description ?? null };
  }

  /** `catalogLens/yamlFormat`: which of DataHub's YAML formats an open document is in, from its scan. */
  async yamlFormat(params: Unchecked<{ uri: string }>): Promise<{ format: string | null }> {
    if (typeof params?.uri !== 'string') return { format: null };
    const open = await this.deps.openDocuments.open(params.uri);
    return { format: open?.scan?.format ?? null };
  }

  /**
   * `catalogLens/dataHubYaml`: an open file in one of DataHub's YAML formats (or one entry of it)
   * against the catalog, each entry asked through the cache: the text as the catalog would have
   * it, the edits of a pull, the writes of a push (features/yamlSync.ts).
   */
  async dataHubYaml(params: Unchecked<DataHubYamlParams>, token: CancellationToken): Promise<DataHubYamlResult> {
    if (typeof params?.uri !== 'string') return { error: 'catalogLens/dataHubYaml: uri must be a string' };
    if (params.entry !== undefined && typeof params.entry !== 'string')
      return { error: 'catalogLens/dataHubYaml: entry must be the URN of an entry' };
    const open = await this.deps.openDocuments.open(params.uri);
    if (!open?.scan) return { error: 'the document is not open' };
    const { doc, scan, settings } = open;
    const notSynced =
      'this is not a DataHub dataset file (datahub dataset upsert -f), nor a glossary, data product or structured properties file';
    if (scan.format === undefined || !SYNCED_FORMATS.includes(scan.format)) return { error: notSynced };
    const entries = syncEntries(scan).filter((o) => params.entry === undefined || o.urn === params.entry);
    if (entries.length === 0)
      return { error: params.entry === undefined ? 'the file names no entry' : 'the file has no such entry' };
    const client = this.deps.resolution.clientFor(settings);
    if (!client.configured) return { error: 'no catalog is configured (catalogLens.url is empty)' };
    const lookup = await resolveItems(
      client,
      entries.flatMap((o) => {
        const l = o.parsed?.ok ? lookupOf(o.parsed.urn, o.urn) : undefined;
        return l ? [{ urn: o.urn, kind: l.kind }] : [];
      }),
      signalOf(token),
    );
    const failedAll = entries.every((o) => lookup(o.urn)?.state === 'error');
    if (failedAll) {
      const res = lookup(entries[0]!.urn);
      return { error: res?.state === 'error' ? res.error.message : 'the catalog did not answer' };
    }
    const plan = yamlSyncPlan(doc.getText(), scan, lookup, params.entry);
    if (!plan) return { error: notSynced };
    const uri = params.uri;
    const writeOf = (w: SyncWrite): DataHubYamlWrite => {
      const line = writeLine(w);
      if (w.kind !== 'dataset')
        return { command: ServerCommands.setDescription, arg: { urn: w.urn, description: w.new, uri }, line };
      return w.fieldPath === undefined
        ? { command: ServerCommands.setDatasetDescription, arg: { urn: w.urn, description: w.new, uri }, line }
        : {
            command: ServerCommands.setColumnDescription,
            arg: { urn: w.urn, fieldPath: w.fieldPath, description: w.new, uri },
            line,
          };
    };
    const { labels, unread } = await catalogLabels(client, scan, entries, lookup, signalOf(token));
    const described = plan.writes.map(writeOf);
    const labelled = labelWrites(scan, lookup, (u) => labels.get(u), params.entry).map((w): DataHubYamlWrite => {
      const column = w.fieldPath !== undefined ? { fieldPath: w.fieldPath } : {};
      const line = labelLine(w);
      if (w.kind === 'tag')
        return { command: ServerCommands.addTags, arg: { urn: w.urn, tags: [w.value], ...column, uri }, line };
      if (w.kind === 'term')
        return { command: ServerCommands.addTerms, arg: { urn: w.urn, terms: [w.value], ...column, uri }, line };
      return {
        command: ServerCommands.addOwners,
        arg: { urn: w.urn, owners: [w.value], ownershipType: w.ownershipType ?? 'TECHNICAL_OWNER', uri },
        line,
      };
    });
    // Entry by entry, in file order: an entry's descriptions, then what it adds.
    const order = (w: DataHubYamlWrite): number => plan.entries.indexOf(w.arg.urn);
    const writes = [...described, ...labelled]
      .map((w, i) => ({ w, i }))
      .sort((a, b) => order(a.w) - order(b.w) || a.i - b.i)
      .map((x) => x.w);
    return {
      version: doc.version,
      catalogText: plan.catalogText,
      edits: plan.edits.map((e) => ({
        range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) },
        newText: e.newText,
      })),
      writes,
      notes: [...plan.notes, ...unread],
      unpushed: plan.unpushed,
      entries: plan.entries,
    };
  }

  /** `catalogLens/entityPage`: the entity's page in the catalog actually used (the same link as hovers'). */
  async entityPage(params: Unchecked<EntityPageParams>): Promise<EntityPageResult> {
    if (typeof params?.urn !== 'string') return { error: 'catalogLens/entityPage: urn must be a string' };
    const parsed = parseUrnCached(params.urn);
    if (!parsed.ok) return { error: `Not a URN: ${parsed.error.message}` };
    const s = await this.deps.settings.get(typeof params.uri === 'string' ? params.uri : undefined);
    return entityPageUrl(this.deps.resolution.linkSettings(s), parsed.urn, params.urn);
  }

  async lineage(params: Unchecked<LineageParams>, token: CancellationToken): Promise<LineageResult> {
    if (params?.direction !== 'upstream' && params?.direction !== 'downstream')
      return { error: `catalogLens/lineage: direction must be "upstream" or "downstream"` };
    if (typeof params.urn !== 'string') return { error: 'catalogLens/lineage: urn must be a string' };
    const parsed = parseUrnCached(params.urn);
    const lookup = parsed.ok ? lookupOf(parsed.urn, params.urn) : undefined;
    if (!lookup || lookup.column !== undefined || !isCatalogKind(lookup.kind))
      return { error: `catalogLens/lineage: ${inertText(params.urn, 'plain', 200)} is not a dataset or ML entity` };
    const s = await this.deps.settings.get(typeof params.uri === 'string' ? params.uri : undefined);
    return this.deps.resolution.lineage(s, lookup.urn, lookup.kind, params.direction, signalOf(token));
  }

  async search(params: Unchecked<SearchParams>, token: CancellationToken): Promise<SearchResult> {
    if (typeof params?.query !== 'string') return { error: 'catalogLens/search: query must be a string' };
    const kinds = params.kinds === undefined ? [] : Array.isArray(params.kinds) ? params.kinds : [params.kinds];
    const wrong = kinds.find((k) => typeof k !== 'string' || !isCatalogKind(k as CatalogKind));
    if (wrong !== undefined)
      return {
        error: `catalogLens/search: kinds: ${inertText(String(wrong), 'plain', 60)} is not one of ${CATALOG_KINDS.join(', ')}`,
      };
    const { platform, count } = params;
    if (platform !== undefined && (typeof platform !== 'string' || !/^[\w.-]+$/.test(platform)))
      return { error: 'catalogLens/search: platform must be a platform name such as hive' };
    if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count) || count < 1))
      return { error: 'catalogLens/search: count must be a positive whole number' };
    const s = await this.deps.settings.get(typeof params.uri === 'string' ? params.uri : undefined);
    return this.deps.resolution.search(
      s,
      {
        query: params.query,
        kinds: kinds as CatalogKind[],
        ...(platform !== undefined ? { platform } : {}),
        ...(count !== undefined ? { count } : {}),
        mode: 'search',
      },
      signalOf(token),
    );
  }

  // The workspace index's features.

  async references(uri: string, position: Position): Promise<Location[] | null> {
    const found = await this.entityAt(uri, position);
    if (!found) return null;
    await this.deps.index.ready();
    return this.deps.index.index.placesOf(found.occ.urn).map((p): Location => ({ uri: p.uri, range: p.range }));
  }

  /** `catalogLens/usages`: every place of the workspace that names the entity. */
  async usages(params: { urn?: unknown } | null | undefined): Promise<UsagesResult> {
    const urn = params?.urn;
    if (typeof urn !== 'string') return { error: 'catalogLens/usages: urn must be a string' };
    if (!parseUrn(urn).ok) return { error: `catalogLens/usages: ${inertText(urn, 'plain', 200)} is not a URN` };
    await this.deps.index.ready();
    const places = this.deps.index.index.placesOf(urn);
    return { places, files: new Set(places.map((p) => p.uri)).size };
  }

  async highlights(uri: string, position: Position): Promise<DocumentHighlight[] | null> {
    const found = await this.entityAt(uri, position);
    if (!found) return null;
    const key = entityKey(found.occ.urn);
    const { doc, scan } = found.open;
    return scan.occurrences
      .filter((o) => o.parent === undefined && !o.template && o.parsed?.ok && entityKey(o.urn) === key)
      .map((o): DocumentHighlight => ({
        range: { start: doc.positionAt(o.start), end: doc.positionAt(o.end) },
        kind: DocumentHighlightKind.Text,
      }));
  }

  /** The docs-as-code YAML entries of the entity under the cursor. */
  async definition(uri: string, position: Position): Promise<Location[] | null> {
    const found = await this.entityAt(uri, position);
    if (!found) return null;
    await this.deps.index.ready();
    const entries = this.deps.index.index.placesOf(found.occ.urn).filter((p) => p.entry);
    return entries.length > 0 ? entries.map((p): Location => ({ uri: p.uri, range: p.range })) : null;
  }

  /**
   * Go to Symbol in Workspace: each entity under its own name (a dataset's last name part), the
   * rest of its name, platform and env as the container (features/symbols.ts), best match first.
   */
  async symbols(query: string): Promise<SymbolInformation[]> {
    const { index } = this.deps.index;
    await this.deps.index.ready();
    return index.symbols(query).flatMap(({ urn }): SymbolInformation[] => {
      const places = index.placesOf(printUrn(urn));
      const place = places.find((p) => p.entry) ?? places[0];
      if (!place) return [];
      const { name, container } = symbolText(urn);
      return [
        {
          name,
          kind: SYMBOL_KINDS[urn.kind] ?? SymbolKind.Object,
          location: { uri: place.uri, range: place.range },
          containerName: container,
        },
      ];
    });
  }

  /** "used in N files" above each docs-as-code entry; Compare, Pull and Push above each entry of a DataHub YAML file. */
  async codeLenses(uri: string): Promise<CodeLens[]> {
    const open = await this.deps.openDocuments.open(uri);
    const scan = open?.scan;
    if (!open || !scan) return [];
    if (scan.descriptions.length === 0) return this.syncLenses(uri, open.doc, scan);
    await this.deps.index.ready();
    const lenses = scan.descriptions.flatMap((d): CodeLens[] => {
      const occ = scan.occurrences[d.owner];
      if (!occ?.parsed?.ok) return [];
      const others = this.deps.index.index.filesNaming(occ.urn).filter((u) => u !== normalUri(open.doc.uri)).length;
      const range = { start: open.doc.positionAt(occ.start), end: open.doc.positionAt(occ.end) };
      const title =
        others === 0 ? 'not used elsewhere in the workspace' : `used in ${others} file${others === 1 ? '' : 's'}`;
      // A click peeks the references in the extension; other editors show the count only.
      const peek =
        others > 0 && this.deps.session().clientCommands
          ? { command: ClientCommands.showReferences, arguments: [{ uri, position: range.start }] }
          : { command: '' };
      return [{ range, command: { title, ...peek } }];
    });
    return [...lenses, ...this.syncLenses(uri, open.doc, scan)];
  }

  /** Above each entry of a DataHub YAML file sync covers, in the extension: Compare, Pull and (trusted) Push with the catalog. */
  private syncLenses(uri: string, doc: OpenDocumentOf['doc'], scan: NonNullable<OpenDocumentOf['scan']>): CodeLens[] {
    const session = this.deps.session();
    if (!session.clientCommands) return [];
    return syncEntries(scan).flatMap((occ): CodeLens[] => {
      const range = { start: doc.positionAt(occ.start), end: doc.positionAt(occ.end) };
      const args = [{ uri, entry: occ.urn }];
      return [
        {
          range,
          command: { title: 'Compare with catalog', command: ClientCommands.compareYamlWithCatalog, arguments: args },
        },
        {
          range,
          command: { title: 'Pull from catalog', command: ClientCommands.pullYamlFromCatalog, arguments: args },
        },
        ...(session.trusted
          ? [
              {
                range,
                command: { title: 'Push to catalog', command: ClientCommands.pushYamlToCatalog, arguments: args },
              },
            ]
          : []),
      ];
    });
  }

  async prepareRename(uri: string, position: Position): Promise<PrepareRenameResult | null> {
    const open = await this.deps.openDocuments.open(uri);
    if (!open?.scan) return null;
    const at = renameAt(open.doc, open.scan, open.doc.offsetAt(position));
    if (typeof at === 'string') throw new ResponseError(ErrorCodes.InvalidRequest, at);
    return {
      range: { start: open.doc.positionAt(at.range.start), end: open.doc.positionAt(at.range.end) },
      placeholder: at.text,
    };
  }

  /**
   * The rename's WorkspaceEdit over every file the index names the entity in, and the message that
   * tells the user what it does (the catalog is not changed); refused as a whole when one place
   * cannot be edited safely, or when an edit would reach a file outside the workspace folders.
   */
  async doRename(uri: string, position: Position, newName: string): Promise<{ edit: WorkspaceEdit; message: string }> {
    const { openDocuments, index, settings } = this.deps;
    const session = this.deps.session();
    const open = await openDocuments.open(uri);
    if (!open?.scan) throw new ResponseError(ErrorCodes.InvalidRequest, 'This document is not scanned for URNs.');
    const at = renameAt(open.doc, open.scan, open.doc.offsetAt(position));
    if (typeof at === 'string') throw new ResponseError(ErrorCodes.InvalidRequest, at);
    const target = renamedUrn(at, newName);
    if ('error' in target) throw new ResponseError(ErrorCodes.InvalidRequest, `Cannot rename: ${target.error}.`);
    await index.ready();
    const from = at.occurrence.urn;
    // The index's spelling of each file (normalUri); an open one is edited under the editor's own.
    const here = normalUri(open.doc.uri);
    const uris = [...new Set([here, ...index.index.filesNaming(from)])].sort();
    const files: FileRename[] = [];
    const refused: string[] = [];
    for (const file of uris) {
      const opened = file === here ? open.doc : index.openDocumentFor(file);
      const doc = opened ?? (await index.readDocument(file));
      if (!doc) continue;
      const s = await settings.get(doc.uri);
      const scan = opened ? openDocuments.scanOf(doc, s) : scanText(doc.getText(), doc.languageId, s);
      if (!scan) continue;
      const r = renameEdits(doc, scan, from, target.urn);
      for (const offset of r.refused) refused.push(`${fileNameOf(file)}:${doc.positionAt(offset).line + 1}`);
      files.push({ uri: doc.uri, version: opened?.version ?? null, edits: r.edits });
    }
    const made = renameWorkspaceEdit(at, newName, files, refused, {
      changeAnnotations: session.changeAnnotations,
      indexFull: index.index.isFull,
    });
    if ('error' in made) throw new ResponseError(ErrorCodes.InvalidRequest, made.error);
    // The one check before any WorkspaceEdit leaves: no file outside the workspace folders.
    const outside = await editOutsideWorkspace(made.edit, session.folders);
    if (outside !== undefined)
      throw new ResponseError(ErrorCodes.InvalidRequest, `Cannot rename: ${outside}. Nothing was renamed.`);
    const changed = files.filter((f) => f.edits.length > 0).length;
    this.deps.log(`rename: ${from} → ${target.urn} in ${made.places} places of ${changed} files`);
    return { edit: made.edit, message: made.message };
  }

  /** The entity URN at a position of an open document, with the document and its scan. */
  private async entityAt(uri: string, position: Position) {
    const open = await this.deps.openDocuments.open(uri);
    if (!open?.scan) return undefined;
    const at = occurrenceAt(open.scan, open.doc.offsetAt(position));
    if (!at || at.column !== undefined) return undefined;
    const occ = at.occurrence;
    if (!occ.parsed?.ok || occ.template) return undefined;
    return { open: { ...open, scan: open.scan }, occ };
  }
}

/** The completion items of a search's answer, once the range they replace is known. */
type ItemsIn = (range: Range) => CompletionItem[];

/** A search's answer as completion needs it: its error, or its counts and how its items are made. */
function listed<T>(
  answer: { error: string } | { error?: undefined; items: T[]; total: number },
  toItems: (items: T[], range: Range) => CompletionItem[],
): { error: string } | { error?: undefined; total: number; listed: number; items: ItemsIn } {
  if (answer.error !== undefined) return { error: answer.error };
  return { total: answer.total, listed: answer.items.length, items: (range) => toItems(answer.items, range) };
}

/** Hover contents or documentation as plain text (markdownAsPlain); plain text stays as it is. */
function asPlain(content: Hover['contents'] | NonNullable<CompletionItem['documentation']>): MarkupContent {
  if (typeof content === 'string') return { kind: 'plaintext', value: content };
  if (Array.isArray(content) || !('kind' in content))
    return { kind: 'plaintext', value: markdownAsPlain([content].flat().map(markedText).join('\n\n')) };
  return content.kind === 'markdown' ? { kind: 'plaintext', value: markdownAsPlain(content.value) } : content;
}

/** `item` with its documentation as plain text. */
function plainDocumentation(item: CompletionItem): CompletionItem {
  return item.documentation === undefined ? item : { ...item, documentation: asPlain(item.documentation) };
}

function markedText(m: MarkedString): string {
  return typeof m === 'string' ? m : m.value;
}

/**
 * What the catalog is searched for a reference of DataHub's YAML, as the slot of any name being
 * written: platforms, users, groups, tags, structured properties and terms by id, datasets by
 * name (on the entry's platform) or URN; undefined where only the file and the catalog's answers
 * complete it (fields, allowed values).
 */
function referenceSlot(ref: FormatReferenceSlot, text: string, languageId: string): NameSlot | undefined {
  const at = {
    typed: ref.typed,
    from: ref.from,
    to: ref.to,
    ns: 'li',
    destination: destinationAt(text, ref.from, languageId),
  };
  switch (ref.ref) {
    case 'named':
      return { kind: ref.kinds[0]!, ...(ref.kinds.length > 1 ? { kinds: ref.kinds } : {}), insert: 'name', ...at };
    case 'dataset':
      return { kind: 'dataset', insert: ref.insert, ...(ref.platform ? { platform: ref.platform } : {}), ...at };
    case 'propertyId':
      return { kind: 'structuredProperty', insert: 'name', ...at };
    case 'termPath':
      return { kind: 'glossaryTerm', insert: 'name', ...at };
    default:
      return undefined;
  }
}

/** How many entries' aspects a push plan reads at once. */
const LABEL_READS_AT_ONCE = 8;

/**
 * The tags, glossary terms and owners each entry's dataset has now (its aspects, read fresh: a
 * push must not rest on an old answer), for the entries the catalog has and whose file names any;
 * the columns' too where the file names a column's. An entry whose read fails has none listed.
 */
async function catalogLabels(
  client: CatalogClient,
  scan: ScanResult,
  entries: readonly UrnOccurrence[],
  lookup: ResolutionLookup,
  signal: AbortSignal | undefined,
): Promise<{ labels: Map<string, CatalogLabels>; unread: string[] }> {
  const out = new Map<string, CatalogLabels>();
  const unread = new Map<string, string>();
  const named = scan.formatLabels ?? [];
  const readOne = async (occ: UrnOccurrence): Promise<void> => {
    const mine = named.filter((l) => scan.occurrences[l.owner]?.urn === occ.urn);
    if (mine.length === 0 || lookup(occ.urn)?.state !== 'found') return;
    const withFields = mine.some((l) => l.field !== undefined);
    const aspects = ['globalTags', 'glossaryTerms', 'ownership'];
    if (withFields) aspects.push('editableSchemaMetadata', 'schemaMetadata');
    const r = await client.readAspects(occ.urn, aspects, signal);
    if (!r.ok) {
      const name = occ.parsed?.ok ? entityName(occ.parsed.urn) : occ.urn;
      unread.set(
        occ.urn,
        `${inertText(name, 'plain', 120)}: its tags, glossary terms and owners could not be read (${inertText(r.error.message, 'plain', 200)}), so none is pushed`,
      );
      return;
    }
    const value = (name: string): Record<string, unknown> | undefined =>
      r.aspects[name]?.value as Record<string, unknown> | undefined;
    const tagsOf = (holder: unknown): string[] =>
      isRecord(holder) && Array.isArray(holder['tags'])
        ? holder['tags'].flatMap((t) => (isRecord(t) && typeof t['tag'] === 'string' ? [t['tag']] : []))
        : [];
    const termsOf = (holder: unknown): string[] =>
      isRecord(holder) && Array.isArray(holder['terms'])
        ? holder['terms'].flatMap((t) => (isRecord(t) && typeof t['urn'] === 'string' ? [t['urn']] : []))
        : [];
    const ownership = value('ownership');
    const owners = Array.isArray(ownership?.['owners'])
      ? ownership['owners'].flatMap((o) =>
          isRecord(o) && typeof o['owner'] === 'string'
            ? [
                {
                  owner: o['owner'],
                  typeUrn: ownerTypeUrn({
                    type: typeof o['type'] === 'string' ? o['type'] : null,
                    typeUrn: typeof o['typeUrn'] === 'string' ? o['typeUrn'] : null,
                  }),
                },
              ]
            : [],
        )
      : [];
    const fields = new Map<string, { tags: string[]; terms: string[] }>();
    if (withFields) {
      const rows = [
        ...((value('schemaMetadata')?.['fields'] as unknown[] | undefined) ?? []),
        ...((value('editableSchemaMetadata')?.['editableSchemaFieldInfo'] as unknown[] | undefined) ?? []),
      ];
      for (const f of rows) {
        if (!isRecord(f) || typeof f['fieldPath'] !== 'string') continue;
        const at = fields.get(f['fieldPath']) ?? { tags: [], terms: [] };
        at.tags.push(...tagsOf(f['globalTags']));
        at.terms.push(...termsOf(f['glossaryTerms']));
        fields.set(f['fieldPath'], at);
      }
    }
    out.set(occ.urn, {
      tags: tagsOf(value('globalTags')),
      terms: termsOf(value('glossaryTerms')),
      owners,
      fields,
    });
  };
  // A few reads at a time: a file may hold hundreds of entries.
  for (let i = 0; i < entries.length; i += LABEL_READS_AT_ONCE)
    await Promise.all(entries.slice(i, i + LABEL_READS_AT_ONCE).map(readOne));
  // In file order, whatever order the reads ended in.
  return { labels: out, unread: entries.flatMap((e) => (unread.has(e.urn) ? [unread.get(e.urn)!] : [])) };
}

/** What a hover on a URN is made from, each compared by identity (see markdownHover). */
interface HoverInputs {
  doc: TextDocument;
  version: number;
  occurrence: UrnOccurrence;
  at: NonNullable<ReturnType<typeof occurrenceAt>>;
  settings: Settings;
  url: string;
  answer: unknown;
  context: unknown;
  shown: readonly unknown[] | undefined;
  session: ClientSession;
}

function sameHoverInputs(a: HoverInputs, b: HoverInputs): boolean {
  return (
    a.doc === b.doc &&
    a.version === b.version &&
    a.occurrence === b.occurrence &&
    a.at.column === b.at.column &&
    a.at.columnRange?.start === b.at.columnRange?.start &&
    a.at.columnRange?.end === b.at.columnRange?.end &&
    a.settings === b.settings &&
    a.url === b.url &&
    a.answer === b.answer &&
    a.context === b.context &&
    a.shown === b.shown &&
    a.session === b.session
  );
}

/**
 * The hovers last answered per scan (a document version) and offset, with what each was made
 * from: at most HOVERS_KEPT offsets per version.
 */
const hoversKept = new WeakMap<ScanResult, Map<number, { made: HoverInputs; hover: Hover | null }>>();
const HOVERS_KEPT = 16;

/**
 * Document links kept to be answered again as they are, their JSON made the first time they are
 * written and kept with them. The list is frozen; the links are not (freezing each link and its
 * range cost a 2,000-link document more than making the links), and nothing changes them: they go
 * from OpenDocuments.linksOf to the writer only.
 */
function keptLinks(links: DocumentLink[]): readonly DocumentLink[] {
  return keepJsonOf(Object.freeze(links));
}

/** The hover frozen, with its contents and range, so that it can be answered again as it is (and its JSON kept). */
function frozenHover(hover: Hover): Hover {
  const { contents, range } = hover;
  Object.freeze(contents);
  if (range) {
    Object.freeze(range.start);
    Object.freeze(range.end);
    Object.freeze(range);
  }
  return keepJsonOf(Object.freeze(hover));
}
