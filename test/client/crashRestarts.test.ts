/** The restart policy for a language server that stopped on its own. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CRASH_WINDOW_MS, CrashRestarts, MAX_CRASH_RESTARTS, RESTART_DELAYS_MS } from '../../client/src/crashRestarts';

test('the first stops restart after growing pauses; one more within the window is final', () => {
  const policy = new CrashRestarts();
  const decisions = Array.from({ length: MAX_CRASH_RESTARTS + 1 }, (_, i) => policy.next(1000 + i * 1000));
  assert.deepEqual(
    decisions.slice(0, MAX_CRASH_RESTARTS).map((d) => (d.restart ? d.delayMs : -1)),
    [...RESTART_DELAYS_MS],
  );
  assert.deepEqual(decisions[MAX_CRASH_RESTARTS], {
    restart: false,
    crashes: MAX_CRASH_RESTARTS + 1,
    windowMs: CRASH_WINDOW_MS,
  });
});

test('stops older than the window are forgotten, so a server that crashes rarely is always restarted', () => {
  const policy = new CrashRestarts();
  for (let i = 0; i < 20; i++) {
    const d = policy.next(i * (CRASH_WINDOW_MS + 1));
    assert.deepEqual(d, { restart: true, delayMs: RESTART_DELAYS_MS[0], attempt: 1, max: MAX_CRASH_RESTARTS });
  }
});
