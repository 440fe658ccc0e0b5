// The build steps of `npm start`: rebuild dist/ when a source is newer than a bundle, and package
// the .vsix when a bundle (or the manifest, grammar or README) is newer than it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(root, paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const name of readdirSync(p)) visit(join(p, name));
    else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

function oldestMtime(root, paths) {
  let oldest = Infinity;
  for (const p of paths) {
    const full = join(root, p);
    oldest = Math.min(oldest, existsSync(full) ? statSync(full).mtimeMs : 0);
  }
  return oldest;
}

const SOURCES = [
  'client/src',
  'server/src',
  'catalog/src',
  'model/src',
  'syntaxes',
  'package.json',
  'scripts/build.mjs',
  'scripts/editorGate.ts',
];
const BUNDLES = [
  'dist/server.js',
  'dist/server-core.js',
  'dist/server-wiring.js',
  'dist/catalog.js',
  'dist/extension.js',
  'dist/editorGate.js',
];

/**
 * `npm run <script>`, its output kept out of the terminal (packaging lists every file of the
 * .vsix): on failure the error carries the output's last 40 lines.
 */
function npmRun(root, script) {
  const r = spawnSync('npm', ['run', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd().split('\n').slice(-40).join('\n');
    throw new Error(`npm run ${script} failed (exit ${r.status ?? r.signal}):\n${tail}`);
  }
}

export function buildIfNeeded(root, { noBuild, log }) {
  if (noBuild) return;
  if (oldestMtime(root, BUNDLES) >= newestMtime(root, SOURCES)) {
    log('dist/ is up to date');
    return;
  }
  npmRun(root, 'build');
}

function vsixPath(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `catalog-lens-${version}.vsix`);
}

export function packageIfNeeded(root, { noBuild }) {
  const vsix = vsixPath(root);
  if (
    !noBuild &&
    (!existsSync(vsix) ||
      statSync(vsix).mtimeMs < newestMtime(root, [...BUNDLES, 'package.json', 'syntaxes', 'README.md']))
  ) {
    npmRun(root, 'package');
  }
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\``);
  return vsix;
}
