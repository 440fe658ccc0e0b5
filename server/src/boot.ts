/**
 * dist/server.js, the language server's process entry as shipped: it runs the server bundle beside
 * it (dist/server-core.js, built from main.ts) through V8's code cache, so a start after the first
 * does not compile the bundle again. Compiling it is most of what a start costs over a bare `node`.
 *
 * The cache is one file per bundle, per V8 and per architecture in the user's cache folder
 * (`code-cache` under `$XDG_CACHE_HOME/catalog-lens`, `~/.cache/catalog-lens`,
 * `~/Library/Caches/catalog-lens` or `%LOCALAPPDATA%\catalog-lens\Cache`), or in the folder
 * `CATALOG_LENS_CODE_CACHE` names; that variable set to `off` turns it off. A folder made here is
 * private (0700); one that another user owns, or that others may write to, is not used, nor a file
 * there that is not a regular file of this user, since its bytes become code in this process
 * (codeCache.ts). The file holds the sha256 of V8's data, checked before V8 sees it (V8 checks only
 * a header). V8 refuses data made by another V8 or for another text; then the bundle is compiled as
 * if there were none, and the cache written again. The file is written a few seconds after the
 * start (so what the first requests compiled is in it), once, to a temporary name synced and
 * renamed into place: two servers starting together never read half a file. Nothing here may stop
 * the server: any failure means no cache.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import {
  codeCacheFile,
  codeCacheFolder,
  openCodeCache,
  readCodeCache,
  removeOtherCaches,
  sealCodeCache,
  unsafeFolder,
} from './codeCache';
import { CODE_CACHE_STATUS, type CodeCacheStatus } from '../../model/src/codeCache';

/** The sha256 of dist/server-core.js, written in at build time (scripts/build.mjs). */
declare const SERVER_CORE_HASH: string;

/** How long after the start the cache is written. */
const WRITE_AFTER_MS = 3_000;

/** Runs the CommonJS bundle `file` as `require` would, with the code cache when there is one. */
function runBundle(file: string): void {
  const status: CodeCacheStatus = { state: 'off' };
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS] = status;
  const uid = process.getuid?.();
  let cacheFile: string | undefined;
  let found: Buffer | undefined;
  try {
    const folder = codeCacheFolder(process.env, process.platform, os.homedir());
    const why = folder === undefined ? undefined : unsafeFolder(folder, uid);
    if (why !== undefined) status.state = `not used: ${why}`;
    else if (folder !== undefined && typeof SERVER_CORE_HASH === 'string') {
      const core = fs.statSync(file);
      cacheFile = codeCacheFile(folder, SERVER_CORE_HASH, core.size, core.mtimeMs);
      status.folder = folder;
      found = readCodeCache(cacheFile, uid);
    }
  } catch (e) {
    // No home folder (a container's user without one) or the like: no cache.
    cacheFile = undefined;
    status.state = `not used: ${(e as Error).message}`;
  }
  const cachedData = found === undefined ? undefined : openCodeCache(found);
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (cacheFile !== undefined) {
    const used = cachedData !== undefined && !script.cachedDataRejected;
    status.state = used
      ? 'used'
      : cachedData
        ? 'refused by V8: writing a new one'
        : found
          ? 'damaged: writing a new one'
          : 'none yet: writing one';
    if (used) status.bytes = cachedData.length;
    else setTimeout(() => writeCache(script, cacheFile, status), WRITE_AFTER_MS).unref();
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
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
}

function writeCache(script: vm.Script, file: string, status: CodeCacheStatus): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, sealCodeCache(data));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
    status.bytes = data.length;
    removeOtherCaches(path.dirname(file), file);
  } catch (e) {
    status.state = `not written: ${(e as Error).message}`;
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do: the next start compiles the bundle again.
    }
  }
}

// Run as a process's main module or required by a launcher (bin/catalog-lens-server.js).
runBundle(path.join(__dirname, 'server-core.js'));
