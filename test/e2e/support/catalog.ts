/**
 * The local catalog as the user runs it (`node bin/catalog-lens-catalog.js`), on its own free
 * port with a throwaway database, and a GraphQL client to check what the editor wrote.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { LOCAL_CATALOG_TOKEN_ENV } from '../../../model/src/localCatalog';
import { startProcess, type ManagedProcess } from './processes';
import { REPO_ROOT } from './paths';

export interface E2eCatalog {
  url: string;
  /**
   * The base of the pages' links as `npm start` sets catalogLens.uiUrl: `/_pages/SECRET` on the
   * catalog, which code-server's port proxy reaches with the editor's Host (catalog/src/security.ts).
   */
  pagesUrl: string;
  token: string | undefined;
  /** The catalog's process now (restart() replaces it). */
  readonly process: ManagedProcess;
  graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /**
   * Once its process has exited (a test killed it), starts the catalog again as `npm start` does
   * (scripts/start.mjs): the same port, database, token and pages secret, without `--sample`, so
   * what was written stays. Resolves once it listens on the same URL.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const LISTENING_RE = /catalog-lens catalog listening on (http:\/\/127\.0\.0\.1:\d+)/;

export async function startCatalog(opts: { dir: string; token?: string }): Promise<E2eCatalog> {
  const args = (port: string, sample: boolean): string[] => [
    path.join(REPO_ROOT, 'bin', 'catalog-lens-catalog.js'),
    '--port',
    port,
    ...(sample ? ['--sample'] : []),
    '--db',
    path.join(opts.dir, 'catalog.db'),
  ];
  // The token in the environment, as npm start and Start Local Catalog pass it: a command line shows in `ps`.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[LOCAL_CATALOG_TOKEN_ENV];
  if (opts.token !== undefined) env[LOCAL_CATALOG_TOKEN_ENV] = opts.token;
  // A secret for the page links through code-server's port proxy, as scripts/start.mjs passes it.
  const pagesSecret = randomBytes(18).toString('base64url');
  env.CATALOG_LENS_PAGES_SECRET = pagesSecret;
  // The catalog loads better-sqlite3, built for this Node: the test runner's own (notes/native-modules.md).
  const launch = async (port: string, sample: boolean): Promise<{ proc: ManagedProcess; url: string }> => {
    const started = startProcess('catalog', process.execPath, args(port, sample), {
      cwd: opts.dir,
      env,
      logFile: path.join(opts.dir, 'catalog.log'),
    });
    try {
      return { proc: started, url: (await started.waitForOutput(LISTENING_RE, 20_000))[1]! };
    } catch (err) {
      await started.stop();
      throw err;
    }
  };
  const first = await launch('0', true);
  let proc = first.proc;
  const url = first.url;
  const restart = async (): Promise<void> => {
    await proc.exited;
    const again = await launch(new URL(url).port, false);
    proc = again.proc;
    if (again.url !== url) throw new Error(`the catalog came back on ${again.url}, not ${url}`);
  };
  const graphql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${url}/api/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
    if (!res.ok || body.errors?.length || body.data === undefined) {
      throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body.errors ?? body)}`);
    }
    return body.data;
  };
  return {
    url,
    pagesUrl: `${url}/_pages/${pagesSecret}`,
    token: opts.token,
    get process() {
      return proc;
    },
    graphql,
    restart,
    stop: () => proc.stop(),
  };
}

/** The description a dataset's edited properties hold (what "Write dataset description…" writes). */
export async function editedDatasetDescription(catalog: E2eCatalog, urn: string): Promise<string | null> {
  const data = await catalog.graphql<{ dataset: { editableProperties: { description: string | null } | null } | null }>(
    'query ($urn: String!) { dataset(urn: $urn) { editableProperties { description } } }',
    { urn },
  );
  return data.dataset?.editableProperties?.description ?? null;
}

/**
 * Reads the edited description of a dataset until it is no longer `old` (a write or its undo has
 * reached the catalog) and returns it; after `timeoutMs`, returns what it reads then.
 */
export async function editedDatasetDescriptionOnceNot(
  catalog: E2eCatalog,
  urn: string,
  old: string | null,
  timeoutMs = 20_000,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  let now = await editedDatasetDescription(catalog, urn);
  while (now === old && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    now = await editedDatasetDescription(catalog, urn);
  }
  return now;
}

/** URNs of the features a feature table lists. */
export async function featureTableFeatures(catalog: E2eCatalog, urn: string): Promise<string[]> {
  const data = await catalog.graphql<{
    mlFeatureTable: { properties: { mlFeatures: { urn: string }[] | null } | null } | null;
  }>('query ($urn: String!) { mlFeatureTable(urn: $urn) { properties { mlFeatures { urn } } } }', { urn });
  return (data.mlFeatureTable?.properties?.mlFeatures ?? []).map((f) => f.urn);
}

/** Writes one aspect through the catalog's aspect endpoint (DataHub's ingestProposal), as an ingestion would. */
export async function ingestAspect(
  catalog: E2eCatalog,
  entityType: string,
  entityUrn: string,
  aspectName: string,
  value: unknown,
): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (catalog.token !== undefined) headers.authorization = `Bearer ${catalog.token}`;
  const res = await fetch(`${catalog.url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      proposal: {
        entityType,
        entityUrn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      },
      async: 'false',
    }),
  });
  if (!res.ok) throw new Error(`ingesting ${aspectName} of ${entityUrn}: ${res.status} ${await res.text()}`);
}
