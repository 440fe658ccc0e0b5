/**
 * How `npm start` hands the token of the local catalog it started to the extension: two
 * environment variables on the editor's process, the catalog's URL and the path of the file that
 * holds the token (.catalog-lens/catalog.token, mode 0600). The extension reads them at activation
 * and stores the token in SecretStorage for that origin, so the language server starts with it.
 * A path, not the token itself: the editor's environment is inherited by every terminal, task and
 * process it starts, and a file only its owner can read stays out of all of them.
 * No `vscode` here, so the rules are unit-tested on their own.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

export const HAND_OFF_URL_ENV = 'CATALOG_LENS_LOCAL_CATALOG_URL';
export const HAND_OFF_TOKEN_FILE_ENV = 'CATALOG_LENS_LOCAL_CATALOG_TOKEN_FILE';

export type HandOff =
  { kind: 'none' } | { kind: 'token'; origin: string; token: string } | { kind: 'error'; message: string };

/** The longest token accepted; the catalog's own are 43 characters. */
const MAX_TOKEN_LENGTH = 4096;

export interface HandOffFs {
  readFile(file: string): string;
  /** The file's permission bits, or undefined where they mean nothing (Windows). */
  mode(file: string): number | undefined;
}

const realFs: HandOffFs = {
  readFile: (file) => readFileSync(file, 'utf8'),
  mode: (file) => (process.platform === 'win32' ? undefined : statSync(file).mode & 0o777),
};

/**
 * The token handed over in `env`, or why it cannot be used. Only a plain-HTTP loopback origin is
 * accepted: the hand-off is for a catalog on this machine, and a token read from a file is never
 * sent anywhere else.
 */
export function readHandOff(env: NodeJS.ProcessEnv, fs: HandOffFs = realFs): HandOff {
  const url = env[HAND_OFF_URL_ENV]?.trim() ?? '';
  const file = env[HAND_OFF_TOKEN_FILE_ENV]?.trim() ?? '';
  if (url === '' && file === '') return { kind: 'none' };
  if (url === '' || file === '') {
    return {
      kind: 'error',
      message: `${url === '' ? HAND_OFF_URL_ENV : HAND_OFF_TOKEN_FILE_ENV} is not set, but ${url === '' ? HAND_OFF_TOKEN_FILE_ENV : HAND_OFF_URL_ENV} is: set both or neither`,
    };
  }
  const origin = loopbackOrigin(url);
  if (!origin)
    return {
      kind: 'error',
      message: `${HAND_OFF_URL_ENV} must be http://127.0.0.1:PORT or http://localhost:PORT (the local catalog), not ${JSON.stringify(url)}`,
    };
  if (!path.isAbsolute(file))
    return {
      kind: 'error',
      message: `${HAND_OFF_TOKEN_FILE_ENV} must be an absolute path, not ${JSON.stringify(file)}`,
    };
  let text: string;
  let mode: number | undefined;
  try {
    mode = fs.mode(file);
    text = fs.readFile(file);
  } catch (e) {
    return {
      kind: 'error',
      message: `cannot read the local catalog's token file ${file}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  if (mode !== undefined && (mode & 0o077) !== 0) {
    return {
      kind: 'error',
      message: `the local catalog's token file ${file} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); it is not used: run \`chmod 600\` on it`,
    };
  }
  const token = text.trim();
  if (token === '') return { kind: 'error', message: `the local catalog's token file ${file} is empty` };
  if (token.length > MAX_TOKEN_LENGTH || /\s/.test(token)) {
    return {
      kind: 'error',
      message: `the local catalog's token file ${file} does not hold one token (it has whitespace inside, or more than ${MAX_TOKEN_LENGTH} characters)`,
    };
  }
  return { kind: 'token', origin, token };
}

function loopbackOrigin(text: string): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return undefined;
  }
  const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost';
  if (
    u.protocol !== 'http:' ||
    !loopback ||
    u.username ||
    u.password ||
    (u.pathname !== '/' && u.pathname !== '') ||
    u.search ||
    u.hash
  )
    return undefined;
  return u.origin;
}
