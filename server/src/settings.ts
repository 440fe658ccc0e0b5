/**
 * Settings through `workspace/configuration` (section `catalogLens`), cached per scope as
 * promises and dropped on change (the lsp-sample pattern). Editors without that request give
 * them as `initializationOptions.settings`.
 */
import { isRecord } from '../../model/src/json';
import { DEFAULT_SETTINGS, MAX_FILE_SIZE_BOUND, MAX_INDEX_BYTES_BOUND, type Settings } from '../../model/src/protocol';

export type ConfigurationFetcher = (scopeUri: string | undefined) => Promise<unknown>;

export class SettingsStore {
  private readonly cache = new Map<string, Promise<Settings>>();

  constructor(
    private fetcher: ConfigurationFetcher | undefined,
    private initial: unknown,
  ) {}

  useFetcher(fetcher: ConfigurationFetcher | undefined): void {
    this.fetcher = fetcher;
    this.cache.clear();
  }

  /** Settings after a `didChangeConfiguration` that pushed them (editors without pull). */
  replaceInitial(settings: unknown): void {
    this.initial = settings;
    this.cache.clear();
  }

  get(scopeUri?: string): Promise<Settings> {
    const key = scopeUri ?? '';
    let p = this.cache.get(key);
    if (!p) {
      p = this.load(scopeUri);
      this.cache.set(key, p);
    }
    return p;
  }

  forget(scopeUri: string): void {
    this.cache.delete(scopeUri);
  }

  clear(): void {
    this.cache.clear();
  }

  private async load(scopeUri: string | undefined): Promise<Settings> {
    let raw: unknown = this.initial;
    if (this.fetcher) {
      try {
        raw = (await this.fetcher(scopeUri)) ?? this.initial;
      } catch {
        // A client that fails the request still gets a working server with its initial settings.
        raw = this.initial;
      }
    }
    return mergeSettings(raw);
  }
}

/** Defaults overlaid with whatever valid values `raw` holds; wrong types fall back to defaults. */
export function mergeSettings(raw: unknown): Settings {
  const r = isRecord(raw) ? raw : {};
  const d = DEFAULT_SETTINGS;
  const diag = isRecord(r['diagnostics']) ? r['diagnostics'] : {};
  const cache = isRecord(r['cache']) ? r['cache'] : {};
  const index = isRecord(r['index']) ? r['index'] : {};
  const inlay = isRecord(r['inlayHints']) ? r['inlayHints'] : {};
  const agentTools = isRecord(r['agentTools']) ? r['agentTools'] : {};
  const datahubYaml = isRecord(r['datahubYaml']) ? r['datahubYaml'] : {};
  const sev = (v: unknown, def: Settings['diagnostics']['malformed']): Settings['diagnostics']['malformed'] =>
    v === 'error' || v === 'warning' || v === 'information' || v === 'hint' || v === 'off' ? v : def;
  return {
    url: str(r['url'], d.url).trim(),
    graphqlUrl: str(r['graphqlUrl'], d.graphqlUrl).trim(),
    uiUrl: str(r['uiUrl'], d.uiUrl).trim(),
    entityUrlTemplate: str(r['entityUrlTemplate'], d.entityUrlTemplate).trim(),
    writePath: r['writePath'] === 'graphql' ? 'graphql' : 'aspects',
    actor: str(r['actor'], d.actor),
    namespaces: strings(r['namespaces'], d.namespaces),
    languages: strings(r['languages'], d.languages),
    // A size in whole characters: a fractional cap would read a fractional count of bytes.
    maxFileSize: Math.floor(Math.min(MAX_FILE_SIZE_BOUND, num(r['maxFileSize'], d.maxFileSize, 1))),
    diagnostics: {
      malformed: sev(diag['malformed'], d.diagnostics.malformed),
      unknown: sev(diag['unknown'], d.diagnostics.unknown),
      missingDescription: sev(diag['missingDescription'], d.diagnostics.missingDescription),
      unknownEnv: sev(diag['unknownEnv'], d.diagnostics.unknownEnv),
      yamlMismatch: sev(diag['yamlMismatch'], d.diagnostics.yamlMismatch),
      unregisteredEntityType: sev(diag['unregisteredEntityType'], d.diagnostics.unregisteredEntityType),
      deprecated: sev(diag['deprecated'], d.diagnostics.deprecated),
    },
    cache: {
      ttlSeconds: num(cache['ttlSeconds'], d.cache.ttlSeconds, 0),
      maxEntries: num(cache['maxEntries'], d.cache.maxEntries, 1),
    },
    requestTimeoutMs: num(r['requestTimeoutMs'], d.requestTimeoutMs, 100),
    batchSize: Math.min(1000, num(r['batchSize'], d.batchSize, 1)),
    // Below ~25 no dataset fits; a budget that small is a typo, not a choice.
    graphqlComplexityBudget: Math.max(50, num(r['graphqlComplexityBudget'], d.graphqlComplexityBudget, 1)),
    allowTokenOrigins: strings(r['allowTokenOrigins'], d.allowTokenOrigins),
    excludeFolders: strings(r['excludeFolders'], d.excludeFolders),
    inlayHints: { names: typeof inlay['names'] === 'boolean' ? inlay['names'] : d.inlayHints.names },
    agentTools: { writes: agentTools['writes'] === true },
    datahubYaml: { glossaryEnableAutoId: datahubYaml['glossaryEnableAutoId'] === true },
    index: { maxBytes: Math.min(MAX_INDEX_BYTES_BOUND, num(index['maxBytes'], d.index.maxBytes, 1)) },
  };
}
function str(v: unknown, def: string): string {
  return typeof v === 'string' ? v : def;
}
function num(v: unknown, def: number, min: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : def;
}
function strings(v: unknown, def: string[]): string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : def;
}
