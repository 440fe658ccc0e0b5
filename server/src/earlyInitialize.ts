/**
 * The `initialize` result over stdio before the LSP library is loaded. dist/server.js (boot.ts)
 * reads stdin's first message itself; when it is an `initialize` request it writes the result that
 * server.ts would write (the same functions: clientSession.ts, capabilities.ts, wiringCheck.ts),
 * and only then runs the server's first bundle. The connection made there gets every byte read so
 * far (the `initialize` request included) and handles it as it would have: the session, the wiring,
 * the library's own state (its process watchdog, trace, the features' client capabilities). Its
 * answer to that request is not written a second time (EarlyAnswer, transport/connection.ts).
 *
 * Anything else first (another method, a notification, a header or body the library would refuse,
 * params it would answer with an error, the wiring's bundle missing, stdin ending or failing
 * before a whole message) is left to the library as it is: the bytes are handed over unanswered.
 * Only `--stdio`: with node-ipc, a socket or a pipe the library reads the transport from the start.
 *
 * Free of the LSP library: this module is in dist/server.js, compiled at every start without the
 * code cache, so it stays small.
 */
import { initializeResult } from './capabilities';
import { readClientSession } from './clientSession';
import { EARLY_HANDOVER_SLOT, type EarlyHandover } from './transport/earlyHandover';
import { transportOf } from './transport/transportOf';
import { bundlesProblem } from './wiringCheck';

/** The first message of a stream, as far as it has come. */
export type FirstMessage =
  | { kind: 'incomplete' }
  /** Not an `initialize` request this module answers: left to the library. */
  | { kind: 'other' }
  | { kind: 'initialize'; id: number | string; params: Record<string, unknown> };

/** A header block longer than this, still without its end, is left to the library. */
const HEADER_MAX = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/**
 * The first message of `input`, read as the library's reader reads it (transport/messageReader.ts)
 * on the narrower set where the two surely agree: a header block of ASCII `key: value` lines ended
 * by CRLF (no other CR or LF in it), a `Content-Length` of digits (the last one wins), the body
 * UTF-8 JSON of a request (`method` "initialize", a number or string `id`, `params` an object
 * with a `capabilities` object). Anything else is `other`, even where the library would read it
 * the same: the library then reads it.
 */
export function readFirstMessage(input: Buffer): FirstMessage {
  const end = input.indexOf(HEADER_END);
  if (end < 0) return input.length > HEADER_MAX ? { kind: 'other' } : { kind: 'incomplete' };
  let length: number | undefined;
  for (const line of input.subarray(0, end).toString('latin1').split('\r\n')) {
    if (!/^[\x20-\x7e\t]*$/.test(line)) return { kind: 'other' };
    const colon = line.indexOf(':');
    if (colon < 0) return { kind: 'other' };
    if (line.slice(0, colon).toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^[0-9]{1,9}$/.test(value)) return { kind: 'other' };
    length = Number(value);
  }
  if (length === undefined) return { kind: 'other' };
  const start = end + HEADER_END.length;
  if (input.length < start + length) return { kind: 'incomplete' };
  let message: unknown;
  try {
    message = JSON.parse(input.subarray(start, start + length).toString('utf8'));
  } catch {
    return { kind: 'other' };
  }
  if (!isObject(message) || message['method'] !== 'initialize') return { kind: 'other' };
  const id = message['id'];
  const params = message['params'];
  if (typeof id !== 'number' && typeof id !== 'string') return { kind: 'other' };
  if (!isObject(params) || !isObject(params['capabilities'])) return { kind: 'other' };
  return { kind: 'initialize', id, params };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The response server.ts's `onInitialize` gives to this request, as the connection writes it
 * (its JSON, without the header), or undefined when it would be anything but a result (the
 * wiring's bundle cannot be loaded, the params make the session's reading throw).
 */
export function earlyResponseJson(
  id: number | string,
  params: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): string | undefined {
  try {
    if (bundlesProblem() !== undefined) return undefined;
    const session = readClientSession(params as unknown as Parameters<typeof readClientSession>[0], env);
    return JSON.stringify({ jsonrpc: '2.0', id, result: initializeResult(session) });
  } catch {
    return undefined;
  }
}

/** A message framed as the connection's writer frames it (transport/messageWriter.ts). */
export function frameJson(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

/** What earlyInitialize needs of the process. */
export interface EarlyProcess {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: { write(chunk: Uint8Array): unknown };
  /** The exit code when stdin ends before a whole first message (process.exitCode). */
  setExitCode?(code: number): void;
}

/**
 * When `argv` starts the server over stdio: reads stdin until its first message is whole (or is
 * not one this module answers, or stdin ends or fails), writes the `initialize` result when it can,
 * leaves the handover in its global slot and calls `start` (which runs the server's first bundle),
 * and answers true. Otherwise answers false and does nothing: the caller starts the server itself.
 */
export function earlyInitialize(proc: EarlyProcess, start: () => void): boolean {
  const argv = proc.argv;
  if (argv.includes('--version') || argv.includes('--help') || transportOf(argv).kind !== 'stdio') return false;
  const { stdin } = proc;
  const chunks: Buffer[] = [];
  let done = false;
  const handOver = (answered?: EarlyHandover['answered']): void => {
    if (done) return;
    done = true;
    stdin.removeListener('data', onData);
    stdin.removeListener('end', onEnd);
    stdin.removeListener('error', onEnd);
    const handover: EarlyHandover = { input: Buffer.concat(chunks), ...(answered ? { answered } : {}) };
    (globalThis as Record<symbol, unknown>)[Symbol.for(EARLY_HANDOVER_SLOT)] = handover;
    // Run now, in this event: the connection listens to stdin before its next `data` event.
    start();
  };
  const onData = (data: Buffer | string): void => {
    chunks.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    const input = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const first = readFirstMessage(input);
    if (first.kind === 'incomplete') return;
    if (first.kind === 'other') return handOver();
    const json = earlyResponseJson(first.id, first.params, proc.env);
    if (json === undefined) return handOver();
    proc.stdout.write(frameJson(json));
    handOver({ id: first.id, json });
  };
  // Ended or failed before a whole message: the library is started at once; its reader then sees
  // the stream close, and the library ends the process as it does when stdin ends, with 1 (no
  // shutdown came). A stdin that is a file or /dev/null ends without closing, after the library's
  // listeners could see it: the exit code is set here, as the library would set it.
  const onEnd = (): void => {
    proc.setExitCode?.(1);
    handOver();
  };
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  stdin.on('error', onEnd);
  return true;
}

export { EARLY_HANDOVER_SLOT, takeEarlyHandover, type EarlyHandover } from './transport/earlyHandover';
