/**
 * The catalog's state and skipped files, told to the editor: custom notifications to the Catalog
 * Lens extension, which asked for them; `window/showMessage` to any other editor, once per way the
 * catalog fails and once when it answers again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MessageType } from 'vscode-languageserver';
import type { CatalogStatus } from '../../model/src/protocol';
import { markdownAsPlain } from '../../server/src/features/markdown';
import { statusNotices } from '../../server/src/handlers/statusNotices';

function recorder(custom: boolean) {
  const sent: Array<{ method: string; params: unknown }> = [];
  const shown: Array<{ type: MessageType; message: string }> = [];
  const notices = statusNotices(
    {
      notify: (method, params) => sent.push({ method, params }),
      showMessage: (type, message) => shown.push({ type, message }),
    },
    () => custom,
  );
  return { notices, sent, shown };
}

const DOWN: CatalogStatus = { state: 'unreachable', message: 'cannot reach http://127.0.0.1:9/ (ECONNREFUSED)' };
const UP: CatalogStatus = {
  state: 'connected',
  message: 'connected to http://127.0.0.1:9/',
  endpoint: 'http://127.0.0.1:9/',
};

describe('statusNotices', () => {
  test('the extension: every status and skipped file as its custom notification, no message', () => {
    const r = recorder(true);
    r.notices.status(DOWN);
    r.notices.status(UP);
    r.notices.skipped({ uri: 'file:///w/big.json', size: 9, limit: 5 });
    assert.deepEqual(
      r.sent.map((s) => s.method),
      ['catalogLens/status', 'catalogLens/status', 'catalogLens/skipped'],
    );
    assert.deepEqual(r.shown, []);
  });

  test('another editor: a warning per new way of failing, a line when the catalog answers again', () => {
    const r = recorder(false);
    r.notices.status({ state: 'checking', message: 'not asked yet' });
    r.notices.status(UP);
    assert.deepEqual(r.shown, [], 'nothing to say while all is well');
    r.notices.status(DOWN);
    r.notices.status({ ...DOWN, message: 'timed out after 10000 ms' });
    r.notices.status({ state: 'unauthorized', message: 'the catalog refused the token (401)' });
    r.notices.status(UP);
    r.notices.status({ state: 'notConfigured', message: 'no catalog is configured (catalogLens.url is empty)' });
    assert.deepEqual(r.shown, [
      { type: MessageType.Warning, message: `Catalog Lens: ${DOWN.message}` },
      { type: MessageType.Warning, message: 'Catalog Lens: the catalog refused the token (401)' },
      { type: MessageType.Info, message: `Catalog Lens: the catalog answers again (${UP.message}).` },
      { type: MessageType.Info, message: 'Catalog Lens: no catalog is configured (catalogLens.url is empty)' },
    ]);
    assert.deepEqual(r.sent, []);
  });

  test('another editor: a skipped file by its name and sizes; catalog text in a status stays one inert line', () => {
    const r = recorder(false);
    r.notices.skipped({ uri: 'file:///w/data/big%20dump.json', size: 5_000_000, limit: 4_000_000 });
    r.notices.status({ state: 'error', message: 'bad answer:\n[click](command:evil)\u0007' });
    assert.equal(
      r.shown[0]!.message,
      'Catalog Lens did not check big dump.json: 5000000 characters is over catalogLens.maxFileSize (4000000).',
    );
    assert.doesNotMatch(r.shown[1]!.message, /\n|\]\(|\u0007/);
  });
});

describe('markdownAsPlain', () => {
  test('tables, rules, escapes, entities, code spans and links become words', () => {
    const md = [
      '**Dataset** `db.users` · hive · PROD',
      '',
      'A \\*starred\\* name &lt;b&gt; and snake\\_case',
      '',
      '---',
      '',
      '| column | type |',
      '| --- | --- |',
      '| `user_id` | bigint \\| int |',
      '',
      '- one item',
      '',
      '[Open in catalog](http://127.0.0.1:9410/dataset/x)',
    ].join('\n');
    assert.equal(
      markdownAsPlain(md),
      [
        'Dataset db.users · hive · PROD',
        '',
        'A *starred* name <b> and snake_case',
        '',
        'column · type',
        'user_id · bigint | int',
        '',
        '- one item',
        '',
        'Open in catalog: http://127.0.0.1:9410/dataset/x',
      ].join('\n'),
    );
  });
});
