/**
 * How a URN travels: as one REST path segment (Python's `quote(urn, safe="")`), in a DataHub UI
 * link (datahub-web-react's `urlEncodeUrn`), and across namespaces (`li` and `svc` name the same
 * entity).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  encodeUrnForPath,
  encodeUrnForUi,
  entityTypeOf,
  parseUrn,
  printUrn,
  uiPathSegment,
  withNamespace,
} from '../../model/src/urn';
import { RUNS } from './urnArbitraries';

describe("encodeUrnForPath equals Python's urllib.parse.quote(urn, safe='')", () => {
  // Expected strings computed once with python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=""))'.
  const EXAMPLES: Array<[string, string]> = [
    [
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
      'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.users%2CPROD%29',
    ],
    [
      'urn:li:dataset:(urn:li:dataPlatform:external,sample - superstore%2C %28new%29.xls.people,PROD)',
      'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Aexternal%2Csample%20-%20superstore%252C%20%2528new%2529.xls.people%2CPROD%29',
    ],
    ["urn:li:corpuser:o'brien!*~", 'urn%3Ali%3Acorpuser%3Ao%27brien%21%2A~'],
    [
      'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/päth/日本,PROD)',
      'urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3As3%2Cbucket%2Fp%C3%A4th%2F%E6%97%A5%E6%9C%AC%2CPROD%29',
    ],
    ['urn:li:mlFeature:(t,f😀)', 'urn%3Ali%3AmlFeature%3A%28t%2Cf%F0%9F%98%80%29'],
    ['urn:li:tag:a&b=c?d#e[f]+g;h@i$j', 'urn%3Ali%3Atag%3Aa%26b%3Dc%3Fd%23e%5Bf%5D%2Bg%3Bh%40i%24j'],
    ['\u241F\u00E9\t\n', '%E2%90%9F%C3%A9%09%0A'],
    // Every printable ASCII character: only letters, digits and _.-~ stay as they are.
    [
      ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~',
      '%20%21%22%23%24%25%26%27%28%29%2A%2B%2C-.%2F0123456789%3A%3B%3C%3D%3E%3F%40ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D~',
    ],
  ];
  for (const [urn, expected] of EXAMPLES) {
    test(JSON.stringify(urn), () => assert.equal(encodeUrnForPath(urn), expected));
  }

  test('the segment holds no character a path would split or Rest.li would read as key syntax, and decodes back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const encoded = encodeUrnForPath(s);
        assert.match(encoded, /^[A-Za-z0-9_.~%-]*$/);
        assert.equal(decodeURIComponent(encoded), s);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("encodeUrnForUi: DataHub's urlEncodeUrn keeps the URN readable", () => {
  test('only % / ? # [ ] are escaped; : ( , ) stay raw', () => {
    assert.equal(
      encodeUrnForUi('urn:li:dataset:(urn:li:dataPlatform:s3,bucket/a?b#c[0]%2C,PROD)'),
      'urn:li:dataset:(urn:li:dataPlatform:s3,bucket%2Fa%3Fb%23c%5B0%5D%252C,PROD)',
    );
    assert.equal(
      encodeUrnForUi('urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)'),
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
    );
  });

  test('web UI path segments per kind (notes §8)', () => {
    assert.deepEqual(
      (['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup', 'corpuser', 'dataPlatform'] as const).map(
        (k) => uiPathSegment(k),
      ),
      ['dataset', 'features', 'featureTables', 'mlModels', 'mlModelGroup', 'user', 'platform'],
    );
    assert.equal(uiPathSegment('other', 'glossaryTerm'), 'glossaryTerm');
    assert.equal(uiPathSegment('other'), 'entity');
    // The other kinds with pages in DataHub's UI: the path is not always the entity type.
    assert.deepEqual(
      ['corpGroup', 'dataFlow', 'dataJob', 'mlPrimaryKey', 'businessAttribute', 'dataContract', 'tag', 'container'].map(
        (t) => uiPathSegment('other', t),
      ),
      ['group', 'pipelines', 'tasks', 'mlPrimaryKeys', 'business-attribute', 'dataContracts', 'tag', 'container'],
    );
    assert.equal(uiPathSegment('other', 'constructor'), 'constructor', 'a Map lookup: no prototype key');
  });
});

describe('namespaces and entity types', () => {
  test('withNamespace moves a URN and its nested platform to another namespace word', () => {
    const r = parseUrn('urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)');
    assert.ok(r.ok);
    const moved = withNamespace(r.urn, 'svc');
    assert.equal(printUrn(moved), 'urn:svc:mlModel:(urn:svc:dataPlatform:mlflow,m,PROD)');
    assert.equal(r.urn.namespace, 'li', 'the original value is left as it was');
  });

  test('entityTypeOf gives the entity type DataHub writes in a proposal', () => {
    const types = ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', 'urn:li:mlFeature:(t,f)', 'urn:li:tag:x'].map(
      (t) => {
        const r = parseUrn(t);
        assert.ok(r.ok);
        return entityTypeOf(r.urn);
      },
    );
    assert.deepEqual(types, ['dataset', 'mlFeature', 'tag']);
  });
});
