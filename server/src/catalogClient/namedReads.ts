/**
 * GraphQL reads with a name and a decoded answer, over any function that sends one document: the
 * documents and their aliases (`e0`, `e1` …) stay inside the catalog client, and a caller is
 * answered in its own terms (a map of deprecation details, a dataset's links).
 */
import type { LookupKind } from '../../../model/src/kinds';
import { isRecord } from '../../../model/src/json';
import type { GqlDeprecation } from '../../../model/src/readShapes';
import type { CatalogClientError } from './errors';
import type { GraphqlAnswer } from './graphqlReads';
import { DATASET_LINKS, deprecationDetailsQuery } from './queries';

/** Sends one GraphQL document and answers its `data` (CatalogClient.read and .mutate). */
export type SendDocument = (
  query: string,
  variables: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<GraphqlAnswer>;

/** Most deprecated entities whose details one document asks for. */
export const DETAILS_PER_DOCUMENT = 50;

/**
 * The note, date and replacement of deprecated entities, by URN, asked in documents of at most
 * DETAILS_PER_DOCUMENT entities. An entity the catalog answers no deprecation for is absent; the
 * first document the catalog does not answer ends the reads (the URNs after it are absent too).
 */
export async function readDeprecationDetails(
  send: SendDocument,
  items: ReadonlyArray<{ urn: string; kind: LookupKind }>,
  signal?: AbortSignal,
): Promise<Map<string, GqlDeprecation>> {
  const out = new Map<string, GqlDeprecation>();
  for (let i = 0; i < items.length; i += DETAILS_PER_DOCUMENT) {
    const chunk = items.slice(i, i + DETAILS_PER_DOCUMENT);
    const { query, variables } = deprecationDetailsQuery(chunk);
    const r = await send(query, variables, signal);
    if (!r.ok) break;
    chunk.forEach(({ urn }, j) => {
      const e = r.data[`e${j}`];
      const deprecation = isRecord(e) ? e['deprecation'] : undefined;
      if (isRecord(deprecation)) out.set(urn, deprecation as unknown as GqlDeprecation);
    });
  }
  return out;
}

/** One element of a dataset's `institutionalMemory`, as far as the link write reads it. */
export interface DatasetLink {
  url: string | undefined;
  label: string | undefined;
}

/**
 * The links of a dataset (its `institutionalMemory` elements); `links` is undefined when the
 * catalog does not have the dataset (null, or an object with `exists` false).
 */
export async function readLinks(
  send: SendDocument,
  urn: string,
  signal?: AbortSignal,
): Promise<{ ok: true; links: DatasetLink[] | undefined } | { ok: false; error: CatalogClientError }> {
  const r = await send(DATASET_LINKS, { urn }, signal);
  if (!r.ok) return r;
  const dataset = r.data['dataset'];
  if (!isRecord(dataset) || dataset['exists'] === false) return { ok: true, links: undefined };
  const memory = dataset['institutionalMemory'];
  const elements = isRecord(memory) && Array.isArray(memory['elements']) ? (memory['elements'] as unknown[]) : [];
  return {
    ok: true,
    links: elements.filter(isRecord).map((e) => ({
      url: typeof e['url'] === 'string' ? e['url'] : undefined,
      label: typeof e['label'] === 'string' ? e['label'] : undefined,
    })),
  };
}
