/**
 * A JSON-RPC message writer for a byte stream (stdout, a socket, a named pipe) that writes each
 * message as one Buffer: the `Content-Length` header (the body's length in UTF-8 bytes) and the
 * body together (above 4 MiB, the two corked into one write instead of copied into one Buffer).
 * vscode-jsonrpc's `WriteableStreamMessageWriter` writes the header and then, once that write has
 * completed, the body: two system calls per message, and on a pipe the reading process may wake
 * for each. This writer keeps what that one promises the connection:
 *
 * - messages leave in the order `write` was called (each is encoded and handed to the stream in
 *   the call itself, and a stream keeps the order of its writes);
 * - `write` resolves when the stream has taken the message, and rejects when it failed;
 * - a failed write fires `onError` with the error, the message and the number of failed writes
 *   so far; an encoding failure fires it with the error alone;
 * - the stream's `error` and `close` events fire `onError` and `onClose`;
 * - `end` ends the stream; `dispose` silences the events (and, for a socket, destroys it); the
 *   stream keeps its listeners, so a late `error` is still handled.
 */
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';

/** What the writer needs of a stream: `write` with a callback and the two events. */
export interface ByteStream {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  end(): unknown;
  cork?(): void;
  uncork?(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** Below this many UTF-16 units, the body is encoded straight into the message's Buffer. */
const SMALL_JSON = 64 * 1024;
/** Above this many bytes, the header and the body are two chunks of one corked write (no copy). */
export const ONE_BUFFER_MAX = 4 * 1024 * 1024;

/** The global slot (`Symbol.for`) of the map of kept results, shared by every copy of this module. */
export const KEPT_JSON_SLOT = 'catalog-lens.keptJsonBytes';

const header = (length: number): string => `Content-Length: ${length}\r\n\r\n`;

/**
 * Results answered again as they are (a hover kept for a document version, a version's document
 * links): their JSON is made the first time one is written and kept with it, as UTF-8 bytes (a
 * golden file's 461 KB of links is then copied into the message, not encoded again). Such a result
 * is frozen, or (document links, thousands of objects) frozen at the top and never changed by its
 * one owner, so the JSON stays true.
 */
const keptJson = keptJsonSlot();

/**
 * The one map of kept results in the process. The server is two bundles (scripts/build.mjs: the
 * first, dist/server-core.js, holds the connection and this writer; the second,
 * dist/server-wiring.js, the features that mark their results with keepJsonOf), and each holds its
 * own copy of this module: with a map per copy, the writer never saw a result marked by the
 * features, and wrote every kept answer (a golden file's 461 KB of document links) with
 * JSON.stringify again. The map is kept in a global slot, so both copies share it.
 */
function keptJsonSlot(): WeakMap<object, Buffer | undefined> {
  const slot = globalThis as unknown as Record<symbol, WeakMap<object, Buffer | undefined> | undefined>;
  const key = Symbol.for(KEPT_JSON_SLOT);
  let map = slot[key];
  if (!(map instanceof WeakMap)) {
    map = new WeakMap<object, Buffer | undefined>();
    slot[key] = map;
  }
  return map;
}

/**
 * The longest JSON kept (UTF-8 bytes): a larger result (the links of a document of 20,000 URNs)
 * is written from JSON made each time, so that a kept answer does not double the memory it holds.
 */
export const KEPT_JSON_MAX = 4 * 1024 * 1024;

/**
 * The JSON kept for large results (at least LARGE_KEPT_JSON bytes each: a document's links) in all,
 * in UTF-8 bytes: past it the oldest large ones are dropped (made again if written again), so that
 * many open documents with large links do not each hold theirs. Smaller results are not counted.
 */
export const KEPT_JSON_TOTAL_MAX = 16 * 1024 * 1024;
const LARGE_KEPT_JSON = 64 * 1024;
/** The large kept results, oldest first, with their JSON's length (0 once gone or dropped); `keptLarge` the sum. */
let largeKept: Array<{ result: WeakRef<object>; length: number }> = [];
let keptLarge = 0;
let largeAlive = 0;
const forget = (entry: { length: number }): void => {
  keptLarge -= entry.length;
  entry.length = 0;
  largeAlive--;
};
const largeGone = new FinalizationRegistry<{ length: number }>((entry) => {
  if (entry.length > 0) forget(entry);
});

/** Keeps `json` (UTF-8 bytes) for `result`, within the budgets. */
function keepJson(result: object, json: Buffer): void {
  if (json.length > KEPT_JSON_MAX) return;
  if (json.length >= LARGE_KEPT_JSON) {
    while (keptLarge + json.length > KEPT_JSON_TOTAL_MAX && largeKept.length > 0) {
      const oldest = largeKept.shift()!;
      if (oldest.length === 0) continue;
      largeGone.unregister(oldest);
      const held = oldest.result.deref();
      forget(oldest);
      if (held) keptJson.set(held, undefined);
    }
    // The entries of results gone or dropped are let go once they are most of the list.
    if (largeKept.length >= 64 && largeKept.length > 2 * largeAlive) largeKept = largeKept.filter((e) => e.length > 0);
    const entry = { result: new WeakRef(result), length: json.length };
    largeKept.push(entry);
    largeGone.register(result, entry, entry);
    keptLarge += json.length;
    largeAlive++;
  }
  keptJson.set(result, json);
}

/** The JSON of large results kept now, in bytes (for tests). */
export function largeKeptJsonLength(): number {
  return keptLarge;
}

/** Marks `result` (frozen, with all it holds, or never changed) as one whose JSON the writer keeps; returns it. */
export function keepJsonOf<T extends object>(result: T): T {
  if (!keptJson.has(result)) keptJson.set(result, undefined);
  return result;
}

/**
 * A response `{jsonrpc, id, result}` (in that order, as the connection makes it) whose result is
 * kept (keepJsonOf): the JSON before the result (`{"jsonrpc":"2.0","id":7,"result":`) and the
 * result's JSON as UTF-8 bytes (made the first time, and kept when at most KEPT_JSON_MAX long).
 * Undefined for any other message.
 */
function keptResponse(msg: Message): { before: string; result: Buffer } | undefined {
  const result = (msg as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null || !keptJson.has(result)) return undefined;
  const keys = Object.keys(msg);
  const { id } = msg as { id?: unknown };
  if (
    keys.length !== 3 ||
    keys[0] !== 'jsonrpc' ||
    keys[1] !== 'id' ||
    keys[2] !== 'result' ||
    typeof msg.jsonrpc !== 'string' ||
    !(typeof id === 'number' || typeof id === 'string' || id === null)
  )
    return undefined;
  let bytes = keptJson.get(result);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(result), 'utf8');
    keepJson(result, bytes);
  }
  return { before: `{"jsonrpc":${JSON.stringify(msg.jsonrpc)},"id":${JSON.stringify(id)},"result":`, result: bytes };
}

/**
 * The JSON of `msg`, as JSON.stringify(msg) makes it: a response whose result is kept is put
 * together from the result's kept JSON (what `messageBytes` writes, as text).
 */
export function messageJson(msg: Message): string {
  const kept = keptResponse(msg);
  return kept ? `${kept.before}${kept.result.toString('utf8')}}` : JSON.stringify(msg, undefined, 0);
}

/**
 * The message of `msg`, the bytes `frame(messageJson(msg))` makes. A response whose result is kept
 * is put together from the result's kept bytes, no JSON made and no text encoded: a small one
 * copied into one Buffer; a large one (64 KiB and more: a golden file's links) as three chunks of
 * one corked write — the header with the JSON before the result, the kept bytes themselves, and the
 * closing brace — so that no Buffer of its size is allocated per answer (each such allocation is
 * external memory that pushes V8 towards a full collection).
 */
export function messageBytes(msg: Message): Buffer | Buffer[] {
  const kept = keptResponse(msg);
  if (!kept) return frame(JSON.stringify(msg, undefined, 0));
  const { before, result } = kept;
  const beforeLength = Buffer.byteLength(before, 'utf8');
  const bodyLength = beforeLength + result.length + 1;
  const head = header(bodyLength);
  if (result.length >= SMALL_JSON) {
    const start = Buffer.allocUnsafe(head.length + beforeLength);
    start.write(head, 0, 'latin1');
    start.write(before, head.length, 'utf8');
    return [start, result, CLOSE_BYTES];
  }
  const length = head.length + bodyLength;
  const bytes = Buffer.allocUnsafe(length);
  bytes.write(head, 0, 'latin1');
  bytes.write(before, head.length, 'utf8');
  result.copy(bytes, head.length + beforeLength);
  bytes[length - 1] = CLOSE;
  return bytes;
}

/** `}` in UTF-8. */
const CLOSE = 0x7d;
const CLOSE_BYTES = Buffer.from([CLOSE]);

/**
 * The message of `json`: `Content-Length: N\r\n\r\n` (N the body's length in UTF-8 bytes) and
 * the body, as one Buffer, or, above ONE_BUFFER_MAX, as the header and the body apart.
 */
export function frame(json: string): Buffer | [Buffer, Buffer] {
  if (json.length < SMALL_JSON) {
    const length = Buffer.byteLength(json, 'utf8');
    const head = header(length);
    const bytes = Buffer.allocUnsafe(head.length + length);
    bytes.write(head, 0, 'latin1');
    bytes.write(json, head.length, 'utf8');
    return bytes;
  }
  // Buffer.from encodes a long string faster than write() into a Buffer of a size counted first.
  const body = Buffer.from(json, 'utf8');
  const head = Buffer.from(header(body.length), 'latin1');
  return body.length > ONE_BUFFER_MAX ? [head, body] : Buffer.concat([head, body], head.length + body.length);
}

export class OneWriteMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;
  constructor(
    private readonly stream: ByteStream,
    private readonly onDispose?: () => void,
  ) {
    super();
    stream.on('error', (error) => this.fireError(error));
    stream.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let bytes: Buffer | Buffer[];
    try {
      bytes = messageBytes(msg);
    } catch (thrown) {
      // JSON.stringify throws Errors (a cycle, a BigInt); passed on as they are.
      const error = thrown as Error;
      this.fireError(error);
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: Error): void => {
        if (failed) return;
        failed = true;
        this.errorCount++;
        this.fireError(error, msg, this.errorCount);
        reject(error);
      };
      try {
        if (Buffer.isBuffer(bytes)) {
          this.stream.write(bytes, (error) => (error === undefined || error === null ? resolve() : fail(error)));
        } else {
          // Corked, the chunks leave together: one writev on a socket or a pipe.
          const chunks = bytes;
          this.stream.cork?.();
          try {
            chunks.forEach((chunk, i) =>
              this.stream.write(chunk, (error) => {
                if (error !== undefined && error !== null) fail(error);
                else if (i === chunks.length - 1) resolve();
              }),
            );
          } finally {
            this.stream.uncork?.();
          }
        }
      } catch (error) {
        fail(error as Error);
      }
    });
  }

  end(): void {
    this.stream.end();
  }

  override dispose(): void {
    super.dispose();
    this.onDispose?.();
  }
}
