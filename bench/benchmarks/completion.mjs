// Benchmark 9: completion of real names from a local catalog of 100,000 datasets (10,000
// quick), end to end over stdio: the server finds the slot, asks the catalog (autoCompleteForMultiple,
// a new prefix each time, so never its 30 s cache), and answers the items. Floor: the same GraphQL
// document POSTed directly to the catalog by the benchmark (the measured build's own
// AUTOCOMPLETE_ENTITIES, so that with --compare each build's floor is the document it sends).
// Also: the search behind "Catalog: Search…" (searchAcrossEntities) through the server's
// catalogLens/search.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { percentile, summary } from '../lib/measure.mjs';
import { positionAt, startServer } from '../lib/lsp.mjs';
import { ingestDatasets, postJson } from '../lib/catalogData.mjs';
import { BUILD_ROOT, freshDbFolder, startCatalog } from '../lib/processes.mjs';
import { random } from '../lib/generate.mjs';
import { WHY } from '../notes.mjs';

const PREFIX = 'urn:li:dataset:(urn:li:dataPlatform:hive,';

/**
 * What a person types: `bench.c_42`, `c_421`, `bench.c_4213` … (2 to 4 digits, half with the
 * `bench.` part), each once: a prefix asked again would come from the server's 30 s cache.
 */
function typedNames(n, entities, rnd) {
  const seen = new Set();
  const out = [];
  for (let i = 0; out.length < n; i++) {
    const digits = String(Math.floor(rnd() * entities)).slice(0, 2 + (i % 3));
    const typed = `${i % 2 === 0 ? 'bench.' : ''}c_${digits}`;
    if (seen.has(typed)) continue;
    seen.add(typed);
    out.push(typed);
  }
  return out;
}

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/** The autocomplete document the measured build's server sends (out/, built with dist/). */
function autocompleteDocument() {
  const queries = createRequire(import.meta.url)(
    path.join(BUILD_ROOT, 'out', 'server', 'src', 'catalogClient', 'queries.js'),
  );
  if (typeof queries.AUTOCOMPLETE_ENTITIES !== 'string')
    throw new Error(`no AUTOCOMPLETE_ENTITIES in ${BUILD_ROOT}/out/server/src/catalogClient/queries.js`);
  return queries.AUTOCOMPLETE_ENTITIES;
}

export async function completionBenchmark({ quick, tmp, serverArgs, catalogArgs }) {
  const AUTOCOMPLETE = autocompleteDocument();
  const entities = quick ? 10_000 : 100_000;
  const rounds = quick ? 3 : 5;
  const perRound = quick ? 40 : 200;
  const dbDir = freshDbFolder(tmp, 'completion');
  const catalog = await startCatalog({
    db: path.join(dbDir, 'completion.db'),
    durability: 'normal',
    nodeArgs: catalogArgs,
  });
  // The completion capabilities VS Code declares: the server answers what VS Code gets.
  const server = await startServer({ settings: { url: catalog.url }, nodeArgs: serverArgs, completion: true });
  try {
    const t = performance.now();
    await ingestDatasets(catalog.url, 0, entities, 'c');
    const ingestS = (performance.now() - t) / 1000;
    const rnd = random(16);
    const uri = 'file:///bench/complete.py';
    const lines = typedNames(rounds * perRound + 50, entities, rnd);
    const text = lines.map((typed, i) => `x${i} = "${PREFIX}${typed}"`).join('\n');
    await server.open(uri, 'python', text);
    let offset = 0;
    const positions = lines.map((line) => {
      const at = text.indexOf(`"${PREFIX}${line}"`, offset) + 1 + PREFIX.length + line.length;
      offset = at;
      return { position: positionAt(text, at), typed: line };
    });
    const complete = (position) =>
      server.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position });
    const direct = (typed) =>
      postJson(`${catalog.url}/api/graphql`, {
        query: AUTOCOMPLETE,
        variables: {
          input: {
            query: typed,
            types: ['DATASET'],
            limit: 50,
            orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }],
          },
        },
      });
    const at = (i) => {
      const p = positions[i];
      if (!p) throw new Error(`no line ${i} in the completion document`);
      return p;
    };
    // Warm-up on the first 50 lines: the answer must hold a name that holds what is typed.
    for (let i = 0; i < 50; i++) {
      const { position, typed } = at(i);
      const r = await complete(position);
      const items = Array.isArray(r) ? r : r.items;
      if (!items.some((it) => it.label.includes(typed.replace('bench.', ''))))
        throw new Error(`completion of ${typed} listed no matching name: ${JSON.stringify(items.slice(0, 3))}`);
      await direct(`${typed}x`);
    }
    const results = [];
    let k = 50;
    for (let r = 0; r < rounds; r++) {
      /** @type {{ target: number[], floor: number[] }} */
      const round = { target: [], floor: [] };
      for (let i = 0; i < perRound; i++, k++) {
        const { position, typed } = at(k);
        round.target.push((await timed(() => complete(position))).ms);
        // The floor asks a prefix the server never asked (the catalog keeps nothing either way).
        round.floor.push((await timed(() => direct(typed))).ms);
      }
      results.push(round);
    }
    const p50 = summary(results.map((r) => percentile(r.target, 50)));
    const p99 = summary(results.map((r) => percentile(r.target, 99)));
    const f50 = summary(results.map((r) => percentile(r.floor, 50)));
    const f99 = summary(results.map((r) => percentile(r.floor, 99)));

    // The search behind "Catalog: Search…" (catalogLens/search → searchAcrossEntities, count 50),
    // through the server; each query once per repeat with a different count, so never a cache hit.
    const searchMs = async (queries) => {
      const ms = [];
      for (let rep = 0; rep < (quick ? 3 : 5); rep++)
        for (const query of queries)
          ms.push(
            (await timed(() => server.connection.sendRequest('catalogLens/search', { query, count: 50 - rep }))).ms,
          );
      return summary([percentile(ms, 50)]);
    };
    const few = await searchMs(['revenue', 'users', 'c_77', 'db.usres']);
    const every = await searchMs(['bench', 'one row per event']);
    return {
      id: '9',
      title: `Completion of real names, ${entities.toLocaleString('en-US')} entities in the local catalog`,
      input: `dist/server.js over stdio (declaring VS Code's completion capabilities) against the local catalog (its own SQLite file, ${entities.toLocaleString('en-US')} datasets bench.c_<i> on hive plus the sample, ingested in ${ingestS.toFixed(1)} s). Completion requests at the end of \`${PREFIX}<typed>\` in an open Python document, each with a prefix not asked before (2–4 digits, half with \`bench.\`), alternating with the same autoCompleteForMultiple document POSTed directly. ${rounds} rounds of ${perRound} after 50 warm-up pairs; p50 and p99 per round.`,
      rows: [
        {
          figure: 'completion p50',
          unit: 'ms',
          value: p50,
          floorName: 'the same search POSTed to the catalog, p50',
          floor: f50,
          ratio: p50.median / f50.median,
        },
        {
          figure: 'completion p99',
          unit: 'ms',
          value: p99,
          floorName: 'the same search POSTed to the catalog, p99',
          floor: f99,
          ratio: p99.median / f99.median,
          aim: '≤ 10 ms',
          met: p99.median <= 10,
          why: WHY.completion,
        },
        {
          figure: 'search p50, queries matching a few to 1,111 entities',
          unit: 'ms',
          value: few,
          aim: '≤ 50 ms',
          met: few.median <= 50,
        },
        {
          figure: `search p50, queries matching all ${entities.toLocaleString('en-US')}`,
          unit: 'ms',
          value: every,
          aim: '≤ 50 ms',
          met: every.median <= 50,
          why: WHY.search,
        },
      ],
      notes: [
        'Search (catalogLens/search, what "Catalog: Search…" sends): `revenue`, `users`, `c_77` (1,111 names hold it) and `db.usres` (a typo: no name holds it, so the near-name pass runs); then `bench` and `one row per event`, which every benchmark dataset matches (name or description). The local catalog asks FTS5 for at most 2,001 matching rowids (it stops early); when there are more, or the query is under three characters, it matches the names and descriptions it holds in memory, folded as SQLite compares them; then it filters, ranks (nameRank) and keeps the best `start + count` in a bounded heap (catalog/src/searchIndex.ts): a query matching every entity costs one pass over the entities in memory, and `*` no SQL at all.',
      ],
    };
  } finally {
    await server.stop();
    await catalog.stop();
    rmSync(dbDir, { recursive: true, force: true });
  }
}
