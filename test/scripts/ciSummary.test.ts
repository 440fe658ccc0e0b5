/**
 * CI's closing line and its ../shared check (scripts/ciSummary.mjs, run by .ci/run), over TAP logs
 * that Node's own runner writes for small test files: passing, failing, crashing at load or in a
 * describe body, failing in a hook, skipped for want of ../shared and for another reason.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { needsShared, REPO_ROOT } from '../support/shared';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'ciSummary.mjs');

const FILES: Record<string, string> = {
  'passing.test.js': `const { describe, test } = require('node:test');
describe('a block', () => {
  test('one', () => {});
  describe('an inner block', () => { test('two', () => {}); });
});
test('three # with a hash', () => {});`,
  'skipping.test.js': `const { describe, test } = require('node:test');
describe('DataHub payloads', { skip: 'needs ../shared/fixtures/datahub-mcps (not found at /x)' }, () => {
  test('never runs', () => {});
});
test('a schema check', (t) => { t.skip('needs ../shared/fixtures/datahub-graphql (not found at /y)'); });
test('on another platform', { skip: 'not on this platform' }, () => {});
describe('a block skipped for its own reason', { skip: true }, () => { test('never', () => {}); });
test('four', () => {});`,
  'failing.test.js': `const { test } = require('node:test');
const assert = require('node:assert');
test('fails', () => assert.equal(1, 2));
test('passes', () => {});`,
  'crashAtLoad.test.js': `throw new Error('crash before any test');`,
  'crashInBlock.test.js': `const { describe, test } = require('node:test');
describe('a block that throws', () => { test('cut short', () => {}); throw new Error('in the body'); });`,
  'failingHook.test.js': `const { after, describe, test } = require('node:test');
describe('a block whose after hook fails', () => {
  after(() => { throw new Error('hook'); });
  test('fine', () => {});
});`,
};

describe('the closing line of CI and its ../shared check (scripts/ciSummary.mjs)', () => {
  let dir: string;
  const logs: Record<string, string> = {};
  const status: Record<string, number | null> = {};
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ci-summary-'));
    mkdirSync(path.join(dir, 'shared'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(dir, name), text);
    const env: NodeJS.ProcessEnv = { ...process.env };
    // This test runs inside the runner's child: the runner started here must be a runner of its own.
    delete env['NODE_TEST_CONTEXT'];
    // Like .ci/run: one log per step, the runner's TAP (its output is not a terminal).
    for (const [log, files] of [
      ['green', ['passing.test.js', 'skipping.test.js']],
      ['red', ['failing.test.js', 'crashAtLoad.test.js', 'crashInBlock.test.js', 'failingHook.test.js']],
    ] as const) {
      const r = spawnSync(process.execPath, ['--test', ...files], { cwd: dir, env, encoding: 'utf8' });
      logs[log] = path.join(dir, `${log}.log`);
      status[log] = r.status;
      writeFileSync(logs[log], r.stdout + r.stderr);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const summary = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

  test('passed, failed and skipped add up over the logs; skipped blocks count, and what failed outside a test', () => {
    assert.equal(status['green'], 0);
    assert.notEqual(status['red'], 0);
    const green = summary(logs['green']!);
    assert.equal(green.status, 0);
    // 4 passed; skipped: 2 tests (t.skip, { skip }) and 2 blocks, which Node's "# skipped" leaves out.
    assert.equal(green.stdout, '4 passed, 0 failed, 4 skipped\n');
    const red = summary(logs['red']!);
    assert.equal(red.status, 0, 'it reports; the step that ran the tests fails the run');
    const [line, ...rest] = red.stdout.trimEnd().split('\n');
    // Failed: 'fails', the file that crashed at load, the test the throwing block cut short
    // (cancelled), and the two blocks that failed outside their tests.
    assert.equal(line, '2 passed, 5 failed, 0 skipped');
    assert.deepEqual(rest, [
      '  failed outside its tests: a block that throws (testCodeFailure)',
      '  failed outside its tests: a block whose after hook fails (hookFailed)',
    ]);
    assert.match(summary(logs['green']!, logs['red']!).stdout, /^6 passed, 5 failed, 4 skipped$/m);
  });

  test('a log that is not there adds nothing', () => {
    assert.equal(summary(path.join(dir, 'no-such.log')).stdout, '0 passed, 0 failed, 0 skipped\n');
  });

  test('--shared: fails, naming them, when ../shared is there and tests skipped for want of it', () => {
    const r = summary(`--shared=${path.join(dir, 'shared')}`, logs['green']!, logs['red']!);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^6 passed, 5 failed, 4 skipped$/m);
    assert.equal(
      r.stderr,
      [
        `FAILED: ${path.join(dir, 'shared')} is there, yet these skipped for want of it:`,
        '  DataHub payloads: needs ../shared/fixtures/datahub-mcps (not found at /x)',
        '  a schema check: needs ../shared/fixtures/datahub-graphql (not found at /y)',
        '',
      ].join('\n'),
    );
  });

  test('--shared: only says so when ../shared is missing, and passes when nothing needed it', () => {
    const missing = summary(`--shared=${path.join(dir, 'no-shared')}`, logs['green']!);
    assert.equal(missing.status, 0);
    assert.match(missing.stdout, /no-shared is missing: 2 tests and blocks that need it skipped/);
    const none = summary(`--shared=${path.join(dir, 'shared')}`, logs['red']!);
    assert.equal(none.status, 0, none.stderr);
  });

  test('the skip reason the tests give is the one the check looks for (test/support/shared.ts)', () => {
    assert.match(String(needsShared('no/such/folder')), /^needs \.\.\/shared\/no\/such\/folder \(not found at .+\)$/);
  });
});
