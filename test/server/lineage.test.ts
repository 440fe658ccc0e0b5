/**
 * `catalogLens/lineage` (the lineage view's request) through the real server process
 * against the real local catalog with the sample data (events.clicks → db.orders →
 * analytics.public.revenue; db.users → its features → the churn model), in both modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineageRequest, type LineageParams, type LineageResult } from '../../model/src/protocol';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

const CLICKS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)';
const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)';

for (const compat of COMPAT_MODES)
  describe(`catalogLens/lineage (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    const lineage = (params: Partial<LineageParams> | Record<string, unknown>): Promise<LineageResult> =>
      env.lsp.connection.sendRequest(LineageRequest.method, params);

    test('one hop up and down, with kind, name, platform and relationship', async () => {
      assert.deepEqual(await lineage({ urn: S.orders, direction: 'upstream' }), {
        items: [
          { urn: CLICKS, kind: 'dataset', name: 'events.clicks', platform: 'kafka', relationship: 'DownstreamOf' },
        ],
        total: 1,
      });
      assert.deepEqual(await lineage({ urn: S.orders, direction: 'downstream' }), {
        items: [
          {
            urn: REVENUE,
            kind: 'dataset',
            name: 'analytics.public.revenue',
            platform: 'snowflake',
            relationship: 'DownstreamOf',
          },
          // A feature's sources are its upstream (MLFeatureProperties.sources, "DerivedFrom").
          {
            urn: 'urn:li:mlFeature:(orders_table,order_count)',
            kind: 'mlFeature',
            name: 'order_count',
            relationship: 'DerivedFrom',
          },
          // The data job that reads it (DataJobInputOutput.inputDatasets, "Consumes").
          {
            urn: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue)',
            kind: 'data_job',
            name: 'Load revenue',
            platform: 'airflow',
            relationship: 'Consumes',
          },
        ],
        total: 3,
      });
      const users = await lineage({ urn: S.users, direction: 'downstream' });
      assert.ok(users.items, JSON.stringify(users));
      assert.deepEqual(
        users.items.map((i) => [i.kind, i.name, i.relationship]),
        [
          ['mlFeature', 'age', 'DerivedFrom'],
          ['mlFeature', 'country', 'DerivedFrom'],
        ],
      );
      const age = await lineage({ urn: S.age, direction: 'downstream' });
      assert.deepEqual(
        age.items?.map((i) => [i.kind, i.name, i.platform, i.relationship]),
        [['mlModel', 'churn-model-v3', 'mlflow', 'Consumes']],
      );
      assert.deepEqual(await lineage({ urn: CLICKS, direction: 'upstream' }), { items: [], total: 0 });
    });

    test('bad params get an error that names what is wrong; a column is not an entity', async () => {
      assert.match((await lineage({ urn: S.orders, direction: 'sideways' })).error ?? '', /direction must be/);
      assert.match((await lineage({ urn: 42, direction: 'upstream' })).error ?? '', /urn must be a string/);
      assert.match(
        (await lineage({ urn: 'urn:li:corpuser:jdoe', direction: 'upstream' })).error ?? '',
        /is not a dataset or ML entity/,
      );
      assert.match(
        (await lineage({ urn: `urn:li:schemaField:(${S.users},email)`, direction: 'upstream' })).error ?? '',
        /is not a dataset or ML entity/,
      );
    });
  });
