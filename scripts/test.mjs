// Runs the compiled tests (out/test/**/*.test.js) with Node's own test runner.
// `npm test -- catalog` runs only the files whose path contains "catalog".
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.js') ? [p] : [];
  });
}
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = walk('out/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
