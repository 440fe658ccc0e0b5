// `npm run typecheck`: type-checks every TypeScript and JavaScript file of the repository, each
// through the project that gives it its context (test/scripts/typecheck.test.ts fails when a file
// is in none). `npm test` runs it right after `npm run build`, with --after-build.
//
//   npm run typecheck                     every project
//   npm run typecheck -- client           only the projects whose tsconfig path contains "client"
//   npm run typecheck -- --after-build    all but tsconfig.json, which `npm run build` has just
//                                         compiled (tsc -p . fails the build on any type error)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every project, by its tsconfig (relative to the repository root), and what it holds. */
export const PROJECTS = [
  { config: 'tsconfig.json', holds: 'model/, server/, catalog/, scripts/*.ts and test/ (emitted to out/)' },
  { config: 'client/tsconfig.json', holds: 'the VS Code client (client/src) with the vscode types' },
  { config: 'test/lint/fixtures/tsconfig.json', holds: "the lint test's fixture (floating promises, well typed)" },
  {
    config: 'test/vscode/tsconfig.json',
    holds: 'the in-host suite (test/vscode/suite, run inside the extension host) with the vscode types',
  },
  {
    config: 'tsconfig.js.json',
    holds: 'the JavaScript: bench/, scripts/*.mjs, eslint.config.mjs, test/e2e/run.mjs, test/vscode/run.mjs',
  },
];

/**
 * Files that are in no project, each with the reason. Paths relative to the repository root.
 * @type {Record<string, string>}
 */
export const UNCHECKED = {
  'bin/catalog-lens-catalog.js': 'one require of the bundle dist/catalog.js (generated code)',
  'bin/catalog-lens-server.js': 'one require of the bundle dist/server.js (generated code)',
  'bin/catalog-lens.js': 'one require of the bundle dist/cli.js (generated code)',
};

/** The `tsc` of the repository's own typescript package. */
export function tscPath() {
  return createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
}

function main() {
  const args = process.argv.slice(2);
  const afterBuild = args.includes('--after-build');
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--after-build');
  if (unknown.length > 0) {
    console.error(`typecheck: unknown option ${unknown.join(' ')}`);
    process.exit(2);
  }
  const filters = args.filter((a) => !a.startsWith('--'));
  const projects = PROJECTS.filter(
    (p) =>
      (!afterBuild || p.config !== 'tsconfig.json') &&
      (filters.length === 0 || filters.some((f) => p.config.includes(f))),
  );
  if (projects.length === 0) {
    console.error(`typecheck: no project matches ${filters.join(' ')}`);
    process.exit(1);
  }
  const failed = [];
  for (const p of projects) {
    const started = Date.now();
    const r = spawnSync(process.execPath, [tscPath(), '-p', p.config, '--noEmit'], { cwd: ROOT, stdio: 'inherit' });
    const took = ((Date.now() - started) / 1000).toFixed(1);
    const ok = r.status === 0;
    if (!ok) failed.push(p.config);
    console.log(`typecheck: ${p.config} ${ok ? 'ok' : 'FAILED'} (${took}s): ${p.holds}`);
  }
  if (failed.length > 0) {
    console.error(`typecheck: type errors in ${failed.join(', ')}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
