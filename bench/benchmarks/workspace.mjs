// Benchmark 6: Check Workspace (server command catalogLens.checkWorkspace) over a generated tree,
// cold (every URN asked of the catalog) and warm (all cached), against ripgrep finding the same
// URNs in the same tree.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { alternate } from '../lib/measure.mjs';
import { startServer } from '../lib/lsp.mjs';
import { batchQuery, benchDatasetUrn, planBatches, postDocuments } from '../lib/catalogData.mjs';
import { random } from '../lib/generate.mjs';
import { requireTool, runToEnd } from '../lib/processes.mjs';
import { FINDINGS, WHY } from '../notes.mjs';

/** Top-level URNs as ripgrep sees them: a tuple id runs to its `)`, a simple id to a delimiter. */
export const RG_URN = 'urn:li:[A-Za-z]+:(\\([^()\\s"\'`]*\\)|[A-Za-z0-9_.-]+)';

const KINDS = ['py', 'yaml', 'sql', 'md'];

function fileText(kind, k, urns) {
  const [a, b, c] = urns;
  switch (kind) {
    case 'py':
      return `"""Job ${k}: copies yesterday's rows."""\nSOURCE = "${a}"\nTARGET = "${b}"\nLOOKUP = "${c}"\n\n\ndef run(spark, day):\n    df = spark.table("bench.source").where(F.col("day") == day)\n    return df.write.mode("overwrite").saveAsTable("bench.target")\n`;
    case 'yaml':
      return `# Tables of job ${k}\ndatasets:\n  - urn: ${a}\n    description: Source of job ${k}.\n  - urn: ${b}\n    description: Target of job ${k}.\nlookups:\n  - ${c}\n`;
    case 'sql':
      return `-- job ${k}\n-- source: ${a}\n-- target: ${b}\n-- lookup: ${c}\nINSERT INTO bench.target\nSELECT id, user_id, country, amount FROM bench.source WHERE day = CURRENT_DATE - 1;\n`;
    default:
      return `# Job ${k}\n\nReads \`${a}\`, joins \`${c}\` and writes \`${b}\` every night.\n`;
  }
}

/**
 * `files` files in folders of 100, three dataset URNs each drawn from the first `pool` benchmark
 * datasets; answers the files' paths and the distinct URNs, in the order first written.
 */
export function generateTree(root, files, pool) {
  const next = random(42);
  const paths = [];
  const distinct = new Set();
  for (let k = 0; k < files; k++) {
    const dir = path.join(root, `pkg_${String(Math.floor(k / 100)).padStart(3, '0')}`);
    if (k % 100 === 0) mkdirSync(dir, { recursive: true });
    const kind = KINDS[k % KINDS.length];
    const urns = [0, 1, 2].map(() => benchDatasetUrn(Math.floor(next() * pool)));
    for (const u of urns) distinct.add(u);
    const file = path.join(dir, `job_${k}.${kind}`);
    writeFileSync(file, fileText(kind, k, urns));
    paths.push(file);
  }
  return { paths, urns: [...distinct] };
}

/** The server's batch size and complexity budget (its defaults), and its MAX_PARALLEL_BATCHES. */
const BATCH = 100;
const BUDGET = 2000;
const PARALLEL = 4;

async function ripgrep(dir) {
  const r = await runToEnd('rg', ['--no-config', '-o', '--no-filename', '--no-line-number', '-e', RG_URN, dir]);
  if (r.code !== 0) throw new Error(`rg exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

export async function workspaceBenchmark({ quick, catalog, datasets, tmp, serverArgs }) {
  requireTool('rg', 'ripgrep');
  const files = quick ? 100 : 10_000;
  const reps = quick ? { warmup: 1, runs: 2 } : { warmup: 1, runs: 3 };
  const root = path.join(tmp, 'workspace');
  const tree = generateTree(root, files, datasets);
  // The resolve floor: the documents that ask the catalog about every distinct URN of the tree,
  // planned as the server plans them, POSTed directly with its parallelism.
  const documents = planBatches(
    tree.urns.map((urn) => ({ urn, kind: 'dataset' })),
    { maxItems: BATCH, complexity: BUDGET },
  ).map((batch) => JSON.stringify(batchQuery(batch)));
  const resolveDirect = async () => {
    const start = performance.now();
    await postDocuments(catalog.url, documents, PARALLEL);
    return performance.now() - start;
  };
  /** Sets every file's times anew (a second further back each time): the next check must read each again. */
  let touches = 0;
  const touchAll = () => {
    const t = (Date.now() - 60_000 - ++touches * 1000) / 1000;
    for (const p of tree.paths) utimesSync(p, t, t);
  };
  // A tree as a repository has it: its files not modified within seconds of the check.
  touchAll();
  const settings = { url: catalog.url, cache: { ttlSeconds: 0, maxEntries: 50_000 } };
  const server = await startServer({
    settings,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'bench' }],
    nodeArgs: serverArgs,
  });
  /** @type {{ files: number, urns: number, diagnostics: number } | undefined} */
  let checked;
  let rgMatches = 0;
  let rgDistinct = 0;
  const check = async () => {
    const start = performance.now();
    checked = await server.command('catalogLens.checkWorkspace', {});
    const ms = performance.now() - start;
    if (!checked || checked.files !== files)
      throw new Error(`checkWorkspace answered ${JSON.stringify(checked)}; expected ${files} files`);
    return ms;
  };
  const rg = async () => {
    const start = performance.now();
    const out = await ripgrep(root);
    const ms = performance.now() - start;
    const lines = out.split('\n').filter((l) => l !== '');
    rgMatches = lines.length;
    rgDistinct = new Set(lines).size;
    return ms;
  };
  let cold, resolveFloor, warm, touched, coldResult;
  try {
    cold = await alternate(reps, check, rg);
    coldResult = checked;
    resolveFloor = await alternate(reps, check, resolveDirect);
    // Same server, the cache now kept (ttl 300 s): filled by one check, then measured: the files as
    // they were at the last check (not read again), then with every file's times set anew before
    // each check (each file read, scanned and diagnosed again, as in a check of changed files).
    settings.cache = { ttlSeconds: 300, maxEntries: 50_000 };
    await server.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await check();
    warm = await alternate(reps, check, rg);
    touched = await alternate(
      reps,
      async () => {
        touchAll();
        return check();
      },
      rg,
    );
  } finally {
    await server.stop();
  }
  if (!coldResult) throw new Error('Check Workspace never answered');
  const row = (figure, r, limit) => ({
    figure,
    unit: 'ms',
    value: r.target,
    floorName: 'rg -o over the tree',
    floor: r.floor,
    ratio: r.target.median / r.floor.median,
    ...(limit ? { aim: `≤ ${limit}× floor`, met: r.target.median / r.floor.median <= limit } : { aim: 'none set' }),
  });
  // The cold check's aim: 4× ripgrep plus the resolve floor (the catalog's own work).
  const coldFloor = 4 * cold.floor.median + resolveFloor.floor.median;
  const coldAim = {
    figure: 'check, cold cache, against 4× rg plus the resolve floor',
    unit: 'ms',
    value: cold.target,
    floorName: `4 × ${cold.floor.median.toFixed(1)} ms (rg) + ${resolveFloor.floor.median.toFixed(1)} ms (${documents.length} resolve POSTs direct, ${PARALLEL} at a time)`,
    floor: { min: coldFloor, median: coldFloor, max: coldFloor, runs: 1 },
    ratio: cold.target.median / coldFloor,
    aim: '≤ 1× floor',
    met: cold.target.median <= coldFloor,
    why: WHY.checkCold,
  };
  return {
    id: '6',
    title: 'Check Workspace',
    input: `A generated tree of ${files.toLocaleString('en-US')} files (Python, YAML, SQL, Markdown in folders of 100; three dataset URNs each from ${datasets.toLocaleString('en-US')} in the catalog), the server command catalogLens.checkWorkspace (scan, resolve in batches, publish each file's diagnostics) against Debian's ripgrep \`rg -o --no-filename '${RG_URN}'\` over the same tree. ${reps.runs} runs after ${reps.warmup} warm-up.`,
    rows: [
      row('check, cold cache (resolve every URN)', cold),
      coldAim,
      { ...row('check, warm cache (the files as they were at the last check)', warm, 4), why: WHY.checkWarm },
      row("check, warm cache, every file's times set anew (each read and diagnosed again)", touched),
    ],
    notes: [
      `The server found ${coldResult.urns.toLocaleString('en-US')} distinct URNs in ${coldResult.files.toLocaleString('en-US')} files (${coldResult.diagnostics.toLocaleString('en-US')} diagnostics); ripgrep found ${rgMatches.toLocaleString('en-US')} URNs, ${rgDistinct.toLocaleString('en-US')} distinct${rgDistinct === coldResult.urns ? ' — the same set size' : ' — NOT the same count'}.`,
      "The warm check is held to 4× ripgrep; the cold one to 4× ripgrep plus the resolve floor: the same resolve documents (every distinct URN of the tree, batched as the server batches them) POSTed directly, interleaved with the cold checks (the local catalog answers a document it answered before from its answer cache, for the checks and the floor alike). The row with every file's times set anew is the warm check's cost when no file is as it was (each read, scanned, diagnosed; nothing kept is used).",
      FINDINGS.workspace,
    ],
  };
}
