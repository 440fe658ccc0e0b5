/**
 * The server answers `initialize` from its first bundle (dist/server-core.js) and sets up the rest
 * (dist/server-wiring.js, or wiring.ts in process) once the result is written, before it handles
 * the next message: a client that sends `initialized`, a document and requests in one write as
 * soon as the result arrives loses none of them, nor gets "unhandled method", with the code cache
 * off, written by this start, or used; in process too. The code cache file holds V8's data for both
 * bundles, each checked when its bundle is loaded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'vscode-languageserver/node';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { CODE_CACHE_ENV, codeCacheParts, sealCodeCache } from '../../server/src/codeCache';
import { startServer } from '../../server/src/server';
import { SERVER_BUNDLE, startSession } from '../support/lspClient';

const URI = 'file:///w/a.py';
const TEXT = 'X = "urn:li:corpuser:jdoe"\n';

/** One JSON-RPC message with its header. */
function frame(message: Record<string, unknown>): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The messages read from `stream` so far, parsed, handed to `onMessage` as they arrive. */
function readMessages(stream: Readable, onMessage: (m: Record<string, unknown>) => void): void {
  let buffer = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('latin1'))?.[1]);
      if (buffer.length < end + 4 + length) return;
      onMessage(JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Record<string, unknown>);
      buffer = buffer.subarray(end + 4 + length);
    }
  });
}

interface Exchange {
  /** The answers to the requests sent after the result, by id. */
  answers: Map<number, Record<string, unknown>>;
  /** The diagnostics published for the document. */
  published: boolean;
  logs: string[];
}

/**
 * Sends `initialize`, and as soon as its result arrives, `initialized`, a document, a hover, its
 * links and a request with no handler (an unknown method, to see what "unhandled" looks like) in
 * one write (`together`: all of them in the same write as `initialize`, before its result);
 * resolves once the three are answered and the document's diagnostics published.
 */
function pipelined(input: NodeJS.WritableStream, output: Readable, together = false): Promise<Exchange> {
  const answers = new Map<number, Record<string, unknown>>();
  const logs: string[] = [];
  let published = false;
  const rest =
    frame({ method: 'initialized', params: {} }) +
    frame({
      method: 'textDocument/didOpen',
      params: { textDocument: { uri: URI, languageId: 'python', version: 1, text: TEXT } },
    }) +
    frame({
      id: 2,
      method: 'textDocument/hover',
      params: { textDocument: { uri: URI }, position: { line: 0, character: 8 } },
    }) +
    frame({ id: 3, method: 'textDocument/documentLink', params: { textDocument: { uri: URI } } }) +
    frame({ id: 4, method: 'catalogLens/noSuchRequest', params: {} });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not every answer within 30 s: ${JSON.stringify([...answers])}\n${logs.join('\n')}`)),
      30_000,
    );
    const settle = (): void => {
      if (answers.size === 3 && published) {
        clearTimeout(timer);
        resolve({ answers, published, logs });
      }
    };
    readMessages(output, (m) => {
      if (m['id'] === 1 && 'result' in m) {
        if (!together) input.write(rest);
      } else if (typeof m['id'] === 'number' && m['id'] > 1 && !('method' in m)) answers.set(m['id'], m);
      else if (m['method'] === 'textDocument/publishDiagnostics') {
        if ((m['params'] as { uri: string }).uri === URI) published = true;
      } else if (m['method'] === 'window/logMessage') logs.push((m['params'] as { message: string }).message);
      else if (typeof m['id'] !== 'undefined' && typeof m['method'] === 'string')
        // A request of the server's (configuration, progress): answered with nothing.
        input.write(frame({ id: m['id'], result: null }));
      settle();
    });
    const initialize = frame({
      id: 1,
      method: 'initialize',
      params: {
        processId: null,
        rootUri: null,
        capabilities: {},
        // A catalog that refuses connections: the hover answers with what it knows.
        initializationOptions: { settings: { url: 'http://127.0.0.1:9' } },
      },
    });
    input.write(together ? initialize + rest : initialize);
  });
}

/** The answers of a pipelined exchange are whole: a hover and links for the URN, and "unhandled" only for the unknown method. */
function assertAnswered(exchange: Exchange): void {
  const hover = exchange.answers.get(2)!;
  assert.equal(hover['error'], undefined, JSON.stringify(hover));
  assert.match(JSON.stringify(hover['result']), /jdoe/);
  const links = exchange.answers.get(3)!;
  assert.equal(links['error'], undefined, JSON.stringify(links));
  assert.equal((links['result'] as unknown[]).length, 1);
  const unknown = exchange.answers.get(4)!;
  assert.match(JSON.stringify(unknown['error']), /Unhandled method catalogLens\/noSuchRequest/);
  assert.ok(exchange.published);
}

/** Polls `done` every 100 ms for up to 20 s (the server writes its cache a few seconds after it loaded its bundles). */
async function poll(done: () => boolean, what: string): Promise<void> {
  for (const until = Date.now() + 20_000; !done(); await new Promise((r) => setTimeout(r, 100)))
    if (Date.now() > until) throw new Error(`no ${what} within 20 s`);
}

describe('the server set up after its initialize result', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-boot-wiring-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function exchangeWith(cache: string, how: { together?: boolean; ipc?: boolean } = {}): Promise<Exchange> {
    const child = spawn(process.execPath, [SERVER_BUNDLE, how.ipc ? '--node-ipc' : '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe', how.ipc ? 'ipc' : 'ignore'],
      env: { ...process.env, [CODE_CACHE_ENV]: cache, DATAHUB_SKIP_CONFIG: 'true', CATALOG_LENS_TOKEN: '' },
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let input: NodeJS.WritableStream = child.stdin!;
    let output: Readable = child.stdout!;
    if (how.ipc) {
      // The framed messages written, sent as IPC messages in order; the ones received, framed.
      const toServer = new PassThrough();
      readMessages(toServer, (m) => child.send(m));
      const fromServer = new PassThrough();
      child.on('message', (m: Record<string, unknown>) => fromServer.write(frame(m)));
      input = toServer;
      output = fromServer;
    }
    try {
      return await pipelined(input, output, how.together);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nstderr:\n${stderr}`);
    } finally {
      child.kill();
    }
  }

  test('dist/server.js: requests sent with `initialized` right after the result are all answered (no code cache)', async () => {
    assertAnswered(await exchangeWith('off'));
  });

  test('… with the code cache written by the start before, and used', async () => {
    const dir = path.join(root, 'cache');
    const first = await exchangeWith(dir);
    assertAnswered(first);
    assert.ok(
      first.logs.some((l) => l.startsWith('code cache: none yet: writing one')),
      first.logs.join('\n'),
    );
    // The file is written a few seconds after the wiring was loaded: a session that stays up writes it.
    const session = await startSession({ env: { [CODE_CACHE_ENV]: dir } });
    try {
      await poll(() => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.bin')), 'code cache file');
    } finally {
      await session.stop();
    }
    const used = await exchangeWith(dir);
    assertAnswered(used);
    assert.ok(
      used.logs.some((l) => /^code cache: used \(.*, \d+ KiB\)$/.test(l)),
      used.logs.join('\n'),
    );
  });

  test('initialize, initialized, a document and requests in ONE write, before the result: every request answered', async () => {
    assertAnswered(await exchangeWith('off', { together: true }));
  });

  test('… the same over --node-ipc', async () => {
    assertAnswered(await exchangeWith('off', { together: true, ipc: true }));
  });

  test('in process, all in one write before the result: the same', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    startServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
      env: { DATAHUB_SKIP_CONFIG: 'true' },
    });
    assertAnswered(await pipelined(toServer, toClient, true));
    toServer.write(frame({ id: 9, method: 'shutdown' }));
  });

  test('a request before initialize: -32002 ServerNotInitialized; after it, answered', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    startServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
      env: { DATAHUB_SKIP_CONFIG: 'true' },
    });
    const received = new Map<unknown, Record<string, unknown>>();
    readMessages(toClient, (m) => {
      if ('id' in m && !('method' in m)) received.set(m['id'], m);
    });
    toServer.write(frame({ id: 'early', method: 'textDocument/documentLink', params: { textDocument: { uri: URI } } }));
    await poll(() => received.has('early'), 'answer to the early request');
    const early = received.get('early')!['error'] as { code: number; message: string };
    assert.equal(early.code, -32002, JSON.stringify(early));
    assert.match(early.message, /textDocument\/documentLink before initialize/);
    const exchange = await pipelined(toServer, toClient);
    assertAnswered(exchange);
    toServer.write(frame({ id: 9, method: 'shutdown' }));
  });

  test('in process (startServer over two streams): the same', async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    startServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
      env: { DATAHUB_SKIP_CONFIG: 'true' },
    });
    const exchange = await pipelined(toServer, toClient);
    assertAnswered(exchange);
    toServer.write(frame({ id: 9, method: 'shutdown' }));
  });
});

describe('the code cache file of the two bundles', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-boot-wiring-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Starts a session with the cache in `dir`, runs `whileUp`, and gives back its code cache log line. */
  async function start(dir: string, whileUp?: () => Promise<void>): Promise<string> {
    const session = await startSession({ env: { [CODE_CACHE_ENV]: dir } });
    try {
      await session.waitUntil(() => session.logs.some((l) => l.startsWith('code cache:')), 'the code cache log line');
      await session.open(URI, 'python', TEXT);
      await session.hover(URI, { line: 0, character: 8 });
      await whileUp?.();
      return session.logs.find((l) => l.startsWith('code cache:'))!;
    } finally {
      await session.stop();
    }
  }
  const fileIn = (dir: string): string | undefined => {
    const name = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.bin')) : undefined;
    return name === undefined ? undefined : path.join(dir, name);
  };

  test('holds V8 data for both bundles; a damaged part of the second is refused alone and written again', async () => {
    const dir = path.join(root, 'parts');
    await start(dir, () => poll(() => fileIn(dir) !== undefined, 'code cache file'));
    const file = fileIn(dir)!;
    const parts = codeCacheParts(readFileSync(file))!;
    assert.equal(parts.count, 2);
    assert.ok(Buffer.isBuffer(parts.part(0)) && Buffer.isBuffer(parts.part(1)), 'both bundles have their data');
    // A flipped byte near the end of the file: in the second bundle's part.
    const bytes = readFileSync(file);
    bytes[bytes.length - 100]! ^= 0xff;
    writeFileSync(file, bytes);
    const damaged = codeCacheParts(bytes)!;
    assert.ok(Buffer.isBuffer(damaged.part(0)));
    assert.equal(damaged.part(1), 'damaged');
    assert.match(
      await start(dir, () =>
        poll(() => Buffer.isBuffer(codeCacheParts(readFileSync(file))?.part(1)), 'second part written again'),
      ),
      /^code cache: damaged: writing a new one/,
    );
    assert.match(await start(dir), /^code cache: used/);
  });

  test('a file that holds the first bundle only: the second is compiled, and the file written whole', async () => {
    const dir = path.join(root, 'incomplete');
    await start(dir, () => poll(() => fileIn(dir) !== undefined, 'code cache file'));
    const file = fileIn(dir)!;
    const parts = codeCacheParts(readFileSync(file))!;
    writeFileSync(file, sealCodeCache(parts.part(0) as Buffer, Buffer.alloc(0)), { mode: 0o600 });
    assert.match(
      await start(dir, () =>
        poll(() => Buffer.isBuffer(codeCacheParts(readFileSync(file))?.part(1)), 'second part written'),
      ),
      /^code cache: incomplete: writing a new one/,
    );
    assert.match(await start(dir), /^code cache: used/);
  });
});

describe('a missing or broken dist/server-wiring.js', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-boot-wiring-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A copy of dist/server.js and dist/server-core.js in a folder of its own, with `wiring` as its server-wiring.js (none when undefined). */
  function copyOfDist(name: string, wiring: string | undefined): string {
    const dir = path.join(root, name);
    mkdirSync(dir);
    const dist = path.dirname(SERVER_BUNDLE);
    for (const f of ['server.js', 'server-core.js']) copyFileSync(path.join(dist, f), path.join(dir, f));
    if (wiring !== undefined) writeFileSync(path.join(dir, 'server-wiring.js'), wiring);
    return dir;
  }

  /** Sends `initialize` to dir/server.js; gives its answer, and the process's exit code and stderr once it ends or 5 s after the answer. */
  async function initializeIn(
    dir: string,
  ): Promise<{ answer: Record<string, unknown>; code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [path.join(dir, 'server.js'), '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, [CODE_CACHE_ENV]: 'off', DATAHUB_SKIP_CONFIG: 'true', CATALOG_LENS_TOKEN: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to initialize within 30 s\n${stderr}`)), 30_000);
        readMessages(child.stdout, (m) => {
          if (m['id'] === 1) {
            clearTimeout(timer);
            resolve(m);
          }
        });
        child.stdin.write(
          frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }) +
            frame({ method: 'initialized', params: {} }),
        );
      });
      const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
      return { answer, code, stderr };
    } finally {
      child.kill();
    }
  }

  test('none beside dist/server-core.js: initialize answers an error naming the file, instead of a result', async () => {
    const dir = copyOfDist('missing', undefined);
    const { answer } = await initializeIn(dir);
    assert.equal(answer['result'], undefined, JSON.stringify(answer));
    const error = answer['error'] as { code: number; message: string; data: unknown };
    assert.equal(error.code, -32603);
    assert.ok(error.message.includes(path.join(dir, 'server-wiring.js')), error.message);
    assert.match(error.message, /missing/);
    assert.deepEqual(error.data, { retry: false });
  });

  /** The first line of dist/server-wiring.js: the id of the build it and dist/server-core.js belong to. */
  const buildLine = (): string =>
    readFileSync(path.join(path.dirname(SERVER_BUNDLE), 'server-wiring.js'), 'latin1').split('\n')[0]!;

  test('one from another build (its first line): initialize answers an error naming both files', async () => {
    assert.match(buildLine(), /^\/\/ catalog-lens build [0-9a-f]{32}$/);
    const stale = readFileSync(path.join(path.dirname(SERVER_BUNDLE), 'server-wiring.js'), 'latin1').replace(
      /^\/\/ catalog-lens build [0-9a-f]{32}/,
      '// catalog-lens build 00000000000000000000000000000000',
    );
    const dir = copyOfDist('stale', stale);
    const { answer } = await initializeIn(dir);
    assert.equal(answer['result'], undefined, JSON.stringify(answer));
    const error = answer['error'] as { code: number; message: string };
    assert.equal(error.code, -32603);
    assert.ok(error.message.includes(path.join(dir, 'server-wiring.js')), error.message);
    assert.ok(error.message.includes(path.join(dir, 'server-core.js')), error.message);
    assert.match(error.message, /from another build/);
  });

  test('one whose first line is right but whose exports name another build: the process ends, naming both files', async () => {
    const dir = copyOfDist(
      'other-exports',
      `${buildLine()}\nmodule.exports = { wireServer() {}, CATALOG_LENS_BUILD_ID: 'another' };\n`,
    );
    const { answer, code, stderr } = await initializeIn(dir);
    assert.ok('result' in answer, JSON.stringify(answer));
    assert.equal(code, 1, stderr);
    assert.ok(
      stderr.includes(
        `${path.join(dir, 'server-wiring.js')} is from another build than ${path.join(dir, 'server-core.js')}`,
      ),
      stderr,
    );
  });

  test('one that does not export wireServer: the process ends, saying it is incomplete or from another build', async () => {
    const dir = copyOfDist('empty', `${buildLine()}\nmodule.exports = {};\n`);
    const { answer, code, stderr } = await initializeIn(dir);
    assert.ok('result' in answer, JSON.stringify(answer));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /server-wiring\.js is incomplete or from another build/);
  });
});
