#!/usr/bin/env node
// `npm run test:e2e`: builds, packages the .vsix, installs the e2e tools if needed
// (scripts/e2e-setup.mjs, cached), then runs out/test/e2e/*.test.js one file at a time — each
// file starts its own code-server and Chromium, and two at once would starve a 2-core machine.
//
//   npm run test:e2e                    everything
//   npm run test:e2e -- hover           only scenario names matching "hover" (--test-name-pattern)
//   npm run test:e2e -- --no-build      reuse dist/ and the .vsix as they are
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureE2eTools } from '../../scripts/e2e-setup.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const namePatterns = args.filter((a) => !a.startsWith('--'));
const started = Date.now();

function log(message) {
  process.stderr.write(`[test:e2e] ${message}\n`);
}

function timedRun(label, command, commandArgs, env = process.env) {
  const t = Date.now();
  log(`${label} …`);
  const r = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  log(
    `${label}: ${r.status === 0 ? 'done' : `failed (exit ${r.status ?? r.signal})`} in ${((Date.now() - t) / 1000).toFixed(1)}s`,
  );
  return r.status ?? 1;
}

const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const vsix = join(root, `catalog-lens-${version}.vsix`);
if (!noBuild) {
  if (timedRun('npm run build', 'npm', ['run', 'build']) !== 0) process.exit(1);
  if (timedRun('npm run package', 'npm', ['run', 'package']) !== 0) process.exit(1);
}
if (!existsSync(vsix)) {
  log(`${vsix} is missing: run \`npm run package\``);
  process.exit(1);
}
try {
  await ensureE2eTools();
} catch (err) {
  log(`e2e setup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

const dir = join(root, 'out', 'test', 'e2e');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.js'))
  .sort()
  .map((f) => join(dir, f));
const testArgs = ['--test', '--test-concurrency=1', ...namePatterns.map((p) => `--test-name-pattern=${p}`), ...files];
const status = timedRun('scenarios', process.execPath, testArgs, {
  ...process.env,
  CATALOG_LENS_E2E: '1',
  CATALOG_LENS_VSIX: vsix,
});
log(`total ${((Date.now() - started) / 1000).toFixed(1)}s`);
process.exit(status);
