// Benchmark 8: server start-up (spawn to the initialize result), bundle and package sizes, and
// the server's memory after resolving many entities with the cache bound by its setting.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { alternate, single, summary } from '../lib/measure.mjs';
import { rssMiB, startServer } from '../lib/lsp.mjs';
import { benchDatasetUrn } from '../lib/catalogData.mjs';
// ROOT: the checkout whose build is measured (a live binding: --compare moves it).
import { DIST, BUILD_ROOT as ROOT, startChild, waitForOutput } from '../lib/processes.mjs';
import { connectInspector, memoryAfterGc } from '../lib/inspector.mjs';
import { FINDINGS, WHY } from '../notes.mjs';

const requireCjs = createRequire(import.meta.url);

/** The floor of start-up: spawn a bare node process and hear its first byte. */
/**
 * The start-up rows' processes (the server's and the bare node's) run without NODE_EXTRA_CA_CERTS:
 * Node reads that bundle of certificates at every start, before any script (this VM sets it to
 * /etc/ssl/certs/ca-certificates.crt, 215 KiB: `node -e 0` takes ~90 ms with it and ~25 ms without),
 * which added the same ~60 ms to the floor and to the server and so hid most of the server's own
 * start-up cost in the ratio. An editor's environment rarely sets it, and nothing here needs it
 * (every request of these starts goes to 127.0.0.1 over plain HTTP, or nowhere).
 */
const START_ENV = { NODE_EXTRA_CA_CERTS: undefined };

async function bareNodeStart() {
  const start = performance.now();
  const handle = startChild(process.execPath, ['-e', 'process.stdout.write("ready\\n")'], {
    env: { ...process.env, ...START_ENV },
  });
  await waitForOutput(handle, /ready\n/, 30_000, 'a bare node process');
  const ms = performance.now() - start;
  await handle.exited;
  return ms;
}

/** Minimal bundles built the way scripts/build.mjs --production builds the real ones: the size floors. */
const MINIMAL_SERVER = `const { createConnection, ProposedFeatures } = require('vscode-languageserver/node');
const c = createConnection(ProposedFeatures.all);
c.onInitialize(() => ({ capabilities: {} }));
c.listen();`;
const MINIMAL_CLIENT = `const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
let client;
exports.activate = (context) => {
  client = new LanguageClient('x', 'x', { module: context.asAbsolutePath('server.js'), transport: TransportKind.stdio }, { documentSelector: [{ language: 'python' }] });
  return client.start();
};
exports.deactivate = () => client && client.stop();`;

async function productionSize(esbuild, build) {
  const r = await esbuild.build({
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    absWorkingDir: ROOT,
    ...build,
  });
  return r.outputFiles.reduce((n, f) => n + f.contents.length, 0);
}

/**
 * The server bundle as `npm run package` ships it (minified, no source map), written to `dir`: the
 * memory runs use it. The development bundle keeps comments, and a single character past U+00FF
 * in one makes V8 hold the whole 2 MB source as UTF-16 (4 MiB of heap; the minified one is 0.8 MB
 * of Latin-1).
 */
async function shippedServerBundle(dir) {
  const esbuild = requireCjs('esbuild');
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const outfile = path.join(dir, 'server.min.js');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'server', 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: ROOT,
    define: { CATALOG_LENS_VERSION: JSON.stringify(version) },
  });
  return outfile;
}

/** How dist/ was last built: `npm run build` leaves source maps, `npm run package` minifies. */
function buildKind(file) {
  return readFileSync(file, 'utf8').includes('//# sourceMappingURL=')
    ? 'npm run build, not minified'
    : 'minified by npm run package';
}

async function sizeRows() {
  const esbuild = requireCjs('esbuild');
  const rows = [];
  const notes = [];
  const serverProd = await productionSize(esbuild, { entryPoints: [path.join(ROOT, 'server', 'src', 'main.ts')] });
  const serverFloor = await productionSize(esbuild, {
    stdin: { contents: MINIMAL_SERVER, resolveDir: ROOT, loader: 'js' },
  });
  // dist/server.js runs dist/server-core.js (the bundle); a build from before had only the first.
  const core = ['server-core.js', 'server.js'].map((f) => path.join(DIST, f)).find((f) => existsSync(f)) ?? '';
  const distServer = statSync(core).size;
  rows.push({
    figure: `dist/server-core.js (${buildKind(core)})`,
    unit: 'bytes',
    value: single(distServer),
  });
  // Since the split, what initialize does not need is a second bundle, run once it is answered.
  const wiring = path.join(DIST, 'server-wiring.js');
  if (existsSync(wiring))
    rows.push({
      figure: `dist/server-wiring.js (${buildKind(wiring)})`,
      unit: 'bytes',
      value: single(statSync(wiring).size),
    });
  rows.push({
    figure: 'server bundle, minified (as packaged)',
    unit: 'bytes',
    value: single(serverProd),
    floorName: 'minimal vscode-languageserver server',
    floor: single(serverFloor),
    ratio: serverProd / serverFloor,
  });
  if (existsSync(path.join(ROOT, 'client', 'src', 'extension.ts'))) {
    const clientProd = await productionSize(esbuild, {
      entryPoints: [path.join(ROOT, 'client', 'src', 'extension.ts')],
      external: ['vscode'],
    });
    const clientFloor = await productionSize(esbuild, {
      stdin: { contents: MINIMAL_CLIENT, resolveDir: ROOT, loader: 'js' },
      external: ['vscode'],
    });
    const distClient = statSync(path.join(DIST, 'extension.js')).size;
    rows.push({
      figure: `dist/extension.js (${buildKind(path.join(DIST, 'extension.js'))})`,
      unit: 'bytes',
      value: single(distClient),
    });
    rows.push({
      figure: 'extension bundle, minified (as packaged)',
      unit: 'bytes',
      value: single(clientProd),
      floorName: 'minimal vscode-languageclient extension',
      floor: single(clientFloor),
      ratio: clientProd / clientFloor,
    });
  }
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const vsix = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (existsSync(vsix)) {
    const st = statSync(vsix);
    rows.push({ figure: `.vsix (${path.basename(vsix)})`, unit: 'bytes', value: single(st.size) });
    notes.push(
      `The .vsix is the one \`npm run package\` last wrote (${st.mtime.toISOString()}); the bench does not rebuild it.`,
    );
  } else {
    rows.push({ figure: '.vsix', unit: '', value: single(NaN), aim: 'not built' });
    notes.push(
      `.vsix: not built. Run \`npm run package\` (writes ${path.basename(vsix)} at the root), then \`npm run bench\` reports its size.`,
    );
  }
  // esbuild keeps a service process for its API: stop it, as every process the bench starts.
  await esbuild.stop?.();
  return { rows, notes };
}

/** How long the server is left idle before its settled RSS is read. */
export const IDLE_WAIT_MS = 4000;

/**
 * RSS of a server that resolved `n` entities the way an editor session does: ten documents of
 * n/10 URNs opened one after the other, each closed once its diagnostics are published, so what
 * stays is what the cache keeps (bounded by cache.maxEntries) and what the heap has not returned.
 */
async function memoryRun(catalog, maxEntries, n, serverArgs, bundle) {
  const server = await startServer({
    settings: { url: catalog.url, cache: { maxEntries, ttlSeconds: 3600 }, maxFileSize: 50 * 1024 * 1024 },
    nodeArgs: [...serverArgs, '--inspect=127.0.0.1:0'],
    // The port is the benchmark's, to measure: the server gives memory back as without it.
    env: { CATALOG_LENS_IDLE_GC: 'always' },
    bundle,
  });
  let inspector;
  try {
    inspector = await connectInspector(await server.inspectorUrl);
    const idle = await memoryAfterGc(inspector);
    const perDocument = Math.ceil(n / 10);
    for (let d = 0; d * perDocument < n; d++) {
      const uri = `file:///bench/memory_${maxEntries}_${d}.py`;
      const lines = [];
      for (let i = d * perDocument; i < Math.min(n, (d + 1) * perDocument); i++)
        lines.push(`T_${i} = "${benchDatasetUrn(i)}"`);
      lines.push(`GHOST = "${benchDatasetUrn(d, 'missing')}"`);
      const published = server.nextDiagnostics(uri, (x) => x.some((y) => y.code === 'unknown-urn'));
      await server.open(uri, 'python', lines.join('\n'));
      await published;
      await server.close(uri);
    }
    const rss = await rssMiB(server.pid);
    // Then as an editor leaves it: nothing asked for a few seconds.
    await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
    const settled = await rssMiB(server.pid);
    return { idle, rss, settled, afterGc: await memoryAfterGc(inspector) };
  } finally {
    // A process with a debugger attached waits for it before exiting: detach first.
    inspector?.close();
    await server.stop();
  }
}

const CODE_CACHE_ENV = 'CATALOG_LENS_CODE_CACHE';

/** Starts the server once with the code cache in `dir` and waits until it has written its cache file there. */
async function fillCodeCache(dir, serverArgs, bundle = path.join(DIST, 'server.js')) {
  rmSync(dir, { recursive: true, force: true });
  // A build from before the code cache (--compare with an older ref) has no server-core.js.
  if (!existsSync(path.join(path.dirname(bundle), 'server-core.js'))) return;
  const server = await startServer({ settings: {}, nodeArgs: serverArgs, env: { [CODE_CACHE_ENV]: dir }, bundle });
  try {
    const until = Date.now() + 20_000;
    while (!(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bin')))) {
      if (Date.now() > until) throw new Error(`the server wrote no code cache in ${dir} within 20 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await server.stop();
  }
}

/**
 * dist/server.js and dist/server-core.js as `npm run package` ships them (scripts/build.mjs
 * --production), written to `dir`; undefined for a build whose build.mjs cannot write them
 * elsewhere than dist/ (--compare with an older ref).
 */
function shippedServerPair(dir) {
  const script = path.join(ROOT, 'scripts', 'build.mjs');
  if (!readFileSync(script, 'utf8').includes('--server-to=')) return undefined;
  execFileSync(process.execPath, [script, '--production', `--server-to=${dir}`], { cwd: ROOT, stdio: 'ignore' });
  return path.join(dir, 'server.js');
}

export async function startupBenchmark({ quick, tmp, catalog, datasets, serverArgs }) {
  const reps = quick ? { warmup: 1, runs: 3 } : { warmup: 2, runs: 10 };
  // dist/server.js runs the bundle through V8's code cache (server/src/boot.ts): a folder of the
  // benchmark's own, filled by one start first; every start after the first in a user's editor
  // finds it so. The first start, with no cache, is measured too (the cache turned off).
  const cacheDir = path.join(tmp, 'code-cache');
  await fillCodeCache(cacheDir, serverArgs);
  /** Spawn → initialize result; `ready` also collects spawn → the links of a document opened right after it. */
  const startWith = (env, bundle, ready) => async () => {
    const server = await startServer({
      settings: {},
      nodeArgs: serverArgs,
      env: { ...env, ...START_ENV },
      ...(bundle ? { bundle } : {}),
    });
    const ms = server.initMs;
    if (ready) {
      // As an editor does: `initialized` (sent by startServer), then a document and a request on it.
      const after = performance.now();
      const uri = 'file:///bench/startup.py';
      void server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'python', version: 1, text: `T = "${benchDatasetUrn(0)}"\n` },
      });
      await server.connection.sendRequest('textDocument/documentLink', { textDocument: { uri } });
      ready.push(ms + performance.now() - after);
    }
    await server.stop();
    return ms;
  };
  const readyMs = [];
  const start = await alternate(reps, startWith({ [CODE_CACHE_ENV]: cacheDir }, undefined, readyMs), bareNodeStart);
  const startRatio = start.target.median / start.floor.median;
  const ready = summary(readyMs.slice(-reps.runs));
  const first = await alternate(reps, startWith({ [CODE_CACHE_ENV]: 'off' }), bareNodeStart);
  // The same start with the bundles as shipped (minified), their own code cache filled first.
  const shippedBundle = shippedServerPair(path.join(tmp, 'shipped-server'));
  let shipped;
  if (shippedBundle) {
    const shippedCache = path.join(tmp, 'code-cache-shipped');
    await fillCodeCache(shippedCache, serverArgs, shippedBundle);
    shipped = await alternate(reps, startWith({ [CODE_CACHE_ENV]: shippedCache }, shippedBundle), bareNodeStart);
  }
  const sizes = await sizeRows();

  const n = Math.min(quick ? 1000 : 10_000, datasets);
  const memoryRuns = quick ? 1 : 3;
  const memory = [];
  const bundle = await shippedServerBundle(tmp);
  for (const maxEntries of [20_000, 1_000]) {
    const runs = [];
    for (let i = 0; i < memoryRuns; i++) runs.push(await memoryRun(catalog, maxEntries, n, serverArgs, bundle));
    // The aim (≤ 80 MiB) is the issue's, for the default setting (cache.maxEntries 20,000).
    const aimed = maxEntries === 20_000;
    const setting = `cache.maxEntries ${maxEntries.toLocaleString('en-US')}`;
    const rss = summary(runs.map((r) => r.rss));
    const rssGc = summary(runs.map((r) => r.afterGc.rss));
    const settled = summary(runs.map((r) => r.settled));
    const heap = summary(runs.map((r) => r.afterGc.heapUsed));
    const idleRss = summary(runs.map((r) => r.idle.rss));
    const idleHeap = summary(runs.map((r) => r.idle.heapUsed));
    memory.push(
      {
        figure: `RSS after resolving ${n.toLocaleString('en-US')} entities, ${setting}`,
        unit: 'MiB',
        value: rss,
        floorName: 'same server idle',
        floor: idleRss,
        ratio: rss.median / idleRss.median,
        ...(aimed ? { aim: '≤ 80 MiB', met: rss.median <= 80, why: WHY.memoryAtOnce } : {}),
      },
      {
        figure: `… then RSS ${IDLE_WAIT_MS / 1000} s later, idle, ${setting}`,
        unit: 'MiB',
        value: settled,
        floorName: 'same server idle',
        floor: idleRss,
        ratio: settled.median / idleRss.median,
        ...(aimed ? { aim: '≤ 80 MiB', met: settled.median <= 80, why: WHY.memorySettled } : {}),
      },
      {
        figure: `… then RSS after a full GC, ${setting}`,
        unit: 'MiB',
        value: rssGc,
        floorName: 'same server idle',
        floor: idleRss,
        ratio: rssGc.median / idleRss.median,
        ...(aimed ? { aim: '≤ 80 MiB', met: rssGc.median <= 80, why: WHY.memoryAtOnce } : {}),
      },
      {
        figure: `… and heap used after a full GC, ${setting}`,
        unit: 'MiB',
        value: heap,
        floorName: 'same server idle',
        floor: idleHeap,
        ratio: heap.median / idleHeap.median,
      },
    );
  }
  return {
    id: '8',
    title: 'Start-up, size and memory',
    input: `Start-up: dist/server.js spawned with \`node\` until its initialize result, ${reps.runs} runs after ${reps.warmup} warm-up, with its code cache filled by a start before (as every start after the first finds it); in the same starts, until the links of a document opened right after \`initialized\` (the server's second bundle, dist/server-wiring.js, is run in between); the same with the bundles as \`npm run package\` ships them (minified: scripts/build.mjs --production --server-to), and with the cache off (a first start), against spawning a bare \`node -e\` until its first output. Sizes: the bundles as \`npm run build\` leaves them, and minified as scripts/build.mjs --production makes them (built in memory here), against minimal bundles of the LSP libraries built the same way. Memory: VmRSS (/proc/<pid>/status) of the server as shipped (the minified bundle \`npm run package\` builds, written to a temporary file) after resolving ${n.toLocaleString('en-US')} distinct datasets (all found, with schema) through ten documents opened, diagnosed and closed one after the other, ${memoryRuns} run(s) per setting.`,
    rows: [
      {
        figure: 'spawn → initialize result',
        unit: 'ms',
        value: start.target,
        floorName: 'bare node spawn → first output',
        floor: start.floor,
        ratio: startRatio,
        aim: '≤ 1.3× floor',
        met: startRatio <= 1.3,
        why: WHY.startup,
      },
      {
        figure: 'spawn → links of a document opened right after initialize',
        unit: 'ms',
        value: ready,
        floorName: 'bare node spawn → first output',
        floor: start.floor,
        ratio: ready.median / start.floor.median,
      },
      ...(shipped
        ? [
            {
              figure: 'spawn → initialize result, as shipped (minified)',
              unit: 'ms',
              value: shipped.target,
              floorName: 'bare node spawn → first output',
              floor: shipped.floor,
              ratio: shipped.target.median / shipped.floor.median,
            },
          ]
        : []),
      {
        figure: 'spawn → initialize result, no code cache (a first start)',
        unit: 'ms',
        value: first.target,
        floorName: 'bare node spawn → first output',
        floor: first.floor,
        ratio: first.target.median / first.floor.median,
      },
      ...sizes.rows,
      ...memory,
    ],
    notes: [
      `The start-up rows' processes, the server's and the bare node's, run without NODE_EXTRA_CA_CERTS (set here: ${process.env.NODE_EXTRA_CA_CERTS ? 'yes' : 'no'}): Node reads that file of certificates at every start, ~60 ms on this VM, the same for the floor and the server, and it hid most of the server's own cost in the ratio (the rows before 2026-11-28 had it: spawn → initialize 1.32–1.33× then).`,
      ...sizes.notes,
      `Memory is read after the last document is closed: VmRSS as it stands, again after ${IDLE_WAIT_MS / 1000} s in which nothing was asked (the server gives back what the burst grew to once idle: server/src/idleRelease.ts), then RSS and heap used after a full GC forced through the inspector (\`--inspect=127.0.0.1:0\`, HeapProfiler.collectGarbage); the floor is the same reading of the same process right after initialize. V8 keeps heap pages it no longer needs, so the RSS moves less than the heap. The two settings differ by what the cache may keep (up to 20,000, or the last 1,000 of the ${n.toLocaleString('en-US')} entities).`,
      FINDINGS.memory,
    ],
  };
}
