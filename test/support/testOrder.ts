/**
 * Preloaded by scripts/test.mjs into every test process (`node --require`): the tests of each file,
 * and of each describe block, are registered in another order than they are written, so a test
 * that passes only after the one written before it fails `npm test`.
 *
 * CATALOG_LENS_TEST_ORDER chooses the order:
 * - `reverse` (what `npm test` uses): last written, first run. Deterministic, and a test that needs
 *   an earlier one always runs before it, so the dependency shows on every run;
 * - `shuffle:<seed>`: a shuffle of each block, the same for the same seed (scripts/test.mjs picks
 *   and prints a seed for `shuffle`);
 * - `declared`: as written.
 *
 * How: `test`, `it`, `describe`, `suite` (and their `.skip`/`.todo`/`.only`) of node:test are
 * wrapped, as compiled tests call them through the module object (`(0, node_test_1.test)(…)`).
 * While the test file's module body, or a describe block's body, runs, they only note the call;
 * when it returns, the noted calls are made in the chosen order, still inside that file or block.
 * Hooks (`before`, `after`, `beforeEach`, `afterEach`) are registered when called, in their own
 * order, and apply to the whole block as ever. Calls made later (subtests inside a running test,
 * after an `await` in an async describe body, from a timer) are made at once. A test file that is
 * an ES module is run as written. Node reports a failing test's `location` as this file (the
 * stack still names the test's line).
 *
 * For scripts/testAlone.mjs, two more variables:
 * - CATALOG_LENS_TEST_ONLY=<JSON array of names>: only the test (or block) at that path of
 *   describe names is registered, with the blocks around it and their hooks; nothing else, so no
 *   other block's hooks run either (Node's --test-name-pattern runs every block's hooks);
 * - CATALOG_LENS_TEST_LIST=<file>: nothing runs; the file's tests are written to <file> as JSON,
 *   each `{ path, skip }`, describe bodies being run to find what they hold.
 */
import { writeFileSync } from 'node:fs';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module object itself, whose exports are patched
import Module = require('node:module');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module object itself, whose exports are patched
import nodeTest = require('node:test');
import { syncBuiltinESMExports } from 'node:module';
import { seededRandom } from './random';

type Register = (...args: unknown[]) => unknown;
interface Noted {
  name: string;
  isSuite: boolean;
  register: () => unknown;
  /** Settles what the noted call returned with what the real call returns. */
  settle: (value: unknown) => void;
}

/** A test of a file as CATALOG_LENS_TEST_LIST writes it: the names of its blocks, then its own. */
export interface ListedTest {
  path: string[];
  /** Skipped as written (`test.skip`, `{ skip }`, `todo`, or inside such a block): not worth running alone. */
  skip: boolean;
}

export type TestOrder = { kind: 'declared' } | { kind: 'reverse' } | { kind: 'shuffle'; seed: number };

/** CATALOG_LENS_TEST_ORDER read; anything else is an error, so a typo does not silently run as written. */
export function parseTestOrder(text: string | undefined): TestOrder {
  if (text === undefined || text === '' || text === 'reverse') return { kind: 'reverse' };
  if (text === 'declared') return { kind: 'declared' };
  const m = /^shuffle:(\d{1,10})$/.exec(text);
  if (m) return { kind: 'shuffle', seed: Number(m[1]) >>> 0 };
  throw new Error(`CATALOG_LENS_TEST_ORDER=${text}: expected reverse, declared or shuffle:<seed>`);
}

/** The order in which a block's noted registrations are made. */
export function ordered<T>(items: readonly T[], order: TestOrder, random: () => number): T[] {
  if (order.kind === 'declared') return [...items];
  if (order.kind === 'reverse') return [...items].reverse();
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The name node:test gives a test or block: `name` if given, else the function's, as Node does. */
function nameOf(args: readonly unknown[]): string {
  if (typeof args[0] === 'string') return args[0];
  const fn = args.find((a) => typeof a === 'function') as { name?: string } | undefined;
  return fn?.name || '<anonymous>';
}

/** Whether the call is skipped as written (through `.skip`/`.todo`, or its options). */
function skippedAsWritten(variant: string | undefined, args: readonly unknown[]): boolean {
  if (variant === 'skip' || variant === 'todo') return true;
  const options = args.find((a) => typeof a === 'object' && a !== null) as
    { skip?: unknown; todo?: unknown } | undefined;
  return Boolean(options?.skip || options?.todo);
}

/** The body is the last function argument: test(name?, options?, fn?). */
function withBody(args: readonly unknown[], wrap: (fn: unknown) => unknown): unknown[] {
  let at = -1;
  args.forEach((a, i) => {
    if (typeof a === 'function') at = i;
  });
  return args.map((a, i) => (i === at ? wrap(a) : a));
}

const VARIANTS = ['skip', 'todo', 'only'] as const;
const HOOKS = ['before', 'after', 'beforeEach', 'afterEach'] as const;

interface Mode {
  order: TestOrder;
  only: string[] | undefined;
  listTo: string | undefined;
}

function install({ order, only, listTo }: Mode): void {
  const random = order.kind === 'shuffle' ? seededRandom(order.seed) : () => 0;
  /** The block whose body is running (the file's module body, a describe body), or none. */
  let noting: Noted[] | undefined;
  /** The names of the describe blocks whose bodies are running. */
  const path: string[] = [];
  const listed: ListedTest[] = [];
  /** Depth of the skipped blocks being listed (their tests are skipped too). */
  let skippedDepth = 0;

  /** With CATALOG_LENS_TEST_ONLY, whether a call at the current path is on the way to that test. */
  const wanted = (n: Noted): boolean => {
    if (!only || path.length >= only.length) return true;
    if (n.name !== only[path.length]) return false;
    return path.length === only.length - 1 || n.isSuite;
  };

  const replay = (noted: Noted[]): void => {
    for (const n of ordered(noted, order, random)) n.settle(wanted(n) ? n.register() : undefined);
  };

  /** Runs `body` with its registrations noted, then makes them in order, before returning. */
  const inBlock = <R>(body: () => R): R => {
    const outer = noting;
    const mine: Noted[] = [];
    noting = mine;
    try {
      return body();
    } finally {
      noting = outer;
      replay(mine);
    }
  };

  /** A describe body: a block of its own, at its place in `path`. */
  const blockBody =
    (name: string) =>
    (fn: unknown): unknown =>
      typeof fn !== 'function'
        ? fn
        : function (this: unknown, ...a: unknown[]) {
            path.push(name);
            try {
              return inBlock(() => (fn as (...x: unknown[]) => unknown).apply(this, a));
            } finally {
              path.pop();
            }
          };

  const deferring = (real: Register, isSuite: boolean): Register =>
    function (this: unknown, ...args: unknown[]) {
      const name = nameOf(args);
      const call = isSuite ? withBody(args, blockBody(name)) : args;
      if (!noting) return real.apply(this, call);
      let settle!: (v: unknown) => void;
      const registered = new Promise((resolve) => {
        settle = resolve;
      });
      noting.push({ name, isSuite, register: () => real.apply(this, call), settle });
      return registered;
    };

  /** CATALOG_LENS_TEST_LIST: notes the test, runs a block's body to find its tests, registers nothing. */
  const listing = (isSuite: boolean, variant?: string): Register =>
    function (this: unknown, ...args: unknown[]) {
      const name = nameOf(args);
      const skip = skippedDepth > 0 || skippedAsWritten(variant, args);
      if (!isSuite) {
        listed.push({ path: [...path, name], skip });
        return Promise.resolve();
      }
      const body = args.find((a) => typeof a === 'function') as ((...x: unknown[]) => unknown) | undefined;
      path.push(name);
      if (skip) skippedDepth++;
      try {
        body?.call(undefined);
      } finally {
        if (skip) skippedDepth--;
        path.pop();
      }
      return Promise.resolve();
    };

  const wrap = (real: Register & Partial<Record<(typeof VARIANTS)[number], Register>>, isSuite: boolean): Register => {
    const wrapped = (listTo ? listing(isSuite) : deferring(real, isSuite)) as Register & Record<string, Register>;
    for (const k of VARIANTS) {
      const variant = real[k];
      if (variant) wrapped[k] = listTo ? listing(isSuite, k) : deferring(variant, isSuite);
    }
    return wrapped;
  };

  const api = nodeTest as unknown as Record<string, Register>;
  const test = wrap(api['test']!, false);
  const suite = wrap(api['describe']!, true);
  api['test'] = test;
  api['it'] = test;
  api['describe'] = suite;
  api['suite'] = suite;
  for (const k of VARIANTS) api[k] = (test as unknown as Record<string, Register>)[k]!;
  if (listTo) for (const k of HOOKS) api[k] = () => undefined;
  syncBuiltinESMExports();

  // The test file is the main module: its body is the file's block.
  const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = loader._load;
  loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    if (!isMain) return load.call(this, request, parent, isMain);
    if (!listTo) return inBlock(() => load.call(this, request, parent, isMain));
    load.call(this, request, parent, isMain);
    writeFileSync(listTo, JSON.stringify(listed));
    process.exit(0);
  };
}

// Only in the processes the test runner starts for test files (or, to list, in a plain `node`
// process), not in the runner itself; once.
const INSTALLED = Symbol.for('catalog-lens.testOrder');
const marks = globalThis as { [INSTALLED]?: true };
const listTo = process.env['CATALOG_LENS_TEST_LIST'] || undefined;
if ((process.env['NODE_TEST_CONTEXT'] !== undefined || listTo) && !marks[INSTALLED]) {
  marks[INSTALLED] = true;
  const only = process.env['CATALOG_LENS_TEST_ONLY'];
  install({
    order: parseTestOrder(process.env['CATALOG_LENS_TEST_ORDER']),
    only: only ? (JSON.parse(only) as string[]) : undefined,
    listTo,
  });
}
