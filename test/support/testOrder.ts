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
 * order, and apply to the whole block as ever. Calls made later (inside a running test, after an
 * `await` in an async describe body, from a timer) are made at once. A test file that is an ES
 * module is run as written.
 */
import Module = require('node:module');
import nodeTest = require('node:test');
import { syncBuiltinESMExports } from 'node:module';

type Register = (...args: unknown[]) => unknown;
interface Noted {
  register: () => unknown;
  /** Settles what the noted call returned with what the real call returns. */
  settle: (value: unknown) => void;
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

/** mulberry32: a small seeded generator, enough to shuffle tests reproducibly. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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

function install(order: TestOrder): void {
  const random = order.kind === 'shuffle' ? generator(order.seed) : () => 0;
  /** The block whose body is running (the file's module body, a describe body), or none. */
  let noting: Noted[] | undefined;

  const replay = (noted: Noted[]): void => {
    for (const n of ordered(noted, order, random)) n.settle(n.register());
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

  /** A describe body, noted as a block of its own. */
  const blockBody = (fn: unknown): unknown =>
    typeof fn !== 'function'
      ? fn
      : function (this: unknown, ...a: unknown[]) {
          return inBlock(() => (fn as (...x: unknown[]) => unknown).apply(this, a));
        };

  const deferring = (real: Register, isSuite: boolean): Register =>
    function (this: unknown, ...args: unknown[]) {
      // The body is the last function argument: describe(name?, options?, fn?).
      const call = isSuite
        ? args.map((a, i) => (args.slice(i + 1).some((b) => typeof b === 'function') ? a : blockBody(a)))
        : args;
      if (!noting) return real.apply(this, call);
      let settle!: (v: unknown) => void;
      const registered = new Promise((resolve) => {
        settle = resolve;
      });
      noting.push({ register: () => real.apply(this, call), settle });
      return registered;
    };

  const wrap = (real: Register & Partial<Record<'skip' | 'todo' | 'only', Register>>, isSuite: boolean): Register => {
    const wrapped = deferring(real, isSuite) as Register & Record<string, Register>;
    for (const k of ['skip', 'todo', 'only'] as const) {
      const variant = real[k];
      if (variant) wrapped[k] = deferring(variant, isSuite);
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
  for (const k of ['skip', 'todo', 'only'] as const) api[k] = (test as unknown as Record<string, Register>)[k]!;
  syncBuiltinESMExports();

  // The test file is the main module: its body is the file's block.
  const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = loader._load;
  loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    return isMain ? inBlock(() => load.call(this, request, parent, isMain)) : load.call(this, request, parent, isMain);
  };
}

// Only in the processes the test runner starts for test files, not in the runner itself; once.
const INSTALLED = Symbol.for('catalog-lens.testOrder');
const marks = globalThis as { [INSTALLED]?: true };
if (process.env['NODE_TEST_CONTEXT'] !== undefined && !marks[INSTALLED]) {
  marks[INSTALLED] = true;
  install(parseTestOrder(process.env['CATALOG_LENS_TEST_ORDER']));
}
