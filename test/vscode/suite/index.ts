/**
 * The in-host suite's entry: VS Code loads this file as `extensionTestsPath` inside the extension
 * host and awaits `run()`; a rejection is the exit code 1 that the launcher gets back.
 *
 * The tests use Node's own runner, as every other suite here: `run()` of node:test with
 * `isolation: 'none'` loads the *.inhost.js files into this process (a child process would have
 * no `vscode` module) and reports them as TAP to the file the launcher names. In that mode
 * node:test writes its closing counts only when the process exits, which the extension host
 * does only after `run()` has returned; so the counts are kept here, from the events, and written
 * in node:test's own form ("# pass N", "# fail N" …), which CI adds up.
 */
import { appendFileSync, createWriteStream, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { run as runTests } from 'node:test';
import { tap } from 'node:test/reporters';
import { INHOST_ENV } from '../inhostEnv';

/** One event of node:test's reporter stream, as far as the counts need it. */
interface TestEvent {
  type: string;
  data: {
    nesting?: number;
    name?: string;
    skip?: unknown;
    todo?: unknown;
    details?: { type?: string; error?: { failureType?: string } };
  };
}

interface Counts {
  topLevel: number;
  tests: number;
  suites: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
  /** Suites that failed (a hook threw): their tests are counted as cancelled, not failed. */
  failedSuites: number;
}

export async function run(): Promise<void> {
  const report = process.env[INHOST_ENV.report];
  if (!report) throw new Error(`${INHOST_ENV.report} is not set: start the suite with npm run test:vscode[:web]`);
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 8)) {
    // node:test's isolation 'none' came with Node 22.8 (VS Code 1.101's Electron 35 ships 22.15).
    throw new Error(`the in-host suite needs Node 22.8 or later in the extension host; this one is ${process.version}`);
  }
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.inhost.js'))
    .sort()
    .map((f) => path.join(__dirname, f));
  const patterns = process.env[INHOST_ENV.namePatterns];
  const started = performance.now();
  const counts: Counts = {
    topLevel: 0,
    tests: 0,
    suites: 0,
    pass: 0,
    fail: 0,
    cancelled: 0,
    skipped: 0,
    todo: 0,
    failedSuites: 0,
  };
  const stream = runTests({
    files,
    concurrency: 1,
    // Not yet in @types/node 20's RunOptions; node:test reads it since 22.8.
    ...({ isolation: 'none' } as object),
    ...(patterns ? { testNamePatterns: JSON.parse(patterns) as string[] } : {}),
  });
  // node:test's own TAP reporter, over the events this file counts (typed loosely here).
  const toTap = tap as unknown as (source: AsyncIterable<TestEvent>) => AsyncIterable<string>;
  await pipeline(
    untilAllReported(stream as AsyncIterable<TestEvent>, counts),
    toTap,
    createWriteStream(report, { flags: 'a' }),
  );
  const duration = performance.now() - started;
  appendFileSync(
    report,
    [
      `1..${counts.topLevel}`,
      `# tests ${counts.tests}`,
      `# suites ${counts.suites}`,
      `# pass ${counts.pass}`,
      `# fail ${counts.fail}`,
      `# cancelled ${counts.cancelled}`,
      `# skipped ${counts.skipped}`,
      `# todo ${counts.todo}`,
      `# duration_ms ${duration.toFixed(3)}`,
      '',
    ].join('\n'),
  );
  if (counts.fail + counts.cancelled + counts.failedSuites > 0) {
    throw new Error(
      `in-host suite: ${counts.fail} failed, ${counts.cancelled} cancelled, ${counts.failedSuites} suites failed`,
    );
  }
  if (counts.tests === 0) throw new Error('in-host suite: no test ran (a name pattern that matches none?)');
}

/**
 * The reporter's events until every top-level test has reported its result. All top-level
 * tests are enqueued while the files load, before the first one runs, so once as many have
 * passed or failed as were enqueued, nothing else is coming but the process-exit summary.
 */
async function* untilAllReported(stream: AsyncIterable<TestEvent>, counts: Counts): AsyncGenerator<TestEvent> {
  let enqueued = 0;
  for await (const event of stream) {
    yield event;
    const { type, data } = event;
    if (type === 'test:enqueue' && data.nesting === 0) enqueued++;
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') {
      counts.suites++;
      if (type === 'test:fail') counts.failedSuites++;
    } else {
      counts.tests++;
      if (data.skip !== undefined && data.skip !== false) counts.skipped++;
      else if (data.todo !== undefined && data.todo !== false) counts.todo++;
      else if (type === 'test:pass') counts.pass++;
      else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled++;
      else counts.fail++;
    }
    if (data.nesting === 0 && ++counts.topLevel === enqueued) return;
  }
}
