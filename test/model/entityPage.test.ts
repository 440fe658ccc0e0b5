/** The entity page URL shared by the server's links and hovers and the client's Open in Catalog. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { entityPageUrl, MAX_PAGE_URL_LENGTH, uiBase } from '../../model/src/entityPage';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { parseUrn } from '../../model/src/urn';

const base = { url: 'http://localhost:8080', uiUrl: '', entityUrlTemplate: DEFAULT_SETTINGS.entityUrlTemplate };

function pageOf(text: string, s = base): { url: string } | { error: string } {
  const parsed = parseUrn(text);
  assert.ok(parsed.ok, text);
  return entityPageUrl(s, parsed.urn, text);
}

describe('entity page URL', () => {
  test("uiUrl wins; else url, with GMS port 8080 read as the frontend's 9002; only http(s) urls", () => {
    assert.equal(uiBase('http://localhost:8080/', ''), 'http://localhost:9002');
    assert.equal(uiBase('https://gms.example.com', ' https://datahub.example.com/ '), 'https://datahub.example.com');
    assert.equal(uiBase('ftp://gms.example.com', ''), undefined);
    assert.equal(uiBase('', ''), undefined);
  });

  test("each form of DataHub's address gives its web UI: GMS :8080, the frontend's /api/gms proxy, DataHub Cloud's /gms, a frontend root", () => {
    assert.equal(uiBase('http://datahub.corp:8080', ''), 'http://datahub.corp:9002');
    assert.equal(uiBase('https://datahub.corp/api/gms', ''), 'https://datahub.corp');
    assert.equal(uiBase('https://datahub.corp/api/gms/', ''), 'https://datahub.corp');
    assert.equal(uiBase('https://datahub.corp:9002/api/gms', ''), 'https://datahub.corp:9002');
    assert.equal(uiBase('https://tools.corp/datahub/api/gms', ''), 'https://tools.corp/datahub');
    assert.equal(uiBase('https://acme.acryl.io/gms', ''), 'https://acme.acryl.io');
    assert.equal(
      uiBase('https://other.example.com/gms', ''),
      'https://other.example.com/gms',
      'only DataHub Cloud serves GMS under /gms',
    );
    assert.equal(uiBase('http://localhost:9002', ''), 'http://localhost:9002');
  });

  test('a $& or $1 in the URN or the base is text, not a replacement pattern', () => {
    assert.deepEqual(pageOf('urn:li:corpuser:a$&b$1'), { url: 'http://localhost:9002/user/urn:li:corpuser:a$&b$1' });
    assert.deepEqual(pageOf('urn:li:corpuser:jdoe', { ...base, uiUrl: 'https://h.example.com/$&' }), {
      url: 'https://h.example.com/$&/user/urn:li:corpuser:jdoe',
    });
  });

  test('what a URL cannot hold as text is percent-encoded, what breaks a path is escaped as DataHub does', () => {
    assert.deepEqual(pageOf('urn:li:dataset:(urn:li:dataPlatform:s3,my bucket/<a>?"x",PROD)'), {
      url: 'http://localhost:9002/dataset/urn:li:dataset:(urn:li:dataPlatform:s3,my%20bucket%2F%3Ca%3E%3F%22x%22,PROD)',
    });
  });

  test('hidden characters of the URN are percent-encoded: a page URL shows none (a lone surrogate is sent as U+FFFD)', () => {
    assert.deepEqual(pageOf('urn:li:corpuser:a\u200Bb\u202Ec\uFEFFd\u{E0041}e\uD800'), {
      url: 'http://localhost:9002/user/urn:li:corpuser:a%E2%80%8Bb%E2%80%AEc%EF%BB%BFd%F3%A0%81%81e%EF%BF%BD',
    });
  });

  test('credentials in url, uiUrl or the template never reach the page URL (security probe, finding 9)', () => {
    const urn = 'urn:li:corpuser:jdoe';
    assert.deepEqual(pageOf(urn, { ...base, url: 'http://alice:pw@localhost:8080' }), {
      url: `http://localhost:9002/user/${urn}`,
    });
    assert.deepEqual(pageOf(urn, { ...base, uiUrl: 'https://bob:pw@ui.example.com/app' }), {
      url: `https://ui.example.com/app/user/${urn}`,
    });
    assert.deepEqual(
      pageOf(urn, { ...base, uiUrl: 'https://a@b:pw@ui.example.com' }),
      { url: `https://ui.example.com/user/${urn}` },
      'up to the last @ of the authority',
    );
    assert.deepEqual(pageOf(urn, { ...base, entityUrlTemplate: 'https://carol:pw@pages.example.com/{urn}' }), {
      url: `https://pages.example.com/${urn}`,
    });
    assert.deepEqual(
      pageOf('urn:li:corpuser:x@y', { ...base, uiUrl: 'https://ui.example.com' }),
      { url: 'https://ui.example.com/user/urn:li:corpuser:x@y' },
      'an @ in the path stays',
    );
  });

  test('never a non-http page from the template', () => {
    const r = pageOf('urn:li:corpuser:jdoe', { ...base, entityUrlTemplate: 'command:workbench.action.quit?{urn}' });
    assert.ok('error' in r && /not an http\(s\) URL/.test(r.error), JSON.stringify(r));
  });

  test(`a URN that would make a URL over ${MAX_PAGE_URL_LENGTH} characters has no page`, () => {
    const fits = `urn:li:dataset:(urn:li:dataPlatform:hive,${'a'.repeat(MAX_PAGE_URL_LENGTH - 100)},PROD)`;
    const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'a'.repeat(MAX_PAGE_URL_LENGTH)},PROD)`;
    const ok = pageOf(fits);
    assert.ok('url' in ok && ok.url.length <= MAX_PAGE_URL_LENGTH);
    const r = pageOf(long);
    assert.ok('error' in r && r.error.includes(`over ${MAX_PAGE_URL_LENGTH}`), JSON.stringify(r).slice(0, 300));
    assert.ok(r.error.length < 300, 'the error does not repeat the URN');
  });

  test("a schemaField opens its dataset's Columns tab with the field highlighted, as DataHub's UI links a column", () => {
    const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    assert.deepEqual(pageOf(`urn:li:schemaField:(${ds},address.zip code)`), {
      url: `http://localhost:9002/dataset/${ds}/Columns?highlightedPath=address.zip%20code`,
    });
    assert.deepEqual(
      pageOf(`urn:li:schemaField:(${ds},a%2Cb)`),
      { url: `http://localhost:9002/dataset/${ds}/Columns?highlightedPath=a%2Cb` },
      'the decoded path, encoded for the query',
    );
    const custom = { ...base, entityUrlTemplate: 'https://wiki.corp/catalog?p={path}&u={urn}' };
    assert.deepEqual(
      pageOf(`urn:li:schemaField:(${ds},age)`, custom),
      { url: `https://wiki.corp/catalog?p=dataset&u=${ds}` },
      "a custom template: the dataset's page",
    );
    assert.deepEqual(
      pageOf(`urn:li:schemaField:(${ds},a\ude00b)`),
      { url: `http://localhost:9002/dataset/${ds}/Columns?highlightedPath=a%EF%BF%BDb` },
      'a lone surrogate (found by the pure fuzz test) is sent as U+FFFD',
    );
    const ofChart = pageOf('urn:li:schemaField:(urn:li:chart:(looker,c1),x)');
    assert.ok('error' in ofChart && /parent is not a dataset/.test(ofChart.error));
  });
});

describe("Open in Catalog (catalogLens/entityPage) builds the entity page as the server's links do", () => {
  test("GMS port 8080 is read as the frontend's 9002; the URN stays readable in the path", () => {
    assert.equal(uiBase('http://localhost:8080/', ''), 'http://localhost:9002');
    assert.deepEqual(pageOf('urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', base), {
      url: 'http://localhost:9002/dataset/urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
    });
  });

  test("uiUrl wins, and each kind has DataHub's page name", () => {
    const s = { ...base, uiUrl: 'https://datahub.example.com/' };
    assert.deepEqual(pageOf('urn:li:mlFeature:(user_features,age)', s), {
      url: 'https://datahub.example.com/features/urn:li:mlFeature:(user_features,age)',
    });
    assert.deepEqual(pageOf('urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)', s), {
      url: 'https://datahub.example.com/mlModels/urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)',
    });
  });

  test("characters that break a path are escaped (DataHub's urlEncodeUrn)", () => {
    const r = pageOf('urn:li:dataset:(urn:li:dataPlatform:s3,bucket/a%2Cb?x,PROD)', base);
    assert.deepEqual(r, {
      url: 'http://localhost:9002/dataset/urn:li:dataset:(urn:li:dataPlatform:s3,bucket%2Fa%252Cb%3Fx,PROD)',
    });
  });

  test('no page without a configured catalog, and never a non-http link from the template', () => {
    assert.ok('error' in pageOf('urn:li:corpuser:jdoe', { ...base, url: '' }));
    assert.ok(
      'error' in pageOf('urn:li:corpuser:jdoe', { ...base, entityUrlTemplate: 'command:workbench.action.quit?{urn}' }),
    );
  });
});
