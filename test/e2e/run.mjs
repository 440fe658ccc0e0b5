#!/usr/bin/env node
// `npm run test:e2e`: builds, packages the .vsix, installs the e2e tools if needed
// (scripts/e2e-setup.mjs, cached), then runs out/test/e2e/*.test.js one file at a time — each
// file starts its own code-server and Chromium, and two at once would starve a 2-core machine.
// At the end it prints each scenario (a test, named by its step: "search-pick") with how many
// rounds it passed, and exits non-zero when any scenario failed any round.
//
//   npm run test:e2e                    everything
//   npm run test:e2e -- hover           only scenario names matching "hover" (--test-name-pattern)
//   npm run test:e2e -- --no-build      reuse dist/ and the .vsix as they are
//
// Stress mode, to find scenarios that pass by luck (a flaky scenario is a defect):
//
//   npm run test:e2e -- --repeat 5      the whole suite (or the matching scenarios) 5 times
//   npm run test:e2e -- --load          with a CPU hog on every core: one child process per core
//                                       spinning in a loop, started before the first round and
//                                       stopped, each by its own pid, after the last
//   npm run test:e2e -- --repeat 5 --load
//
// which ends with one line per scenario, e.g. "search-pick 5/5". The screenshots and logs of a
// failed step land in test-results/e2e/ (test-results/e2e/round-N/ when repeating).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureE2eTools } from '../../scripts/e2e-setup.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const started = Date.now();

function log(message) {
  process.stderr.write(`[test:e2e] ${message}\n`);
}

function usage(message) {
  log(`${message}\nusage: npm run test:e2e -- [--no-build] [--repeat N] [--load] [name pattern …]`);
  process.exit(2);
}

/** @returns {{ noBuild: boolean, repeat: number, load: boolean, namePatterns: string[] }} */
function parseArgs(argv) {
  /** @type {{ noBuild: boolean, repeat: number, load: boolean, namePatterns: string[] }} */
  const opts = { noBuild: false, repeat: 1, load: false, namePatterns: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-build') opts.noBuild = true;
    else if (a === '--load') opts.load = true;
    else if (a === '--repeat' || a.startsWith('--repeat=')) {
      const value = a === '--repeat' ? argv[++i] : a.slice('--repeat='.length);
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) usage(`--repeat takes a whole number of rounds, not ${value}`);
      opts.repeat = n;
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else opts.namePatterns.push(a);
  }
  return opts;
}

/** Runs a command with the terminal's output; resolves with its exit status (1 for a signal). */
function run(command, args, env = process.env) {
  return new Promise((resolveStatus) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.once('error', (err) => {
      log(`${command}: ${err.message}`);
      resolveStatus(1);
    });
    child.once('exit', (code, signal) => resolveStatus(code ?? (signal ? 1 : 0)));
  });
}

async function timedRun(label, command, commandArgs, env = process.env) {
  const t = Date.now();
  log(`${label} …`);
  const status = await run(command, commandArgs, env);
  log(`${label}: ${status === 0 ? 'done' : `failed (exit ${status})`} in ${seconds(Date.now() - t)}`);
  return status;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}

/**
 * The CPU hog of --load: one Node process per core, each spinning in a loop at the tests' own
 * priority. `stop()` ends each one by its own pid and waits for its exit; the exit hook does the
 * same if the runner ends any other way.
 */
function startHog(cores) {
  const children = [];
  for (let i = 0; i < cores; i++) {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    children.push(child);
  }
  const kill = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  log(`--load: ${cores} spinning processes (pids ${children.map((c) => c.pid).join(', ')})`);
  return {
    async stop() {
      const exits = children.map(
        (child) =>
          /** @type {Promise<void>} */ (
            new Promise((done) =>
              child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done()),
            )
          ),
      );
      kill();
      await Promise.all(exits);
      process.removeListener('exit', kill);
      log(`--load: stopped pids ${children.map((c) => c.pid).join(', ')}`);
    },
  };
}

/** The reporter's lines of one round (test/e2e/scenarioReporter.mjs). */
function readResults(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const opts = parseArgs(process.argv.slice(2));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const vsix = join(root, `catalog-lens-${version}.vsix`);
if (!opts.noBuild) {
  if ((await timedRun('npm run build', 'npm', ['run', 'build'])) !== 0) process.exit(1);
  if ((await timedRun('npm run package', 'npm', ['run', 'package'])) !== 0) process.exit(1);
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
const resultsDir = join(root, 'test-results', 'e2e-rounds');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const reporter = join(root, 'test', 'e2e', 'scenarioReporter.mjs');

/** Scenario name → file and passes, in the order they first ran. */
const scenarios = new Map();
/** What failed outside any scenario (a block's hook, a round that exited non-zero without a failed scenario). */
const otherFailures = [];
const hog = opts.load ? startHog(availableParallelism()) : undefined;
const stopHog = async () => {
  await hog?.stop();
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void stopHog().finally(() => process.exit(1));
  });
}

try {
  for (let round = 1; round <= opts.repeat; round++) {
    const label = opts.repeat > 1 ? `round ${round}/${opts.repeat}` : 'scenarios';
    const results = join(resultsDir, `round-${round}.jsonl`);
    const testArgs = [
      '--test',
      '--test-concurrency=1',
      // Node's own output as before (TAP in CI, whose summary reads it), and the scenario lines for the counts.
      `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporter}`,
      `--test-reporter-destination=${results}`,
      ...opts.namePatterns.map((p) => `--test-name-pattern=${p}`),
      ...files,
    ];
    const status = await timedRun(label, process.execPath, testArgs, {
      ...process.env,
      CATALOG_LENS_E2E: '1',
      CATALOG_LENS_VSIX: vsix,
      ...(opts.repeat > 1 ? { CATALOG_LENS_E2E_ROUND: String(round) } : {}),
    });
    let failedHere = 0;
    for (const r of readResults(results)) {
      const where = relative(dir, r.file || dir) || '?';
      if (r.kind === 'block') {
        if (!r.ok) otherFailures.push(`round ${round}: ${where} › ${r.test} failed outside its tests (a hook)`);
        continue;
      }
      const name = r.scenario ?? r.test;
      const entry = scenarios.get(name) ?? { where, passed: 0, ran: 0 };
      entry.ran++;
      if (r.ok) entry.passed++;
      else failedHere++;
      scenarios.set(name, entry);
    }
    if (status !== 0 && failedHere === 0) otherFailures.push(`${label}: node --test exited ${status}`);
    if (opts.repeat > 1) log(`${label}: ${failedHere === 0 && status === 0 ? 'all passed' : `${failedHere} failed`}`);
  }
} finally {
  await stopHog();
}

const rounds = opts.repeat;
const width = Math.max(0, ...[...scenarios.keys()].map((n) => n.length));
const lines = [...scenarios].map(
  ([name, s]) =>
    `${name.padEnd(width)} ${s.passed}/${rounds}${s.ran !== rounds ? ` (ran in ${s.ran} of ${rounds} rounds)` : ''}  ${s.where}`,
);
const flaky = [...scenarios].filter(([, s]) => s.passed !== rounds);
process.stdout.write(
  `\n# e2e scenarios, passes of ${rounds} round${rounds === 1 ? '' : 's'}${opts.load ? ' under --load' : ''}:\n` +
    lines.map((l) => `#   ${l}\n`).join('') +
    otherFailures.map((f) => `#   ${f}\n`).join(''),
);
log(`total ${seconds(Date.now() - started)}`);
process.exit(flaky.length > 0 || otherFailures.length > 0 || scenarios.size === 0 ? 1 : 0);
