/**
 * The preload that reorders tests (test/support/testOrder.ts), on a test file written as tsc
 * compiles ours (`(0, node_test_1.test)(…)`), with hooks, nested describes, skipped tests, subtests
 * and a test registered later from a timer, run by Node's own runner as scripts/test.mjs runs it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ordered, parseTestOrder } from '../support/testOrder';

const PRELOAD = path.join(__dirname, '..', 'support', 'testOrder.js');

/** What tsc makes of a test file; each test and hook writes its name to ORDER_LOG when it runs. */
const COMPILED_TEST_FILE = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_test_1 = require("node:test");
const node_fs_1 = require("node:fs");
const ran = (what) => (0, node_fs_1.appendFileSync)(process.env.ORDER_LOG, what + "\\n");
(0, node_test_1.before)(() => ran("file before"));
(0, node_test_1.test)("t1", () => ran("t1"));
(0, node_test_1.describe)("d1", () => {
    (0, node_test_1.before)(() => ran("d1 before"));
    (0, node_test_1.after)(() => ran("d1 after"));
    (0, node_test_1.test)("d1.a", () => ran("d1.a"));
    (0, node_test_1.test)("d1.b", () => ran("d1.b"));
    (0, node_test_1.describe)("d1.inner", () => {
        (0, node_test_1.it)("d1.inner.x", () => ran("d1.inner.x"));
        (0, node_test_1.it)("d1.inner.y", async (t) => {
            ran("d1.inner.y");
            await t.test("sub1", () => ran("sub1"));
            await t.test("sub2", () => ran("sub2"));
        });
    });
    node_test_1.test.skip("d1.skipped", () => ran("d1.skipped"));
    (0, node_test_1.test)("d1.c", { skip: "a reason" }, () => ran("d1.c"));
});
(0, node_test_1.test)("t2", () => ran("t2"));
setImmediate(() => (0, node_test_1.test)("late", () => ran("late")));
node_test_1.describe.skip("skipped block", () => {
    (0, node_test_1.test)("in the skipped block", () => ran("in the skipped block"));
});
(0, node_test_1.test)("t3", () => ran("t3"));
`;

describe('tests run in the order CATALOG_LENS_TEST_ORDER names (test/support/testOrder.ts)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'test-order-'));
    writeFileSync(path.join(dir, 'compiled.test.js'), COMPILED_TEST_FILE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let runs = 0;
  /** Runs the file under the preload; what ran, in order, and the runner's output and exit code. */
  function run(
    order: string | undefined,
    extra: NodeJS.ProcessEnv = {},
    runner = true,
  ): { ran: string[]; output: string; status: number | null } {
    const log = path.join(dir, `ran-${runs++}.log`);
    writeFileSync(log, '');
    // This test runs inside the runner's child, maybe alone (scripts/testAlone.mjs): the runner
    // started here is one of its own, with none of this process's test variables.
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const v of [
      'NODE_TEST_CONTEXT',
      'CATALOG_LENS_TEST_ORDER',
      'CATALOG_LENS_TEST_ONLY',
      'CATALOG_LENS_TEST_LIST',
    ])
      delete env[v];
    Object.assign(env, extra, { ORDER_LOG: log });
    if (order !== undefined) env['CATALOG_LENS_TEST_ORDER'] = order;
    const file = path.join(dir, 'compiled.test.js');
    const r = spawnSync(process.execPath, ['--require', PRELOAD, ...(runner ? ['--test'] : []), file], {
      env,
      encoding: 'utf8',
    });
    return {
      ran: readFileSync(log, 'utf8').split('\n').filter(Boolean),
      output: r.stdout + r.stderr,
      status: r.status,
    };
  }

  const DECLARED = [
    'file before',
    't1',
    'd1 before',
    'd1.a',
    'd1.b',
    'd1.inner.x',
    'd1.inner.y',
    'sub1',
    'sub2',
    'd1 after',
    't2',
    't3',
    'late',
  ];

  test('declared: as written', () => {
    const r = run('declared');
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.ran, DECLARED);
  });

  test('reverse, and by default: each file and each describe block last first; hooks, subtests and skips as ever; a later registration at once', () => {
    for (const order of ['reverse', undefined]) {
      const r = run(order);
      assert.equal(r.status, 0, r.output);
      assert.deepEqual(
        r.ran,
        [
          'file before',
          't3',
          't2',
          'd1 before',
          'd1.inner.y',
          'sub1',
          'sub2',
          'd1.inner.x',
          'd1.b',
          'd1.a',
          'd1 after',
          't1',
          'late',
        ],
        String(order),
      );
      assert.match(r.output, /^# pass 10$/m);
      assert.match(r.output, /^# skipped 2$/m);
    }
  });

  test('shuffle:<seed>: the same order for the same seed, another for another seed, every test once', () => {
    const a = run('shuffle:1');
    const again = run('shuffle:1');
    const b = run('shuffle:2');
    for (const r of [a, again, b]) {
      assert.equal(r.status, 0, r.output);
      assert.deepEqual([...r.ran].sort(), [...DECLARED].sort());
      assert.equal(r.ran[0], 'file before');
    }
    assert.deepEqual(again.ran, a.ran);
    assert.notDeepEqual(b.ran, a.ran);
  });

  test('CATALOG_LENS_TEST_ONLY: the test at that path alone, with the hooks of the blocks around it and no others', () => {
    const r = run('reverse', { CATALOG_LENS_TEST_ONLY: JSON.stringify(['d1', 'd1.inner', 'd1.inner.y']) });
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.ran, ['file before', 'd1 before', 'd1.inner.y', 'sub1', 'sub2', 'd1 after', 'late']);
    const none = run('reverse', { CATALOG_LENS_TEST_ONLY: JSON.stringify(['d1', 'no such test']) });
    assert.deepEqual(none.ran, ['file before', 'd1 before', 'd1 after', 'late']);
    assert.match(none.output, /^# pass 1$/m, 'only "late", registered from a timer, ran');
  });

  test('CATALOG_LENS_TEST_LIST: every test with the names of its blocks, and whether it is skipped as written; nothing runs', () => {
    const list = path.join(dir, 'list.json');
    const r = run(undefined, { CATALOG_LENS_TEST_LIST: list }, false);
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.ran, []);
    assert.deepEqual(JSON.parse(readFileSync(list, 'utf8')), [
      { path: ['t1'], skip: false },
      { path: ['d1', 'd1.a'], skip: false },
      { path: ['d1', 'd1.b'], skip: false },
      { path: ['d1', 'd1.inner', 'd1.inner.x'], skip: false },
      { path: ['d1', 'd1.inner', 'd1.inner.y'], skip: false },
      { path: ['d1', 'd1.skipped'], skip: true },
      { path: ['d1', 'd1.c'], skip: true },
      { path: ['t2'], skip: false },
      { path: ['skipped block', 'in the skipped block'], skip: true },
      { path: ['t3'], skip: false },
    ]);
  });

  test('an order it does not know fails the file, naming what it expects', () => {
    const r = run('backwards');
    assert.notEqual(r.status, 0);
    assert.match(r.output, /CATALOG_LENS_TEST_ORDER=backwards: expected reverse, declared or shuffle:<seed>/);
    assert.deepEqual(r.ran, []);
  });
});

describe('the orders themselves', () => {
  test('parseTestOrder reads every spelling and refuses the rest', () => {
    assert.deepEqual(parseTestOrder(undefined), { kind: 'reverse' });
    assert.deepEqual(parseTestOrder('reverse'), { kind: 'reverse' });
    assert.deepEqual(parseTestOrder('declared'), { kind: 'declared' });
    assert.deepEqual(parseTestOrder('shuffle:42'), { kind: 'shuffle', seed: 42 });
    for (const bad of ['shuffle', 'shuffle:', 'shuffle:x', 'Reverse', 'random'])
      assert.throws(() => parseTestOrder(bad), /expected reverse, declared or shuffle:<seed>/);
  });

  test('ordered: a copy, reversed or a permutation, never the list itself changed', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    assert.deepEqual(ordered(items, { kind: 'declared' }, Math.random), items);
    assert.deepEqual(ordered(items, { kind: 'reverse' }, Math.random), [8, 7, 6, 5, 4, 3, 2, 1]);
    let i = 0;
    const fixed = () => [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.6][i++ % 7]!;
    const shuffled = ordered(items, { kind: 'shuffle', seed: 0 }, fixed);
    assert.deepEqual([...shuffled].sort(), items);
    assert.notDeepEqual(shuffled, items);
    assert.deepEqual(items, [1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
