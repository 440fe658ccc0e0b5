/**
 * The answers of lookups sent again (catalog/src/graphql/answerCache.ts): the same bytes as the
 * first answer, counted in the stats, and never older than the last write — through the Rest.li
 * path, a GraphQL mutation, an MCE, or another connection to the same file — in both modes. Auth
 * is checked on every request, a kept answer or not.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { AnswerCache } from '../../catalog/src/graphql/answerCache';
import { keyFormOf, type CompatMode } from '../../catalog/src/compat';
import { SAMPLE } from '../../catalog/src/sample';
import type { RunningCatalog } from '../../catalog/src/server';
import { AspectStore } from '../../catalog/src/store';
import { writeAspect } from '../../catalog/src/writes';
import { DATASET_DESCRIPTIONS, UPDATE_DATASET } from './documents';
import { testCatalog, write, type Json } from './helpers';

const USERS = SAMPLE.datasets.users;
const BODY = JSON.stringify({ query: DATASET_DESCRIPTIONS, variables: { urn: USERS } });

/** POST /api/graphql with exactly `body`; the raw answer. */
async function post(
  catalog: RunningCatalog,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${catalog.url}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function shownDescription(catalog: RunningCatalog): Promise<unknown> {
  const r = await post(catalog, BODY);
  assert.equal(r.status, 200, r.text);
  const data = (JSON.parse(r.text) as Json)['data'] as Json;
  return ((data['dataset'] as Json)['editableProperties'] as Json | null)?.['description'] ?? null;
}

function tempFile(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-answers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'catalog.db');
}

for (const compat of ['spec', 'datahub'] as CompatMode[]) {
  describe(`answers of lookups sent again (${compat} mode)`, () => {
    test('the same body gets the same bytes and headers, and is counted each time', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const first = await post(catalog, BODY);
      const again = await post(catalog, BODY);
      assert.equal(first.status, 200);
      assert.equal(again.status, 200);
      assert.equal(again.text, first.text);
      for (const h of ['content-type', 'content-length', 'x-content-type-options'])
        assert.equal(again.headers.get(h), first.headers.get(h), h);
      assert.equal(catalog.stats.graphqlOperations['datasetDescriptions'], 2);
      assert.equal(catalog.stats.graphql, 2);
    });

    test('read, write, read again: every write is seen by the next read', async (t) => {
      const file = tempFile(t);
      const catalog = await testCatalog(t, { sample: true, compat, db: file });
      assert.equal(await shownDescription(catalog), null);
      assert.equal(await shownDescription(catalog), null);

      // The Rest.li write path.
      await write(catalog, 'dataset', USERS, 'editableDatasetProperties', { description: 'edited over Rest.li' });
      assert.equal(await shownDescription(catalog), 'edited over Rest.li');
      assert.equal(await shownDescription(catalog), 'edited over Rest.li');

      // A GraphQL mutation.
      const r = await post(
        catalog,
        JSON.stringify({
          query: UPDATE_DATASET,
          variables: { urn: USERS, input: { editableProperties: { description: 'edited by a mutation' } } },
        }),
      );
      assert.equal(r.status, 200, r.text);
      const updated = JSON.parse(r.text) as Json;
      assert.equal(updated['errors'], undefined, r.text);
      assert.equal(
        ((updated['data'] as Json)['updateDataset'] as { editableProperties: Json }).editableProperties['description'],
        'edited by a mutation',
      );
      assert.equal(await shownDescription(catalog), 'edited by a mutation');

      // An MCE, as DataHub's REST emitter sends it.
      const mce = {
        entity: {
          value: {
            'com.linkedin.metadata.snapshot.DatasetSnapshot': {
              urn: USERS,
              aspects: [{ 'com.linkedin.dataset.EditableDatasetProperties': { description: 'edited by an MCE' } }],
            },
          },
        },
      };
      const m = await fetch(`${catalog.url}/entities?action=ingest`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
        body: JSON.stringify(mce),
      });
      assert.equal(m.status, 200, await m.text());
      assert.equal(await shownDescription(catalog), 'edited by an MCE');

      // Another connection to the same file (another process, as far as the catalog can tell).
      const other = new AspectStore(file, 'full', 'li', keyFormOf(compat));
      try {
        other.transaction(() =>
          writeAspect(
            other,
            {
              key: USERS,
              requestedUrn: USERS,
              entityType: 'dataset',
              aspectName: 'editableDatasetProperties',
              value: { description: 'edited by another connection' },
            },
            'urn:li:corpuser:other',
            Date.now(),
            compat,
          ),
        );
      } finally {
        other.close();
      }
      assert.equal(await shownDescription(catalog), 'edited by another connection');
      assert.equal(await shownDescription(catalog), 'edited by another connection');
    });

    test('auth is checked before any kept answer', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat, token: 'secret-token' });
      const ok = await post(catalog, BODY, { Authorization: 'Bearer secret-token' });
      assert.equal(ok.status, 200, ok.text);
      const refused = await post(catalog, BODY);
      assert.equal(refused.status, 401);
      const wrong = await post(catalog, BODY, { Authorization: 'Bearer another-token' });
      assert.equal(wrong.status, 401);
      assert.equal((await post(catalog, BODY, { Authorization: 'Bearer secret-token' })).text, ok.text);
    });
  });
}

describe('AnswerCache', () => {
  const answer = (text: string) => ({ text, bytes: Buffer.byteLength(text), operation: 'op' });

  test('keeps answers until the generation changes, and none made across a change', () => {
    let generation = 1;
    const cache = new AnswerCache(() => generation);
    assert.equal(cache.get('a'), undefined);
    cache.keep('a', cache.seen, answer('A'));
    assert.equal(cache.get('a')?.text, 'A');
    generation = 2;
    assert.equal(cache.get('a'), undefined, 'a write dropped it');
    const seen = cache.seen;
    generation = 3;
    cache.keep('b', seen, answer('B'));
    assert.equal(cache.get('b'), undefined, 'made before the write: not kept');
  });

  test('holds at most its entries and characters; the oldest goes first; long bodies are not kept', () => {
    const cache = new AnswerCache(() => 0, { entries: 3, chars: 80, maxBodyChars: 5 });
    cache.get('');
    for (const k of ['a', 'b', 'c', 'd']) cache.keep(k, cache.seen, answer(k.repeat(4)));
    assert.equal(cache.size, 3);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('d')?.text, 'dddd');
    cache.keep('long body', cache.seen, answer('x'));
    assert.equal(cache.get('long body'), undefined);
    cache.keep('e', cache.seen, answer('e'.repeat(10)));
    assert.equal(cache.get('e'), undefined, 'an answer above an eighth of the characters is not kept');
    // Each entry is 5 characters, at most an eighth of 40: eight fit, the first two of ten go.
    const small = new AnswerCache(() => 0, { entries: 100, chars: 40, maxBodyChars: 5 });
    small.get('');
    const keys = [...'abcdefghij'];
    for (const k of keys) small.keep(k, small.seen, answer(k.repeat(4)));
    assert.equal(small.size, 8);
    assert.deepEqual(
      keys.filter((k) => small.get(k) !== undefined),
      keys.slice(2),
    );
  });
});
