/**
 * The database file is private to its user: other users of the machine must not read the catalog.
 * The folder the catalog creates for it is 0700; the file is created 0600 before SQLite
 * opens it, and SQLite gives the -wal and -shm files it creates the mode of the database file
 * (unix VFS, `findCreateFileMode`). Files an older version left readable by others are narrowed
 * to their owner when this user owns them.
 */
import { closeSync, constants, existsSync, mkdirSync, openSync, statSync, chmodSync } from 'node:fs';
import * as path from 'node:path';

export const DB_FILE_MODE = 0o600;
export const DB_DIR_MODE = 0o700;

export function prepareDatabaseFile(file: string): void {
  if (file === '' || file === ':memory:') return;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: DB_DIR_MODE });
  try {
    closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, DB_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const uid = process.getuid?.();
  if (uid === undefined) return;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(f)) continue;
    const st = statSync(f);
    if (st.uid === uid && (st.mode & 0o077) !== 0) chmodSync(f, st.mode & 0o700);
  }
}
