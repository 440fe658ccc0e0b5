/**
 * The workspace index's listing of a folder: the files workspace.ts listFiles lists (every file
 * with an extension of LANGUAGE_BY_EXTENSION, excluded and hidden folders passed over, no link
 * followed, in the same order), those of `languages` only, each with its language and its URI
 * (workspace.ts fileUri). Each folder is read with readdirSync, yielding to the event loop every
 * few folders or 8 ms (a thread-pool round trip per folder cost more than the reading); a path is its
 * folder's and its name (the folder's path is already normalized), and a URI its folder's URI and
 * its name when the name needs no encoding. test/server/listFolder.test.ts holds it to listFiles
 * and fileUri.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileUri, LANGUAGE_BY_EXTENSION } from '../workspace';

/** A listed file: its path, URI and language. */
export interface ListedFile {
  path: string;
  uri: string;
  languageId: string;
}

/** Folders read between two yields to the event loop, and the time after which it yields sooner (large folders, a slow disk). */
const FOLDERS_PER_TURN = 32;
const TURN_MS = 8;

/** A name that fileUri leaves as it is: RFC 3986's unreserved characters only. */
const PLAIN_NAME = /^[A-Za-z0-9\-._~]+$/;

/** Paths and URIs are joined by hand where paths are POSIX's; elsewhere by path.join and fileUri. */
const POSIX = process.platform !== 'win32';

export async function listFolder(
  root: string,
  exclude: readonly string[],
  languages: readonly string[],
  cancelled: () => boolean,
): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  let read = 0;
  let turnStarted = performance.now();
  const list = async (dir: string, top: boolean): Promise<void> => {
    if (cancelled()) return;
    if (++read % FOLDERS_PER_TURN === 0 || performance.now() - turnStarted > TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turnStarted = performance.now();
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folders are passed over, as listFiles does
    }
    // The folder's own path is normalized (path.join made it) below the root; the root's is joined once.
    const prefix = POSIX && !top ? (dir.endsWith('/') ? dir : `${dir}/`) : undefined;
    let uriPrefix: string | undefined;
    for (const e of entries) {
      const name = e.name;
      if (e.isDirectory()) {
        if (!exclude.includes(name) && !name.startsWith('.'))
          await list(prefix === undefined ? join(dir, name) : prefix + name, false);
      } else if (e.isFile()) {
        const languageId = LANGUAGE_BY_EXTENSION[extname(name).toLowerCase()];
        if (!languageId || !languages.includes(languageId)) continue;
        const path = prefix === undefined ? join(dir, name) : prefix + name;
        let uri: string;
        if (prefix !== undefined && PLAIN_NAME.test(name)) {
          uriPrefix ??= folderUriPrefix(dir);
          uri = uriPrefix === undefined ? fileUri(path) : uriPrefix + name;
        } else uri = fileUri(path);
        out.push({ path, uri, languageId });
      }
    }
  };
  await list(root, true);
  return out;
}

/** The URI of a file of the folder `dir` but for its name, when fileUri spells it that way; undefined otherwise. */
function folderUriPrefix(dir: string): string | undefined {
  // A lone surrogate makes fileUri fall back to pathToFileURL's spelling of the whole path.
  try {
    encodeURIComponent(dir);
  } catch {
    return undefined;
  }
  const uri = fileUri(dir);
  return uri.endsWith('/') ? uri : `${uri}/`;
}
