/** The entity page URL shared by the server's links and hovers and the client's Open in Catalog. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  entityPageMaker,
  entityPageUrl,
  MAX_PAGE_URL_LENGTH,
  uiBase,
  type EntityPageSettings,
} from '../../model/src/entityPage';
import { HIDDEN_CHARACTERS } from '../../model/src/inertText';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { decodePart, encodeUrnForUi, parseUrn, uiPathSegment, type Urn } from '../../model/src/urn';
import { seededRandom } from '../support/random';
import { needsShared, REPO_ROOT, SHARED_DIR } from '../support/shared';

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

/**
 * The pages as entityPageUrl made them before entityPageMaker (at 32dd7a2): the web UI's base read
 * from `url` on every call, the template filled by one `replace`, NOT_IN_URL applied to every URN.
 * The reference of the differential test below.
 */
function plainPageUrl(s: EntityPageSettings, urn: Urn, text: string): { url: string } | { error: string } {
  if (urn.kind === 'schemaField') {
    if (!urn.dataset)
      return {
        error: `This schemaField's parent is not a dataset (${urn.parent.slice(0, 200)}): only a dataset's columns have a page.`,
      };
    const page = plainPageUrl(s, urn.dataset, urn.parent);
    if ('error' in page || s.entityUrlTemplate !== '{uiUrl}/{path}/{urn}') return page;
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
    const url = `${page.url}/Columns?highlightedPath=${encodeURIComponent(decodePart(urn.fieldPath).replace(lone, '\uFFFD'))}`;
    return url.length > MAX_PAGE_URL_LENGTH ? page : { url };
  }
  const base = plainUiBase(s.url, s.uiUrl);
  if (!base)
    return {
      error: 'No catalog web UI is configured (catalogLens.url and catalogLens.uiUrl are empty or not http(s) URLs).',
    };
  const path = uiPathSegment(urn.kind, urn.kind === 'other' ? urn.entityType : undefined);
  const notInUrl = new RegExp(`${HIDDEN_CHARACTERS.source}|${/[\s\u0085<>"`{}|\\^]/u.source}`, 'gu');
  const percent = (c: string): string => encodeURIComponent(/^[\uD800-\uDFFF]$/.test(c) ? '\uFFFD' : c);
  const urnInUrl = encodeUrnForUi(text).replace(notInUrl, percent);
  const parts: Record<string, string> = { uiUrl: base, path, urn: urnInUrl };
  const url = s.entityUrlTemplate
    .replace(/\{(uiUrl|path|urn)\}/g, (_, name: string) => parts[name]!)
    .replace(/^(https?:\/\/)[^/?#\\]*@/i, '$1');
  if (!/^https?:\/\//i.test(url))
    return { error: `catalogLens.entityUrlTemplate gives '${url.slice(0, 200)}', which is not an http(s) URL.` };
  if (url.length > MAX_PAGE_URL_LENGTH)
    return {
      error: `The page's URL would be ${url.length} characters, over ${MAX_PAGE_URL_LENGTH}: no catalog holds a URN that long (DataHub refuses URNs over 512).`,
    };
  return { url };
}

function plainUiBase(url: string, uiUrl: string): string | undefined {
  if (uiUrl.trim()) return uiUrl.trim().replace(/\/+$/, '');
  const t = url.trim();
  if (!/^https?:\/\//i.test(t)) return undefined;
  try {
    const u = new URL(t);
    const path = u.pathname.replace(/\/+$/, '');
    if (path.endsWith('/api/gms')) u.pathname = path.slice(0, -'/api/gms'.length) || '/';
    else if (path === '/gms' && u.hostname.toLowerCase().endsWith('.acryl.io')) u.pathname = '/';
    else if (u.port === '8080') u.port = '9002';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

describe('entityPageMaker: the pages the plain reading made (differential)', () => {
  /** The repository's fixtures, and the team's (../shared) when they are there. */
  const FIXTURES = [
    join(REPO_ROOT, 'test', 'fixtures'),
    join(REPO_ROOT, 'test', 'e2e', 'fixtures'),
    join(SHARED_DIR, 'fixtures'),
  ];
  /** The URNs of the DataHub fixtures (each URN-shaped string; those that parse are compared), and generated ones with every kind of character. */
  function urns(): string[] {
    const found = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.(json|ya?ml|md|py)$/.test(e.name))
          for (const m of readFileSync(full, 'utf8').matchAll(/urn:li:[A-Za-z]+:(?:\([^\s"'`]*\)|[^\s"',`)\]}]+)/g))
            found.add(m[0]);
      }
    };
    for (const dir of FIXTURES) if (existsSync(dir)) walk(dir);
    assert.ok(found.size >= 40, `${found.size} URNs in the fixtures`);
    const rnd = seededRandom(28);
    const chars = [
      'a',
      'Z',
      '0',
      '_',
      '.',
      '-',
      ' ',
      '/',
      '%',
      '?',
      '#',
      '[',
      ']',
      '<',
      '>',
      '"',
      '`',
      '{',
      '}',
      '|',
      '\\',
      '^',
      '@',
      '$&',
      '$1',
      '~',
      '!',
      ';',
      '=',
      '\u0085',
      '\u00e9',
      '\u200B',
      '\u202E',
      '\uFEFF',
      '\u{1F600}',
      '\u{E0041}',
      '\uD800',
      '\uDC00',
      '\t',
      '\u0007',
      '\u007F',
    ];
    const name = (): string =>
      Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => chars[Math.floor(rnd() * chars.length)]!).join('');
    for (let i = 0; i < 400; i++) {
      found.add(`urn:li:dataset:(urn:li:dataPlatform:hive,${name()},PROD)`);
      found.add(`urn:li:corpuser:${name()}`);
      found.add(`urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:s3,${name()},PROD),${name()})`);
      found.add(`urn:li:tag:${name()}`);
    }
    found.add(`urn:li:dataset:(urn:li:dataPlatform:hive,${'a'.repeat(MAX_PAGE_URL_LENGTH)},PROD)`);
    found.add(
      `urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,${'b'.repeat(MAX_PAGE_URL_LENGTH - 80)},PROD),x)`,
    );
    found.add('urn:li:schemaField:(urn:li:chart:(looker,c1),x)');
    found.add('urn:li:someNewKind:abc');
    return [...found];
  }

  test('every URN of the fixtures and 1,600 generated ones, under settings of every shape', () => {
    const settings: EntityPageSettings[] = [
      base,
      { ...base, url: 'http://alice:pw@localhost:8080' },
      { ...base, url: 'https://datahub.corp/api/gms/' },
      { ...base, url: 'https://acme.acryl.io/gms' },
      { ...base, url: 'ftp://x' },
      { ...base, url: '' },
      { ...base, url: 'http://[bad' },
      { ...base, uiUrl: ' https://ui.example.com/$&/{path}/ ' },
      { ...base, uiUrl: 'https://a@b:pw@ui.example.com' },
      { ...base, uiUrl: 'https://ui.example.com/"quoted"' },
      { ...base, entityUrlTemplate: '{uiUrl}/browse?urn={urn}' },
      { ...base, entityUrlTemplate: 'https://carol:pw@pages.example.com/{urn}' },
      { ...base, entityUrlTemplate: 'command:workbench.action.quit?{urn}' },
      { ...base, entityUrlTemplate: '' },
      { ...base, entityUrlTemplate: 'http://host/{urn}@x/{path}' },
      { ...base, entityUrlTemplate: '{uiUrl}/{path}{urn}{uiUrl}{{urn}}{other}{path' },
    ];
    const all = urns();
    // The repository's fixtures and the generated URNs; the team's fixtures add theirs when ../shared is there.
    assert.ok(all.length > (needsShared('fixtures') ? 1_600 : 1_640), `${all.length} URNs`);
    let compared = 0;
    // Twice, in turn: what one set of settings keeps must not leak into the next.
    for (let round = 0; round < 2; round++)
      for (const s of settings) {
        const make = entityPageMaker(s);
        for (const text of all) {
          const parsed = parseUrn(text);
          if (!parsed.ok) continue;
          const expected = plainPageUrl(s, parsed.urn, text);
          assert.deepEqual(make(parsed.urn, text), expected, `${JSON.stringify(s)} ${text}`);
          assert.deepEqual(entityPageUrl(s, parsed.urn, text), expected, `${JSON.stringify(s)} ${text}`);
          compared++;
        }
      }
    assert.ok(compared > 25_000, `${compared} pages compared`);
  });

  test('a template that puts {urn} or {path} before the end of the site gives no page: the document would choose it', () => {
    const all = urns();
    const evilText = 'urn:li:corpuser:a@evil.example';
    const parsed = parseUrn(evilText);
    assert.ok(parsed.ok);
    const evil = parsed.urn;
    const none = [
      '{urn}',
      'https://{urn}',
      'https://{path}.example.com/{urn}',
      '{uiUrl}{path}/{urn}',
      'http://{urn}@host/{path}',
      'https://pages.example.com{urn}',
      '{uiUrl}:{urn}/x',
      // Read as URL parsers read them: an empty host, a tab they drop, userinfo, a backslash (VS Code's URI).
      'https:///{urn}',
      'https://\\{urn}',
      'https://\t/{urn}',
      'https://user@/{urn}',
      'https://pages.example.com\\{urn}',
      '{path}://{urn}',
      'HTTPS://{urn}/',
    ];
    for (const entityUrlTemplate of none) {
      const make = entityPageMaker({ ...base, entityUrlTemplate });
      for (const text of all) {
        const parsed = parseUrn(text);
        if (!parsed.ok) continue;
        const r = make(parsed.urn, text);
        assert.ok('error' in r, `${entityUrlTemplate}: ${text} → ${JSON.stringify(r)}`);
      }
      const r = make(evil, evilText);
      assert.ok('error' in r && /not an http\(s\) URL/.test(r.error), JSON.stringify(r));
    }
    for (const entityUrlTemplate of [
      '{uiUrl}/browse?urn={urn}',
      'https://pages.example.com/{path}/{urn}',
      'https://pages.example.com?u={urn}',
      'https://pages.example.com#{urn}',
      '{uiUrl}/{path}/{urn}',
    ]) {
      const r = entityPageMaker({ ...base, entityUrlTemplate })(evil, evilText);
      assert.ok('url' in r, `${entityUrlTemplate}: ${JSON.stringify(r)}`);
      assert.match(new URL(r.url).host, /^(pages\.example\.com|localhost:9002)$/);
    }
  });

  test('uiBase keeps its last answer: the same as reading the settings again, whatever came between', () => {
    const pairs: Array<[string, string]> = [
      ['http://localhost:8080/', ''],
      ['https://datahub.corp/api/gms', ''],
      ['http://localhost:8080/', ''],
      ['', ''],
      ['ftp://x', ' https://ui.example.com/ '],
      ['http://[bad', ''],
      ['http://localhost:8080/', ''],
    ];
    for (let round = 0; round < 3; round++)
      for (const [url, uiUrl] of pairs) assert.equal(uiBase(url, uiUrl), plainUiBase(url, uiUrl), `${url} ${uiUrl}`);
  });
});
