/**
 * Where the server's entry (boot.ts) keeps V8's code cache of the server bundle, and which folders
 * it refuses: a file there becomes code in the server's process.
 */
import { createHash } from 'node:crypto';
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

/**
 * The cache file of the bundle whose sha256 is `hash` (as the build wrote it), of `size` bytes last
 * written at `mtimeMs` (a bundle rewritten without its entry gets another file), for this V8 and
 * architecture.
 */
export function codeCacheFile(folder: string, hash: string, size: number, mtimeMs: number): string {
  const v8 = process.versions.v8.replace(/[^0-9A-Za-z.-]/g, '_');
  const stamp = `${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}`;
  return path.join(folder, `server-${hash.slice(0, 16)}-${stamp}-v8-${v8}-${process.arch}.bin`);
}

/** The first bytes of a cache file: its format, then the sha256 of the V8 data after them. */
const SEAL = Buffer.from('catalog-lens code cache 1\n', 'latin1');
const DIGEST = 32;

/** The file's bytes for V8's `data`: the seal, the data's sha256, the data. */
export function sealCodeCache(data: Buffer): Buffer {
  return Buffer.concat([SEAL, createHash('sha256').update(data).digest(), data]);
}

/**
 * The V8 data of a cache file's bytes, or undefined when they are not whole (a torn write, a flipped
 * bit, another format): V8 itself checks only a header, and would run damaged code.
 */
export function openCodeCache(bytes: Buffer): Buffer | undefined {
  if (bytes.length <= SEAL.length + DIGEST || !bytes.subarray(0, SEAL.length).equals(SEAL)) return undefined;
  const digest = bytes.subarray(SEAL.length, SEAL.length + DIGEST);
  const data = bytes.subarray(SEAL.length + DIGEST);
  return createHash('sha256').update(data).digest().equals(digest) ? data : undefined;
}

/**
 * The bytes of the cache file, if it is a regular file of this user that no one else may write
 * (checked on the open file, so it cannot be swapped after the check); undefined otherwise.
 */
export function readCodeCache(file: string, uid: number | undefined): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** How many cache files of other bundles or V8s are kept (another editor may run another version). */
export const OTHER_CACHES_KEPT = 3;

/**
 * Removes from `folder` all but the newest OTHER_CACHES_KEPT cache files of other bundles and V8s
 * (each update leaves one behind; another editor's server of another version keeps its own).
 */
export function removeOtherCaches(folder: string, keep: string): void {
  const others = fs
    .readdirSync(folder)
    .filter((name) => /^server-.*\.bin$/.test(name) && name !== path.basename(keep))
    .map((name) => ({ name, at: fs.statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of others.slice(OTHER_CACHES_KEPT)) fs.rmSync(path.join(folder, old.name), { force: true });
}
