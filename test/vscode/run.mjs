#!/usr/bin/env node
// The in-host suite (test/vscode/suite): tests that run inside VS Code's extension host and drive
// the real API against a local catalog. Builds first (tsc, the suite's own tsconfig, esbuild).
//
//   npm run test:vscode                  VS Code desktop via @vscode/test-electron (needs the download)
//   npm run test:vscode:web              code-server + Chromium, as the e2e suite (tools: scripts/e2e-setup.mjs)
//   npm run test:vscode:web -- hover     only tests whose name matches "hover" (node:test testNamePatterns)
//   ... -- --no-build                    reuse out/ and dist/ as they are
//   CATALOG_LENS_INHOST_TIMEOUT_S=600    the web run's time limit (default 600 s)
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureE2eTools } from '../../scripts/e2e-setup.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @param {string} name a launcher in out/test/vscode/launch */
function compiled(name) {
  return new URL(`../../out/test/vscode/launch/${name}`, import.meta.url).href;
}
const args = process.argv.slice(2);
const web = args.includes('--web');
const noBuild = args.includes('--no-build');
const namePatterns = args.filter((a) => !a.startsWith('--'));
const label = web ? 'test:vscode:web' : 'test:vscode';
const started = Date.now();

function log(message) {
  process.stderr.write(`[${label}] ${message}\n`);
}

if (!noBuild) {
  const t = Date.now();
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  log(
    `npm run build: ${r.status === 0 ? 'done' : `failed (exit ${r.status ?? r.signal})`} in ${((Date.now() - t) / 1000).toFixed(1)}s`,
  );
  if (r.status !== 0) process.exit(1);
}

let status;
if (web) {
  try {
    await ensureE2eTools();
  } catch (err) {
    log(`e2e setup failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  // The launchers are TypeScript (test/vscode/launch), type-checked there; their compiled form is loaded here.
  /** @type {{ runInCodeServer(o: { namePatterns: string[]; timeoutMs: number }): Promise<number> }} */
  const { runInCodeServer } = await import(compiled('web.js'));
  const timeoutMs = Number(process.env.CATALOG_LENS_INHOST_TIMEOUT_S || 600) * 1000;
  status = await runInCodeServer({ namePatterns, timeoutMs });
} else {
  /** @type {{ runInDesktop(o: { namePatterns: string[] }): Promise<number> }} */
  const { runInDesktop } = await import(compiled('electron.js'));
  status = await runInDesktop({ namePatterns });
}
log(`total ${((Date.now() - started) / 1000).toFixed(1)}s`);
process.exit(status);
