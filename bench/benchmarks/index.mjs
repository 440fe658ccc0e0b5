// Benchmark 10: the workspace index. A generated tree of 10,000 files (1,000 quick; the
// tree of benchmark 6), indexed by a freshly started server (the build that starts at
// `initialized`, its time as the server logs it) against ripgrep finding the URNs of the same tree;
// then references and workspace symbols on that index, warm; then the server's RSS after the index
// and a Check Workspace that resolves every URN of the tree (10,000 distinct entities), and its
// peak RSS during that check; then the same check on a second server started with glibc's mmap
// threshold fixed (FIXED_MMAP_THRESHOLD_ENV).
import * as path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { percentile, summary } from '../lib/measure.mjs';
import { positionAt, rssMiB, startServer } from '../lib/lsp.mjs';
// BUILD_ROOT: the checkout whose build is measured (a live binding: --compare moves it).
import { BUILD_ROOT, requireTool, runToEnd } from '../lib/processes.mjs';
import { generateTree, RG_URN } from './workspace.mjs';
import { WHY } from '../notes.mjs';
import { IDLE_WAIT_MS } from './startup.mjs';
import { connectInspector, memoryAfterGc } from '../lib/inspector.mjs';

/** Resets the process's peak RSS (VmHWM) to its RSS now (Linux: 5 to /proc/<pid>/clear_refs); false when it cannot. */
async function resetPeakRss(pid) {
  const { writeFile } = await import('node:fs/promises');
  return writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
}

/** The process's peak RSS (VmHWM) in MiB. */
async function peakRssMiB(pid) {
  const { readFile } = await import('node:fs/promises');
  const m = /VmHWM:\s+(\d+)\s+kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** The RSS of the process's glibc main malloc arena (the `[heap]` mapping of /proc/<pid>/smaps) in MiB; 0 when it has none. */
async function mainArenaMiB(pid) {
  const { readFile } = await import('node:fs/promises');
  const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8');
  const at = smaps.search(/ \[heap\]\n/);
  if (at < 0) return 0;
  const m = /\nRss:\s+(\d+) kB/.exec(smaps.slice(at));
  return m ? Number(m[1]) / 1024 : 0;
}

/**
 * What the measured build's extension adds to the server's environment (client/src/launch.ts
 * SERVER_MALLOC_ENV: glibc's mmap threshold fixed at its default 128 KiB, which turns off glibc's
 * dynamic threshold); none for a build before it. Without it, the first free of a mapped chunk
 * (V8's optimizing compiler frees zones of ~0.2–0.9 MiB on its threads) raises the threshold to
 * that size, and every later allocation under it comes from the arenas, which keep freed memory
 * resident.
 */
function extensionLaunchEnv() {
  const launch = path.join(BUILD_ROOT, 'out', 'client', 'src', 'launch.js');
  if (!existsSync(launch)) return {};
  return createRequire(import.meta.url)(launch).SERVER_MALLOC_ENV ?? {};
}

/**
 * The V8 options the measured build's extension starts the server with (client/src/launch.ts
 * SERVER_NODE_ARGS: the young generation's semi-spaces held to 8 MiB); none for a build before it.
 */
function extensionLaunchArgs() {
  const launch = path.join(BUILD_ROOT, 'out', 'client', 'src', 'launch.js');
  if (!existsSync(launch)) return [];
  return [...(createRequire(import.meta.url)(launch).SERVER_NODE_ARGS ?? [])];
}
const envText = (env) =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ') || 'nothing';

/**
 * Check Workspace on a server whose index is built, and its memory: the peak during the check
 * (VmHWM, reset first), the RSS right after it, after `IDLE_WAIT_MS` idle, and after a full GC
 * forced through the inspector, with the main arena's RSS when idle.
 */
async function checkMemory(server, inspector) {
  const peakReset = await resetPeakRss(server.pid);
  const logged = server.logs.length;
  const checkedAt = performance.now();
  const checked = await server.command('catalogLens.checkWorkspace', {});
  const checkEnded = performance.now();
  const rss = await rssMiB(server.pid);
  const peak = await peakRssMiB(server.pid);
  // Then as an editor leaves it: nothing asked for a few seconds.
  await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
  const settled = await rssMiB(server.pid);
  // What the server's idle release said meanwhile (server/src/idleRelease.ts logs each collection).
  const release = server.logs
    .slice(logged)
    .filter((l) => l.startsWith('memory: '))
    .join('; ');
  const timing = `the check took ${Math.round(checkEnded - checkedAt)} ms; RSS read ${Math.round(performance.now() - checkEnded)} ms after it`;
  const arena = await mainArenaMiB(server.pid);
  const afterGc = await memoryAfterGc(inspector);
  return { peakReset, checked, rss, peak, settled, arena, afterGc, release: release || 'nothing logged', timing };
}

/** A server started with `env` (and the port benchmark 10 measures through), its index built. */
async function startIndexed(settings, folder, serverArgs, env = {}, launchArgs = []) {
  const server = await startServer({
    settings,
    workspaceFolders: [folder],
    nodeArgs: [...launchArgs, ...serverArgs, '--inspect=127.0.0.1:0'],
    // The port is the benchmark's, to measure: the server gives memory back as without it.
    env: { CATALOG_LENS_IDLE_GC: 'always', ...env },
  });
  try {
    const inspector = await connectInspector(await server.inspectorUrl);
    await indexBuild(server);
    return { server, inspector };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/**
 * The index's own heap against the UTF-8 bytes of the URN texts of its occurrences: the build's
 * compiled index (out/) indexes the tree in a process of its own (bench/lib/indexHeap.mjs).
 */
async function indexHeap(root) {
  const script = fileURLToPath(new URL('../lib/indexHeap.mjs', import.meta.url));
  const r = await runToEnd(process.execPath, ['--expose-gc', script, BUILD_ROOT, root]);
  if (r.code !== 0) throw new Error(`indexHeap.mjs exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The server's own figure for its first index build, from its log line. */
async function indexBuild(server, timeoutMs = 300_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until;) {
    const line = server.logs.find((l) => l.startsWith('workspace index: '));
    if (line) {
      const m = /workspace index: (\d+) URNs in (\d+) files(?: \([^)]*\))?, (\d+) ms/.exec(line);
      if (!m) throw new Error(`unexpected index log line: ${line}`);
      return { urns: Number(m[1]), files: Number(m[2]), ms: Number(m[3]) };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the index was not built within ${timeoutMs} ms; logs: ${server.logs.slice(-10).join('\n')}`);
}

export async function indexBenchmark({ quick, catalog, datasets, tmp, serverArgs }) {
  requireTool('rg', 'ripgrep');
  const files = quick ? 1000 : 10_000;
  const runs = quick ? 2 : 3;
  const root = path.join(tmp, 'index-workspace');
  generateTree(root, files, datasets);
  const folder = { uri: pathToFileURL(root).href, name: 'bench' };
  const settings = { url: catalog.url, cache: { ttlSeconds: 300, maxEntries: 20_000 } };

  const builds = [];
  const rgs = [];
  let indexed;
  let rgCount = 0;
  for (let r = 0; r < runs; r++) {
    const server = await startServer({ settings, workspaceFolders: [folder], nodeArgs: serverArgs });
    try {
      indexed = await indexBuild(server);
      builds.push(indexed.ms);
    } finally {
      await server.stop();
    }
    const rg = await timed(() =>
      runToEnd('rg', ['--no-config', '-o', '--no-filename', '--no-line-number', '-e', RG_URN, root]),
    );
    if (rg.result.code !== 0) throw new Error(`rg exited ${rg.result.code}: ${rg.result.stderr}`);
    rgCount = rg.result.stdout.split('\n').filter((l) => l !== '').length;
    rgs.push(rg.ms);
  }
  if (!indexed || indexed.files !== files)
    throw new Error(`the index holds ${indexed?.files} files; the tree has ${files}`);
  const heap = await indexHeap(root);

  // Warm queries on one server's index.
  const { server, inspector } = await startIndexed(settings, folder, serverArgs);
  try {
    const indexedMemory = await memoryAfterGc(inspector);
    const file = path.join(root, 'pkg_000', 'job_0.py');
    const uri = pathToFileURL(file).href;
    const text = readFileSync(file, 'utf8');
    await server.open(uri, 'python', text);
    const at = positionAt(text, text.indexOf('bench.t_') + 3);
    const references = () =>
      server.connection.sendRequest('textDocument/references', {
        textDocument: { uri },
        position: at,
        context: { includeDeclaration: true },
      });
    const first = await references();
    if (!Array.isArray(first) || first.length === 0) throw new Error('references found nothing');
    const n = quick ? 100 : 500;
    const refMs = [];
    const symMs = [];
    for (let i = 0; i < 50; i++) await references();
    for (let i = 0; i < n; i++) {
      refMs.push((await timed(references)).ms);
      // A part of a name, as typed in the symbol search: t_1, t_12, t_123 …
      const query = `t_${String(i * 7919).slice(0, 1 + (i % 3))}`;
      symMs.push((await timed(() => server.connection.sendRequest('workspace/symbol', { query }))).ms);
    }
    // Then every URN of the tree resolved (Check Workspace), and the memory after both; the peak
    // (VmHWM) is reset first, so that it is the check's own. First on a plain `node` start (what
    // another editor's launch gives), then on a server started as the extension starts it.
    const { peakReset, checked, rss, peak, settled, arena, afterGc, release, timing } = await checkMemory(
      server,
      inspector,
    );
    const launchEnv = extensionLaunchEnv();
    const launchArgs = extensionLaunchArgs();
    const launched = await startIndexed(settings, folder, serverArgs, launchEnv, launchArgs);
    let fixedMemory;
    try {
      fixedMemory = await checkMemory(launched.server, launched.inspector);
    } finally {
      launched.inspector.close();
      await launched.server.stop();
    }
    const r99 = summary([percentile(refMs, 99)]);
    const s99 = summary([percentile(symMs, 99)]);
    const build = summary(builds);
    const floor = summary(rgs);
    return {
      id: '10',
      title: 'Workspace index',
      input: `The tree of benchmark 6 with ${files.toLocaleString('en-US')} files (three dataset URNs each). Index: the build a freshly started dist/server.js runs after \`initialized\` (list, read, scan, keep the ranges), as its log reports it, ${runs} servers; floor: Debian's ripgrep \`rg -o --no-filename '${RG_URN}'\` over the tree after each (files in the page cache for both). Then, on one index: ${n} textDocument/references on a URN (${first.length} places) and ${n} workspace/symbol queries (\`t_1\`, \`t_12\` …), after 50 warm-up references.`,
      rows: [
        {
          figure: 'index build',
          unit: 'ms',
          value: build,
          floorName: 'rg -o over the tree',
          floor,
          ratio: build.median / floor.median,
          aim: '≤ 3× floor',
          met: build.median / floor.median <= 3,
          why: WHY.indexBuild,
        },
        ...(heap.unavailable
          ? []
          : [
              {
                figure: `index heap, ${heap.occurrences.toLocaleString('en-US')} occurrences`,
                unit: 'bytes',
                value: summary([heap.heap]),
                floorName: 'UTF-8 bytes of their URN texts',
                floor: summary([heap.urnBytes]),
                ratio: heap.heap / heap.urnBytes,
                aim: '≤ 2× floor',
                met: heap.heap / heap.urnBytes <= 2,
                why: WHY.indexHeap,
              },
            ]),
        { figure: 'references p99', unit: 'ms', value: r99, aim: '≤ 20 ms', met: r99.median <= 20 },
        { figure: 'workspace symbols p99', unit: 'ms', value: s99, aim: '≤ 20 ms', met: s99.median <= 20 },
        {
          figure: `peak RSS during the check${peakReset ? '' : ' (and before: VmHWM could not be reset)'}`,
          unit: 'MiB',
          value: summary([fixedMemory.peak]),
          aim: '≤ 150 MiB',
          met: fixedMemory.peak <= 150,
          why: WHY.checkPeak,
        },
        {
          figure: `RSS after the index and resolving ${checked.urns.toLocaleString('en-US')} entities`,
          unit: 'MiB',
          value: summary([fixedMemory.rss]),
          aim: '≤ 80 MiB',
          met: fixedMemory.rss <= 80,
          why: WHY.indexMemory,
        },
        {
          figure: `… then RSS ${IDLE_WAIT_MS / 1000} s later, idle`,
          unit: 'MiB',
          value: summary([fixedMemory.settled]),
          aim: '≤ 80 MiB',
          met: fixedMemory.settled <= 80,
          why: WHY.indexSettled,
        },
        {
          figure: '… then RSS after a full GC',
          unit: 'MiB',
          value: summary([fixedMemory.afterGc.rss]),
          aim: '≤ 80 MiB',
          met: fixedMemory.afterGc.rss <= 80,
          why: WHY.indexSettled,
        },
        {
          figure: '… and heap used after a full GC',
          unit: 'MiB',
          value: summary([fixedMemory.afterGc.heapUsed]),
        },
        {
          figure: `… and glibc's main arena ([heap]) ${IDLE_WAIT_MS / 1000} s after the check`,
          unit: 'MiB',
          value: summary([fixedMemory.arena]),
        },
        {
          figure: 'peak RSS during the check, plain `node` start (another editor)',
          unit: 'MiB',
          value: summary([peak]),
        },
        {
          figure: '… RSS right after the check, plain `node` start',
          unit: 'MiB',
          value: summary([rss]),
        },
        {
          figure: `… then RSS ${IDLE_WAIT_MS / 1000} s later, idle, plain \`node\` start`,
          unit: 'MiB',
          value: summary([settled]),
        },
        {
          figure: '… then RSS after a full GC, plain `node` start',
          unit: 'MiB',
          value: summary([afterGc.rss]),
        },
        {
          figure: `… and main arena ${IDLE_WAIT_MS / 1000} s after the check, plain \`node\` start`,
          unit: 'MiB',
          value: summary([arena]),
        },
      ],
      notes: [
        `The index holds ${indexed.urns.toLocaleString('en-US')} URN occurrences of ${indexed.files.toLocaleString('en-US')} files; ripgrep printed ${rgCount.toLocaleString('en-US')}. The RSS is VmRSS as it stands right after the check, ${IDLE_WAIT_MS / 1000} s later with nothing asked, then after a full GC forced through the inspector (as in benchmark 8), cache.maxEntries 20,000. The memory rows with aims are a server started as the extension starts it (its environment adds ${envText(launchEnv)}: client/src/launch.ts SERVER_MALLOC_ENV, as built; its node options ${launchArgs.join(' ') || 'none'}: SERVER_NODE_ARGS); the plain \`node\` rows are the first server, started with nothing added, as another editor may start it (docs/other-editors.md says what to add).`,
        heap.unavailable
          ? `Index heap: not measured (${heap.unavailable}).`
          : `Index heap: heap used after a full GC (node --expose-gc) before and after a fresh index of the build's compiled code (out/server/src/index/workspaceIndex.js) indexes the tree, in a process of its own after a warm-up build on an index thrown away (bench/lib/indexHeap.mjs, the URN parse cache cleared), ${Math.round(heap.heap / heap.occurrences)} bytes an occurrence; the floor sums the UTF-8 bytes of the URN text of each occurrence it holds.`,
        `glibc's mmap threshold fixed: the same check on a second server, freshly started with ${envText(launchEnv)} in its environment and ${launchArgs.join(' ') || 'no node options'} (any malloc tunable turns off glibc's dynamic mmap threshold; the value is its default), its index built first. Without it, the first free of a mapped chunk raises the threshold to that chunk's size (here V8's optimizing compiler freeing zones of 0.2–0.9 MiB on its threads, from the first seconds): every later allocation under that size comes from glibc's arenas, whose freed memory stays resident (and the trim threshold becomes twice that size). No server code can set it (glibc reads it when the process starts): the editor's launch can (client/src/launch.ts serverProcessEnv). Plain \`node\` start: RSS after a full GC ${afterGc.rss.toFixed(1)} MiB, heap used ${afterGc.heapUsed.toFixed(1)} MiB.`,
        `The idle release (server/src/idleRelease.ts) between the check and the RSS 4 s later, as the server logged it: as the extension starts it, ${fixedMemory.release} (${fixedMemory.timing}); plain \`node\` start, ${release} (${timing}).`,
        `Where the memory is: with the index built and before any URN was resolved, RSS ${indexedMemory.rss.toFixed(1)} MiB and heap used ${indexedMemory.heapUsed.toFixed(1)} MiB after a full GC; resolving the ${checked.urns.toLocaleString('en-US')} entities adds ${(afterGc.heapUsed - indexedMemory.heapUsed).toFixed(1)} MiB of heap (the catalog cache, benchmark 8).`,
      ],
    };
  } finally {
    // A process with a debugger attached waits for it before exiting: detach first.
    inspector.close();
    await server.stop();
  }
}
