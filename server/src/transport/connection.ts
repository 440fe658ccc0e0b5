/**
 * The server's LSP connection over the transport the command line names, as vscode-languageserver's
 * `createConnection(ProposedFeatures.all)` picks it from argv (its node/main.js), with one change:
 * on every byte stream (stdio, a socket, a named pipe) messages are read by OneReadMessageReader
 * (each handed on in the `data` event that completes it) and written by OneWriteMessageWriter,
 * one write per message. `--node-ipc` (one `process.send` per message already) and anything the
 * library would refuse are left to the library as they were.
 */
import * as net from 'node:net';
import { createConnection, ProposedFeatures, type Connection, type RemoteConsole } from 'vscode-languageserver/node';
import { inspect } from 'node:util';
import { OneReadMessageReader } from './messageReader';
import { OneWriteMessageWriter } from './messageWriter';

export type Transport =
  | { kind: 'stdio' }
  | { kind: 'socket'; port: number }
  | { kind: 'pipe'; name: string }
  /** --node-ipc, or no transport the library would accept: the library's own createConnection. */
  | { kind: 'library' };

/**
 * The transport of `argv` (process.argv without node and the script), read as vscode-languageserver
 * reads it: the first of `--node-ipc`, `--stdio`, `--socket N`, `--socket=N`, `--pipe NAME`,
 * `--pipe=NAME` wins; a port that does not parse to a number above 0, or an empty pipe name, is
 * no transport.
 */
export function transportOf(argv: readonly string[]): Transport {
  let port: number | undefined;
  let pipeName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--node-ipc') return { kind: 'library' };
    if (arg === '--stdio') return { kind: 'stdio' };
    if (arg === '--socket') {
      port = parseInt(argv[i + 1]!);
      break;
    }
    if (arg === '--pipe') {
      pipeName = argv[i + 1];
      break;
    }
    const parts = arg.split('=');
    if (parts[0] === '--socket') {
      port = parseInt(parts[1]!);
      break;
    }
    if (parts[0] === '--pipe') {
      pipeName = parts[1];
      break;
    }
  }
  if (port) return { kind: 'socket', port };
  if (pipeName) return { kind: 'pipe', name: pipeName };
  return { kind: 'library' };
}

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

/** The connection for `argv` (see transportOf). */
export function createServerConnection(argv: readonly string[]): Connection {
  const transport = transportOf(argv);
  switch (transport.kind) {
    case 'library':
      return createConnection(ProposedFeatures.all);
    case 'stdio': {
      // The library exits the process when stdin ends or closes (stdinReader).
      const connection = createConnection(
        ProposedFeatures.all,
        stdinReader(process.stdin),
        new OneWriteMessageWriter(process.stdout),
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
