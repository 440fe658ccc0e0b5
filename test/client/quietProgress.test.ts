/**
 * The progress of a write (client/src/quietProgress.ts): a fast write shows no progress, a slow one
 * (a catalog answering late) shows it from the delay until it ends, and its Cancel cancels the
 * write's token.
 *
 * With VS Code faked at the boundary (ProgressHost), not in the editor: the extension host gives
 * each extension its own `vscode` API object, so the in-host suite cannot wrap the extension's
 * `window.withProgress`, and the API has no way to list the notifications shown.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  PROGRESS_DELAY_MS,
  withQuietProgress,
  type Cancellation,
  type ProgressHost,
} from '../../client/src/quietProgress';

interface FakeToken extends Cancellation {
  isCancellationRequested: boolean;
}

/** A ProgressHost that records each progress shown, and can press its Cancel. */
function fakeHost(): ProgressHost<FakeToken> & {
  shown: Array<{ title: string; at: number; ended?: number; cancel: () => void }>;
  disposed: number;
  /** Resolves when a progress is shown. */
  nextShown: () => Promise<void>;
} {
  const started = Date.now();
  let waiting: (() => void) | undefined;
  const host = {
    shown: [] as Array<{ title: string; at: number; ended?: number; cancel: () => void }>,
    disposed: 0,
    nextShown: () => new Promise<void>((resolve) => (waiting = resolve)),
    cancellationSource() {
      const listeners: Array<() => void> = [];
      const token: FakeToken = {
        isCancellationRequested: false,
        onCancellationRequested(listener) {
          listeners.push(listener);
          return { dispose: () => undefined };
        },
      };
      return {
        token,
        cancel() {
          token.isCancellationRequested = true;
          for (const l of listeners) l();
        },
        dispose() {
          host.disposed++;
        },
      };
    },
    showProgress(title: string, until: Promise<void>, onCancel: () => void) {
      const entry: { title: string; at: number; ended?: number; cancel: () => void } = {
        title,
        at: Date.now() - started,
        cancel: onCancel,
      };
      host.shown.push(entry);
      void until.then(() => (entry.ended = Date.now() - started));
      waiting?.();
    },
  };
  return host;
}

describe('the progress of a write', () => {
  test('shows after half a second', () => {
    assert.equal(PROGRESS_DELAY_MS, 500);
  });

  test('a fast write shows no progress, and its answer is the write’s', async () => {
    const host = fakeHost();
    const answer = await withQuietProgress(host, 'Catalog Lens: Writing…', () => Promise.resolve('written'), 30);
    assert.equal(answer, 'written');
    // Past the delay: the timer went with the write.
    await sleep(80);
    assert.deepEqual(host.shown, []);
    assert.equal(host.disposed, 1);
  });

  test('a fast write that fails shows no progress either, and rejects as the write does', async () => {
    const host = fakeHost();
    await assert.rejects(
      withQuietProgress(host, 'Catalog Lens: Writing…', () => Promise.reject(new Error('refused')), 30),
      /refused/,
    );
    await sleep(80);
    assert.deepEqual(host.shown, []);
  });

  test('a slow write (the catalog answers late) shows its progress from the delay until it ends', async () => {
    const host = fakeHost();
    let answer!: (v: string) => void;
    const shown = host.nextShown();
    const write = withQuietProgress(
      host,
      'Catalog Lens: Writing description of db.users…',
      () => new Promise<string>((resolve) => (answer = resolve)),
      30,
    );
    // The catalog has not answered when the progress shows.
    await shown;
    assert.equal(host.shown.length, 1);
    assert.equal(host.shown[0]!.title, 'Catalog Lens: Writing description of db.users…');
    assert.ok(host.shown[0]!.at >= 25, `shown at ${host.shown[0]!.at} ms, not before the delay`);
    assert.equal(host.shown[0]!.ended, undefined, 'still showing while the write runs');
    answer('written');
    assert.equal(await write, 'written');
    await sleep(0);
    assert.notEqual(host.shown[0]!.ended, undefined, 'the progress ends with the write');
    assert.equal(host.shown.length, 1);
  });

  test('a slow write that fails ends its progress too', async () => {
    const host = fakeHost();
    let fail!: (e: Error) => void;
    const shown = host.nextShown();
    const write = withQuietProgress(
      host,
      'Catalog Lens: Writing…',
      () => new Promise<string>((_resolve, reject) => (fail = reject)),
      30,
    );
    await shown;
    fail(new Error('timeout'));
    await assert.rejects(write, /timeout/);
    await sleep(0);
    assert.notEqual(host.shown[0]!.ended, undefined);
  });

  test("the progress's Cancel cancels the write's token", async () => {
    const host = fakeHost();
    let token!: FakeToken;
    const shown = host.nextShown();
    const write = withQuietProgress(
      host,
      'Catalog Lens: Writing…',
      (t) => {
        token = t;
        return new Promise<string>((resolve) => t.onCancellationRequested(() => resolve('cancelled')));
      },
      30,
    );
    await shown;
    assert.equal(token.isCancellationRequested, false);
    host.shown[0]!.cancel();
    assert.equal(token.isCancellationRequested, true);
    assert.equal(await write, 'cancelled');
    assert.equal(host.disposed, 1);
  });
});
