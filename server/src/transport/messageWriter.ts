/**
 * A JSON-RPC message writer for a byte stream (stdout, a socket, a named pipe) that writes each
 * message as one Buffer: the `Content-Length` header (the body's length in UTF-8 bytes) and the
 * body together. vscode-jsonrpc's `WriteableStreamMessageWriter` writes the header and then, once
 * that write has completed, the body: two system calls per message, and on a pipe the reading
 * process may wake for each. This writer keeps what that one promises the connection:
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
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** `Content-Length: N\r\n\r\n` followed by the UTF-8 bytes of `json`, in one Buffer. */
export function frame(json: string): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  const header = `Content-Length: ${length}\r\n\r\n`;
  const bytes = Buffer.allocUnsafe(header.length + length);
  bytes.write(header, 0, 'latin1');
  bytes.write(json, header.length, 'utf8');
  return bytes;
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
    let bytes: Buffer;
    try {
      bytes = frame(JSON.stringify(msg, undefined, 0));
    } catch (thrown) {
      // JSON.stringify throws Errors (a cycle, a BigInt); passed on as they are.
      const error = thrown as Error;
      this.fireError(error);
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      const failed = (error: Error): void => {
        this.errorCount++;
        this.fireError(error, msg, this.errorCount);
        reject(error);
      };
      try {
        this.stream.write(bytes, (error) => (error === undefined || error === null ? resolve() : failed(error)));
      } catch (error) {
        failed(error as Error);
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
