/**
 * What the language service asks the catalog, in one place: the answers for a URN (batched,
 * cached, deprecation details and siblings), what else the catalog knows of an entity (owners,
 * tags, lineage counts), near names, searches, lineage, and the settings page links are made
 * with (the catalog actually used, also when it came from DataHub's CLI configuration).
 * Features never see a catalog client: they are given what this answers.
 */
import type { LookupKind } from '../../../model/src/kinds';
import type { SearchResult, Settings, LineageResult, ConnectionTestResult } from '../../../model/src/protocol';
import type { CatalogClient, ResolutionLookup } from '../catalogClient/client';
import { hintFor } from '../catalogClient/errors';
import { lineageOf } from '../catalogClient/lineage';
import type { LineageKind } from '../catalogClient/queries';
import type { CatalogClients } from '../catalogClient/registry';
import { searchCatalog, searchNamed, type NamedSearchResult, type SearchRequestOptions } from '../catalogClient/search';
import { askWithEntity, contextOf, type EntityContext } from './context';
import type { SuggestionLookup } from './didYouMean';
import type { Lookup } from './lookup';
import { resolvedNow, resolveItems, type ResolvableItem } from './resolve';
import { suggestNear } from './suggest';

/** What the language service asks of resolution (a test gives a stand-in of this shape). */
export type ResolutionService = Pick<CatalogResolution, keyof CatalogResolution>;

export class CatalogResolution {
  /** Kinds of failure the log has told about for hovers' context: each told once. */
  private readonly contextFailures = new Set<string>();

  constructor(
    private readonly clients: CatalogClients,
    private readonly log: (message: string) => void,
  ) {}

  /** The catalog client of these settings (one per endpoint), for the parts that keep their own batching. */
  clientFor(settings: Settings): CatalogClient {
    return this.clients.clientFor(settings);
  }

  /**
   * What the catalog answers about the one URN a request needs (none asked: no answers); a domain
   * written by name (`byName`) is found by it when the catalog lacks it as an id.
   */
  async answersFor(
    lookup: (Lookup & { byName?: string }) | undefined,
    settings: Settings,
    signal?: AbortSignal,
  ): Promise<ResolutionLookup> {
    return answersWith(this.clients.clientFor(settings), lookup, signal);
  }

  /**
   * What a hover needs: the answers about its URN and, for an entity, what else the catalog knows of
   * it (contextOf). When neither is known yet, one document asks both.
   */
  async hoverAnswers(
    lookup: Lookup | undefined,
    settings: Settings,
    signal?: AbortSignal,
  ): Promise<[ResolutionLookup, EntityContext | undefined]> {
    const client = this.clients.clientFor(settings);
    if (lookup && lookup.column === undefined) askWithEntity(client, lookup.urn, lookup.kind);
    return Promise.all([answersWith(client, lookup, signal), this.contextWith(client, lookup, signal)]);
  }

  /**
   * hoverAnswers at once, when the cache holds all of it (the answers about the URN and, for an
   * entity the catalog has, what else it knows of it) and nothing would be asked; else undefined.
   */
  hoverAnswersNow(
    lookup: Lookup | undefined,
    settings: Settings,
  ): [ResolutionLookup, EntityContext | undefined] | undefined {
    if (!lookup) return [() => undefined, undefined];
    const client = this.clients.clientFor(settings);
    const resolved = resolvedNow(client, [lookup]);
    if (!resolved) return undefined;
    if (lookup.column !== undefined || client.cached(lookup.urn)?.state === 'missing') return [resolved, undefined];
    const context = client.reads.get(lookup.urn);
    return context === undefined ? undefined : [resolved, context as EntityContext];
  }

  /** What the catalog has already answered, without asking it. */
  cached(settings: Settings): ResolutionLookup {
    const client = this.clients.clientFor(settings);
    return (urn) => client.cached(urn);
  }

  /**
   * What else the catalog knows of the entity a hover is on (not of a column); undefined when the
   * catalog cannot say, which the log notes once per kind of failure: the hover goes on without it.
   */
  async contextOf(
    lookup: Lookup | undefined,
    settings: Settings,
    signal?: AbortSignal,
  ): Promise<EntityContext | undefined> {
    return this.contextWith(this.clients.clientFor(settings), lookup, signal);
  }

  /** contextOf with the settings' client, found once by the caller. */
  private async contextWith(
    client: CatalogClient,
    lookup: Lookup | undefined,
    signal?: AbortSignal,
  ): Promise<EntityContext | undefined> {
    if (!lookup || lookup.column !== undefined) return undefined;
    // An entity the catalog said it lacks has nothing more to say.
    if (client.cached(lookup.urn)?.state === 'missing') return undefined;
    const answer = await contextOf(client, lookup.urn, lookup.kind, signal);
    if (!('kind' in answer)) return answer;
    if (answer.kind !== 'cancelled' && answer.kind !== 'notConfigured' && !this.contextFailures.has(answer.kind)) {
      this.contextFailures.add(answer.kind);
      this.log(`hover: owners, tags, deprecation and lineage not shown: ${answer.message}`);
    }
    return undefined;
  }

  /** Near names the catalog knows for URNs it lacks (did-you-mean). */
  suggest(settings: Settings, items: readonly ResolvableItem[], signal?: AbortSignal): Promise<SuggestionLookup> {
    return suggestNear(this.clients.clientFor(settings), items, signal);
  }

  search(settings: Settings, request: SearchRequestOptions, signal?: AbortSignal): Promise<SearchResult> {
    return searchCatalog(this.clients.clientFor(settings), request, signal);
  }

  /** Users, groups, tags, terms … (looked-up-only kinds) matching `query`, with their display names. */
  searchNamed(
    settings: Settings,
    kinds: readonly LookupKind[],
    query: string,
    count: number,
    signal?: AbortSignal,
  ): Promise<NamedSearchResult> {
    return searchNamed(this.clients.clientFor(settings), kinds, query, count, signal);
  }

  lineage(
    settings: Settings,
    urn: string,
    kind: LineageKind,
    direction: 'upstream' | 'downstream',
    signal?: AbortSignal,
  ): Promise<LineageResult> {
    return lineageOf(this.clients.clientFor(settings), urn, kind, direction, signal);
  }

  /**
   * The settings page links are made with: the catalog actually used, also when it came from
   * DataHub's CLI configuration. Hovers, document links and the client's Open in Catalog
   * (`catalogLens/entityPage`) all take their links from here, so they agree.
   */
  linkSettings(settings: Settings): Settings {
    return settings.url ? settings : { ...settings, url: this.clients.endpointFor(settings).url };
  }

  /** Asks the catalog now (a connection test). */
  async testConnection(settings: Settings): Promise<ConnectionTestResult> {
    const error = await this.clients.clientFor(settings).ping();
    return error
      ? { ...this.clients.current(), ok: false, message: `${error.message}. ${hintFor(error)}` }
      : { ...this.clients.current(), ok: true };
  }

  /** Forgets every answer (a refresh): the next requests ask the catalog again. */
  forgetAnswers(): void {
    for (const c of this.clients.all()) c.clearCache();
  }
}

/** answersFor with the settings' client, found once by the caller. */
async function answersWith(
  client: CatalogClient,
  lookup: (Lookup & { byName?: string }) | undefined,
  signal?: AbortSignal,
): Promise<ResolutionLookup> {
  if (!lookup) return () => undefined;
  return resolveItems(client, [lookup], signal);
}
