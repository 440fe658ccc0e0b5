/** The rows of the lineage view (client/src/lineageRows.ts): what each says, what opens further, notes. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineageRows } from '../../client/src/lineageRows';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';

describe('lineage rows', () => {
  test('an entity row: name, kind · platform · relationship (the words of the catalog pages), the URN as tooltip; our kinds open onto the next hop', () => {
    const rows = lineageRows(
      {
        items: [
          { urn: ORDERS, kind: 'dataset', name: 'db.orders', platform: 'hive', relationship: 'DownstreamOf' },
          {
            urn: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)',
            kind: 'datajob',
            name: 'load',
            relationship: 'Produces',
          },
        ],
        total: 5,
      },
      'downstream',
      2,
    );
    assert.deepEqual(
      rows.map((r) => (r.kind === 'entity' ? [r.label, r.description, r.tooltip, r.expandable, r.degree] : [r.label])),
      [
        ['db.orders', 'Dataset · hive · reads this', `${ORDERS}\nDataHub relationship: DownstreamOf`, true, 2],
        [
          'load',
          'datajob · produces',
          'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)\nDataHub relationship: Produces',
          false,
          2,
        ],
        ['…and 3 more in the catalog'],
      ],
    );
  });

  test('upstream, the same relationship reads from the other side', () => {
    const [row] = lineageRows(
      {
        items: [{ urn: ORDERS, kind: 'dataset', name: 'db.orders', platform: 'hive', relationship: 'DownstreamOf' }],
        total: 1,
      },
      'upstream',
      1,
    );
    assert.equal(row?.kind === 'entity' && row.description, 'Dataset · hive · read from');
  });

  test('nothing there, and an error, are one note each; catalog text is inert', () => {
    assert.deepEqual(lineageRows({ items: [], total: 0 }, 'upstream', 1), [
      { kind: 'note', label: 'Nothing upstream' },
    ]);
    assert.deepEqual(lineageRows({ items: [], total: 0 }, 'downstream', 1), [
      { kind: 'note', label: 'Nothing downstream' },
    ]);
    const [error] = lineageRows({ error: 'unreachable\u202e' }, 'upstream', 1);
    assert.equal(error?.kind, 'note');
    assert.match(error.label, /^Could not read the lineage: unreachable/);
    assert.doesNotMatch(error.label, /\u202e/);
    const [row] = lineageRows(
      { items: [{ urn: ORDERS, kind: 'dataset', name: 'db\u200border', relationship: 'x' }], total: 1 },
      'upstream',
      1,
    );
    assert.doesNotMatch(row!.label, /\u200b/);
  });
});
