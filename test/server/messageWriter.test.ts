/**
 * The server's message writer (server/src/transport/messageWriter.ts): one write per message, the
 * same bytes as vscode-jsonrpc's own writer, in order, with its errors; and the transport the
 * command line names (transport/connection.ts), read as vscode-languageserver reads it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-languageserver/node';
import {
  frame,
  keepJsonOf,
  KEPT_JSON_MAX,
  KEPT_JSON_TOTAL_MAX,
  largeKeptJsonLength,
  messageBytes,
  messageJson,
  ONE_BUFFER_MAX,
  OneWriteMessageWriter,
} from '../../server/src/transport/messageWriter';
import { transportOf } from '../../server/src/transport/connection';

/** A writable that keeps every chunk it is given, one entry per write call. */
function recorder(): { stream: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, chunks };
}

/** A writable that keeps the chunks of each write call, a writev's together (a corked write is one writev). */
function callRecorder(): { stream: Writable; calls: Buffer[][] } {
  const calls: Buffer[][] = [];
  const stream = new Writable({
    writev(chunks, callback) {
      calls.push(chunks.map((c) => Buffer.from(c.chunk as Buffer)));
      callback();
    },
    write(chunk: Buffer, _encoding, callback) {
      calls.push([Buffer.from(chunk)]);
      callback();
    },
  });
  return { stream, calls };
}

/** The messages a vscode-jsonrpc reader makes of `bytes`. */
async function readBack(bytes: Buffer, count: number, chunkSize = bytes.length): Promise<Message[]> {
  const input = new PassThrough();
  const reader = new StreamMessageReader(input);
  const got: Message[] = [];
  const done = new Promise<void>((resolve) =>
    reader.listen((m) => {
      got.push(m);
      if (got.length === count) resolve();
    }),
  );
  for (let i = 0; i < bytes.length; i += chunkSize) input.write(bytes.subarray(i, i + chunkSize));
  await done;
  reader.dispose();
  return got;
}

/** What vscode-jsonrpc's own writer sends for `messages`, written one after the other. */
async function libraryBytes(messages: Message[]): Promise<Buffer> {
  const { stream, chunks } = recorder();
  const writer = new StreamMessageWriter(stream);
  for (const m of messages) await writer.write(m);
  return Buffer.concat(chunks);
}

const request = (id: number, text: string): Message =>
  ({ jsonrpc: '2.0', id, result: { contents: { kind: 'markdown', value: text } } }) as Message;

describe('OneWriteMessageWriter', () => {
  test('writes each message as one chunk: the header and the body', async () => {
    const { stream, chunks } = recorder();
    const writer = new OneWriteMessageWriter(stream);
    const m = request(1, 'hello');
    await writer.write(m);
    assert.equal(chunks.length, 1);
    const body = JSON.stringify(m);
    assert.equal(chunks[0]!.toString('utf8'), `Content-Length: ${body.length}\r\n\r\n${body}`);
    assert.deepEqual(chunks[0], await libraryBytes([m]));
  });

  test('counts the body in UTF-8 bytes: multibyte text reads back whole', async () => {
    const texts = ['é', '日本語のテキスト', '😀 emoji and \u2028 line separator', 'mixed ascii ü ñ 中 𝄞'];
    const { stream, chunks } = recorder();
    const writer = new OneWriteMessageWriter(stream);
    const messages = texts.map((t, i) => request(i, t));
    for (const m of messages) await writer.write(m);
    assert.equal(chunks.length, messages.length);
    for (const [i, chunk] of chunks.entries()) {
      const body = JSON.stringify(messages[i]);
      assert.ok(chunk.toString('latin1').startsWith(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n`));
    }
    const all = Buffer.concat(chunks);
    assert.deepEqual(all, await libraryBytes(messages));
    // Read back split at every 7 bytes, so characters and headers are cut across chunks.
    assert.deepEqual(await readBack(all, messages.length, 7), messages);
  });

  test('writes a 1 MiB message as one chunk, the same bytes as the library', async () => {
    const text = 'ab€'.repeat(350_000);
    const m = request(7, text);
    const { stream, chunks } = recorder();
    await new OneWriteMessageWriter(stream).write(m);
    assert.equal(chunks.length, 1);
    assert.ok(chunks[0]!.length > 1024 * 1024);
    assert.deepEqual(chunks[0], await libraryBytes([m]));
    assert.deepEqual(await readBack(chunks[0], 1, 65_536), [m]);
  });

  test('keeps the order of concurrent writes, through a stream that answers late', async () => {
    const chunks: Buffer[] = [];
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        setTimeout(callback, chunks.length % 3);
      },
    });
    const writer = new OneWriteMessageWriter(slow);
    const messages = Array.from({ length: 200 }, (_, i) => request(i, 'x'.repeat((i * 7919) % 5000) + 'é'));
    await Promise.all(messages.map((m) => writer.write(m)));
    assert.equal(chunks.length, messages.length);
    const all = Buffer.concat(chunks);
    assert.deepEqual(all, await libraryBytes(messages));
    assert.deepEqual(await readBack(all, messages.length, 4096), messages);
  });

  test('a write to a destroyed stream rejects and fires onError with the message and the count', async () => {
    const { stream } = recorder();
    const writer = new OneWriteMessageWriter(stream);
    const errors: Array<[Error, Message | undefined, number | undefined]> = [];
    writer.onError((e) => errors.push(e));
    stream.on('error', () => undefined);
    stream.destroy();
    const m1 = request(1, 'a');
    const m2 = request(2, 'b');
    await assert.rejects(writer.write(m1));
    await assert.rejects(writer.write(m2));
    const counted = errors.filter(([, message]) => message !== undefined);
    assert.deepEqual(
      counted.map(([, message, count]) => [message, count]),
      [
        [m1, 1],
        [m2, 2],
      ],
    );
    assert.ok(counted.every(([e]) => e instanceof Error));
  });

  test('a message that does not encode rejects and fires onError with the error alone', async () => {
    const { stream, chunks } = recorder();
    const writer = new OneWriteMessageWriter(stream);
    const errors: Array<[Error, Message | undefined, number | undefined]> = [];
    writer.onError((e) => errors.push(e));
    await assert.rejects(writer.write({ jsonrpc: '2.0', id: 1, result: 1n } as unknown as Message));
    assert.equal(errors.length, 1);
    assert.equal(errors[0]![1], undefined);
    assert.equal(chunks.length, 0);
    // The writer goes on.
    await writer.write(request(2, 'ok'));
    assert.equal(chunks.length, 1);
  });

  test("fires onClose on the stream's close and onError on its error; end ends it; dispose silences it", async () => {
    const stream = new PassThrough();
    let disposed = 0;
    const writer = new OneWriteMessageWriter(stream, () => disposed++);
    const seen: string[] = [];
    writer.onClose(() => seen.push('close'));
    writer.onError(([e]) => seen.push(`error ${e.message}`));
    stream.emit('error', new Error('boom'));
    const ended = new Promise((resolve) => stream.on('finish', resolve));
    writer.end();
    await ended;
    stream.emit('close');
    assert.deepEqual(seen, ['error boom', 'close']);
    writer.dispose();
    assert.equal(disposed, 1);
    stream.emit('error', new Error('after dispose'));
    assert.deepEqual(seen, ['error boom', 'close']);
  });

  test('frame puts the byte length in the header, for short and long text alike', () => {
    const whole = (f: ReturnType<typeof frame>): string => (Buffer.isBuffer(f) ? f : Buffer.concat(f)).toString('utf8');
    assert.equal(whole(frame('{"a":"€"}')), 'Content-Length: 11\r\n\r\n{"a":"€"}');
    assert.equal(whole(frame('')), 'Content-Length: 0\r\n\r\n');
    const long = `"${'é'.repeat(100_000)}"`;
    assert.ok(Buffer.isBuffer(frame(long)));
    assert.equal(whole(frame(long)), `Content-Length: 200002\r\n\r\n${long}`);
  });

  test('above 4 MiB, header and body go corked: one writev call, the same bytes as the library', async () => {
    const { stream, calls } = callRecorder();
    const big = request(9, 'x€'.repeat(ONE_BUFFER_MAX / 3));
    const small = request(10, 'after');
    const writer = new OneWriteMessageWriter(stream);
    await Promise.all([writer.write(big), writer.write(small)]);
    assert.equal(calls[0]!.length, 2, 'the big message is one writev of header and body');
    const all = Buffer.concat(calls.flat());
    assert.deepEqual(all, await libraryBytes([big, small]));
    assert.deepEqual(await readBack(all, 2, 1 << 20), [big, small]);
  });
});

describe('OneWriteMessageWriter: a large kept result', () => {
  test('goes out as one corked writev of the header, its kept bytes and the brace, the same bytes as the library, again and again', async () => {
    const { stream, calls } = callRecorder();
    const links = keepJsonOf(
      Object.freeze(
        Array.from({ length: 1_000 }, (_, i) => ({
          range: { start: { line: i, character: 1 }, end: { line: i, character: 80 } },
          target: `https://ui.example/dataset/urn%3Ali%3Adataset%3A%28é_${i}%29`,
          tooltip: 'Open in catalog',
        })),
      ),
    );
    const messages = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: links }) as Message);
    messages.splice(1, 0, request(10, 'between'));
    const writer = new OneWriteMessageWriter(stream);
    await Promise.all(messages.map((m) => writer.write(m)));
    assert.deepEqual(
      calls.map((c) => c.length),
      [3, 1, 3, 3],
    );
    const all = Buffer.concat(calls.flat());
    assert.deepEqual(all, await libraryBytes(messages));
    assert.deepEqual(await readBack(all, 4, 4096), messages);
  });
});

describe('messageJson: a kept result goes out as JSON.stringify writes the message (differential)', () => {
  test('responses with kept results, ids of every kind, and messages it does not put together', () => {
    const hover = keepJsonOf(
      Object.freeze({
        contents: Object.freeze({ kind: 'markdown', value: '**Dataset** `db.é_table` · hive\n\n"quoted" 😀 \u2028' }),
        range: Object.freeze({
          start: Object.freeze({ line: 1, character: 4 }),
          end: Object.freeze({ line: 1, character: 9 }),
        }),
      }),
    );
    const plain = { contents: { kind: 'markdown', value: 'not kept' } };
    const messages: object[] = [];
    for (const id of [0, 7, 2 ** 40, -1, 1.5, 'a"b\\c', 'é', null])
      for (const result of [hover, plain, null, 'text', [hover]]) messages.push({ jsonrpc: '2.0', id, result });
    messages.push(
      { id: 3, jsonrpc: '2.0', result: hover },
      { jsonrpc: '2.0', id: 3, result: hover, extra: 1 },
      { jsonrpc: '2.0', result: hover },
      { jsonrpc: '2.0', id: 3, error: { code: -32800, message: 'cancelled' } },
      { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: hover },
    );
    // Twice: the second time from the kept JSON.
    for (let round = 0; round < 2; round++)
      for (const m of messages) assert.equal(messageJson(m as Message), JSON.stringify(m), JSON.stringify(m));
  });

  test('a result kept through another copy of the module (the server is two bundles, each with its own) is written from its kept JSON', () => {
    const file = require.resolve('../../server/src/transport/messageWriter');
    const cached = require.cache[file];
    delete require.cache[file];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const copy = require(file) as typeof import('../../server/src/transport/messageWriter');
    if (cached) require.cache[file] = cached;
    assert.notEqual(copy.keepJsonOf, keepJsonOf, 'a second copy');
    // Not frozen, to see which JSON is written: a change after the first write is not in the second.
    const links = [{ target: 'http://h/first' }];
    copy.keepJsonOf(links);
    assert.match(messageJson({ jsonrpc: '2.0', id: 1, result: links } as Message), /h\/first/);
    links[0]!.target = 'http://h/changed';
    assert.match(
      messageJson({ jsonrpc: '2.0', id: 2, result: links } as Message),
      /"id":2,"result":.*h\/first/,
      'kept',
    );
  });

  test(`a kept result whose JSON is over KEPT_JSON_MAX is written from JSON made each time`, () => {
    // Not frozen, to see which JSON is written: what changed after the first write is in the second.
    const links = Array.from({ length: Math.ceil(KEPT_JSON_MAX / 20) }, (_, i) => ({ target: `http://h/${i}` }));
    const small = [{ target: 'http://h/small' }];
    keepJsonOf(links);
    keepJsonOf(small);
    const first = messageJson({ jsonrpc: '2.0', id: 1, result: links } as Message);
    assert.ok(first.length > KEPT_JSON_MAX);
    assert.equal(first, JSON.stringify({ jsonrpc: '2.0', id: 1, result: links }));
    messageJson({ jsonrpc: '2.0', id: 2, result: small } as Message);
    links[0]!.target = 'http://h/changed';
    small[0]!.target = 'http://h/changed';
    assert.equal(
      messageJson({ jsonrpc: '2.0', id: 3, result: links } as Message),
      JSON.stringify({ jsonrpc: '2.0', id: 3, result: links }),
      'made again',
    );
    assert.match(messageJson({ jsonrpc: '2.0', id: 4, result: small } as Message), /h\/small/, 'kept');
  });

  test(`large kept JSON is held within KEPT_JSON_TOTAL_MAX in all: the oldest is dropped and made again`, () => {
    // Six results of ~3 MiB each (the links of six large open documents): 18 MiB, over the 16 MiB.
    const result = (n: number) =>
      Array.from({ length: Math.floor((3 * 1024 * 1024) / 24) }, (_, i) => ({ target: `http://h/${n}/${i}` }));
    const results = Array.from({ length: 6 }, (_, n) => keepJsonOf(result(n)));
    const before = largeKeptJsonLength();
    for (const [n, r] of results.entries()) messageJson({ jsonrpc: '2.0', id: n, result: r } as Message);
    assert.ok(largeKeptJsonLength() - before <= KEPT_JSON_TOTAL_MAX, `${largeKeptJsonLength()} bytes kept`);
    assert.ok(largeKeptJsonLength() - before > KEPT_JSON_TOTAL_MAX / 2, 'most of the budget used');
    for (const r of results) r[0]!.target = 'http://h/changed';
    const written = (r: object) => messageJson({ jsonrpc: '2.0', id: 9, result: r } as Message);
    assert.match(written(results[0]!), /h\/changed/, 'the oldest dropped: its JSON made again');
    assert.doesNotMatch(written(results[5]!), /h\/changed/, 'the newest kept');
    assert.ok(largeKeptJsonLength() - before <= KEPT_JSON_TOTAL_MAX, 'still within the budget after keeping again');
  });
});

describe('messageBytes: a kept result is written as frame(JSON.stringify(message)) writes it (differential)', () => {
  const whole = (f: Buffer | Buffer[]): Buffer => (Buffer.isBuffer(f) ? f : Buffer.concat(f));
  test('ids of every kind, text past ASCII, results small and large, and messages it does not put together', () => {
    const link = (i: number): object => ({
      range: { start: { line: i, character: 4 }, end: { line: i, character: 90 } },
      target: `https://ui.example/dataset/urn%3Ali%3Adataset%3A%28é${i}😀%29`,
      tooltip: 'Open in catalog',
    });
    const small = keepJsonOf(Object.freeze([link(1)]));
    const large = keepJsonOf(Object.freeze(Array.from({ length: 2_000 }, (_, i) => link(i))));
    // Its body over ONE_BUFFER_MAX, its JSON at most KEPT_JSON_MAX: kept, written as header and body apart.
    const huge = keepJsonOf(Object.freeze(['x'.repeat(KEPT_JSON_MAX - 10)]));
    const plain = [link(2)];
    const messages: object[] = [];
    for (const id of [0, 7, 2 ** 40, -1, 'a"b\\c', 'é', null])
      for (const result of [small, large, plain, null, 'text']) messages.push({ jsonrpc: '2.0', id, result });
    messages.push(
      { jsonrpc: '2.0', id: 1, result: huge },
      { id: 3, jsonrpc: '2.0', result: small },
      { jsonrpc: '2.0', id: 3, result: small, extra: 1 },
      { jsonrpc: '2.0', id: 3, error: { code: -32800, message: 'cancelled' } },
    );
    // Twice: the second time from the kept bytes.
    for (let round = 0; round < 2; round++)
      for (const m of messages) {
        const expected = frame(JSON.stringify(m));
        const got = messageBytes(m as Message);
        assert.ok(whole(got).equals(whole(expected)), JSON.stringify(m).slice(0, 200));
      }
  });
});

describe('transportOf reads argv as vscode-languageserver does', () => {
  const cases: Array<[string[], ReturnType<typeof transportOf>]> = [
    [['--stdio'], { kind: 'stdio' }],
    [['--clientProcessId=12', '--stdio'], { kind: 'stdio' }],
    [['--clientProcessId', '12', '--stdio'], { kind: 'stdio' }],
    [['--node-ipc'], { kind: 'library' }],
    [['--node-ipc', '--stdio'], { kind: 'library' }],
    [['--stdio', '--node-ipc'], { kind: 'stdio' }],
    [['--socket=5000'], { kind: 'socket', port: 5000 }],
    [['--socket', '5001'], { kind: 'socket', port: 5001 }],
    [['--socket=0'], { kind: 'library' }],
    [['--socket=abc'], { kind: 'library' }],
    [['--socket'], { kind: 'library' }],
    [['--socket=5002', '--stdio'], { kind: 'socket', port: 5002 }],
    [['--pipe=/tmp/lsp.sock'], { kind: 'pipe', name: '/tmp/lsp.sock' }],
    [['--pipe', '/tmp/lsp2.sock'], { kind: 'pipe', name: '/tmp/lsp2.sock' }],
    [['--pipe='], { kind: 'library' }],
    [['--pipe'], { kind: 'library' }],
    [[], { kind: 'library' }],
    [['--version'], { kind: 'library' }],
  ];
  for (const [argv, expected] of cases)
    test(argv.join(' ') || '(nothing)', () => assert.deepEqual(transportOf(argv), expected));
});
