/**
 * The document pipeline without an editor: text → scan → what the catalog answers → diagnostics.
 * Open documents (openDocuments.ts) and Check Workspace (workspace.ts) run these steps, and a
 * command line can: nothing here needs an LSP connection.
 */
import type { Settings } from '../../../model/src/protocol';
import type { ResolutionLookup } from '../catalogClient/client';
import { diagnosticsFor, type PlainDiagnostic, type PropertyDefinitionLookup } from '../features/diagnostics';
import type { SuggestionLookup } from '../resolution/didYouMean';
import type { Resolver } from '../resolution/resolve';
import { extractorsFor, scanDocument } from '../scan';
import { withDataHubFormat } from '../formats';
import type { ScanResult } from '../scan/types';

/**
 * What the parts below the wiring are given instead of the server: settings per document, and
 * their catalog client (`Client`: what the part asks of it).
 */
export interface PipelineDeps<Client extends Resolver = Resolver> {
  /** The settings of the document `uri` (its folder's), or of the workspace. */
  settingsFor(uri?: string): Promise<Settings>;
  /** The catalog client of these settings (one per catalog endpoint). */
  clientFor(settings: Settings): Client;
  log(message: string): void;
  /** Structured property definitions that files of the workspace give (the workspace index's); absent: none. */
  propertyDefinitions?: PropertyDefinitionLookup;
}

/** The URNs of a text, found by the extractors of its language. */
export function scanText(text: string, languageId: string, settings: Settings): ScanResult {
  const scan = scanDocument(text, languageId, { namespaces: settings.namespaces });
  // YAML in one of DataHub's own formats (dataset, business glossary): what the format says too,
  // a glossary read as the recipe of the document's folder ingests it.
  return extractorsFor(languageId).includes('yaml')
    ? withDataHubFormat(text, scan, { enableAutoId: settings.datahubYaml.glossaryEnableAutoId })
    : scan;
}

/**
 * scanText for the workspace index: the same top-level occurrences (all the index keeps), found
 * without the URNs nested in them and without the scans' sequence (ScanOptions.topLevelOnly). A
 * language read by the YAML extractor is scanned as scanText scans it (the index reads `yaml`
 * files as `plaintext`; an open document of another YAML language comes here).
 */
export function scanTextForIndex(text: string, languageId: string, settings: Settings): ScanResult {
  if (extractorsFor(languageId).includes('yaml')) return scanText(text, languageId, settings);
  return scanDocument(text, languageId, { namespaces: settings.namespaces, topLevelOnly: true });
}

/** The diagnostics of a scan at the severities of `settings`. */
export function diagnose(
  scan: ScanResult,
  resolved: ResolutionLookup,
  settings: Settings,
  suggestions?: SuggestionLookup,
  definitions?: PropertyDefinitionLookup,
): PlainDiagnostic[] {
  return diagnosticsFor(scan, resolved, settings.diagnostics, suggestions, definitions);
}
