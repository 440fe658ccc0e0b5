/**
 * What Check Workspace last sent each closed file (server/src/pipeline/closedDiagnostics.ts): the
 * same diagnostics are not sent twice, an empty list is always sent and not kept, and any other
 * message for the file — under either spelling of its URI — makes the next check send again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClosedDiagnostics } from '../../server/src/pipeline/closedDiagnostics';
import { normalUri } from '../../server/src/workspace';

describe('what Check Workspace last sent a closed file', () => {
  const one = 'file:///w/b%20%28copy%29.py';
  const node = 'file:///w/b%20(copy).py';
  const diags = JSON.stringify([{ range: { start: { line: 0, character: 4 } }, message: 'Unknown URN' }]);

  test('the same diagnostics are not sent again; other ones are', () => {
    const sent = new ClosedDiagnostics(normalUri);
    assert.equal(sent.changed(one, diags), true);
    assert.equal(sent.changed(one, diags), false);
    assert.equal(sent.changed(one, diags.replace('4', '5')), true, 'another position');
    assert.equal(sent.changed(one, diags.replace('4', '5')), false);
    assert.equal(sent.changed('file:///w/other.py', diags.replace('4', '5')), true, 'another file');
  });

  test('an empty list is always sent and not kept', () => {
    const sent = new ClosedDiagnostics(normalUri);
    assert.equal(sent.changed(one, diags), true);
    assert.equal(sent.changed(one, '[]'), true);
    assert.equal(sent.size, 0);
    assert.equal(sent.changed(one, '[]'), true);
    assert.equal(sent.changed(one, diags), true, 'sent again after the empty list');
  });

  test('another message for the file, under either spelling, makes the next check send again', () => {
    const sent = new ClosedDiagnostics(normalUri);
    sent.changed(one, diags);
    sent.forget(node);
    assert.equal(sent.changed(one, diags), true, "forgotten under Node's spelling of the same file");
    sent.forget(one);
    assert.equal(sent.changed(one, diags), true);
  });

  test('lists of many lengths and texts do not collide', () => {
    const sent = new ClosedDiagnostics(normalUri);
    for (let i = 0; i < 20_000; i++) assert.equal(sent.changed(one, `[{"message":"m${i}"}]`), true, String(i));
  });
});
