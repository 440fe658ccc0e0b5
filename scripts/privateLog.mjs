// A log file only its owner may read, for `npm start` (catalog.log, code-server.log in
// .catalog-lens/): the logs name the workspace, the catalog's requests and code-server's sessions.
// The folder is 0700 already; the files are 0600 too, should the folder ever be opened up.
import { createWriteStream, fchmodSync, openSync } from 'node:fs';

/**
 * Opens `file` for writing from the start: created 0600 whatever the umask, and a file left by an
 * older run (0644 before this rule) narrowed to 0600 before anything is written to it.
 * @param {string} file
 * @returns {import('node:fs').WriteStream}
 */
export function openPrivateLog(file) {
  const fd = openSync(file, 'w', 0o600);
  fchmodSync(fd, 0o600);
  return createWriteStream(file, { fd });
}
