/**
 * The server's message reader (server/src/transport/messageReader.ts) against vscode-jsonrpc's
 * own: the same messages, in the same order, and the same errors, from the same bytes cut into
 * chunks every way (one byte at a time, several messages in one chunk, a multibyte character
 * split between chunks), with Content-Type headers, and with broken framing; and each message
 * handed on in the `data` event that completes it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, type Message, type PartialMessageInfo } from 'vscode-languageserver/node';
import { OneReadMessageReader, parseHeaders } from '../../server/src/transport/messageReader';
import { seededRandom } from '../support/random';

interface Seen {
  messages: string[];
  errors: string[];
}

type Reader = StreamMessageReader | OneReadMessageReader;

/** What `reader` makes of `chunks` written in turn: the messages (as JSON) and the errors' messages. */
async function readAll(make: (input: PassThrough) => Reader, chunks: readonly Buffer[]): Promise<Seen> {
  const input = new PassThrough();
  const reader = make(input);
  const seen: Seen = { messages: [], errors: [] };
  reader.onError((e) => seen.errors.push(e.message));
  reader.listen((m) => seen.messages.push(JSON.stringify(m)));
  for (const c of chunks) input.write(c);
  // The library hands each message on a later turn of the event loop: wait until nothing more comes.
  let quiet = 0;
  let last = -1;
  while (quiet < 5) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = seen.messages.length + seen.errors.length;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  reader.dispose();
  return seen;
}

const library = (input: PassThrough): Reader => new StreamMessageReader(input);
const ours = (input: PassThrough): Reader => new OneReadMessageReader(input);

const TEXTS = ['hover', 'données ü', '中文', '😀 emoji', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)', ''];

function message(rnd: () => number, i: number): Message {
  const text = TEXTS[Math.floor(rnd() * TEXTS.length)]!.repeat(1 + Math.floor(rnd() * 40));
  const kind = Math.floor(rnd() * 3);
  if (kind === 0)
    return {
      jsonrpc: '2.0',
      id: i,
      method: 'textDocument/hover',
      params: { textDocument: { uri: `file:///${text}` }, position: { line: i, character: 3 } },
    } as Message;
  if (kind === 1) return { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: i - 1 } } as Message;
  return { jsonrpc: '2.0', id: i, result: { contents: { kind: 'markdown', value: text } } } as Message;
}

/** One framed message: Content-Length and sometimes a Content-Type, in either order and case. */
function framed(rnd: () => number, body: Buffer): Buffer {
  const length = `${rnd() < 0.2 ? 'content-length' : 'Content-Length'}:${rnd() < 0.2 ? '  ' : ' '}${body.length}`;
  const type = 'Content-Type: application/vscode-jsonrpc; charset=utf-8';
  const lines = rnd() < 0.3 ? (rnd() < 0.5 ? [type, length] : [length, type]) : [length];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'ascii'), body]);
}

/** Broken framing now and then: a body that is not JSON, an empty body, a header without a length or a colon. */
function broken(rnd: () => number): Buffer {
  switch (Math.floor(rnd() * 5)) {
    case 0:
      return Buffer.from('Content-Length: 5\r\n\r\n{"a":');
    case 1:
      return Buffer.from('Content-Length: 0\r\n\r\n');
    case 2:
      return Buffer.from('Content-Length: x1\r\n\r\n');
    case 3:
      return Buffer.from('Content-Type: text/plain\r\n\r\n');
    default:
      return Buffer.from('Content-Length 7\r\n\r\n');
  }
}

/** `bytes` cut into chunks: whole, one byte each, or random sizes. */
function cut(rnd: () => number, bytes: Buffer): Buffer[] {
  const mode = Math.floor(rnd() * 4);
  if (mode === 0) return [bytes];
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length;) {
    const size = mode === 1 ? 1 : 1 + Math.floor(rnd() * (mode === 2 ? 40 : 2000));
    out.push(bytes.subarray(i, i + size));
    i += size;
  }
  return out;
}

describe('OneReadMessageReader', () => {
  test('reads what the library reads, from generated streams cut every way (differential)', async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const rnd = seededRandom(seed);
      const parts: Buffer[] = [];
      const count = 1 + Math.floor(rnd() * 12);
      for (let i = 0; i < count; i++) parts.push(framed(rnd, Buffer.from(JSON.stringify(message(rnd, i)), 'utf8')));
      const chunks = cut(rnd, Buffer.concat(parts));
      const [a, b] = [await readAll(library, chunks), await readAll(ours, chunks)];
      assert.deepEqual(b, a, `seed ${seed}`);
      assert.equal(b.messages.length, count, `seed ${seed}`);
    }
  });

  test('fails as the library fails on broken framing, and reads on as it does (differential)', async () => {
    for (let seed = 1; seed <= 80; seed++) {
      const rnd = seededRandom(1000 + seed);
      const parts: Buffer[] = [];
      for (let i = 0; i < 8; i++)
        parts.push(rnd() < 0.3 ? broken(rnd) : framed(rnd, Buffer.from(JSON.stringify(message(rnd, i)), 'utf8')));
      const chunks = cut(rnd, Buffer.concat(parts));
      const [a, b] = [await readAll(library, chunks), await readAll(ours, chunks)];
      // The library fires a framing error at once and a body's JSON error on a later turn, so the
      // two kinds interleave by timing there: the errors are compared as a set with their counts.
      assert.deepEqual(b.messages, a.messages, `seed ${seed}`);
      assert.deepEqual([...b.errors].sort(), [...a.errors].sort(), `seed ${seed}`);
    }
  });

  test("finds the header's end where the library's scanner does (a \\r after a \\r starts over)", async () => {
    const body = '{"jsonrpc":"2.0","method":"x"}';
    for (const head of [
      `Content-Length: ${body.length}\r\r\n\r\n`,
      `Content-Length: ${body.length}\r\n\r\r\n\r\n`,
      `Content-Length: ${body.length}\r\n\n\r\n\r\n`,
      `X: y\r\nContent-Length: ${body.length}\r\n\r\n`,
    ]) {
      const chunks = [Buffer.from(head + body + `Content-Length: ${body.length}\r\n\r\n${body}`)];
      assert.deepEqual(await readAll(ours, chunks), await readAll(library, chunks), JSON.stringify(head));
    }
  });

  test('hands each message on in the data event that completes it, several from one chunk in order', () => {
    const input = new PassThrough();
    const reader = new OneReadMessageReader(input);
    const got: unknown[] = [];
    reader.listen((m) => got.push((m as { id?: number }).id));
    const one = (id: number): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'm' });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    // A PassThrough emits 'data' from write() itself when it flows.
    input.write(Buffer.from(one(1) + one(2) + one(3).slice(0, 10)));
    assert.deepEqual(got, [1, 2]);
    input.write(Buffer.from(one(3).slice(10)));
    assert.deepEqual(got, [1, 2, 3]);
    reader.dispose();
  });

  test('a multibyte character split between chunks reads back whole', () => {
    const input = new PassThrough();
    const reader = new OneReadMessageReader(input);
    const got: Message[] = [];
    reader.listen((m) => got.push(m));
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { t: 'a😀b' } }), 'utf8');
    const bytes = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    const split = bytes.indexOf(0xf0) + 2;
    input.write(bytes.subarray(0, split));
    input.write(bytes.subarray(split));
    assert.deepEqual(got, [{ jsonrpc: '2.0', method: 'm', params: { t: 'a😀b' } }]);
    reader.dispose();
  });

  test('fires onPartialMessage when a message stays incomplete, and not once it is complete', async () => {
    const input = new PassThrough();
    const reader = new OneReadMessageReader(input);
    reader.partialMessageTimeout = 30;
    const partial: PartialMessageInfo[] = [];
    reader.onPartialMessage((info) => partial.push(info));
    const got: Message[] = [];
    reader.listen((m) => got.push(m));
    const body = '{"jsonrpc":"2.0","method":"m"}';
    input.write(Buffer.from(`Content-Length: ${body.length}\r\n\r\n{"json`));
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.ok(partial.length >= 1, `partial events: ${partial.length}`);
    assert.deepEqual(partial[0], { messageToken: 0, waitingTime: 30 });
    input.write(Buffer.from(body.slice(6)));
    assert.equal(got.length, 1);
    const after = partial.length;
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(partial.length, after);
    reader.dispose();
  });

  test("fires onError and onClose on the stream's error and close", () => {
    const input = new PassThrough();
    const reader = new OneReadMessageReader(input);
    const events: string[] = [];
    reader.onError((e) => events.push(`error ${e.message}`));
    reader.onClose(() => events.push('close'));
    reader.listen(() => undefined);
    input.emit('error', new Error('boom'));
    input.emit('close');
    assert.deepEqual(events, ['error boom', 'close']);
    reader.dispose();
  });

  test('parseHeaders reads keys in lower case, trims values, and the last of a repeated key wins', () => {
    const h = parseHeaders('Content-Length:  12 \r\nCONTENT-TYPE: a\r\ncontent-type: b\r\n\r\n');
    assert.deepEqual(
      [...h],
      [
        ['content-length', '12'],
        ['content-type', 'b'],
      ],
    );
    assert.throws(() => parseHeaders('no colon\r\n\r\n'), /separate key and value/);
  });
});
