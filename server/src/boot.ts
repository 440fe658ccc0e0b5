/**
 * dist/server.js, the language server's process entry as shipped: it runs the server's bundles
 * beside it through V8's code cache, so a start after the first does not compile them again.
 * Compiling them is most of what a start costs over a bare `node`. dist/server-core.js (built from
 * main.ts) runs first and answers `initialize`; it then runs dist/server-wiring.js (the rest of the
 * server) through the loader this entry leaves in a global slot (RUN_BUNDLE).
 *
 * The cache is one file for the bundles, per V8 and per architecture in the user's cache folder
 * (`code-cache` under `$XDG_CACHE_HOME/catalog-lens`, `~/.cache/catalog-lens`,
 * `~/Library/Caches/catalog-lens` or `%LOCALAPPDATA%\catalog-lens\Cache`), or in the folder
 * `CATALOG_LENS_CODE_CACHE` names; that variable set to `off` turns it off. A folder made here is
 * private (0700); one that another user owns, or that others may write to, is not used, nor a file
 * there that is not a regular file of this user, since its bytes become code in this process
 * (codeCache.ts). The file holds the CRC-32 of V8's data for each bundle, checked before V8 sees it
 * (V8 checks only a header) when that bundle is loaded. V8 refuses data made by another V8 or for
 * another text; then the bundle is compiled as if there were none, and the cache written again.
 * The file is written when the server's first burst of work has ended (the server claims the write
 * through CODE_CACHE_WRITER: so what the first requests compiled is in it, and the write does not
 * fall among them), or else a few seconds after the last bundle that needed it was loaded, to a
 * temporary name synced and renamed into place: two servers starting together never read half a
 * file. Nothing here may stop the server: any failure means
 * no cache.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import {
  codeCacheFile,
  codeCacheFolder,
  readCodeCachePart,
  removeOtherCaches,
  sealCodeCache,
  unsafeFolder,
  type CodeCachePart,
} from './codeCache';
import {
  CODE_CACHE_STATUS,
  CODE_CACHE_WRITER,
  RUN_BUNDLE,
  type CodeCacheStatus,
  type CodeCacheWriter,
  type RunBundle,
} from '../../model/src/codeCache';

/** The sha256 of the server's bundles (BUNDLES, in order), written in at build time (scripts/build.mjs). */
declare const SERVER_BUNDLES_HASH: string;

/** The server's bundles beside this entry, in the order of their parts in a cache file; the first runs at start. */
const BUNDLES = ['server-core.js', 'server-wiring.js'];

/** How long after the last bundle that needed it was loaded the cache is written, unless the server claimed the write. */
const WRITE_AFTER_MS = 3_000;
/** Claimed by the server (written when it is first idle): written at the latest this long after that bundle was loaded. */
const WRITE_AT_THE_LATEST_MS = 60_000;

/** What became of a bundle's part of the cache file. */
type Outcome = 'used' | 'refused' | 'damaged' | 'absent';

/** The state a log line tells, from what became of each bundle loaded so far. */
function stateOf(outcomes: readonly Outcome[], found: boolean): string {
  if (outcomes.includes('damaged')) return 'damaged: writing a new one';
  if (outcomes.includes('refused')) return 'refused by V8: writing a new one';
  if (outcomes.includes('absent')) return found ? 'incomplete: writing a new one' : 'none yet: writing one';
  return 'used';
}

/**
 * The user's home folder, as os.homedir() finds it: that looks first at HOME (USERPROFILE on
 * Windows), and only without it asks the system. node:os is loaded only then (its module is
 * loaded on first use in this bundle, scripts/build.mjs: ~0.4 ms of a start otherwise).
 */
function homeFolder(): string {
  const named = process.env[process.platform === 'win32' ? 'USERPROFILE' : 'HOME'];
  return named !== undefined && named !== '' ? named : homedir();
}

/**
 * Runs the bundles of `dir`: the first now, the others when it asks for them (RUN_BUNDLE). Each
 * reads its own part of the cache file when it is loaded.
 */
function startBundles(dir: string): void {
  const status: CodeCacheStatus = { state: 'off' };
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS] = status;
  const uid = process.getuid?.();
  let cacheFile: string | undefined;
  try {
    const folder = codeCacheFolder(process.env, process.platform, homeFolder());
    const why = folder === undefined ? undefined : unsafeFolder(folder, uid);
    if (why !== undefined) status.state = `not used: ${why}`;
    else if (folder !== undefined && typeof SERVER_BUNDLES_HASH === 'string') {
      const stats = BUNDLES.map((name) => statSync(join(dir, name)));
      const size = stats.reduce((sum, st) => sum + st.size, 0);
      const mtimeMs = Math.max(...stats.map((st) => st.mtimeMs));
      cacheFile = codeCacheFile(folder, SERVER_BUNDLES_HASH, size, mtimeMs);
      status.folder = folder;
    }
  } catch (e) {
    // No home folder (a container's user without one) or the like: no cache.
    cacheFile = undefined;
    status.state = `not used: ${(e as Error).message}`;
  }

  const scripts: Array<Script | undefined> = [];
  const outcomes: Outcome[] = [];
  let found = false;
  let timer: NodeJS.Timeout | undefined;
  /** The cache file a write is due to, once a bundle was loaded without its data. */
  let due: string | undefined;
  /** The server writes it when idle (CODE_CACHE_WRITER): the timer is the latest time only. */
  let claimed = false;
  const arm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(writeDue, claimed ? WRITE_AT_THE_LATEST_MS : WRITE_AFTER_MS).unref();
  };
  const writeDue = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const file = due;
    due = undefined;
    if (file !== undefined) write(file);
  };
  const writer: CodeCacheWriter = {
    whenIdle: () => {
      claimed = true;
      if (due !== undefined) arm();
      return writeDue;
    },
  };
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_WRITER] = writer;
  const write = (file: string): void => {
    // A bundle not loaded yet keeps the part the file had for it, when that was whole.
    const data = BUNDLES.map((_, i) => {
      const script = scripts[i];
      if (script !== undefined) return script.createCachedData();
      const kept = readCodeCachePart(file, uid, i).part;
      return Buffer.isBuffer(kept) ? kept : Buffer.alloc(0);
    });
    writeCache(file, data, status);
  };

  const run = (index: number, file: string): unknown => {
    let given: CodeCachePart = 'absent';
    if (cacheFile !== undefined) {
      const read = readCodeCachePart(cacheFile, uid, index);
      given = read.part;
      found ||= read.found;
    }
    const cachedData = Buffer.isBuffer(given) ? given : undefined;
    const source = readFileSync(file, 'utf8');
    const script = new Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
    scripts[index] = script;
    if (cacheFile !== undefined) {
      const target = cacheFile;
      outcomes[index] = cachedData
        ? script.cachedDataRejected
          ? 'refused'
          : 'used'
        : given === 'damaged'
          ? 'damaged'
          : 'absent';
      status.state = stateOf(outcomes, found);
      if (outcomes[index] === 'used') status.bytes = (status.bytes ?? 0) + cachedData!.length;
      else {
        due = target;
        arm();
      }
    }
    const wrapper = script.runInThisContext() as (
      exports: unknown,
      require: NodeJS.Require,
      module: Module,
      filename: string,
      dirname: string,
    ) => void;
    const mod = new Module(file, module);
    mod.filename = file;
    mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
    wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
    mod.loaded = true;
    return mod.exports;
  };

  const runBundle: RunBundle = (file) => {
    const index = BUNDLES.indexOf(basename(file));
    if (index < 1 || resolve(dirname(file)) !== resolve(dir))
      throw new Error(`${file} is not one of the server's bundles`);
    return run(index, file);
  };
  (globalThis as Record<symbol, unknown>)[RUN_BUNDLE] = runBundle;
  run(0, join(dir, BUNDLES[0]!));
}

function writeCache(file: string, data: Buffer[], status: CodeCacheStatus): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeFileSync(fd, sealCodeCache(...data));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    status.bytes = data.reduce((sum, d) => sum + d.length, 0);
    removeOtherCaches(dirname(file), file);
  } catch (e) {
    status.state = `not written: ${(e as Error).message}`;
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do: the next start compiles the bundles again.
    }
  }
}

// Run as a process's main module or required by a launcher (bin/catalog-lens-server.js).
startBundles(__dirname);
