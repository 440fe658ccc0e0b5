// Bundles the shipped entry points with esbuild (tsc has type-checked them and built out/ for the tests).
// dist/server.js and dist/extension.js hold no native module, so they run on any Node the editor has:
// the local catalog, which loads better-sqlite3 (built for one Node ABI), is its own bundle and always
// its own process.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flatReexports } from './flatReexports.mjs';

const production = process.argv.includes('--production');
/** `--server-to=DIR`: only the server's bundles (and its worker's), written to DIR (benchmark 8 starts the shipped form so). */
const serverTo = process.argv.find((a) => a.startsWith('--server-to='))?.slice('--server-to='.length);
const SERVER_DIR = serverTo ?? 'dist';
// The version is written in package.json only: the bundles get it here (model/src/version.ts).
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  define: { CATALOG_LENS_VERSION: JSON.stringify(version) },
};
/**
 * The language server answers `initialize` without GraphQL or YAML (they serve the first catalog
 * request and the first YAML document): in its bundle, `graphql` and `yaml` resolve to a module of
 * getters, one per export (their names read here, at build time), that evaluates the package on
 * the first use of any of them. esbuild then bundles the package as a CommonJS module of its own,
 * required only from inside that getter, so its top-level code does not run at start-up. Node's
 * `child_process` (which vscode-languageserver requires at its top level, for a function the
 * server never calls), `crypto` and `os` (which vscode-jsonrpc's node transport requires at its
 * top level, for a pipe name the server never makes; node:crypto loads a dozen modules of its
 * own, ~3 ms of a start) and `fs/promises` (the workspace index's) are loaded the same way: on
 * first use instead of before `initialize`.
 */
const require = createRequire(import.meta.url);
/** The repository's root (this file's folder's parent). */
const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAZY_PACKAGES = [
  'graphql',
  'yaml',
  '(node:)?child_process',
  '(node:)?fs/promises',
  '(node:)?crypto',
  '(node:)?os',
];
const lazyPackages = {
  name: 'lazy-packages',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_PACKAGES.join('|')})$`);
    build.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-package' ? undefined : { path: args.path, namespace: 'lazy-package' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
      const real = require.resolve(args.path);
      const exported = require(real);
      const names = Object.keys(exported);
      const esModule = exported.__esModule === true;
      return {
        resolveDir: process.cwd(),
        loader: 'js',
        contents: [
          'let loaded;',
          `const load = () => (loaded ??= require(${JSON.stringify(real)}));`,
          ...(esModule ? ["Object.defineProperty(exports, '__esModule', { value: true });"] : []),
          `for (const name of ${JSON.stringify(names)})`,
          '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
        ].join('\n'),
      };
    });
  },
};

/**
 * The server is two bundles: dist/server-core.js (main.ts) answers `initialize`, then runs
 * dist/server-wiring.js (wiring.ts: every piece and handler of the server) before the next message
 * is handled. In the first, server.ts's import of `./wiring` resolves to a module of getters that
 * runs the second bundle on first use: through the code cache of dist/server.js (boot.ts), which
 * leaves its loader in the global slot `Symbol.for('catalog-lens.runBundle')` (RUN_BUNDLE in
 * model/src/codeCache.ts), or with `require` when the first was not started by it. The two share
 * one copy of vscode-languageserver (its connection checks `instanceof` against its own classes):
 * dist/server-core.js holds it and hands it over in a global slot just before it runs the second.
 */
const WIRING_FILE = 'server-wiring.js';
/**
 * One id per build, in both of the server's bundles: the first line of dist/server-wiring.js names
 * it (server.ts reads that line before it answers `initialize`) and its exports hold it
 * (`CATALOG_LENS_BUILD_ID`, compared by the loader below before wireServer is called); in
 * dist/server-core.js it is a constant. A wiring left from another build is found so. The id is a
 * hash of what the bundles are built from (the sources of server/, model/ and the package's
 * manifest and lock, and the mode), so that the same sources give the same bundles.
 */
const BUILD_ID = buildId();

function buildId() {
  const hash = createHash('sha256').update(production ? 'production\n' : 'development\n');
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.push(p);
    }
  };
  for (const dir of ['server/src', 'model/src']) walk(path.join(ROOT_DIR, dir));
  files.push(path.join(ROOT_DIR, 'package.json'), path.join(ROOT_DIR, 'package-lock.json'));
  for (const f of files.sort()) {
    hash.update(`${path.relative(ROOT_DIR, f).split(path.sep).join('/')}\n`);
    hash.update(existsSync(f) ? readFileSync(f) : '');
  }
  return hash.digest('hex').slice(0, 32);
}
const BUILD_LINE = `// catalog-lens build ${BUILD_ID}`;
const SHARED_SLOT = 'catalog-lens.serverModules';
const SHARED_MODULES = ['vscode-languageserver', 'vscode-languageserver/node'];
/**
 * The shared modules as ES modules that export each of their names as a constant read once (their
 * exports never change): a CommonJS package imported by a module esbuild bundles as ESM gets, in
 * every importing module, a copy of all its exports as getters (esbuild's __toESM: ~300 getters
 * each, a dozen times at start-up); imported from an ES module, each name is a plain binding.
 * `from` is where the module comes from: `bundle` (dist/server-core.js) or `shared` (the slot).
 */
function sharedModules(from) {
  return {
    name: 'shared-modules',
    setup(build) {
      const filter = new RegExp(`^(${SHARED_MODULES.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
      build.onResolve({ filter }, (args) =>
        args.namespace === 'shared-module' || args.importer.includes('node_modules')
          ? undefined
          : { path: args.path, namespace: 'shared-module' },
      );
      build.onLoad({ filter: /.*/, namespace: 'shared-module' }, (args) => {
        const real = require.resolve(args.path);
        const names = Object.keys(require(real)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
        const source =
          from === 'bundle'
            ? `require(${JSON.stringify(real)})`
            : `globalThis[Symbol.for(${JSON.stringify(SHARED_SLOT)})]?.[${JSON.stringify(args.path)}]`;
        return {
          resolveDir: process.cwd(),
          loader: 'js',
          contents: [
            `const m = ${source};`,
            `if (m === undefined) throw new Error(${JSON.stringify(`${WIRING_FILE} runs from server-core.js, which gives it ${args.path}`)});`,
            `export const { ${names.join(', ')} } = m;`,
          ].join('\n'),
        };
      });
    },
  };
}
/** In dist/server-core.js, server.ts's `./wiring`: getters (`names`) that run dist/server-wiring.js on first use. */
function lazyWiring(names) {
  return {
    name: 'lazy-wiring',
    setup(build) {
      build.onResolve({ filter: /^\.\/wiring$/ }, (args) =>
        args.importer.replace(/\\/g, '/').endsWith('server/src/server.ts')
          ? { path: 'wiring', namespace: 'server-wiring' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'server-wiring' }, () => ({
        resolveDir: process.cwd(),
        loader: 'js',
        contents: [
          `const shared = { ${SHARED_MODULES.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(require.resolve(m))})`).join(', ')} };`,
          'let loaded;',
          'const load = () => {',
          '  if (loaded === undefined) {',
          `    globalThis[Symbol.for(${JSON.stringify(SHARED_SLOT)})] = shared;`,
          `    const file = require('node:path').join(__dirname, ${JSON.stringify(WIRING_FILE)});`,
          "    const run = globalThis[Symbol.for('catalog-lens.runBundle')];",
          "    const exported = typeof run === 'function' ? run(file) : require(file);",
          "    if (typeof exported?.wireServer !== 'function')",
          `      throw new Error(${JSON.stringify(`${WIRING_FILE} is incomplete or from another build`)} + ': ' + file);`,
          `    if (exported.CATALOG_LENS_BUILD_ID !== ${JSON.stringify(BUILD_ID)})`,
          "      throw new Error(file + ' is from another build than ' + __filename);",
          '    loaded = exported;',
          '  }',
          '  return loaded;',
          '};',
          `for (const name of ${JSON.stringify(names)})`,
          '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
        ].join('\n'),
      }));
    },
  };
}

/**
 * In dist/server-core.js, model/src's modules are taken as free of side effects: one the first
 * bundle uses a name of is kept, the others are left out (the tables of kinds, of the entity
 * registry and of URN parsing that protocol.ts's defaults would pull in, which only the wiring
 * uses). model/ holds definitions only: its top-level code builds tables and registers nothing.
 */
const pureModel = {
  name: 'pure-model',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.pureModel) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { pureModel: true },
      });
      if (found.errors.length > 0 || !/^model[\\/]src[\\/]/.test(path.relative(process.cwd(), found.path)))
        return undefined;
      return { path: found.path, sideEffects: false };
    });
  },
};

/** What `--server-to` builds: the server's two bundles and its worker. */
const SERVER_ENTRIES = ['server/src/main.ts', 'server/src/wiring.ts', 'server/src/index/scanWorker.ts'];
const serverBuilds = existsSync('server/src/wiring.ts');
/** The names wiring.ts exports (read from its source alone: a CommonJS bundle's metafile lists none). */
const wiringExports = serverBuilds
  ? Object.values(
      (
        await esbuild.build({
          entryPoints: ['server/src/wiring.ts'],
          format: 'esm',
          bundle: false,
          write: false,
          metafile: true,
          logLevel: 'warning',
        })
      ).metafile.outputs,
    ).flatMap((o) => o.exports)
  : [];

const builds = [
  {
    entryPoints: ['server/src/wiring.ts'],
    outfile: `${SERVER_DIR}/${WIRING_FILE}`,
    plugins: [lazyPackages, sharedModules('shared')],
    banner: { js: BUILD_LINE },
    metafile: true,
    footer: { js: `module.exports.CATALOG_LENS_BUILD_ID = ${JSON.stringify(BUILD_ID)};` },
  },
  // The server's first bundle; dist/server.js (boot.ts, built below with the bundles' hash) runs it.
  {
    entryPoints: ['server/src/main.ts'],
    outfile: `${SERVER_DIR}/server-core.js`,
    // flatReexports: the LSP library's `export *` as values, not getters (~2,000 made at each start).
    plugins: [lazyPackages, sharedModules('bundle'), lazyWiring(wiringExports), pureModel, flatReexports],
    // server.ts checks that the wiring's bundle is there before it answers `initialize`.
    define: {
      ...common.define,
      CATALOG_LENS_WIRING_FILE: JSON.stringify(WIRING_FILE),
      CATALOG_LENS_BUILD_LINE: JSON.stringify(BUILD_LINE),
    },
  },
  // The worker threads of the server and the command line (server/src/index/scanPool.ts starts it from their folder).
  { entryPoints: ['server/src/index/scanWorker.ts'], outfile: `${SERVER_DIR}/scanWorker.js`, plugins: [lazyPackages] },
  { entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js' },
  // graphql-js checks every `instanceof` against a second copy of itself unless NODE_ENV is
  // production: the catalog bundle holds one copy, and a read pays for those checks.
  {
    entryPoints: ['catalog/src/main.ts'],
    outfile: 'dist/catalog.js',
    external: ['better-sqlite3'],
    define: { ...common.define, 'process.env.NODE_ENV': '"production"' },
  },
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The gate in front of code-server, for `npm start` (not shipped: .vscodeignore lists what is).
  { entryPoints: ['scripts/editorGate.ts'], outfile: 'dist/editorGate.js' },
]
  .filter((b) => b.entryPoints.every((entry) => existsSync(entry)))
  .filter((b) => serverTo === undefined || b.entryPoints.some((entry) => SERVER_ENTRIES.includes(entry)));
const results = await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
/**
 * dist/server-wiring.js takes the LSP library from dist/server-core.js (sharedModules): a copy of its
 * own (an import that the plugin does not catch) would make a second set of the connection's
 * classes, and its `instanceof` checks would fail. The build fails when its inputs hold one.
 */
const LSP_LIBRARY =
  /(^|[\\/])node_modules[\\/](vscode-jsonrpc|vscode-languageserver-protocol|vscode-languageserver)[\\/]/;
builds.forEach((b, i) => {
  if (!b.outfile.endsWith(`/${WIRING_FILE}`)) return;
  const copied = Object.keys(results[i]?.metafile?.inputs ?? {}).filter((input) => LSP_LIBRARY.test(input));
  if (copied.length > 0)
    throw new Error(
      `${b.outfile} holds its own copy of the LSP library (it must take dist/server-core.js's): ${copied.slice(0, 5).join(', ')}`,
    );
});
/**
 * The server bundle as ASCII only: esbuild escapes what is past ASCII in strings, but leaves it in
 * comments and regular expressions, and one such character makes the whole source a two-byte
 * string (read from UTF-8 several times slower at every start, and twice the memory). Each UTF-16
 * unit past ASCII is written `\uXXXX`, which means the same character in a string, a template, a
 * regular expression (with or without the u flag) and an identifier, and is only text in a comment.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  // After a backslash the escape would not mean the character: none is there today.
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error(`${file}: a character past ASCII right after a backslash`);
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}
/**
 * A package.json of the bundles' own folder, so that Node, which reads the nearest one to learn a
 * `.js` entry's module type before it runs dist/server.js, stops there instead of reading and
 * parsing the extension's manifest (~50 KB, ~0.9 ms of every server start). CommonJS, as without it.
 */
writeFileSync(`${SERVER_DIR}/package.json`, '{ "type": "commonjs" }\n');
/** The server's bundles, in the order of their parts in a code cache file (boot.ts BUNDLES). */
const SERVER_BUNDLES = ['server-core.js', WIRING_FILE].map((f) => `${SERVER_DIR}/${f}`);
for (const file of SERVER_BUNDLES) if (existsSync(file)) asciiOnly(file);
// dist/server.js runs the server's bundles through V8's code cache, one cache file for them: their
// sha256 names it (V8 itself checks only each text's length).
if (existsSync('server/src/boot.ts') && SERVER_BUNDLES.every((f) => existsSync(f))) {
  const hash = createHash('sha256');
  for (const file of SERVER_BUNDLES) hash.update(readFileSync(file));
  await esbuild.build({
    ...common,
    entryPoints: ['server/src/boot.ts'],
    outfile: `${SERVER_DIR}/server.js`,
    // node:os (the home folder, when no HOME names it): loaded on first use.
    plugins: [lazyPackages],
    define: { ...common.define, SERVER_BUNDLES_HASH: JSON.stringify(hash.digest('hex')) },
  });
}
