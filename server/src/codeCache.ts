/**
 * Where the server's entry (boot.ts) keeps V8's code cache of the server bundle, and which folders
 * it refuses: a file there becomes code in the server's process.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The environment variable that names the cache folder, or turns the cache off (`off`). */
export const CODE_CACHE_ENV = 'CATALOG_LENS_CODE_CACHE';

/**
 * The folder the cache lives in, or undefined when it is off or there is no home to put it in: a
 * `code-cache` folder of its own in the user's cache folder (where `npm start` also keeps the editor
 * it installs).
 */
export function codeCacheFolder(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string | undefined,
): string | undefined {
  const named = env[CODE_CACHE_ENV];
  if (named !== undefined && named !== '') return named === 'off' ? undefined : path.resolve(named);
  if (platform === 'win32') {
    const local = env['LOCALAPPDATA'] || (home ? path.join(home, 'AppData', 'Local') : undefined);
    return local ? path.join(local, 'catalog-lens', 'Cache', 'code-cache') : undefined;
  }
  if (!home) return undefined;
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'catalog-lens', 'code-cache');
  const xdg = env['XDG_CACHE_HOME'];
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'catalog-lens', 'code-cache');
}

/**
 * Why `folder` may not hold code for this process (undefined: it may): made here if missing,
 * private; on POSIX it must be a real folder (not a link) of this user that no one else may write.
 */
export function unsafeFolder(folder: string, uid: number | undefined): string | undefined {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(folder);
    if (!st.isDirectory()) return `${folder} is not a folder`;
    if (uid === undefined) return undefined;
    if (st.uid !== uid) return `${folder} belongs to another user`;
    if ((st.mode & 0o022) !== 0) return `others may write to ${folder}`;
    return undefined;
  } catch (e) {
    return `${folder}: ${(e as Error).message}`;
  }
}

/** The cache file of the bundle whose sha256 is `hash`, for this V8 and architecture. */
export function codeCacheFile(folder: string, hash: string): string {
  const v8 = process.versions.v8.replace(/[^0-9A-Za-z.-]/g, '_');
  return path.join(folder, `server-${hash.slice(0, 16)}-v8-${v8}-${process.arch}.bin`);
}
