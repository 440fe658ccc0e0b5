// Bundles the shipped entry points with esbuild (tsc has type-checked them and built out/ for the tests).
// dist/server.js and dist/extension.js hold no native module, so they run on any Node the editor has:
// the local catalog, which loads better-sqlite3 (built for one Node ABI), is its own bundle and always
// its own process.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const production = process.argv.includes('--production');
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
 * required only from inside that getter, so its top-level code does not run at start-up.
 */
const require = createRequire(import.meta.url);
const LAZY_PACKAGES = ['graphql', 'yaml'];
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

const builds = [
  // The server bundle; dist/server.js (boot.ts, built below with this bundle's hash) runs it.
  { entryPoints: ['server/src/main.ts'], outfile: 'dist/server-core.js', plugins: [lazyPackages] },
  // The worker threads of the server and the command line (server/src/index/scanPool.ts starts it from their folder).
  { entryPoints: ['server/src/index/scanWorker.ts'], outfile: 'dist/scanWorker.js', plugins: [lazyPackages] },
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
].filter((b) => b.entryPoints.every((entry) => existsSync(entry)));
await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
// dist/server.js runs dist/server-core.js through V8's code cache, one cache file per bundle: the
// bundle's sha256 names it (V8 itself checks only the text's length).
if (existsSync('server/src/boot.ts')) {
  const core = createHash('sha256').update(readFileSync('dist/server-core.js')).digest('hex');
  await esbuild.build({
    ...common,
    entryPoints: ['server/src/boot.ts'],
    outfile: 'dist/server.js',
    define: { ...common.define, SERVER_CORE_HASH: JSON.stringify(core) },
  });
}
