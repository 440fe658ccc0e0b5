/**
 * dist/server.js answers `initialize` over stdio before it runs the server's bundles
 * (server/src/earlyInitialize.ts). Held here to the library's path, dist/server-core.js started on
 * its own (which reads stdin with the LSP library from its first byte, as every start did before):
 * the same answer, byte for byte, for the capabilities of VS Code, of a bare client and of
 * neovim- and helix-like clients; the same messages after it; the same output and exit for first
 * messages it leaves to the library.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';

/** The repository root, seen from out/test/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const BOOT = path.join(ROOT, 'dist', 'server.js');
const CORE = path.join(ROOT, 'dist', 'server-core.js');

const frame = (message: unknown): string => {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
/** The frames of a stdout, in order (bodies as text). */
function frames(stdout: Buffer): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < stdout.length) {
    const end = stdout.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const length = Number(/Content-Length: (\d+)/.exec(stdout.subarray(at, end).toString('latin1'))![1]);
    out.push(stdout.subarray(end + 4, end + 4 + length).toString('utf8'));
    at = end + 4 + length;
  }
  return out;
}

interface Run {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/**
 * Starts `entry --stdio`, writes `input` (in pieces of `piece` bytes when given); once `until`
 * matches the output (or 600 ms after the input when none), writes `after` and ends stdin.
 */
async function run(
  entry: string,
  input: string,
  opts: { until?: RegExp; after?: string; piece?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [entry, '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CATALOG_LENS_CODE_CACHE: 'off',
      DATAHUB_SKIP_CONFIG: 'true',
      CATALOG_LENS_TOKEN: '',
      ...opts.env,
    },
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const bytes = Buffer.from(input);
  if (opts.piece === undefined) child.stdin.write(bytes);
  else
    for (let i = 0; i < bytes.length; i += opts.piece) {
      child.stdin.write(bytes.subarray(i, i + opts.piece));
      await new Promise((r) => setTimeout(r, 1));
    }
  const until = Date.now() + 20_000;
  if (opts.until)
    while (!opts.until.test(Buffer.concat(chunks).toString()) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
  else await new Promise((r) => setTimeout(r, 600));
  if (opts.after !== undefined) {
    child.stdin.write(opts.after);
    // The library ends the process when stdin ends: after the exit notification, that is the exit.
    await new Promise((r) => setTimeout(r, 300));
  }
  child.stdin.end();
  const timer = setTimeout(() => child.kill(), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return { stdout: Buffer.concat(chunks), stderr, code };
}

const URI = 'file:///early/a.py';
const VSCODE = {
  processId: process.pid,
  clientInfo: { name: 'Visual Studio Code', version: '1.91.0' },
  locale: 'en',
  rootPath: '/early',
  rootUri: 'file:///early',
  trace: 'off',
  workspaceFolders: [{ uri: 'file:///early', name: 'early' }],
  capabilities: {
    workspace: {
      applyEdit: true,
      workspaceEdit: {
        documentChanges: true,
        resourceOperations: ['create', 'rename', 'delete'],
        changeAnnotationSupport: { groupsOnLabel: true },
      },
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      symbol: { dynamicRegistration: true },
      executeCommand: { dynamicRegistration: true },
      configuration: true,
      workspaceFolders: true,
      semanticTokens: { refreshSupport: true },
      codeLens: { refreshSupport: true },
      inlayHint: { refreshSupport: true },
      diagnostics: { refreshSupport: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
      completion: {
        dynamicRegistration: true,
        completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] },
      },
      hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
      documentLink: { dynamicRegistration: true, tooltipSupport: true },
      codeAction: {
        dynamicRegistration: true,
        codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } },
      },
      rename: { dynamicRegistration: true, prepareSupport: true },
      inlayHint: { dynamicRegistration: true, resolveSupport: { properties: ['tooltip'] } },
    },
    window: {
      showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
      showDocument: { support: true },
      workDoneProgress: true,
    },
    general: { positionEncodings: ['utf-16'] },
  },
  initializationOptions: {
    clientCommands: true,
    hoverShowsDiagnostics: true,
    hoverShowsLinkTooltips: true,
    statusNotifications: true,
    indexedNotifications: true,
    trusted: true,
    settings: { languages: ['python'] },
  },
};
const CLIENTS: Record<string, unknown> = {
  "VS Code's": VSCODE,
  "a bare client's": { processId: null, rootUri: null, capabilities: {} },
  'a neovim-like': {
    processId: process.pid,
    clientInfo: { name: 'Neovim', version: '0.10.0' },
    rootUri: 'file:///early',
    workspaceFolders: [{ uri: 'file:///early', name: '/early' }],
    trace: 'verbose',
    capabilities: {
      workspace: {
        workspaceFolders: true,
        configuration: true,
        didChangeWatchedFiles: { dynamicRegistration: false },
        applyEdit: true,
      },
      textDocument: {
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
      },
      window: { workDoneProgress: true, showMessage: {}, showDocument: { support: true } },
    },
  },
  'a helix-like (plain-text hovers, a string id)': {
    processId: null,
    rootUri: null,
    capabilities: {
      textDocument: { hover: { contentFormat: ['plaintext'] }, inlayHint: { dynamicRegistration: false } },
      workspace: { workspaceFolders: false },
    },
    initializationOptions: { token: 'x', allowTokenOrigins: ['https://c.example'] },
  },
};

describe('dist/server.js answers initialize before the LSP library is loaded', () => {
  for (const [name, params] of Object.entries(CLIENTS))
    test(`${name} capabilities: the same answer and messages after it as the library's path`, async () => {
      const id = name.includes('string id') ? 'init' : 1;
      const input =
        frame({ jsonrpc: '2.0', id, method: 'initialize', params }) +
        frame({ jsonrpc: '2.0', method: 'initialized', params: {} }) +
        frame({
          jsonrpc: '2.0',
          method: 'textDocument/didOpen',
          params: {
            textDocument: { uri: URI, languageId: 'python', version: 1, text: 'X = "urn:li:corpuser:jdoe"\n' },
          },
        }) +
        frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/documentLink', params: { textDocument: { uri: URI } } });
      // An editor that declares `workspace/configuration` is asked for settings before the links.
      const opts = {
        until: /"id":2,"result"|"method":"workspace\/configuration"/,
        after: frame({ jsonrpc: '2.0', id: 3, method: 'shutdown' }) + frame({ jsonrpc: '2.0', method: 'exit' }),
      };
      // In one write, and a few bytes at a time (the first message in many data events).
      for (const piece of [undefined, 7]) {
        const [early, library] = await Promise.all([
          run(BOOT, input, { ...opts, ...(piece ? { piece } : {}) }),
          run(CORE, input, opts),
        ]);
        const e = frames(early.stdout);
        const l = frames(library.stdout);
        assert.match(e[0]!, /"result":\{"capabilities"/);
        assert.equal(e[0], l[0], 'the initialize answer');
        // dist/server.js logs its code cache's state; the rest may interleave differently with timing;
        // the ids of registrations and progress tokens are random.
        const rest = (f: string[]): string[] =>
          f
            .slice(1)
            .filter((m) => !m.includes('code cache:'))
            .map((m) => m.replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<uuid>"'))
            .sort();
        assert.deepEqual(rest(e), rest(l));
        const answer = new RegExp(`^\\{"jsonrpc":"2.0","id":${JSON.stringify(id)},"(result|error)"`);
        assert.equal(e.filter((m) => answer.test(m)).length, 1, 'answered once');
        assert.doesNotMatch(early.stderr, /initialize answer written early/);
        assert.equal(early.code, library.code);
      }
    });

  const INIT = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { processId: null, rootUri: null, capabilities: {} },
  };
  /** Each first message, and what to wait for before stdin ends (the library's answers), if anything. */
  const others: Array<[string, string, RegExp | undefined]> = [
    ['another request first', frame({ jsonrpc: '2.0', id: 5, method: 'shutdown' }) + frame(INIT), /"id":1,/],
    ['a notification first', frame({ jsonrpc: '2.0', method: 'initialized', params: {} }) + frame(INIT), /"id":1,/],
    ['initialize with params null', frame({ ...INIT, params: null }), /"id":1,/],
    ['initialize with params by position', frame({ ...INIT, params: [INIT.params] }), /"id":1,/],
    [
      'initialize whose folders cannot be read',
      frame({ ...INIT, params: { ...INIT.params, workspaceFolders: 3 } }),
      /"id":1,/,
    ],
    ['a body that is not JSON', 'Content-Length: 5\r\n\r\n{"a":' + frame(INIT), /"id":1,/],
    ['no Content-Length', 'Content-Type: x\r\n\r\n' + frame(INIT), undefined],
    ['half a message, then the end', frame(INIT).slice(0, 30), undefined],
    ['nothing', '', undefined],
  ];
  for (const [name, input, until] of others)
    test(`${name}: left to the library (the same answers and exit)`, async () => {
      const opts = until ? { until } : {};
      const [early, library] = await Promise.all([run(BOOT, input, opts), run(CORE, input, opts)]);
      // The answers (the wiring's log messages after an initialize come when they come).
      const answers = (out: Buffer): string[] =>
        frames(out).filter((m) => /^\{"jsonrpc":"2.0","id":/.test(m) && !m.includes('"method"'));
      assert.deepEqual(answers(early.stdout), answers(library.stdout));
      if (until) assert.match(early.stdout.toString(), until);
      assert.equal(early.code, library.code);
    });

  test("the wiring's bundle missing: the library's error answer, not an early result", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-early-'));
    try {
      for (const f of ['server.js', 'server-core.js', 'package.json'])
        copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, f));
      const { stdout } = await run(path.join(dir, 'server.js'), frame(INIT), { until: /"id":1/ });
      const [answer] = frames(stdout);
      assert.match(
        answer!,
        /"id":1,"error":\{"code":-32603,"message":"catalog-lens-server: .*server-wiring\.js is missing/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A copy of dist/'s server files in a new folder (removed by the caller), `edit` applied to each file's text. */
  function distCopy(edit: (file: string, text: string) => string = (_f, t) => t): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-early-'));
    for (const f of ['server.js', 'server-core.js', 'server-wiring.js', 'package.json'])
      writeFileSync(path.join(dir, f), edit(f, readFileSync(path.join(ROOT, 'dist', f), 'utf8')));
    return dir;
  }
  /** The build id every bundle's first line names (scripts/build.mjs BUILD_LINE), and another as long. */
  const buildId = (): string => /^\/\/ catalog-lens build (\S+)/.exec(readFileSync(CORE, 'utf8'))![1]!;
  const otherId = (id: string): string => id.replace(/./g, (c) => (c === '0' ? '1' : '0'));

  test('bundles beside it from another build (a half-updated install): not answered early; the library answers', async () => {
    const id = buildId();
    // dist/server.js of this build beside a server-core.js and a wiring of another (consistent together).
    const dir = distCopy((f, text) => (f === 'server.js' ? text : text.split(id).join(otherId(id))));
    try {
      const { stdout, stderr } = await bootProbe(path.join(dir, 'server.js'));
      assert.match(stdout, /"id":1,"result":\{"capabilities"/);
      assert.match(stderr, /CORE READ true/, 'dist/server-core.js was read before the result: the library answered');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the connection's answer differs from the early one: told to the user, and the process ends with 1", async () => {
    const id = buildId();
    // server-core.js's first line still names this build, but the build it checks the wiring against
    // (compiled into it) is another: dist/server.js answers early, the library's answer is an error.
    const dir = distCopy((f, text) => {
      if (f !== 'server-core.js') return text;
      const eol = text.indexOf('\n');
      return text.slice(0, eol) + text.slice(eol).split(id).join(otherId(id));
    });
    try {
      const run1 = await run(path.join(dir, 'server.js'), frame(INIT), { until: /"method":"window\/showMessage"/ });
      const out = frames(run1.stdout);
      assert.match(out[0]!, /^\{"jsonrpc":"2.0","id":1,"result":\{"capabilities"/);
      const shown = out.find((m) => m.includes('"window/showMessage"'));
      assert.match(shown ?? '', /"type":1,"message":"catalog-lens-server: .*server-wiring\.js is from another build/);
      assert.match(run1.stderr, /the initialize answer written early was/);
      assert.equal(run1.code, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('stdin that ends without closing (/dev/null): the same exit as the library (1)', async () => {
    const exit = (entry: string): Promise<number | null> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [entry, '--stdio'], {
          stdio: ['ignore', 'ignore', 'ignore'],
          env: { ...process.env, CATALOG_LENS_CODE_CACHE: 'off', DATAHUB_SKIP_CONFIG: 'true' },
        });
        const timer = setTimeout(() => child.kill(), 20_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    const [early, library] = await Promise.all([exit(BOOT), exit(CORE)]);
    assert.equal(library, 1);
    assert.equal(early, library);
  });

  /**
   * Runs `boot` with stdin's first message an initialize request, and says on stderr whether
   * dist/server-core.js had been read when the first byte went to stdout (`CORE READ true|false`).
   */
  async function bootProbe(boot: string): Promise<{ stdout: string; stderr: string }> {
    const probe = [
      "const fs = require('node:fs');",
      'const read = fs.readFileSync;',
      'let core = false;',
      "fs.readFileSync = function (file, ...rest) { if (String(file).endsWith('server-core.js')) core = true; return read.call(this, file, ...rest); };",
      "const { Duplex } = require('node:stream');",
      'const write = Duplex.prototype.write;',
      'Duplex.prototype.write = function (...args) {',
      '  if (this === process.stdout) { fs.writeSync(2, "CORE READ " + core + "\\n"); Duplex.prototype.write = write; }',
      '  return write.apply(this, args);',
      '};',
      `process.argv = [process.argv[0], ${JSON.stringify(boot)}, '--stdio'];`,
      `require(${JSON.stringify(boot)});`,
    ].join('\n');
    const child = spawn(process.execPath, ['-e', probe], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, CATALOG_LENS_CODE_CACHE: 'off', DATAHUB_SKIP_CONFIG: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.write(frame(INIT));
    for (const until = Date.now() + 20_000; !/"id":1,"result"/.test(stdout) && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 20));
    child.stdin.end(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }) + frame({ jsonrpc: '2.0', method: 'exit' }));
    await new Promise((resolve) => child.on('exit', resolve));
    return { stdout, stderr };
  }

  test('the result is written before dist/server-core.js is read', async () => {
    const { stdout, stderr } = await bootProbe(BOOT);
    assert.match(stdout, /"id":1,"result":\{"capabilities"/);
    assert.match(stderr, /CORE READ false/);
  });
});
