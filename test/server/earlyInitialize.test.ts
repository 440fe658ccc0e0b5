/**
 * dist/server.js's own reading of stdin's first message (server/src/earlyInitialize.ts): which
 * first messages it answers, which it leaves to the library, and that it hands every byte over.
 * test/scripts/earlyInitialize.test.ts holds its answers to the library's in the built server.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import { initializeResult } from '../../server/src/capabilities';
import { readClientSession } from '../../server/src/clientSession';
import {
  EARLY_HANDOVER_SLOT,
  earlyInitialize,
  earlyResponseJson,
  readFirstMessage,
  takeEarlyHandover,
  type EarlyHandover,
} from '../../server/src/earlyInitialize';

const frame = (body: string, header = 'Content-Length'): Buffer =>
  Buffer.from(`${header}: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { processId: null, rootUri: null, capabilities: { textDocument: { inlayHint: {} } } },
});

describe('readFirstMessage', () => {
  test('an initialize request, whole: its id and params; a part of it: incomplete', () => {
    const bytes = frame(INITIALIZE);
    const first = readFirstMessage(bytes);
    assert.equal(first.kind, 'initialize');
    assert.equal(first.kind === 'initialize' && first.id, 7);
    for (const cut of [0, 5, 18, 20, bytes.length - 1])
      assert.deepEqual(readFirstMessage(bytes.subarray(0, cut)), { kind: 'incomplete' }, `cut at ${cut}`);
    // More after it (initialized sent with it) does not matter.
    assert.equal(
      readFirstMessage(Buffer.concat([bytes, frame('{"jsonrpc":"2.0","method":"initialized"}')])).kind,
      'initialize',
    );
  });

  test('headers as the library reads them: any case, other headers, the last Content-Length wins', () => {
    const body = Buffer.byteLength(INITIALIZE);
    for (const header of [
      `content-length: ${body}`,
      `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length:${body}  `,
      `Content-Length: 3\r\nContent-Length: ${body}`,
    ])
      assert.equal(readFirstMessage(Buffer.from(`${header}\r\n\r\n${INITIALIZE}`)).kind, 'initialize', header);
  });

  test('anything else is left to the library', () => {
    const request = (message: unknown): Buffer => frame(JSON.stringify(message));
    const cases: Array<[string, Buffer]> = [
      ['another request', request({ jsonrpc: '2.0', id: 1, method: 'shutdown' })],
      ['a notification', request({ jsonrpc: '2.0', method: 'initialized', params: {} })],
      ['initialize as a notification', request({ jsonrpc: '2.0', method: 'initialize', params: { capabilities: {} } })],
      ['a null id', request({ jsonrpc: '2.0', id: null, method: 'initialize', params: { capabilities: {} } })],
      ['params null', request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: null })],
      ['params by position', request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: [{ capabilities: {} }] })],
      ['no capabilities', request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null } })],
      ['a batch', request([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } }])],
      ['a body that is not JSON', frame('{"jsonrpc":"2.0",')],
      ['no Content-Length', Buffer.from(`Content-Type: x\r\n\r\n${INITIALIZE}`)],
      ['a Content-Length that is not digits', Buffer.from(`Content-Length: 1e3\r\n\r\n${INITIALIZE}`)],
      ['a header line without a colon', Buffer.from(`Content-Length: 5\r\nX\r\n\r\n${INITIALIZE}`)],
      [
        'a lone CR in the header',
        Buffer.from(`\rContent-Length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`),
      ],
      [
        'a header past ASCII',
        Buffer.from(`X: \u00e9\r\nContent-Length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`),
      ],
      ['no header end in 16 KiB', Buffer.from(`X: ${'a'.repeat(17 * 1024)}`)],
    ];
    for (const [name, bytes] of cases) assert.deepEqual(readFirstMessage(bytes), { kind: 'other' }, name);
  });
});

describe('earlyResponseJson', () => {
  test("the response server.ts's onInitialize gives, as the writer writes it", () => {
    const params = { processId: null, rootUri: null, capabilities: { window: { workDoneProgress: true } } };
    const json = earlyResponseJson('a', params, {});
    const result = initializeResult(readClientSession(params, {}));
    assert.equal(json, JSON.stringify({ jsonrpc: '2.0', id: 'a', result }));
  });

  test('params the session cannot be read from: no early answer (the library answers its error)', () => {
    assert.equal(earlyResponseJson(1, { capabilities: {}, workspaceFolders: 5 }, {}), undefined);
  });
});

/** A stdin of events, and what earlyInitialize wrote and handed over. */
function harness(argv = ['--stdio']) {
  const stdin = Object.assign(new EventEmitter(), { setEncoding: () => stdin }) as unknown as NodeJS.ReadableStream &
    EventEmitter;
  const written: Buffer[] = [];
  const handovers: Array<EarlyHandover | undefined> = [];
  const listening: number[] = [];
  const started = earlyInitialize(
    { argv, env: {}, stdin, stdout: { write: (chunk: Uint8Array) => written.push(Buffer.from(chunk)) } },
    () => {
      handovers.push(takeEarlyHandover());
      listening.push(stdin.listenerCount('data'));
    },
  );
  return { stdin, written, handovers, listening, started };
}

describe('earlyInitialize', () => {
  test('only over stdio, and not for --version or --help', () => {
    for (const argv of [
      ['--node-ipc'],
      ['--socket=5000'],
      ['--pipe=x'],
      ['--stdio', '--version'],
      ['--help', '--stdio'],
      [],
    ])
      assert.equal(harness(argv).started, false, argv.join(' '));
    assert.equal(harness(['--stdio']).started, true);
  });

  test('an initialize arriving a byte at a time: answered once, then every byte handed over, its listeners gone', () => {
    const h = harness();
    const input = Buffer.concat([frame(INITIALIZE), Buffer.from('Content-Length: 40\r\n\r\n{"js')]);
    const whole = frame(INITIALIZE).length;
    for (let i = 0; i < whole; i++) {
      assert.equal(h.handovers.length, 0);
      h.stdin.emit('data', input.subarray(i, i + 1));
    }
    h.stdin.emit('data', input.subarray(whole));
    assert.equal(h.handovers.length, 1);
    assert.equal(h.written.length, 1);
    const json = earlyResponseJson(7, JSON.parse(INITIALIZE).params, {})!;
    assert.deepEqual(h.written[0], Buffer.from(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`));
    assert.deepEqual(h.handovers[0]!.answered, { id: 7, json });
    // The bytes after the message came later: handed over from the next reader's listen on.
    assert.deepEqual(h.handovers[0]!.input, input.subarray(0, whole));
    assert.deepEqual(h.listening, [0]);
    assert.equal(h.stdin.listenerCount('end') + h.stdin.listenerCount('error'), 0);
    assert.equal((globalThis as Record<symbol, unknown>)[Symbol.for(EARLY_HANDOVER_SLOT)], undefined);
  });

  test('another first message: nothing written, its bytes handed over unanswered', () => {
    const h = harness();
    const bytes = frame('{"jsonrpc":"2.0","id":1,"method":"shutdown"}');
    h.stdin.emit('data', bytes);
    assert.equal(h.written.length, 0);
    assert.deepEqual(h.handovers, [{ input: bytes }]);
  });

  test('stdin ending or failing before a whole message: the library is started with what came', () => {
    for (const event of ['end', 'error']) {
      const h = harness();
      h.stdin.emit('data', Buffer.from('Content-Len'));
      h.stdin.emit(event, new Error('x'));
      assert.equal(h.written.length, 0);
      assert.deepEqual(h.handovers, [{ input: Buffer.from('Content-Len') }], event);
    }
  });
});
