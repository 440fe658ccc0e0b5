/**
 * The server's start: `initialize` is answered from what the editor declared (capabilities.ts),
 * then the wiring (wiring.ts: the pieces and every other handler) is set up before the next
 * message is handled. The shipped build makes the wiring a bundle of its own (scripts/build.mjs),
 * loaded only when `initialize` has been answered: what a start costs before the editor hears back
 * is the connection and this module, not the features, scanners and catalog client.
 */
import type { Connection } from 'vscode-languageserver';
import { readClientSession } from './clientSession';
import { initializeResult } from './capabilities';
import { wireServer, type Runtime, type WiredServer } from './wiring';

export type { Runtime } from './wiring';

export function startServer(connection: Connection, runtime: Runtime): void {
  let wired: WiredServer | undefined;
  connection.onInitialize((params) => {
    const session = readClientSession(params, runtime.env);
    if (wired) wired.initialize(session);
    // The connection handles each message in a setImmediate of its own, queued once the one before
    // it is under way: this one, queued now, runs after the result below is written and before
    // the next message (an `initialized` or a request sent together with it) is handled.
    else setImmediate(() => (wired = wireServer(connection, runtime, session)));
    return initializeResult(session);
  });
  connection.listen();
}
