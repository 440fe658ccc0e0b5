// An audit, not part of `npm test`: runs every test of the compiled test files alone, each in a
// runner of its own with only the describe blocks around it and their hooks (CATALOG_LENS_TEST_ONLY
// in test/support/testOrder.ts), and reports the tests that fail alone: they depend on another
// test. After `npm run build`:
//
//   node scripts/testAlone.mjs server catalog     the files whose path holds "server" or "catalog"
//   node scripts/testAlone.mjs --jobs=1           one test at a time (default 2)
//
// Tests skipped as written (and the e2e suites, skipped outside `npm run test:e2e`) are not run.
// The output of each test that failed alone is kept in test-results/alone/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testFiles, testOrderArgs } from './test.mjs';

const args = process.argv.slice(2);
const jobsArg = args.find((a) => a.startsWith('--jobs='));
const jobs = jobsArg ? Math.max(1, Number(jobsArg.slice('--jobs='.length)) || 1) : 2;
const unknown = args.filter((a) => a.startsWith('--') && a !== jobsArg);
if (unknown.length > 0) {
  console.error(`testAlone: unknown option ${unknown.join(' ')}`);
  process.exit(2);
}
const filters = args.filter((a) => !a.startsWith('--'));
const files = testFiles(filters);
if (files.length === 0) {
  console.error(`testAlone: no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const { execArgv, env } = testOrderArgs();
const resultsDir = join('test-results', 'alone');
rmSync(resultsDir, { recursive: true, force: true });
const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

/** The tests of one file, as the preload lists them without running them. */
function listTests(file) {
  const dir = mkdtempSync(join(tmpdir(), 'test-list-'));
  try {
    const out = join(dir, 'tests.json');
    const r = spawnSync(process.execPath, [...execArgv, file], {
      env: { ...env, CATALOG_LENS_TEST_LIST: out },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`listing ${file} failed (exit ${r.status}):\n${r.stderr}`);
    return /** @type {Array<{ path: string[], skip: boolean }>} */ (JSON.parse(readFileSync(out, 'utf8')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs one test alone; resolves with what happened.
 * @param {string} file
 * @param {string[]} path
 * @returns {Promise<{ outcome: 'passed' | 'failed' | 'not found' | 'skipped', output: string, ms: number }>}
 */
function runAlone(file, path) {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, '--test', file], {
      env: { ...env, CATALOG_LENS_TEST_ONLY: JSON.stringify(path) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('close', (code) => {
      const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
      const outcome =
        code !== 0 || count('fail') > 0 || count('cancelled') > 0
          ? 'failed'
          : count('pass') > 0
            ? 'passed'
            : count('skipped') > 0
              ? 'skipped'
              : 'not found';
      resolve({ outcome, output, ms: Date.now() - t });
    });
  });
}

const work = [];
let skippedAsWritten = 0;
for (const file of files) {
  for (const test of listTests(file)) {
    if (test.skip) skippedAsWritten++;
    else work.push({ file, path: test.path });
  }
}
console.log(
  `testAlone: ${work.length} tests in ${files.length} files, each alone (${skippedAsWritten} skipped as written); ${jobs} at a time`,
);

const problems = [];
let done = 0;
let next = 0;
async function worker() {
  while (next < work.length) {
    const w = work[next++];
    const r = await runAlone(w.file, w.path);
    done++;
    const name = `${w.file} › ${w.path.join(' › ')}`;
    if (r.outcome === 'passed') continue;
    problems.push({ ...w, ...r });
    mkdirSync(resultsDir, { recursive: true });
    const log = join(resultsDir, `${problems.length}.log`);
    writeFileSync(log, `${name}\n\n${r.output}`);
    console.log(
      `[${done}/${work.length}] ${r.outcome.toUpperCase()} alone: ${name} (${seconds(Date.now() - r.ms)}s; ${log})`,
    );
  }
}
await Promise.all(Array.from({ length: jobs }, worker));

const failed = problems.filter((p) => p.outcome === 'failed');
console.log(
  `testAlone: ${work.length} tests run alone in ${seconds(started)}s: ${work.length - problems.length} passed, ${failed.length} failed, ${problems.length - failed.length} not run (not found or skipped when run)`,
);
for (const p of problems) console.log(`  ${p.outcome}: ${p.file} › ${p.path.join(' › ')}`);
process.exit(problems.length > 0 ? 1 : 0);
