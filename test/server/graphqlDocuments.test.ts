/** Every GraphQL document the server can send validates against DataHub's own schema. */
import { CATALOG_KINDS, LOOKUP_KINDS } from '../../model/src/kinds';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { everyDocument, batchQuery } from '../../server/src/catalogClient/queries';
import { skipWithoutShared, validateDocument } from '../support/datahubSchema';

test("every document the catalog client sends is valid against DataHub's schema (li and svc)", (t) => {
  if (skipWithoutShared(t)) return;
  for (const ns of ['li', 'svc']) {
    const docs = everyDocument(ns);
    assert.ok(docs.length >= 9);
    for (const d of docs) assert.deepEqual(validateDocument(d.query, d.variables), [], d.name);
  }
});

test('a full batch of 100 URNs of mixed kinds is one valid document with one alias and variable each', (t) => {
  if (skipWithoutShared(t)) return;
  const items = Array.from({ length: 100 }, (_, i) => {
    const kind = CATALOG_KINDS[i % CATALOG_KINDS.length]!;
    const urn =
      kind === 'mlFeature'
        ? `urn:li:mlFeature:(t,f${i})`
        : kind === 'mlFeatureTable'
          ? `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t${i})`
          : `urn:li:${kind}:(urn:li:dataPlatform:hive,n${i},PROD)`;
    return { urn, kind };
  });
  const b = batchQuery(items);
  assert.equal(b.aliases.size, 100);
  assert.equal(Object.keys(b.variables).length, 100);
  assert.deepEqual(validateDocument(b.query, b.variables), []);
});

test('every looked-up kind (users, tags, containers, jobs …) has its resolve and context documents among those validated', () => {
  const names = new Set(everyDocument().map((d) => d.name));
  for (const kind of LOOKUP_KINDS) {
    assert.ok(names.has(`resolve ${kind}`), kind);
    assert.ok(names.has(`context of ${kind}`), kind);
    assert.ok(names.has(`resolve ${kind} with its context`), kind);
  }
  assert.ok(names.has('resolve every kind in one document'));
});
