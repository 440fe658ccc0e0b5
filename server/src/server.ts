/**
 * The server's start: `initialize` is answered from what the editor declared (capabilities.ts),
 * then the wiring (wiring.ts: the pieces and every other handler) is set up before the next
 * message is handled. The shipped build makes the wiring a bundle of its own (scripts/build.mjs),
 * loaded only when `initialize` has been answered: what a start costs before the editor hears back
 * is the connection and this module, not the features, scanners and catalog client.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';
import { readClientSession, type ClientSession } from './clientSession';
import { initializeResult } from './capabilities';
import { wireServer, type Runtime, type WiredServer } from './wiring';

export type { Runtime } from './wiring';

/**
 * In the server's first bundle, written in by scripts/build.mjs: the wiring's bundle beside it and
 * the build both were made by. Not defined when the wiring is a module of this process (out/).
 */
declare const CATALOG_LENS_WIRING_FILE: string | undefined;
/** The first line of that bundle, which names the build (scripts/build.mjs). */
declare const CATALOG_LENS_BUILD_LINE: string;

export function startServer(connection: Connection, runtime: Runtime): void {
  let wired: WiredServer | undefined;
  // Until the wiring is set up, every request but `initialize` is answered as the LSP says: not
  // initialized. Removed once it is, so a request with no handler is then "unhandled method".
  const notInitialized = connection.onRequest(
    (method) => new ResponseError(ErrorCodes.ServerNotInitialized, `catalog-lens-server: ${method} before initialize`),
  );
  connection.onInitialize((params) => {
    const problem = wiringProblem();
    if (problem !== undefined) return new ResponseError(ErrorCodes.InternalError, problem, { retry: false });
    const session = readClientSession(params, runtime.env);
    if (wired) wired.initialize(session);
    // The connection handles each message in a setImmediate of its own, queued once the one before
    // it is under way: this one, queued now, runs before the next message (an `initialized` or a
    // request sent together with it) is handled. For the shipped transports (transport/connection.ts:
    // their writers write a message at once) it also runs after the result below is written; with
    // the library's StreamMessageWriter (which writes after a promise settles) it may run before
    // the result is written, so the editor then hears back only once the wiring is loaded.
    else
      setImmediate(() => {
        wired = wire(connection, runtime, session);
        notInitialized.dispose();
      });
    return initializeResult(session);
  });
  connection.listen();
}

/**
 * Why the wiring's bundle cannot be loaded, told before the `initialize` result (an editor shows
 * an error answer to the user): the file is not beside this bundle, or its first line names
 * another build. A cheap check (the file's first bytes), made only when the wiring is a file of
 * its own.
 */
function wiringProblem(): string | undefined {
  if (typeof CATALOG_LENS_WIRING_FILE !== 'string') return undefined;
  const file = join(__dirname, CATALOG_LENS_WIRING_FILE);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return `catalog-lens-server: ${file} is missing (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); reinstall the extension`;
  }
  const head = Buffer.alloc(CATALOG_LENS_BUILD_LINE.length);
  try {
    readSync(fd, head, 0, head.length, 0);
  } catch (e) {
    return `catalog-lens-server: ${file} cannot be read (${(e as Error).message}); reinstall the extension`;
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== CATALOG_LENS_BUILD_LINE)
    return `catalog-lens-server: ${file} is from another build than ${__filename}; reinstall the extension`;
  return undefined;
}

/**
 * wireServer, or the process's end when the wiring cannot be loaded (dist/server-wiring.js missing
 * or broken): without it every request would be "unhandled"; an editor restarts a server that
 * exited and tells the user when it keeps failing.
 */
function wire(connection: Connection, runtime: Runtime, session: ClientSession): WiredServer {
  try {
    return wireServer(connection, runtime, session);
  } catch (e) {
    // Written at once: process.stderr may be a pipe written asynchronously, lost at the exit.
    writeSync(2, `catalog-lens-server: the server could not be set up: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  }
}
