/**
 * A stand-in for the language service's resolution (server/src/resolution/resolution.ts
 * `ResolutionService`), answering from a table instead of a catalog: each URN's answer in the shapes the
 * real catalog client returns (server/src/catalogClient/client.ts `Resolution`, with the entities
 * of model/src/readShapes.ts), what else the catalog knows (`EntityContext`), did-you-mean
 * suggestions and a search's canned items. The builders below fill the real types, so the type
 * checker holds the table to the contract. Every question asked is recorded.
 */
import type { LookupKind, ViewKind } from '../../../../model/src/kinds';
import type {
  GqlDataset,
  GqlDeprecation,
  GqlMlFeature,
  GqlMlFeatureTable,
  GqlMlModel,
  GqlMlModelGroup,
} from '../../../../model/src/readShapes';
import type {
  CatalogErrorKind,
  ConnectionTestResult,
  LineageResult,
  SearchItem,
  SearchResult,
  Settings,
} from '../../../../model/src/protocol';
import { entityName } from '../../../../model/src/entityNames';
import { parseUrn } from '../../../../model/src/urn';
import type { Resolution as Answer, ResolutionLookup } from '../../../../server/src/catalogClient/client';
import { catalogClientError } from '../../../../server/src/catalogClient/errors';
import type { NamedItem, NamedSearchResult, SearchRequestOptions } from '../../../../server/src/catalogClient/search';
import type { EntityContext } from '../../../../server/src/resolution/context';
import type { Lookup } from '../../../../server/src/resolution/lookup';
import type { ResolutionService } from '../../../../server/src/resolution/resolution';

export type Found<K extends LookupKind = LookupKind> = Extract<Answer, { state: 'found'; kind: K }>;

/** The answer for an entity the catalog lacks. */
export const MISSING: Answer = { state: 'missing' };

/** The answer when asking the catalog failed. */
export function failed(message: string, kind: CatalogErrorKind = 'unreachable'): Answer {
  return { state: 'error', error: catalogClientError(kind, message) };
}

function nameOf(urn: string): string {
  const parsed = parseUrn(urn);
  if (!parsed.ok || parsed.urn.kind === 'other') throw new Error(`not an entity URN: ${urn}`);
  return entityName(parsed.urn);
}

function platformOf(urn: string): { name: string } {
  const m = /dataPlatform:([^,()]+)/.exec(urn);
  return { name: m ? m[1]! : 'unknown' };
}

/** A column of a dataset's schema: its path, the ingested description, the native type. */
export interface ColumnSpec {
  path: string;
  description?: string | null;
  type?: string;
  /** The description a user wrote in the catalog (over the ingested one). */
  edited?: string;
}

/** A dataset the catalog has: its description, edited description, columns (null: no schema), deprecation. */
export function dataset(
  urn: string,
  spec: {
    description?: string | null;
    edited?: string;
    columns?: ColumnSpec[] | null;
    deprecation?: GqlDeprecation;
  } = {},
): Found<'dataset'> {
  const columns = spec.columns === undefined ? [] : spec.columns;
  const edited = (columns ?? []).filter((c) => c.edited !== undefined);
  const entity: GqlDataset = {
    urn,
    exists: true,
    name: nameOf(urn),
    platform: platformOf(urn),
    properties: { name: nameOf(urn), description: spec.description ?? null },
    editableProperties: spec.edited !== undefined ? { description: spec.edited } : null,
    schemaMetadata:
      columns === null
        ? null
        : {
            fields: columns.map((c) => ({
              fieldPath: c.path,
              description: c.description ?? null,
              nativeDataType: c.type ?? null,
            })),
          },
    editableSchemaMetadata:
      edited.length > 0
        ? { editableSchemaFieldInfo: edited.map((c) => ({ fieldPath: c.path, description: c.edited! })) }
        : null,
    deprecation: spec.deprecation ?? null,
  };
  return { state: 'found', kind: 'dataset', entity };
}

/** An ML feature: `urn:…:mlFeature:(table,name)`. */
export function mlFeature(
  urn: string,
  spec: { description?: string | null; dataType?: string; version?: string; deprecation?: GqlDeprecation } = {},
): Found<'mlFeature'> {
  const m = /mlFeature:\(([^,]+),([^)]+)\)$/.exec(urn);
  const entity: GqlMlFeature = {
    urn,
    exists: true,
    name: m ? m[2]! : urn,
    featureNamespace: m ? m[1]! : '',
    description: spec.description ?? null,
    properties: {
      description: spec.description ?? null,
      dataType: spec.dataType ?? null,
      version: spec.version !== undefined ? { versionTag: spec.version } : null,
    },
    deprecation: spec.deprecation ?? null,
  };
  return { state: 'found', kind: 'mlFeature', entity };
}

/** An ML feature table and the features it lists (their URNs). */
export function mlFeatureTable(
  urn: string,
  spec: { description?: string | null; features?: string[] } = {},
): Found<'mlFeatureTable'> {
  const entity: GqlMlFeatureTable = {
    urn,
    exists: true,
    name: nameOf(urn),
    description: spec.description ?? null,
    platform: platformOf(urn),
    properties: {
      description: spec.description ?? null,
      mlFeatures: (spec.features ?? []).map((f) => ({ urn: f, name: /,([^,()]+)\)$/.exec(f)?.[1] ?? f })),
    },
  };
  return { state: 'found', kind: 'mlFeatureTable', entity };
}

/** An ML model: its type, version, the features it uses and the groups it is in (URNs). */
export function mlModel(
  urn: string,
  spec: { description?: string | null; type?: string; version?: string; features?: string[]; groups?: string[] } = {},
): Found<'mlModel'> {
  const entity: GqlMlModel = {
    urn,
    exists: true,
    name: nameOf(urn),
    description: spec.description ?? null,
    platform: platformOf(urn),
    properties: {
      description: spec.description ?? null,
      version: spec.version ?? null,
      type: spec.type ?? null,
      mlFeatures: spec.features ?? [],
      groups: (spec.groups ?? []).map((g) => ({ urn: g, name: nameOf(g) })),
    },
  };
  return { state: 'found', kind: 'mlModel', entity };
}

export function mlModelGroup(urn: string, spec: { description?: string | null } = {}): Found<'mlModelGroup'> {
  const entity: GqlMlModelGroup = {
    urn,
    exists: true,
    name: nameOf(urn),
    description: spec.description ?? null,
    platform: platformOf(urn),
    properties: { description: spec.description ?? null },
  };
  return { state: 'found', kind: 'mlModelGroup', entity };
}

/**
 * An entity of a looked-up-only kind (a user, a tag, a container …) as the catalog answers it: the
 * fields its kind's selection asks (model/src/kinds.ts `view`), given as DataHub names them.
 */
export function viewEntity<K extends ViewKind>(
  kind: K,
  urn: string,
  fields: Record<string, unknown> = {},
  deprecation?: GqlDeprecation,
): Found<K> {
  const entity = { urn, exists: true, ...fields, ...(deprecation ? { deprecation } : {}) };
  return { state: 'found', kind, entity } as Found<K>;
}

/** What the stand-in catalog holds. */
export interface CatalogTable {
  /** Each URN's answer, by the URN as written (the real client keys its cache so too). */
  answers?: Record<string, Answer>;
  /** What a URN absent from `answers` gets: the catalog lacks it (default), or it is not answered yet. */
  unlisted?: 'missing' | 'unanswered';
  /** What else the catalog knows of an entity (owners, tags, deprecation, lineage counts). */
  context?: Record<string, EntityContext>;
  /** Near names per unknown URN (did-you-mean). */
  suggestions?: Record<string, string[]>;
  /** What a search finds: canned items (every search gets them), or an answer per request. */
  search?: SearchItem[] | ((request: SearchRequestOptions) => SearchResult);
  /** What a search of looked-up-only kinds (users, tags …) finds: canned items of the kinds asked. */
  named?: NamedItem[];
  /** The catalog actually used when the settings name none (DataHub's CLI configuration). */
  endpoint?: string;
}

/** What the service asked the stand-in, in order. */
export interface Asked {
  answers: string[];
  context: string[];
  searches: SearchRequestOptions[];
  /** The searches of looked-up-only kinds: the kinds and the query. */
  named: Array<{ kinds: string[]; query: string }>;
  suggest: string[][];
}

/** The stand-in, what it was asked, and its answers as one lookup (what a catalog client would resolve). */
export type FakeResolution = ResolutionService & { asked: Asked; table: CatalogTable; answer: ResolutionLookup };

export function fakeResolution(table: CatalogTable = {}): FakeResolution {
  const asked: Asked = { answers: [], context: [], searches: [], named: [], suggest: [] };
  const answer: ResolutionLookup = (urn) =>
    table.answers?.[urn] ?? (table.unlisted === 'unanswered' || !parseUrn(urn).ok ? undefined : MISSING);
  return {
    asked,
    table,
    answer,
    clientFor(): never {
      throw new Error('the stand-in resolution has no catalog client');
    },
    async answersFor(lookup: Lookup | undefined): Promise<ResolutionLookup> {
      if (!lookup) return () => undefined;
      asked.answers.push(lookup.urn);
      return answer;
    },
    async hoverAnswers(
      lookup: Lookup | undefined,
      settings: Settings,
    ): Promise<[ResolutionLookup, EntityContext | undefined]> {
      return Promise.all([this.answersFor(lookup, settings), this.contextOf(lookup, settings)]);
    },
    // Nothing is held at once: every hover goes through hoverAnswers, which records what it asked.
    hoverAnswersNow(): undefined {
      return undefined;
    },
    cached(): ResolutionLookup {
      return answer;
    },
    async contextOf(lookup: Lookup | undefined): Promise<EntityContext | undefined> {
      if (!lookup || lookup.column !== undefined) return undefined;
      asked.context.push(lookup.urn);
      if (answer(lookup.urn)?.state === 'missing') return undefined;
      return table.context?.[lookup.urn];
    },
    async suggest(_settings: Settings, items) {
      asked.suggest.push(items.map((i) => i.urn));
      return (urn: string) => table.suggestions?.[urn];
    },
    async search(_settings: Settings, request: SearchRequestOptions): Promise<SearchResult> {
      asked.searches.push(request);
      const s = table.search ?? [];
      return typeof s === 'function' ? s(request) : { items: s, total: s.length };
    },
    async searchNamed(_settings: Settings, kinds, query): Promise<NamedSearchResult> {
      asked.named.push({ kinds: [...kinds], query });
      const items = (table.named ?? []).filter((i) => kinds.includes(i.kind));
      return { items, total: items.length };
    },
    async lineage(): Promise<LineageResult> {
      return { items: [], total: 0 };
    },
    linkSettings(settings: Settings): Settings {
      return settings.url ? settings : { ...settings, url: table.endpoint ?? '' };
    },
    async testConnection(): Promise<ConnectionTestResult> {
      return { state: 'connected', message: 'the stand-in catalog', ok: true };
    },
    forgetAnswers(): void {},
  };
}
