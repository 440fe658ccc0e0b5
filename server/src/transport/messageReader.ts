/**
 * A JSON-RPC message reader for a byte stream (stdin, a socket, a named pipe) that hands each
 * message to the connection as soon as its last byte is read, in the same `data` event.
 * vscode-jsonrpc's `ReadableStreamMessageReader` passes every message through a one-slot
 * semaphore that runs it on a later `setImmediate` and two promises (its content decoders), and sets a
 * timer whenever a message arrives in pieces: per request a turn of the event loop and a few
 * objects, before the connection queues the message for its own `setImmediate`. This reader
 * reads the same bytes the same way:
 *
 * - a header block ends at the first `\r\n\r\n` that the library's scanner finds (a `\r` right
 *   after a `\r` starts the search for `\r\n` over, as there); its lines are `key: value`, keys
 *   taken in lower case, the last of a repeated key wins; only `Content-Length` is read (a
 *   `Content-Type` is accepted and ignored, as the library ignores it);
 * - the body is that many bytes, decoded as UTF-8 and parsed with JSON.parse;
 * - messages reach the callback in the order they arrived, several from one chunk included;
 * - a header block without `Content-Length`, or with one that is not a number, fires `onError`
 *   and stops reading until more data comes (the library's state, kept as it is); a header line
 *   without `:` fires `onError` after its block is dropped; a body that is not JSON fires `onError`
 *   and reading goes on with the next message;
 * - the stream's `error` and `close` fire `onError` and `onClose`; `onPartialMessage` fires when
 *   a message has been incomplete for `partialMessageTimeout` ms (10 s) since its last data, and
 *   again every as many ms while it stays so.
 */
import {
  AbstractMessageReader,
  Disposable,
  type DataCallback,
  type Message,
  type MessageReader,
} from 'vscode-languageserver/node';

/** What the reader needs of a stream: its `data`, `error` and `close` events. */
export interface ReadableByteStream {
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
}

const CR = 13;
const LF = 10;
const EMPTY = Buffer.alloc(0);

/**
 * The header lines of a block (its text without the final empty lines) as the library reads them:
 * keys in lower case, values trimmed. Throws on a line without `:`.
 */
export function parseHeaders(block: string): Map<string, string> {
  const result = new Map<string, string>();
  const lines = block.split('\r\n');
  if (lines.length < 2) return result;
  for (let i = 0; i < lines.length - 2; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon === -1) throw new Error(`Message header must separate key and value using ':'\n${line}`);
    result.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return result;
}

export class OneReadMessageReader extends AbstractMessageReader implements MessageReader {
  private chunks: Buffer[] = [];
  /** Bytes held in `chunks`. */
  private total = 0;
  /** The body length of the message whose header has been read; -1 while reading a header. */
  private bodyLength = -1;
  private callback: DataCallback | undefined;
  private timeout = 10_000;
  /** When the incomplete message last got data; undefined when no message is incomplete. */
  private partialSince: number | undefined;
  private partialTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: ReadableByteStream,
    private readonly charset: BufferEncoding = 'utf8',
  ) {
    super();
  }

  set partialMessageTimeout(timeout: number) {
    this.timeout = timeout;
  }

  get partialMessageTimeout(): number {
    return this.timeout;
  }

  listen(callback: DataCallback): Disposable {
    this.bodyLength = -1;
    this.callback = callback;
    const onData = (data: Buffer | string): void => this.onData(data);
    this.stream.on('data', onData);
    this.stream.on('error', (error) => this.fireError(error));
    this.stream.on('close', () => this.fireClose());
    return Disposable.create(() => this.stream.off('data', onData));
  }

  override dispose(): void {
    super.dispose();
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = undefined;
  }

  private onData(data: Buffer | string): void {
    try {
      const chunk = typeof data === 'string' ? Buffer.from(data, this.charset) : data;
      this.chunks.push(chunk);
      this.total += chunk.length;
      for (;;) {
        if (this.bodyLength === -1) {
          const end = this.headerEnd();
          if (end < 0) return;
          const headers = parseHeaders(this.take(end).toString('ascii'));
          const contentLength = headers.get('content-length');
          if (!contentLength) {
            this.fireError(
              new Error(
                `Header must provide a Content-Length property.\n${JSON.stringify(Object.fromEntries(headers))}`,
              ),
            );
            return;
          }
          const length = parseInt(contentLength);
          if (isNaN(length)) {
            this.fireError(new Error(`Content-Length value must be a number. Got ${contentLength}`));
            return;
          }
          this.bodyLength = length;
        }
        if (this.total < this.bodyLength) {
          this.waitForRest();
          return;
        }
        const body = this.take(this.bodyLength);
        this.partialSince = undefined;
        this.bodyLength = -1;
        this.deliver(body);
      }
    } catch (error) {
      this.fireError(error);
    }
  }

  /** Parses a body and hands it on; a body that is not JSON fires onError. */
  private deliver(body: Buffer): void {
    let message: Message;
    try {
      message = JSON.parse(body.toString(this.charset)) as Message;
    } catch (error) {
      this.fireError(error);
      return;
    }
    try {
      this.callback!(message);
    } catch (error) {
      this.fireError(error);
    }
  }

  /**
   * The number of bytes up to and including the header block's `\r\n\r\n`, or -1 when it has not
   * all come: the library's scanner, byte for byte.
   */
  private headerEnd(): number {
    if (this.chunks.length === 0) return -1;
    let state = 0;
    let read = 0;
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        const value = chunk[i];
        if (value === CR) state = state === 0 ? 1 : state === 2 ? 3 : 0;
        else if (value === LF) {
          if (state === 1) state = 2;
          else if (state === 3) return read + i + 1;
          else state = 0;
        } else state = 0;
      }
      read += chunk.length;
    }
    return -1;
  }

  /** The first `n` bytes held, removed from the chunks (a view of one chunk when they are in it). */
  private take(n: number): Buffer {
    if (n === 0) return EMPTY;
    const first = this.chunks[0]!;
    this.total -= n;
    if (first.length === n) {
      this.chunks.shift();
      return first;
    }
    if (first.length > n) {
      this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const chunk = this.chunks[0]!;
      const wanted = n - at;
      if (chunk.length > wanted) {
        chunk.copy(out, at, 0, wanted);
        this.chunks[0] = chunk.subarray(wanted);
        at = n;
      } else {
        chunk.copy(out, at);
        this.chunks.shift();
        at += chunk.length;
      }
    }
    return out;
  }

  /**
   * A message is incomplete: onPartialMessage fires once it has had no data for the timeout. One
   * timer serves every wait (a message arriving in two chunks sets no timer of its own).
   */
  private waitForRest(): void {
    if (this.timeout <= 0) return;
    this.partialSince = Date.now();
    if (!this.partialTimer) this.armPartialTimer(this.timeout);
  }

  private armPartialTimer(ms: number): void {
    this.partialTimer = setTimeout(() => {
      this.partialTimer = undefined;
      if (this.partialSince === undefined || this.timeout <= 0) return;
      const waited = Date.now() - this.partialSince;
      if (waited < this.timeout) {
        this.armPartialTimer(this.timeout - waited);
        return;
      }
      this.firePartialMessage({ messageToken: 0, waitingTime: this.timeout });
      this.partialSince = Date.now();
      this.armPartialTimer(this.timeout);
    }, ms);
    this.partialTimer.unref();
  }
}
