// Benchmark 5: diagnostics of a document with N distinct URNs, cold cache, through the server
// process: from didOpen to the publish that reflects the catalog's answers, and the GraphQL
// requests the catalog counted. Floor: the same documents (batchSize 100 within the complexity
// budget of 2,000: the planner's datasets per document) POSTed directly, with the client's own parallelism (4 at a time).
import { summary } from '../lib/measure.mjs';
import { startServer } from '../lib/lsp.mjs';
import {
  batchQuery,
  benchDatasetUrn,
  costOfOne,
  postDocuments,
  planBatches,
  readStats,
  resetStats,
} from '../lib/catalogData.mjs';
import { WHY } from '../notes.mjs';

const BATCH = 100;
const BUDGET = 2000;
/** Datasets per document, as the server plans them (its cost per dataset within the budget). */
const perDocument = Math.min(BATCH, Math.floor(BUDGET / costOfOne('dataset').complexity));
/** The server's MAX_PARALLEL_BATCHES (server/src/catalogClient/client.ts). */
const PARALLEL = 4;

/** N distinct dataset URNs: 90 % in the catalog (with descriptions), 10 % unknown to it. */
function documentUrns(n) {
  const unknown = Math.floor(n / 10);
  const urns = [];
  for (let i = 0; i < n - unknown; i++) urns.push(benchDatasetUrn(i));
  for (let i = 0; i < unknown; i++) urns.push(benchDatasetUrn(i, 'missing'));
  return { urns, unknown };
}

export async function diagnosticsBenchmark({ quick, catalog, datasets, serverArgs }) {
  const sizes = quick ? [100, 500] : [1000, 10000];
  const reps = quick ? { warmup: 1, runs: 2 } : { warmup: 1, runs: 5 };
  const server = await startServer({
    settings: {
      url: catalog.url,
      batchSize: BATCH,
      graphqlComplexityBudget: BUDGET,
      cache: { ttlSeconds: 0 },
      maxFileSize: 50 * 1024 * 1024,
    },
    nodeArgs: serverArgs,
  });
  const rows = [];
  const notes = [];
  try {
    let run = 0;
    for (const n of sizes) {
      if (n - Math.floor(n / 10) > datasets)
        throw new Error(`benchmark 5 needs ${n} datasets in the catalog, it holds ${datasets}`);
      const { urns, unknown } = documentUrns(n);
      const text = urns.map((u, i) => `T_${i} = "${u}"`).join('\n') + '\n';
      const documents = planBatches(
        urns.map((urn) => ({ urn, kind: 'dataset' })),
        { maxItems: BATCH, complexity: BUDGET },
      ).map((batch) => {
        const { query, variables } = batchQuery(batch);
        return JSON.stringify({ query, variables });
      });
      /** @type {{ target: number[], floor: number[] }} */
      const times = { target: [], floor: [] };
      const requests = [];
      let diagnosticsSeen = 0;
      const serverRun = async () => {
        const uri = `file:///bench/diagnostics_${n}_${run++}.py`;
        await resetStats(catalog.url);
        const published = server.nextDiagnostics(
          uri,
          (d) => d.filter((x) => x.code === 'unknown-urn').length === unknown,
        );
        const start = performance.now();
        await server.open(uri, 'python', text);
        const { diagnostics, at } = await published;
        const ms = at - start;
        diagnosticsSeen = diagnostics.length;
        // Resolve documents only: did-you-mean's searches follow the diagnostics.
        requests.push((await readStats(catalog.url)).graphqlOperations.resolveEntities ?? 0);
        await server.close(uri);
        return ms;
      };
      const directRun = async () => {
        const start = performance.now();
        await postDocuments(catalog.url, documents, PARALLEL);
        return performance.now() - start;
      };
      for (let i = 0; i < reps.warmup; i++) {
        await serverRun();
        await directRun();
      }
      requests.length = 0;
      for (let i = 0; i < reps.runs; i++) {
        times.target.push(await serverRun());
        times.floor.push(await directRun());
      }
      const t = summary(times.target);
      const f = summary(times.floor);
      const expected = documents.length;
      const req = summary(requests);
      const ratio = t.median / f.median;
      rows.push({
        figure: `${n.toLocaleString('en-US')} URNs: time to publishDiagnostics`,
        unit: 'ms',
        value: t,
        floorName: `${expected} POSTs direct, ${PARALLEL} at a time`,
        floor: f,
        ratio,
        aim: '≤ 2× floor',
        met: ratio <= 2,
        why: WHY.diagnostics,
      });
      rows.push({
        figure: `${n.toLocaleString('en-US')} URNs: GraphQL requests`,
        unit: 'requests',
        value: req,
        floorName: `ceil(${n} / ${perDocument}): ${BATCH} per batch at most, ${BUDGET} complexity at most (${costOfOne('dataset').complexity} per dataset)`,
        floor: { min: expected, median: expected, max: expected, runs: 1 },
        floorUnit: 'requests',
        ratio: req.median / expected,
        aim: `= ${expected}`,
        met: req.min === expected && req.max === expected,
      });
      notes.push(
        `${n.toLocaleString('en-US')} URNs: the accepted publish held ${diagnosticsSeen.toLocaleString('en-US')} diagnostics (${unknown.toLocaleString('en-US')} unknown-URN warnings expected).`,
      );
    }
  } finally {
    await server.stop();
  }
  return {
    id: '5',
    title: 'Diagnostics of a document, cold cache',
    input: `dist/server.js over stdio (batchSize ${BATCH}, graphqlComplexityBudget ${BUDGET}, cache.ttlSeconds 0, so every run is cold), a Python document of N distinct dataset URNs, 90 % in the local catalog and 10 % unknown; time from didOpen to the publishDiagnostics that holds the unknown-URN warnings, and the GraphQL resolve documents (operation resolveEntities) the catalog counted (/_catalog-lens/stats; did-you-mean's searches for the first 10 unknown URNs, sent after the diagnostics, are not counted). ${reps.runs} runs after ${reps.warmup} warm-up per size.`,
    rows,
    notes,
  };
}
