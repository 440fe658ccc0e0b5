/**
 * Where the server's entry (boot.ts) keeps V8's code cache of the server's bundles, and which
 * folders it refuses: a file there becomes code in the server's process. (Named imports only: a
 * namespace import of a Node module costs a copy of all its exports in the bundle, at every start.)
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, isAbsolute, join, posix, resolve, win32 } from 'node:path';
import { crc32 } from 'node:zlib';

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
  if (named !== undefined && named !== '') return named === 'off' ? undefined : resolve(named);
  // A relative home (HOME=.) would put the cache in the folder the server was started in: a
  // workspace, whose files a cloned repository brings. None then.
  const absolute = (p: string): boolean => (platform === 'win32' ? win32 : posix).isAbsolute(p);
  if (home !== undefined && !absolute(home)) home = undefined;
  if (platform === 'win32') {
    const appData = env['LOCALAPPDATA'];
    const local =
      (appData && absolute(appData) ? appData : undefined) ?? (home ? join(home, 'AppData', 'Local') : undefined);
    return local ? join(local, 'catalog-lens', 'Cache', 'code-cache') : undefined;
  }
  if (!home) return undefined;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'catalog-lens', 'code-cache');
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'catalog-lens', 'code-cache');
}

/**
 * Why `folder` may not hold code for this process (undefined: it may): made here if missing,
 * private; on POSIX it must be a real folder (not a link) of this user that no one else may write.
 */
export function unsafeFolder(folder: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const st = lstatSync(folder);
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
  return join(folder, `server-${hash.slice(0, 16)}-${stamp}-v8-${v8}-${process.arch}.bin`);
}

/**
 * A cache file holds V8's data for each of the server's bundles (dist/server-core.js, then
 * dist/server-wiring.js, which the first loads once `initialize` is answered): its format line,
 * the number of parts, each part's length and CRC-32, then the parts. Each part is checked when
 * its bundle is loaded, before V8 sees it (V8 itself checks only a header, and would run damaged
 * code); a part of length 0 is one the file does not hold.
 *
 * The check is against damage (a disk's, a copy's, a write cut short that the rename did not
 * hide): a CRC-32 finds every burst of up to 32 flipped bits and misses other damage once in 2^32.
 * It is no defence against a writer, and neither was the sha256 it replaced, kept in the same
 * file: what keeps others' bytes out is that the file and its folder must be this user's and
 * writable by no one else (unsafeFolder, openOwnFile), and its name (the bundles' hash, V8's
 * version). zlib's crc32 is used where Node has it (20.15 and later): loading node:zlib and
 * checking ~480 KB costs ~1 ms at start-up, node:crypto's sha256 ~3.5 ms (node:crypto loads a
 * dozen modules of its own). Older Nodes compute the same CRC here (crc32Portable).
 */
const SEAL = Buffer.from('catalog-lens code cache 3\n', 'latin1');
/** The bytes of each part's checksum in the table (a CRC-32, little-endian). */
const DIGEST = 4;
/** The most parts a file may name (a damaged count must not make a huge table). */
const MAX_PARTS = 16;

let crcTable: Int32Array | undefined;

/** The CRC-32 of `data` (ISO-HDLC, as zlib's crc32), computed byte by byte: for Nodes without zlib's crc32. */
export function crc32Portable(data: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** The checksum of `data` kept in a cache file's table: its CRC-32. */
function checksum(data: Buffer): number {
  return typeof crc32 === 'function' ? crc32(data) >>> 0 : crc32Portable(data);
}

/** The file's bytes for V8's data of each bundle, in order (an empty Buffer: none for that bundle). */
export function sealCodeCache(...parts: Buffer[]): Buffer {
  const table = Buffer.alloc(4 + parts.length * (4 + DIGEST));
  table.writeUInt32LE(parts.length, 0);
  parts.forEach((part, i) => {
    const at = 4 + i * (4 + DIGEST);
    table.writeUInt32LE(part.length, at);
    table.writeUInt32LE(checksum(part), at + 4);
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

/** Where each part of a cache file is, from its first bytes: the format line, the count and the table. */
interface Table {
  /** The length of the format line, the count and the table: where the first part starts. */
  readonly headLength: number;
  readonly spans: ReadonlyArray<{ start: number; end: number; digest: number }>;
  /** Where the last part ends: the length of a whole file. */
  readonly end: number;
}

/**
 * The table of a cache file whose first bytes are `head` (`undefined`: not this format, or a count
 * past MAX_PARTS); `more` when `head` is too short to hold the whole table (the bytes it needs).
 */
function tableOf(head: Buffer): Table | undefined | { more: number } {
  if (head.length < SEAL.length + 4) return { more: SEAL.length + 4 };
  if (!head.subarray(0, SEAL.length).equals(SEAL)) return undefined;
  const count = head.readUInt32LE(SEAL.length);
  if (count > MAX_PARTS) return undefined;
  const headLength = SEAL.length + 4 + count * (4 + DIGEST);
  if (head.length < headLength) return { more: headLength };
  const spans: Array<{ start: number; end: number; digest: number }> = [];
  let at = headLength;
  for (let i = 0; i < count; i++) {
    const entry = SEAL.length + 4 + i * (4 + DIGEST);
    const length = head.readUInt32LE(entry);
    spans.push({ start: at, end: at + length, digest: head.readUInt32LE(entry + 4) });
    at += length;
  }
  return { headLength, spans, end: at };
}

/** `data` if its checksum is `digest`, else `damaged`. */
function checked(data: Buffer, digest: number): Buffer | 'damaged' {
  return checksum(data) === digest ? data : 'damaged';
}

/**
 * The parts of a cache file's bytes, or undefined when they are not a cache file of this format
 * or their table does not match their length (a torn write, another format).
 */
export function codeCacheParts(bytes: Buffer): CodeCacheParts | undefined {
  const table = tableOf(bytes);
  if (table === undefined || 'more' in table || table.end !== bytes.length) return undefined;
  return {
    count: table.spans.length,
    part(index) {
      const span = table.spans[index];
      if (span === undefined || span.end === span.start) return 'absent';
      return checked(bytes.subarray(span.start, span.end), span.digest);
    },
  };
}

/** The file open for reading if it is a regular file of this user that no one else may write (checked on the open file). */
function openOwnFile(file: string, uid: number | undefined): { fd: number; size: number } | undefined {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const st = fstatSync(fd);
  if (st.isFile() && (uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0))) return { fd, size: st.size };
  closeSync(fd);
  return undefined;
}

/** `length` bytes of `fd` from `position`, or fewer if the file ends before. */
function readAt(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  for (let n = -1; got < length && n !== 0; got += n) n = readSync(fd, bytes, got, length - got, position + got);
  return bytes.subarray(0, got);
}

/**
 * One bundle's part of the cache file (index in the file's order), read alone: the format line and
 * table, then that part, checked against its CRC-32. `found` is false when there is no file this
 * process may use (none, a link, another user's, one others may write; checked on the open file, so it cannot be swapped after the check), and the
 * part is then `absent`; a file whose table does not match its length is `damaged`.
 */
export function readCodeCachePart(
  file: string,
  uid: number | undefined,
  index: number,
): { found: boolean; part: CodeCachePart } {
  let opened: { fd: number; size: number } | undefined;
  try {
    opened = openOwnFile(file, uid);
    if (opened === undefined) return { found: false, part: 'absent' };
    let table = tableOf(readAt(opened.fd, SEAL.length + 4, 0));
    if (table !== undefined && 'more' in table) table = tableOf(readAt(opened.fd, table.more, 0));
    if (table === undefined || 'more' in table || table.end !== opened.size) return { found: true, part: 'damaged' };
    const span = table.spans[index];
    if (span === undefined || span.end === span.start) return { found: true, part: 'absent' };
    const data = readAt(opened.fd, span.end - span.start, span.start);
    return { found: true, part: data.length === span.end - span.start ? checked(data, span.digest) : 'damaged' };
  } catch {
    return { found: false, part: 'absent' };
  } finally {
    if (opened !== undefined) closeSync(opened.fd);
  }
}

/** How many cache files of other bundles or V8s are kept (another editor may run another version). */
export const OTHER_CACHES_KEPT = 3;

/**
 * Removes from `folder` all but the newest OTHER_CACHES_KEPT cache files of other bundles and V8s
 * (each update leaves one behind; another editor's server of another version keeps its own).
 */
export function removeOtherCaches(folder: string, keep: string): void {
  const others = readdirSync(folder)
    .filter((name) => /^server-.*\.bin$/.test(name) && name !== basename(keep))
    .map((name) => ({ name, at: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of others.slice(OTHER_CACHES_KEPT)) rmSync(join(folder, old.name), { force: true });
}
