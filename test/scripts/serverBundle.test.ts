/**
 * The server's bundles as scripts/build.mjs leaves them, for a fast start: ASCII only (one character
 * past it makes V8 hold the whole source as a two-byte string, read several times slower), and
 * what `initialize` does not need out of the first bundle (in dist/server-wiring.js, run once
 * `initialize` is answered) or behind getters that load it on first use.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as esbuild from 'esbuild';
import { pathToFileURL } from 'node:url';

/** The repository root, seen from out/test/scripts. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const CORE = path.join(ROOT, 'dist', 'server-core.js');
const WIRING = path.join(ROOT, 'dist', 'server-wiring.js');
const BOOT = path.join(ROOT, 'dist', 'server.js');

/**
 * A script that runs the bundle over stdio (`before`: lines run first) and, as it exits, writes the
 * Node modules it loaded to stderr (`LOADED [...]`).
 */
function loadProbe(before: string[] = []): string {
  return [
    'const before = new Set(process.moduleLoadList);',
    `process.argv = [process.argv[0], ${JSON.stringify(CORE)}, '--stdio'];`,
    'process.on("exit", () => {',
    '  const loaded = process.moduleLoadList.filter((m) => !before.has(m));',
    '  process.stderr.write("LOADED " + JSON.stringify(loaded) + "\\n");',
    '});',
    ...before,
    `require(${JSON.stringify(CORE)});`,
  ].join('\n');
}

/** An LSP message framed as on stdio. */
function lspFrame(message: Record<string, unknown>): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** didOpen of a one-line Python document naming a user. */
const openPython = (uri: string): string =>
  lspFrame({
    method: 'textDocument/didOpen',
    params: { textDocument: { uri, languageId: 'python', version: 1, text: 'X = "urn:li:corpuser:jdoe"\n' } },
  });

/** Runs `probe` (node -e) with `input` on its stdin until it exits by itself: what it wrote. */
async function runProbe(probe: string, input: string): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-e', probe], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DATAHUB_SKIP_CONFIG: 'true', CATALOG_LENS_TOKEN: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.write(input);
  await new Promise((resolve) => child.on('exit', resolve));
  return { stdout, stderr };
}

describe('the server bundle', () => {
  test("dist/ has a package.json of its own (CommonJS, shipped): Node looks no further for the entry's module type", () => {
    const own = path.join(ROOT, 'dist', 'package.json');
    assert.ok(existsSync(own), 'dist/package.json is missing: run node scripts/build.mjs');
    assert.deepEqual(JSON.parse(readFileSync(own, 'utf8')), { type: 'commonjs' });
    const shipped = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(shipped.includes('!dist/package.json'), '.vscodeignore ships dist/package.json');
  });

  test('is ASCII only', () => {
    for (const file of [CORE, WIRING]) {
      const text = readFileSync(file, 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${file}: a byte past ASCII at ${at}: ${text.slice(Math.max(0, at - 60), at + 20)}`);
    }
  });

  test('the escapes keep what they replaced: the regular expressions on U+241F still match it', () => {
    const text = readFileSync(WIRING, 'utf8');
    assert.ok(text.includes('\\u241f'), 'the bundle names U+241F in its escaped form');
  });

  test('evaluating it loads neither child_process, fs/promises, crypto nor os, GraphQL nor YAML', () => {
    // The bundle run with stdin closed: it sets up the connection, then exits when stdin ends.
    const probe = loadProbe();
    const run = spawnSync(process.execPath, ['-e', probe], { input: '', encoding: 'utf8', timeout: 60_000 });
    const line = /LOADED (.*)/.exec(run.stderr)?.[1];
    assert.ok(line, run.stderr);
    const loaded = JSON.parse(line) as string[];
    // node:crypto and node:os: vscode-jsonrpc's node entry requires them at its top level (for a
    // pipe name the server never makes); node:crypto loads a dozen modules of its own.
    const lazy = ['child_process', 'fs/promises', 'crypto', 'os'].map((m) => `NativeModule ${m}`);
    for (const m of lazy) assert.ok(!loaded.includes(m), `${m} was loaded at start-up`);
    // Packages bundled behind getters are not visible to moduleLoadList: their names in the bundle
    // that holds them (the wiring's, which the first runs once `initialize` is answered).
    assert.match(
      readFileSync(WIRING, 'utf8'),
      /lazy-package:graphql[\s\S]*lazy-package:yaml|lazy-package:yaml[\s\S]*lazy-package:graphql/,
    );
    assert.doesNotMatch(
      readFileSync(CORE, 'utf8'),
      /lazy-package:(graphql|yaml)/,
      'GraphQL or YAML in the first bundle',
    );
  });

  test('after initialize (the wiring loaded, a document opened, its links asked for): still neither child_process nor fs/promises', async () => {
    const uri = 'file:///w/a.py';
    // The bundle run as above; it ends itself 4 s after it started (stdin stays open until then).
    const { stdout, stderr } = await runProbe(
      loadProbe(['setTimeout(() => process.exit(0), 4000);']),
      lspFrame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }) +
        lspFrame({ method: 'initialized', params: {} }) +
        openPython(uri) +
        lspFrame({ id: 2, method: 'textDocument/documentLink', params: { textDocument: { uri } } }),
    );
    assert.match(stdout, /"id":2,"result":\[/, `the links were answered (the wiring is loaded): ${stdout}\n${stderr}`);
    const line = /LOADED (.*)/.exec(stderr)?.[1];
    assert.ok(line, stderr);
    const loaded = JSON.parse(line) as string[];
    for (const m of ['NativeModule child_process', 'NativeModule fs/promises'])
      assert.ok(!loaded.includes(m), `${m} was loaded by then`);
  });

  test("a version's document links asked three times are made into JSON once: the writer (first bundle) knows the results the features (the wiring) keep", async () => {
    const uri = 'file:///w/a.py';
    // Every JSON.stringify of a list of links (or of a message holding one) is counted.
    const probe = loadProbe([
      'const stringify = JSON.stringify;',
      'let linkJson = 0;',
      'const isLinks = (v) => Array.isArray(v) && v.length > 0 && v[0] !== null && typeof v[0] === "object" && "target" in v[0] && "range" in v[0];',
      'JSON.stringify = function (value, ...rest) {',
      '  if (isLinks(value) || (value !== null && typeof value === "object" && isLinks(value.result))) linkJson++;',
      '  return stringify.call(this, value, ...rest);',
      '};',
      'process.on("exit", () => process.stderr.write("LINKJSON " + linkJson + "\\n"));',
      'setTimeout(() => process.exit(0), 4000);',
    ]);
    const { stdout, stderr } = await runProbe(
      probe,
      lspFrame({
        id: 1,
        method: 'initialize',
        // A catalog (never reached: port 9 is discard) gives the links their pages.
        params: {
          processId: null,
          rootUri: null,
          capabilities: {},
          initializationOptions: { settings: { url: 'http://127.0.0.1:9' } },
        },
      }) +
        lspFrame({ method: 'initialized', params: {} }) +
        openPython(uri) +
        [2, 3, 4]
          .map((id) => lspFrame({ id, method: 'textDocument/documentLink', params: { textDocument: { uri } } }))
          .join(''),
    );
    for (const id of [2, 3, 4])
      assert.match(
        stdout,
        new RegExp(`"id":${id},"result":\\[\\{"range"`),
        `links answered to ${id}: ${stdout}\n${stderr}`,
      );
    assert.equal(/LINKJSON (\d+)/.exec(stderr)?.[1], '1', stderr);
  });

  test('dist/server.js, with its code cache written and read, answers initialize without loading crypto or os', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-boot-modules-'));
    const frame = (message: Record<string, unknown>): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const initialize = frame({
      id: 1,
      method: 'initialize',
      params: { processId: null, rootUri: null, capabilities: {} },
    });
    const cacheFiles = (): string[] => readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));
    /** One start: the modules Node loaded by the time the result was written, and what it wrote. */
    const start = async (): Promise<{ loaded: string[]; stdout: string }> => {
      const probe = [
        'const before = new Set(process.moduleLoadList);',
        "const { Duplex } = require('node:stream');",
        'const write = Duplex.prototype.write;',
        'Duplex.prototype.write = function (...args) {',
        '  if (this === process.stdout) {',
        '    const loaded = process.moduleLoadList.filter((m) => !before.has(m));',
        '    process.stderr.write("LOADED " + JSON.stringify(loaded) + "\\n");',
        '    Duplex.prototype.write = write;',
        '  }',
        '  return write.apply(this, args);',
        '};',
        `process.argv = [process.argv[0], ${JSON.stringify(BOOT)}, '--stdio'];`,
        `require(${JSON.stringify(BOOT)});`,
      ].join('\n');
      const child = spawn(process.execPath, ['-e', probe], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, CATALOG_LENS_CODE_CACHE: cacheDir, HOME: process.env['HOME'] || tmpdir() },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.write(initialize + frame({ method: 'initialized', params: {} }));
      // The first start writes the cache a few seconds after it started (when idle): waited for.
      for (const until = Date.now() + 30_000; !/"id":1,"result"/.test(stdout) || cacheFiles().length === 0;) {
        if (Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      child.stdin.end(frame({ id: 2, method: 'shutdown' }) + frame({ method: 'exit' }));
      await new Promise((resolve) => child.on('exit', resolve));
      const line = /LOADED (.*)/.exec(stderr)?.[1];
      assert.ok(line, stderr);
      return { loaded: JSON.parse(line) as string[], stdout };
    };
    try {
      const first = await start();
      const files = readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));
      assert.equal(files.length, 1, `the first start wrote the cache: ${files.join(', ')}`);
      const second = await start();
      for (const [which, run] of [
        ['without the cache', first],
        ['from the cache', second],
      ] as const) {
        assert.match(run.stdout, /"id":1,"result":\{"capabilities"/, which);
        for (const m of ['NativeModule crypto', 'NativeModule os'])
          assert.ok(!run.loaded.includes(m), `${m} was loaded before the initialize result (${which})`);
      }
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  test('the LSP library in the first bundle: its `export *` copies values (no getter per name and level)', () => {
    const core = readFileSync(CORE, 'utf8');
    const helpers = core.match(/var __exportStar = [^\n]*\n[^\n]*\n/g) ?? [];
    assert.ok(helpers.length >= 4, `the library's __exportStar helpers: ${helpers.length}`);
    for (const helper of helpers) assert.match(helper, /exports\d*\[p\] = m\d*\[p\];/, helper);
  });

  test('the library built with flat re-exports exports the same names with the same values as built without', async (t) => {
    const { flatReexports } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'flatReexports.mjs')).href)) as {
      flatReexports: esbuild.Plugin;
    };
    const out = mkdtempSync(path.join(tmpdir(), 'catalog-lens-flat-reexports-'));
    t.after(() => rmSync(out, { recursive: true, force: true }));
    /** The library's node entries bundled as the first bundle holds them, evaluated here. */
    const load = async (name: string, plugins: esbuild.Plugin[]): Promise<Record<string, Record<string, unknown>>> => {
      const outfile = path.join(out, `${name}.cjs`);
      await esbuild.build({
        stdin: {
          contents:
            "module.exports = { server: require('vscode-languageserver/node'), protocol: require('vscode-languageserver-protocol/node'), jsonrpc: require('vscode-jsonrpc/node') };",
          resolveDir: path.join(ROOT, 'node_modules', 'vscode-languageserver'),
          loader: 'js',
        },
        bundle: true,
        platform: 'node',
        format: 'cjs',
        outfile,
        logLevel: 'silent',
        plugins,
      });
      return ((await import(pathToFileURL(outfile).href)) as { default: Record<string, Record<string, unknown>> })
        .default;
    };
    const [getters, flat] = await Promise.all([load('getters', []), load('flat', [flatReexports])]);
    const shape = (value: unknown): unknown =>
      typeof value === 'function'
        ? `function ${value.name} ${Object.keys(value).sort().join(',')}`
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value).map(([k, v]) => [
                k,
                typeof v === 'function' ? `function ${v.name}` : typeof v === 'object' ? typeof v : v,
              ]),
            )
          : value;
    for (const entry of ['server', 'protocol', 'jsonrpc'] as const) {
      const names = Object.keys(getters[entry]!).sort();
      assert.deepEqual(Object.keys(flat[entry]!).sort(), names, entry);
      assert.ok(names.length > 70, `${entry}: ${names.length} names`);
      for (const name of names) {
        const value = flat[entry]![name];
        assert.notEqual(value, undefined, `${entry}.${name} is undefined: copied before it was set`);
        assert.deepEqual(shape(value), shape(getters[entry]![name]), `${entry}.${name}`);
      }
    }
    // Built without the plugin, the names are getters; with it, plain values.
    assert.equal(typeof Object.getOwnPropertyDescriptor(getters['server']!, 'TextDocuments')?.get, 'function');
    assert.ok('value' in Object.getOwnPropertyDescriptor(flat['server']!, 'TextDocuments')!);
  });

  test("the wiring holds no copy of the LSP library (it takes the first bundle's; the build fails otherwise)", (t) => {
    const map = `${WIRING}.map`;
    if (!existsSync(map)) return t.skip('no source map (a production build)');
    const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
    const copied = sources.filter((s) =>
      /node_modules[\\/](vscode-jsonrpc|vscode-languageserver-protocol|vscode-languageserver)[\\/]/.test(s),
    );
    assert.deepEqual(copied, []);
    assert.ok(
      sources.some((s) => s.endsWith('server/src/wiring.ts')),
      'the map lists the wiring',
    );
  });
});
