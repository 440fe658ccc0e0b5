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

/**
 * A cache file holds V8's data for each of the server's bundles (dist/server-core.js, then
 * dist/server-wiring.js, which the first loads once `initialize` is answered): its format line,
 * the number of parts, each part's length and sha256, then the parts. Each part is checked when
 * its bundle is loaded, before V8 sees it (V8 itself checks only a header, and would run damaged
 * code); a part of length 0 is one the file does not hold.
 */
const SEAL = Buffer.from('catalog-lens code cache 2\n', 'latin1');
const DIGEST = 32;
/** The most parts a file may name (a damaged count must not make a huge table). */
const MAX_PARTS = 16;

/** The file's bytes for V8's data of each bundle, in order (an empty Buffer: none for that bundle). */
export function sealCodeCache(...parts: Buffer[]): Buffer {
  const table = Buffer.alloc(4 + parts.length * (4 + DIGEST));
  table.writeUInt32LE(parts.length, 0);
  parts.forEach((part, i) => {
    const at = 4 + i * (4 + DIGEST);
    table.writeUInt32LE(part.length, at);
    createHash('sha256')
      .update(part)
      .digest()
      .copy(table, at + 4);
  });
  return Buffer.concat([SEAL, table, ...parts]);
}

/** One part of a cache file: V8's data, checked whole; `absent` (the file holds none), or `damaged`. */
export type CodeCachePart = Buffer | 'absent' | 'damaged';

/** The parts of a cache file, each checked when asked for. */
export interface CodeCacheParts {
  readonly count: number;
  part(index: number): CodeCachePart;
}

/**
 * The parts of a cache file's bytes, or undefined when they are not a cache file of this format
 * or their table does not match their length (a torn write, another format).
 */
export function codeCacheParts(bytes: Buffer): CodeCacheParts | undefined {
  if (bytes.length < SEAL.length + 4 || !bytes.subarray(0, SEAL.length).equals(SEAL)) return undefined;
  const count = bytes.readUInt32LE(SEAL.length);
  if (count > MAX_PARTS) return undefined;
  const table = SEAL.length + 4;
  let at = table + count * (4 + DIGEST);
  const spans: Array<{ start: number; end: number; digest: Buffer }> = [];
  for (let i = 0; i < count; i++) {
    const entry = table + i * (4 + DIGEST);
    if (entry + 4 + DIGEST > bytes.length) return undefined;
    const length = bytes.readUInt32LE(entry);
    spans.push({ start: at, end: at + length, digest: bytes.subarray(entry + 4, entry + 4 + DIGEST) });
    at += length;
  }
  if (at !== bytes.length) return undefined;
  return {
    count,
    part(index) {
      const span = spans[index];
      if (span === undefined || span.end === span.start) return 'absent';
      const data = bytes.subarray(span.start, span.end);
      return createHash('sha256').update(data).digest().equals(span.digest) ? data : 'damaged';
    },
  };
}

/**
 * V8's data of the first bundle, when the bytes are a whole cache file (every part it holds
 * checked); undefined otherwise (a torn write, a flipped bit, another format).
 */
export function openCodeCache(bytes: Buffer): Buffer | undefined {
  const parts = codeCacheParts(bytes);
  if (parts === undefined || parts.count === 0) return undefined;
  const all = Array.from({ length: parts.count }, (_, i) => parts.part(i));
  const first = all[0];
  return all.includes('damaged') || !Buffer.isBuffer(first) ? undefined : first;
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
