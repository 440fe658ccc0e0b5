// Direct HTTP to the local catalog: filling it with entities (ingestProposalBatch), reading its
// request counters, and the direct GraphQL POSTs that are the floors of benchmarks 4 and 5. The
// agent keeps connections alive, as the server's HTTP client does, so a floor is one round trip.
import http from 'node:http';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ROOT } from './processes.mjs';

const require = createRequire(import.meta.url);
const { batchQuery, costOfOne, planBatches, resolveWithContextQuery } = require(
  path.join(ROOT, 'out', 'server', 'src', 'catalogClient', 'queries.js'),
);
export { batchQuery, costOfOne, planBatches };

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * POST a JSON body; resolves with the status and the body text. A kept-alive socket the catalog
 * closed while this process was busy (`--compare` builds the other ref synchronously for a minute
 * or more, so the close is seen only at the next write) fails at once: the request is sent again
 * on a new socket, once (Node's documented pattern for `req.reusedSocket`).
 */
export function postJson(url, body, headers = {}, retried = false) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Content-Length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          out += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, text: out }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      if (!retried && req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE'))
        resolve(postJson(url, text, headers, true));
      else reject(err);
    });
    req.end(text);
  });
}

export async function getJson(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let out = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          out += d;
        });
        res.on('end', () => {
          try {
            resolve(JSON.parse(out));
          } catch (e) {
            reject(
              new Error(
                `GET ${url}: ${res.statusCode} ${out.slice(0, 200)} (${e instanceof Error ? e.message : String(e)})`,
              ),
            );
          }
        });
      })
      .on('error', reject);
  });
}

/** The benchmark's datasets: `urn:li:dataset:(urn:li:dataPlatform:hive,bench.t_<i>,PROD)`. */
export const benchDatasetUrn = (i, prefix = 't') =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,bench.${prefix}_${i},PROD)`;

const COLUMNS = ['id', 'user_id', 'country', 'amount', 'created_at', 'updated_at'];

/** The aspects of one benchmark dataset: properties with a description, and a six-column schema. */
export function datasetProposals(urn, name) {
  const properties = {
    customProperties: {},
    name,
    qualifiedName: name,
    description: `Benchmark table ${name}, one row per event.`,
    tags: [],
  };
  const schema = {
    schemaName: name,
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    created: { time: 1735689600000, actor: 'urn:li:corpuser:datahub' },
    lastModified: { time: 1735689600000, actor: 'urn:li:corpuser:datahub' },
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: COLUMNS.map((c, i) => ({
      fieldPath: c,
      nullable: i > 0,
      nativeDataType: i === 3 ? 'decimal(10,2)' : 'string',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      recursive: false,
      isPartOfKey: i === 0,
      ...(i % 2 === 0 ? { description: `The ${c} of the row.` } : {}),
    })),
  };
  return [
    {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { value: JSON.stringify(properties), contentType: 'application/json' },
    },
    {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'schemaMetadata',
      aspect: { value: JSON.stringify(schema), contentType: 'application/json' },
    },
  ];
}

/** Ingests datasets `from` … `to - 1` in batches of 500 entities (one transaction each). */
export async function ingestDatasets(catalogUrl, from, to, prefix = 't') {
  for (let start = from; start < to; start += 500) {
    const proposals = [];
    for (let i = start; i < Math.min(to, start + 500); i++)
      proposals.push(...datasetProposals(benchDatasetUrn(i, prefix), `bench.${prefix}_${i}`));
    const r = await postJson(
      `${catalogUrl}/aspects?action=ingestProposalBatch`,
      { proposals, async: 'false' },
      { 'X-RestLi-Protocol-Version': '2.0.0' },
    );
    if (r.status !== 200) throw new Error(`ingestProposalBatch answered ${r.status}: ${r.text.slice(0, 300)}`);
  }
}

export async function resetStats(catalogUrl) {
  const r = await postJson(`${catalogUrl}/_catalog-lens/stats/reset`, '');
  if (r.status !== 200) throw new Error(`stats reset answered ${r.status}`);
}

export const readStats = (catalogUrl) => getJson(`${catalogUrl}/_catalog-lens/stats`);

/** One GraphQL POST of the document the server would send for these datasets. */
export async function postResolve(catalogUrl, urns) {
  const { query, variables } = batchQuery(urns.map((urn) => ({ urn, kind: 'dataset' })));
  const r = await postJson(`${catalogUrl}/api/graphql`, { query, variables });
  if (r.status !== 200) throw new Error(`GraphQL answered ${r.status}: ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text);
}

/** One GraphQL POST of the document a cold hover sends: the dataset and its context (owners, tags, lineage …). */
export async function postHoverDocument(catalogUrl, urn) {
  const { query, variables } = resolveWithContextQuery({ urn, kind: 'dataset' });
  const r = await postJson(`${catalogUrl}/api/graphql`, { query, variables });
  if (r.status !== 200) throw new Error(`GraphQL answered ${r.status}: ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text);
}

/**
 * POSTs each GraphQL document of `bodies` to the catalog at `catalogUrl`, `parallel` at a time (a
 * client's own parallelism): the resolve floor of benchmarks 5 and 6. Throws on any answer not 200.
 */
export async function postDocuments(catalogUrl, bodies, parallel) {
  await inParallel(
    bodies.map((body) => async () => {
      const r = await postJson(`${catalogUrl}/api/graphql`, body);
      if (r.status !== 200) throw new Error(`GraphQL answered ${r.status}`);
    }),
    parallel,
  );
}

/** Runs `tasks` (functions returning promises) with at most `parallel` at a time. */
export async function inParallel(tasks, parallel) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(parallel, tasks.length) }, worker));
}

export function closeAgent() {
  agent.destroy();
}
