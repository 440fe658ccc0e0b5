// Runs the compiled tests (out/test/**/*.test.js) with Node's own test runner.
// `npm test -- catalog` runs only the files whose path contains "catalog".
//
// Each file's tests, and each describe block's, run in reverse order (test/support/testOrder.ts,
// preloaded into every test process), so a test that needs the one written before it fails.
// CATALOG_LENS_TEST_ORDER=declared runs them as written; =shuffle picks a seed and prints it,
// =shuffle:<seed> repeats that order.
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.js') ? [p] : [];
  });
}

/** The preload that orders the tests, and the order it is given (a random seed filled in for `shuffle`). */
export function testOrderArgs(env = process.env) {
  const preload = resolve('out/test/support/testOrder.js');
  if (!existsSync(preload)) throw new Error(`${preload} is missing: run npm run build`);
  const asked = env.CATALOG_LENS_TEST_ORDER || 'reverse';
  const order = asked === 'shuffle' ? `shuffle:${randomInt(2 ** 31)}` : asked;
  return { execArgv: ['--require', preload], env: { ...env, CATALOG_LENS_TEST_ORDER: order }, order };
}

/**
 * The compiled test files whose path contains one of `filters` (all when none). The e2e files are
 * not among them: they need code-server and Chromium, and `npm run test:e2e` (test/e2e/run.mjs)
 * runs them; here each would only show as a skipped suite in CI's count.
 */
export function testFiles(filters) {
  return walk('out/test')
    .filter((f) => !f.startsWith(join('out', 'test', 'e2e')))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
}

function main() {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const files = testFiles(filters);
  if (files.length === 0) {
    console.error(`no test files match ${filters.join(' ')}`);
    process.exit(1);
  }
  const { execArgv, env, order } = testOrderArgs();
  console.error(`test order: ${order} (CATALOG_LENS_TEST_ORDER=${order} repeats it)`);
  const r = spawnSync(process.execPath, [...execArgv, '--test', '--test-concurrency=2', ...files], {
    stdio: 'inherit',
    env,
  });
  process.exit(r.status ?? 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
