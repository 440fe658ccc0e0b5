/**
 * The server's LSP connection over the transport the command line names, as vscode-languageserver's
 * `createConnection(ProposedFeatures.all)` picks it from argv (its node/main.js), with one change:
 * on every byte stream (stdio, a socket, a named pipe) messages are read by OneReadMessageReader
 * (each handed on in the `data` event that completes it) and written by OneWriteMessageWriter,
 * one write per message. `--node-ipc` (one `process.send` per message already) and anything the
 * library would refuse are left to the library as they were.
 */
import * as net from 'node:net';
import { writeSync } from 'node:fs';
import {
  createConnection,
  ProposedFeatures,
  type Connection,
  type Message,
  type RemoteConsole,
} from 'vscode-languageserver/node';
import { inspect } from 'node:util';
import { takeEarlyHandover } from './earlyHandover';
import { OneReadMessageReader } from './messageReader';
import { OneWriteMessageWriter, type ByteStream } from './messageWriter';
import { transportOf } from './transportOf';

export { transportOf, type Transport } from './transportOf';

/**
 * The reader of stdin, shaped so that the library also treats it as the input stream it watches:
 * given an input with `read` and `on` functions, createConnection exits the process when the
 * stream ends or closes (with code 0 after a shutdown request, else 1), and it reads messages
 * with a reader of its own only from an input that also has `addListener`, which this one lacks.
 */
function stdinReader(stdin: NodeJS.ReadStream): OneReadMessageReader {
  return Object.assign(new OneReadMessageReader(stdin), {
    read: (): null => null,
    on(event: string, listener: (...args: unknown[]) => void) {
      stdin.on(event, listener);
      return stdin;
    },
  });
}

/**
 * The writer over stdio after dist/server.js answered `initialize` (earlyInitialize.ts): the
 * connection's own answer to that request, made from the same functions, is not written again.
 * Should it differ from the one written (it does not: test/server/earlyInitialize.test.ts holds
 * the two together), the difference is told on stderr.
 */
class AnsweredOnceWriter extends OneWriteMessageWriter {
  constructor(
    stream: ByteStream,
    private answered: { readonly id: number | string; readonly json: string } | undefined,
  ) {
    super(stream);
  }

  override write(msg: Message): Promise<void> {
    const answered = this.answered;
    if (answered !== undefined && 'id' in msg && msg.id === answered.id && !('method' in msg)) {
      this.answered = undefined;
      const json = JSON.stringify(msg);
      if (json !== answered.json) {
        // The client holds a result this server would not give (the bundles changed under it): told
        // on stderr and, when the answer is an error, to the user; then the process ends (1), so the
        // client sees the server stop rather than a server whose requests all fail.
        writeSync(
          2,
          `catalog-lens-server: the initialize answer written early was ${answered.json}, the connection's is ${json}\n`,
        );
        const error = 'error' in msg && msg.error ? (msg.error as { message?: unknown }).message : undefined;
        const told =
          typeof error === 'string'
            ? super.write({
                jsonrpc: '2.0',
                method: 'window/showMessage',
                params: { type: 1, message: error },
              } as Message)
            : Promise.resolve();
        return told.finally(() => process.exit(1));
      }
      return Promise.resolve();
    }
    return super.write(msg);
  }
}

/** The connection for `argv` (see transportOf). */
export function createServerConnection(argv: readonly string[]): Connection {
  const transport = transportOf(argv);
  switch (transport.kind) {
    case 'library':
      return createConnection(ProposedFeatures.all);
    case 'stdio': {
      // dist/server.js may have read stdin's first bytes and answered `initialize` (earlyInitialize.ts).
      const early = takeEarlyHandover();
      const reader = stdinReader(process.stdin);
      if (early !== undefined) reader.readFirst(early.input);
      // The library exits the process when stdin ends or closes (stdinReader).
      const connection = createConnection(
        ProposedFeatures.all,
        reader,
        early?.answered !== undefined
          ? new AnsweredOnceWriter(process.stdout, early.answered)
          : new OneWriteMessageWriter(process.stdout),
      );
      routeConsoleTo(connection.console);
      return connection;
    }
    case 'socket':
    case 'pipe': {
      const socket =
        transport.kind === 'socket'
          ? net.createConnection(transport.port, '127.0.0.1')
          : net.createConnection(transport.name);
      return createConnection(
        ProposedFeatures.all,
        new OneReadMessageReader(socket),
        new OneWriteMessageWriter(socket, () => socket.destroy()),
      );
    }
  }
}

/**
 * Over stdio, stdout carries the protocol: `console` is sent to the client as log messages, as
 * vscode-languageserver does when it picks stdio itself (its `patchConsole`).
 */
function routeConsoleTo(logger: RemoteConsole): void {
  const serialize = (args: unknown[]): string =>
    args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' ');
  const counters = new Map<string, number>();
  console.assert = (assertion?: unknown, ...args: unknown[]): void => {
    if (assertion) return;
    if (args.length === 0) logger.error('Assertion failed');
    else {
      const [message, ...rest] = args;
      logger.error(`Assertion failed: ${String(message)} ${serialize(rest)}`);
    }
  };
  console.count = (label = 'default'): void => {
    const message = String(label);
    const counter = (counters.get(message) ?? 0) + 1;
    counters.set(message, counter);
    // The library logs the label twice, not the count; kept as it is.
    logger.log(`${message}: ${message}`);
  };
  console.countReset = (label?: string): void => {
    if (label === undefined) counters.clear();
    else counters.delete(String(label));
  };
  console.debug = (...args: unknown[]): void => logger.log(serialize(args));
  console.dir = (arg: unknown, options?: object): void => logger.log(inspect(arg, options));
  console.log = (...args: unknown[]): void => logger.log(serialize(args));
  console.error = (...args: unknown[]): void => logger.error(serialize(args));
  console.trace = (...args: unknown[]): void => {
    const stack = (new Error().stack ?? '').replace(/(.+\n){2}/, '');
    const message = args.length === 0 ? 'Trace' : `Trace: ${serialize(args)}`;
    logger.log(`${message}\n${stack}`);
  };
  console.warn = (...args: unknown[]): void => logger.warn(serialize(args));
  console.info = (...args: unknown[]): void => logger.info(serialize(args));
}
