/**
 * The server gives memory back when idle after work (server/src/idleRelease.ts): the decision
 * rules as a table, the collection through the process's one inspector session (which leaves a
 * developer's heap profiling alone), the looking that sleeps until the next work and gives up on a
 * collection that never answers, the caches told to tidy when a burst ends, the switch that turns
 * it off, and a timer that never keeps the process alive.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Session } from 'node:inspector';
import { describe, test } from 'node:test';
import { performance } from 'node:perf_hooks';
import {
  BACKOFF_FACTOR,
  collectAllGarbage,
  collectedIdle,
  COLLECTION_TIMEOUT_MS,
  decideIdle,
  failedIdle,
  GROWTH_BYTES,
  initialIdleState,
  LARGE_HEAP_BYTES,
  LONG_PAUSE_MS,
  releaseMemoryWhenIdle,
  WorkInFlight,
  type IdleDecision,
  type IdleLook,
  type IdleState,
} from '../../server/src/idleRelease';

const MiB = 1024 * 1024;
const BASE = 100 * MiB;
const quiet = (rss: number, more: Partial<IdleLook> = {}): IdleLook => ({
  busy: 0.001,
  rss,
  heapUsed: 30 * MiB,
  inFlight: 0,
  debuggerOpen: false,
  ...more,
});
const busyLook = (rss: number): IdleLook => quiet(rss, { busy: 0.5 });

/** Runs the looks from `state`; answers each decision and the state after the last. */
function run(state: IdleState, looks: IdleLook[]): { decisions: IdleDecision[]; state: IdleState; why: string[] } {
  const decisions: IdleDecision[] = [];
  const why: string[] = [];
  for (const look of looks) {
    const r = decideIdle(state, look);
    state = r.state;
    decisions.push(r.decision);
    if (r.why) why.push(r.why);
  }
  return { decisions, state, why };
}

describe('the idle release decides', () => {
  const grown = BASE + GROWTH_BYTES;
  const table: { name: string; state?: IdleState; looks: IdleLook[]; decisions: IdleDecision[] }[] = [
    {
      name: 'two idle looks after work, grown by the threshold: one collection',
      looks: [busyLook(grown), quiet(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'collect'],
    },
    {
      name: 'one idle look is not the end of a burst',
      looks: [busyLook(grown), quiet(grown), busyLook(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'wait', 'wait'],
    },
    {
      name: 'grown by less than the threshold: nothing, and the looking sleeps',
      looks: [busyLook(grown - 1), quiet(grown - 1), quiet(grown - 1)],
      decisions: ['wait', 'wait', 'sleep'],
    },
    {
      name: 'the baseline follows the RSS down: growth counts from the lowest RSS seen',
      looks: [quiet(BASE - 20 * MiB), busyLook(BASE), quiet(BASE), quiet(BASE)],
      decisions: ['wait', 'wait', 'wait', 'collect'],
    },
    {
      name: 'work in flight while the loop is idle (a catalog request, a worker) blocks',
      looks: [busyLook(grown), quiet(grown, { inFlight: 1 }), quiet(grown, { inFlight: 2 }), quiet(grown)],
      decisions: ['wait', 'wait', 'wait', 'wait'],
    },
    {
      name: 'work in flight: the burst ends two idle looks after it is done',
      looks: [quiet(grown, { inFlight: 1 }), quiet(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'collect'],
    },
    {
      name: 'a collection not answered blocks a second one',
      state: { ...initialIdleState(BASE), collecting: true },
      looks: [busyLook(grown), quiet(grown), quiet(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'wait', 'wait'],
    },
    {
      name: 'after a failure nothing more is asked',
      state: failedIdle(initialIdleState(BASE), false),
      looks: [busyLook(grown), quiet(grown), quiet(grown)],
      decisions: ['stop', 'stop', 'stop'],
    },
    {
      name: 'a large live heap: not collected',
      looks: [busyLook(grown), quiet(grown), quiet(grown, { heapUsed: LARGE_HEAP_BYTES + 1 })],
      decisions: ['wait', 'wait', 'sleep'],
    },
    {
      name: 'a debugger attached: not collected',
      looks: [busyLook(grown), quiet(grown), quiet(grown, { debuggerOpen: true })],
      decisions: ['wait', 'wait', 'sleep'],
    },
    {
      name: 'after a long pause the growth wanted is raised',
      state: { ...initialIdleState(BASE), lastPauseMs: LONG_PAUSE_MS + 1 },
      looks: [busyLook(grown), quiet(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'sleep'],
    },
    {
      name: 'after a long pause, the raised growth: collected',
      state: { ...initialIdleState(BASE), lastPauseMs: LONG_PAUSE_MS + 1 },
      looks: [busyLook(BASE + GROWTH_BYTES * BACKOFF_FACTOR), quiet(BASE + GROWTH_BYTES * BACKOFF_FACTOR)].concat(
        quiet(BASE + GROWTH_BYTES * BACKOFF_FACTOR),
      ),
      decisions: ['wait', 'wait', 'collect'],
    },
    {
      name: 'after a short pause the growth wanted is the threshold again',
      state: { ...initialIdleState(BASE), lastPauseMs: LONG_PAUSE_MS },
      looks: [busyLook(grown), quiet(grown), quiet(grown)],
      decisions: ['wait', 'wait', 'collect'],
    },
  ];
  for (const row of table) {
    test(row.name, () => {
      assert.deepEqual(run(row.state ?? initialIdleState(BASE), row.looks).decisions, row.decisions);
    });
  }

  test('one collection per growth: after it, the RSS it left is the baseline', () => {
    const grown = BASE + GROWTH_BYTES;
    let r = run(initialIdleState(BASE), [busyLook(grown), quiet(grown), quiet(grown)]);
    assert.equal(r.decisions.at(-1), 'collect');
    assert.equal(r.state.collecting, true);
    const state = collectedIdle(r.state, BASE + 4 * MiB, 50);
    assert.equal(state.collecting, false);
    assert.equal(state.baseline, BASE + 4 * MiB);
    // Nothing happened since: the looking sleeps.
    r = run(state, [quiet(grown), quiet(grown)]);
    assert.deepEqual(r.decisions, ['wait', 'sleep']);
    // A burst that kept what the server grew to (under the threshold above the new baseline): nothing.
    r = run(state, [busyLook(grown), quiet(grown), quiet(grown)]);
    assert.deepEqual(r.decisions, ['wait', 'wait', 'sleep']);
    // A burst that grew it again by the threshold: collected again.
    const again = BASE + 4 * MiB + GROWTH_BYTES;
    r = run(state, [busyLook(again), quiet(again), quiet(again)]);
    assert.deepEqual(r.decisions, ['wait', 'wait', 'collect']);
  });

  test('a collection that never answered: looking goes on, with the growth wanted raised', () => {
    const state = failedIdle({ ...initialIdleState(BASE), collecting: true }, true);
    assert.equal(state.collecting, false);
    assert.equal(state.failed, false);
    assert.ok(state.lastPauseMs >= COLLECTION_TIMEOUT_MS);
    const grown = BASE + GROWTH_BYTES;
    assert.deepEqual(run(state, [busyLook(grown), quiet(grown), quiet(grown)]).decisions, ['wait', 'wait', 'sleep']);
  });

  test('says why a grown server is not collected', () => {
    const grown = BASE + GROWTH_BYTES;
    const r = run(initialIdleState(BASE), [busyLook(grown), quiet(grown), quiet(grown, { heapUsed: 200 * MiB })]);
    assert.match(r.why.join(), /live heap is large \(200\.0 MiB used\)/);
  });
});

describe('work in flight', () => {
  test('counts each begin until its end, once, and tells of each arrival', async () => {
    const work = new WorkInFlight();
    let arrivals = 0;
    work.onWork(() => arrivals++);
    const end = work.begin();
    assert.equal(work.count, 1);
    end();
    end();
    assert.equal(work.count, 0);
    let fail!: (e: Error) => void;
    const p = work.track(new Promise((_, reject) => (fail = reject)));
    assert.equal(work.count, 1);
    fail(new Error('no'));
    await assert.rejects(p);
    assert.equal(work.count, 0);
    work.arrived();
    assert.equal(arrivals, 3);
  });
});

describe('memory given back when idle', () => {
  test('a full collection through the inspector settles, and may be asked again', async () => {
    let garbage: unknown[] | undefined = Array.from({ length: 50_000 }, (_, i) => ({ i, s: `item ${i}` }));
    assert.equal(garbage.length, 50_000);
    garbage = undefined;
    await collectAllGarbage();
    await collectAllGarbage();
  });

  test("a developer's heap profiling keeps its tracking and object ids across a release", async () => {
    const dev = new Session();
    dev.connect();
    const post = <T = Record<string, unknown>>(method: string, params: object = {}): Promise<T> =>
      new Promise((resolve, reject) => dev.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
    try {
      (globalThis as Record<string, unknown>)['idleReleaseKeep'] = { kept: 1 };
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startTrackingHeapObjects', { trackAllocations: true });
      const { result } = await post<{ result: { objectId: string } }>('Runtime.evaluate', {
        expression: 'globalThis.idleReleaseKeep',
      });
      const idOf = async (): Promise<string> =>
        (await post<{ heapSnapshotObjectId: string }>('HeapProfiler.getHeapObjectId', { objectId: result.objectId }))
          .heapSnapshotObjectId;
      const before = await idOf();
      await collectAllGarbage();
      await collectAllGarbage();
      // The ids restart (the live object's becomes another) when the profiler is disabled underneath.
      assert.equal(await idOf(), before);
      const allocated = Array.from({ length: 1000 }, (_, i) => ({ i }));
      assert.equal(allocated.length, 1000);
      // Stopping sends a snapshot; its allocation traces are empty when tracking was stopped underneath.
      let snapshot = '';
      dev.on('HeapProfiler.addHeapSnapshotChunk', (m: { params: { chunk: string } }) => (snapshot += m.params.chunk));
      await post('HeapProfiler.stopTrackingHeapObjects', { reportProgress: false });
      const traced = /"trace_function_count":(\d+)/.exec(snapshot);
      assert.ok(traced, 'the snapshot has a trace_function_count');
      assert.ok(Number(traced[1]) > 0, 'allocations were still traced after the release');
    } finally {
      delete (globalThis as Record<string, unknown>)['idleReleaseKeep'];
      dev.disconnect();
    }
  });

  test('CATALOG_LENS_IDLE_GC=off turns it off', () => {
    assert.equal(releaseMemoryWhenIdle({ CATALOG_LENS_IDLE_GC: 'off' }), undefined);
    const on = releaseMemoryWhenIdle({});
    assert.ok(on);
    assert.equal(on.collections, 0);
    on.stop();
    assert.equal(on.looking, false);
  });

  test('a debugger port blocks the collection unless CATALOG_LENS_IDLE_GC=always', () => {
    const module = require.resolve('../../server/src/idleRelease');
    const script = (env: string): string =>
      [
        `const m = require(${JSON.stringify(module)});`,
        `require('node:inspector').open(0, '127.0.0.1');`,
        `const logs = []; const r = m.releaseMemoryWhenIdle(${env}, (l) => logs.push(l), { collect: async () => {}, busy: () => 0 });`,
        // Grown by more than the threshold after the start: worth a collection.
        // (kept alive, so that no collection of V8's own takes the growth back before the looks)
        `globalThis.big = Array.from({ length: 300000 }, (_, i) => ({ i, s: 'x' + i }));`,
        // Until it decided (a collection, or the log line saying why none), 15 s at most: the idle
        // looks are a second apart and a busy machine delays them.
        `const end = () => { console.log(JSON.stringify({ collections: r.collections, logs })); r.stop(); require('node:inspector').close(); };`,
        `const started = Date.now();`,
        `const poll = setInterval(() => { if (r.collections > 0 || logs.some((l) => /debugger/.test(l)) || Date.now() - started > 15000) { clearInterval(poll); end(); } }, 100);`,
      ].join('\n');
    const runWith = (env: string): { collections: number; logs: string[] } => {
      const r = spawnSync(process.execPath, ['-e', script(env)], { timeout: 30_000, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as { collections: number; logs: string[] };
    };
    const attached = runWith('{}');
    assert.equal(attached.collections, 0);
    assert.match(attached.logs.join('\n'), /a debugger is attached/);
    assert.equal(runWith("{ CATALOG_LENS_IDLE_GC: 'always' }").collections, 1);
  });

  test('it sleeps after a burst with nothing to do, and the next work wakes it', async () => {
    const work = new WorkInFlight();
    let collected = 0;
    const release = releaseMemoryWhenIdle({}, () => {}, {
      work,
      collect: async () => void collected++,
      debuggerOpen: () => false,
      // The loop as idle whatever the machine's load (a busy machine stretches every callback).
      busy: () => 0,
    });
    assert.ok(release);
    try {
      assert.equal(release.looking, true);
      // Two idle looks (a second apart, later on a busy machine) end the start-up's burst; this
      // process has not grown by the threshold since.
      for (const started = Date.now(); release.looking && Date.now() - started < 10_000;)
        await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(release.looking, false);
      const end = work.begin();
      assert.equal(release.looking, true);
      end();
      assert.equal(collected, 0);
    } finally {
      release.stop();
    }
  });

  test('the end of a burst first tells the caches to tidy, then collects; once per burst', async () => {
    const work = new WorkInFlight();
    const calls: string[] = [];
    const release = releaseMemoryWhenIdle({}, () => {}, {
      work,
      collect: async () => void calls.push('collect'),
      debuggerOpen: () => false,
      busy: () => 0,
      tidy: () => void calls.push('tidy'),
    });
    assert.ok(release);
    // Grown by more than the threshold since the start: worth a collection.
    const big = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `x${i}` }));
    const untilAsleep = async (): Promise<void> => {
      // The looks are a second apart (half a second after an idle one), later on a busy machine.
      for (const started = Date.now(); release.looking && Date.now() - started < 10_000;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(release.looking, false);
    };
    try {
      await untilAsleep();
      assert.deepEqual(calls, ['tidy', 'collect']);
      // The next burst ends without the growth a collection wants: the caches tidy all the same.
      work.begin()();
      await untilAsleep();
      assert.deepEqual(calls, ['tidy', 'collect', 'tidy']);
      assert.equal(big.length, 300_000);
    } finally {
      release.stop();
    }
  });

  test('the look after the work in flight ends measures from that end: a burst is released at the second look after it', async () => {
    const work = new WorkInFlight();
    let looks = 0;
    let collected = 0;
    // The loop's utilisation as the release reads it: the burst's time, then idle only.
    const loop = { idle: 0, active: 0, utilization: 0 };
    const release = releaseMemoryWhenIdle({}, () => {}, {
      work,
      collect: async () => void collected++,
      // Asked once per look that may collect: counts the looks.
      debuggerOpen: () => (looks++, false),
      utilization: () => ({ ...loop }),
    });
    assert.ok(release);
    // Grown by more than the threshold since the start: worth a collection.
    const big = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `x${i}` }));
    try {
      // A Check Workspace: in flight, the loop busy to its end (300 ms of this process's loop too,
      // which a release reading the real utilisation since its start finds in its first look).
      const end = work.begin();
      const until = performance.now() + 300;
      while (performance.now() < until);
      loop.active += 5000;
      end();
      loop.idle += 60_000;
      for (const started = Date.now(); collected === 0 && Date.now() - started < 15_000;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(collected, 1);
      // The first look after the end found the loop idle, the second (half a second later) collected;
      // measured from the look before the end, the first held the burst's end and was busy.
      assert.equal(looks, 2);
      assert.equal(big.length, 300_000);
    } finally {
      release.stop();
    }
  });

  test('work in flight tells when the last of it ends', () => {
    const work = new WorkInFlight();
    let settled = 0;
    work.onSettled(() => settled++);
    const a = work.begin();
    const b = work.begin();
    a();
    assert.equal(settled, 0);
    b();
    b();
    assert.equal(settled, 1);
    work.begin()();
    assert.equal(settled, 2);
  });

  test('its timer does not keep a process alive, nor does the inspector session', () => {
    const module = require.resolve('../../server/src/idleRelease');
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const m = require(${JSON.stringify(module)}); m.releaseMemoryWhenIdle({}); m.collectAllGarbage().then(() => setTimeout(() => {}, 50));`,
      ],
      { timeout: 20_000, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
  });
});
