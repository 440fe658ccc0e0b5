/**
 * The local catalog's read-only pages over real HTTP, against the real catalog process: every link
 * the extension builds (model/src/entityPage.ts) opens a page; URNs in the path encoded or raw, in
 * either namespace; hostile catalog text is shown as text (no tag, no script, no `javascript:` link);
 * the headers forbid scripts; the not-found pages are HTML; a write through the API shows on
 * reload; who may read the pages when the catalog has a token.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_ENTITY_URL_TEMPLATE, entityPageUrl } from '../../model/src/entityPage';
import { parseUrn } from '../../model/src/urn';
import { relationshipWords } from '../../model/src/relationships';
import { CLICKS_FIELDS, SAMPLE } from '../../catalog/src/sample';
import { ingest } from '../support/catalogHttp';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';
import { send } from '../support/rawHttp';

/** What a browser's navigation sends. */
const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

interface Page {
  status: number;
  headers: Headers;
  body: string;
}

async function page(base: string, p: string, headers: Record<string, string> = {}): Promise<Page> {
  const r = await fetch(`${base}${p}`, { headers: { ...BROWSER, ...headers }, redirect: 'manual' });
  return { status: r.status, headers: r.headers, body: await r.text() };
}

/** The link the extension builds for `urn` against this catalog (hover, Ctrl+click, Open in Catalog). */
function linkOf(base: string, urn: string): string {
  const parsed = parseUrn(urn);
  assert.ok(parsed.ok, urn);
  const made = entityPageUrl({ url: base, uiUrl: '', entityUrlTemplate: DEFAULT_ENTITY_URL_TEMPLATE }, parsed.urn, urn);
  assert.ok('url' in made, `no link for ${urn}`);
  return made.url.slice(base.length);
}

function assertHtmlPage(p: Page, status: number, what: string): void {
  assert.equal(p.status, status, `${what}: status (body: ${p.body.slice(0, 300)})`);
  assert.equal(p.headers.get('content-type'), 'text/html; charset=utf-8', `${what}: content type`);
  const csp = p.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/, `${what}: CSP`);
  assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval/, `${what}: CSP allows no script`);
  assert.match(csp, /frame-ancestors 'none'/, `${what}: CSP`);
  assert.equal(p.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  assert.match(p.body, /^<!doctype html>/, `${what}: an HTML document`);
}

/** Every href of a page: only our own paths, fragments and http(s)/mailto links. */
function hrefs(body: string): string[] {
  return [...body.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!);
}

function assertInert(body: string, what: string): void {
  assert.doesNotMatch(body, /<script|<img|<iframe|<object|<embed|<svg|<math|<link\b/i, `${what}: no active tag`);
  assert.doesNotMatch(body, /<[a-z][^>]*\son[a-z]+\s*=/i, `${what}: no event handler attribute`);
  for (const h of hrefs(body))
    assert.match(
      h,
      /^(\/|#|https?:\/\/|mailto:)/i,
      `${what}: href ${JSON.stringify(h)} is a page, a fragment or a web link`,
    );
}

const HOSTILE_URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,evil.table,PROD)';
const HOSTILE_DESCRIPTION = [
  '**Bold** text and a [good link](https://docs.example.com/evil), <script>window.__pwned=0</script> [js](javascript:alert(0))',
  '',
  '<script>window.__pwned=1</script>',
  '',
  '<img src=x onerror="window.__pwned=2">',
  '',
  '[js link](javascript:window.__pwned=3) [entity js](&#106;avascript:alert(1)) <javascript:alert(2)>',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vs](command:workbench.action.terminal.new)',
  '',
  '![tracker](https://tracker.example.com/pixel.png)',
].join('\n');
const HOSTILE_COLUMN = '<img src=x onerror=alert(5)>';

/**
 * What the hover shows, on the sample's pages: db.users_legacy's deprecation (note, date,
 * replacement linked); db.users's owners with their type, tag, term and domain, and its lineage
 * counts linked to a Lineage section listing the features derived from it; db.orders one hop each way.
 */
async function assertHoverFacts(base: string): Promise<void> {
  const legacy = await page(base, linkOf(base, SAMPLE.datasets.usersLegacy));
  assertHtmlPage(legacy, 200, 'users_legacy');
  assert.match(
    legacy.body,
    /<p class="callout absent" id="deprecation"><strong>Deprecated<\/strong> \(decommission 2026-12-31\): Replaced by db\.users, which has every user since 2019\. Use <a href="([^"]+)">users<\/a> instead\./,
  );
  assert.ok(legacy.body.includes(`Use <a href="${linkOf(base, SAMPLE.datasets.users)}">`), 'the replacement is linked');
  const users = await page(base, linkOf(base, SAMPLE.datasets.users));
  assertHtmlPage(users, 200, 'users');
  assert.doesNotMatch(users.body, /id="deprecation"/, 'db.users is not deprecated');
  assert.match(
    users.body,
    /<dt>Owners<\/dt><dd><a href="[^"]+">jdoe<\/a> <span class="note">\(technical owner\)<\/span>, growth-analytics/,
  );
  assert.match(users.body, /<dt>Tags<\/dt><dd>pii<\/dd>/);
  assert.match(users.body, /<dt>Glossary terms<\/dt><dd>Customer\.Profile<\/dd>/);
  assert.match(users.body, /<dt>Domain<\/dt><dd>growth<\/dd>/);
  assert.match(users.body, /<dt>Lineage<\/dt><dd><a href="#lineage">↑0 upstream · ↓2 downstream<\/a>/);
  assert.match(users.body, /<section id="lineage"><h2>Lineage \(↑0 ↓2\)<\/h2>/);
  assert.ok(users.body.includes(`href="${linkOf(base, SAMPLE.features.age)}"`), 'a downstream feature is linked');
  const orders = await page(base, linkOf(base, SAMPLE.datasets.orders));
  // Downstream of db.orders: revenue, the order_count feature, and the data job that reads it (Consumes).
  assert.match(orders.body, /↑1 upstream · ↓3 downstream/);
  assert.ok(orders.body.includes(`href="${linkOf(base, SAMPLE.datasets.clicks)}"`), 'upstream events.clicks is linked');
  assert.ok(orders.body.includes(`href="${linkOf(base, SAMPLE.datasets.revenue)}"`), 'downstream revenue is linked');
  // How each is related, in the words the editor's lineage view uses (model/src/relationships.ts).
  for (const [type, side] of [
    ['DownstreamOf', 'upstream'],
    ['DownstreamOf', 'downstream'],
    ['DerivedFrom', 'downstream'],
  ] as const)
    assert.ok(orders.body.includes(`<td>${relationshipWords(type, side)}</td>`), `${type} ${side}`);
  for (const [what, p] of [
    ['users_legacy', legacy],
    ['users', users],
    ['orders', orders],
  ] as const)
    assertInert(p.body, what);
}

describe('local catalog pages', () => {
  let cat: CatalogProcess;
  let base: string;

  before(async () => {
    cat = await startCatalogProcess({ sample: true });
    base = cat.url;
    const ok = (s: number): void => assert.equal(s, 200);
    ok(
      await ingest(base, 'dataset', HOSTILE_URN, 'datasetProperties', {
        name: '<b>evil</b>\u202Egnp.exe',
        description: HOSTILE_DESCRIPTION,
        customProperties: { '<i>k</i>': '<script>alert(6)</script>' },
      }),
    );
    ok(
      await ingest(base, 'dataset', HOSTILE_URN, 'schemaMetadata', {
        schemaName: 'evil',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: [
          {
            fieldPath: HOSTILE_COLUMN,
            nativeDataType: '"><script>alert(7)</script>',
            description: '<script>alert(8)</script> [x](javascript:alert(9))',
            type: { type: { 'com.linkedin.schema.StringType': {} } },
            nullable: true,
            recursive: false,
          },
        ],
      }),
    );
    ok(
      await ingest(base, 'dataset', HOSTILE_URN, 'institutionalMemory', {
        elements: [
          {
            url: 'javascript:alert(10)',
            description: '<script>alert(11)</script>',
            createStamp: { time: 1, actor: SAMPLE.user },
          },
          {
            url: 'https://wiki.example.com/evil?a=1&b="2"',
            description: 'Runbook',
            createStamp: { time: 2, actor: SAMPLE.user },
          },
        ],
      }),
    );
  });

  after(async () => {
    await cat?.stop();
  });

  test('/ lists every entity of the catalog by kind, with the headers that forbid scripts', async () => {
    const home = await page(base, '/');
    assertHtmlPage(home, 200, '/');
    for (const header of ['Datasets', 'Feature tables', 'ML features', 'ML models', 'Model groups'])
      assert.match(home.body, new RegExp(`<h2>${header} \\(\\d+\\)</h2>`), header);
    for (const urn of [...Object.values(SAMPLE.datasets), ...Object.values(SAMPLE.models)])
      assert.ok(home.body.includes(`href="${linkOf(base, urn)}"`), `/ links ${urn} at the extension's path`);
    assert.equal(home.headers.get('x-frame-options'), 'DENY');
    assert.equal(home.headers.get('referrer-policy'), 'no-referrer');
    assertInert(home.body, '/');
  });

  test('a dataset page shows what its hover shows: deprecation, owners, tags, terms, domain, lineage', async () => {
    await assertHoverFacts(base);
  });

  test('a hostile deprecation note and owner type are shown as text', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,evil.deprecated,PROD)';
    const ok = (s: number): void => assert.equal(s, 200);
    ok(await ingest(base, 'dataset', urn, 'datasetProperties', { name: 'evil.deprecated', customProperties: {} }));
    ok(
      await ingest(base, 'dataset', urn, 'deprecation', {
        deprecated: true,
        note: '<script>window.__pwned=12</script> [x](javascript:alert(13))',
        actor: SAMPLE.user,
        decommissionTime: 8.7e15,
        replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,<b>gone</b>,PROD)',
      }),
    );
    const p = await page(base, linkOf(base, urn));
    assertHtmlPage(p, 200, 'evil.deprecated');
    assertInert(p.body, 'evil.deprecated');
    assert.ok(
      p.body.includes('<strong>Deprecated</strong>: &lt;script&gt;window.__pwned=12&lt;/script&gt;'),
      'the note as text, an out-of-range date left out',
    );
    assert.ok(
      p.body.includes('Use &lt;b&gt;gone&lt;/b&gt; instead.'),
      'an absent replacement: its name as text, no link',
    );
  });

  test("the search box (GET ?q= and DataHub's /search?query=) filters by name, URN and description", async () => {
    const found = await page(base, '/?q=revenue');
    assertHtmlPage(found, 200, '?q=revenue');
    assert.ok(found.body.includes(linkOf(base, SAMPLE.datasets.revenue)));
    assert.ok(!found.body.includes(linkOf(base, SAMPLE.datasets.users)), 'users does not match "revenue"');
    assert.match(found.body, /value="revenue"/, 'the box keeps the query');
    const byDescription = await page(base, '/search?query=' + encodeURIComponent('stop ordering'));
    assert.ok(byDescription.body.includes(linkOf(base, SAMPLE.modelGroups.churn)), 'found by its description');
    const kind = await page(base, '/?q=users&kind=mlFeatureTable');
    assert.ok(kind.body.includes(linkOf(base, SAMPLE.featureTables.users)));
    assert.ok(!kind.body.includes(linkOf(base, SAMPLE.datasets.users)), 'kind=mlFeatureTable leaves datasets out');
    const hostileQuery = await page(base, '/?q=' + encodeURIComponent('"><script>alert(1)</script>'));
    assertHtmlPage(hostileQuery, 200, 'hostile query');
    assertInert(hostileQuery.body, 'hostile query');
    assert.ok(hostileQuery.body.includes('&quot;&gt;&lt;script&gt;'), 'the query is echoed as text');
  });

  test("every link the extension builds for the sample opens that entity's page", async () => {
    const urns = [
      ...Object.values(SAMPLE.datasets),
      ...Object.values(SAMPLE.features),
      ...Object.values(SAMPLE.featureTables),
      ...Object.values(SAMPLE.models),
      ...Object.values(SAMPLE.modelGroups),
    ];
    for (const urn of urns) {
      const link = linkOf(base, urn);
      const p = await page(base, link);
      assertHtmlPage(p, 200, link);
      assert.ok(p.body.includes(`<code>${urn}</code>`), `${link} shows its URN`);
      assertInert(p.body, link);
    }
    // Paths are DataHub's page names (each entity's `getPathName` in datahub-web-react).
    assert.match(linkOf(base, SAMPLE.features.age), /^\/features\/urn:li:mlFeature:/);
    assert.match(linkOf(base, SAMPLE.featureTables.users), /^\/featureTables\//);
    assert.match(linkOf(base, SAMPLE.models.churnV3), /^\/mlModels\//);
    assert.match(linkOf(base, SAMPLE.modelGroups.churn), /^\/mlModelGroup\//);
  });

  test('each kind shows what it holds: columns, features, groups, members, sources', async () => {
    const users = await page(base, linkOf(base, SAMPLE.datasets.users));
    assert.match(users.body, /<h2>Columns \(5\)<\/h2>/);
    assert.match(users.body, /<code>user_id<\/code>.*?<code>bigint<\/code>.*?Primary key of the user\./s);
    const revenue = await page(base, linkOf(base, SAMPLE.datasets.revenue));
    assert.ok(
      revenue.body.includes('Daily revenue per country, in EUR, after refunds.'),
      'the edited description wins',
    );
    assert.match(revenue.body, /Revenue after refunds, EUR\..*?edited/s, 'the edited column description, marked');
    const table = await page(base, linkOf(base, SAMPLE.featureTables.users));
    assert.match(table.body, /<h2>Features \(2\)<\/h2>/);
    assert.ok(table.body.includes(`href="${linkOf(base, SAMPLE.features.age)}"`));
    const model = await page(base, linkOf(base, SAMPLE.models.churnV3));
    assert.match(model.body, /<h2>Groups \(1\)<\/h2>/);
    assert.match(model.body, /<h2>Features \(3\)<\/h2>/);
    assert.ok(model.body.includes(`href="${linkOf(base, SAMPLE.modelGroups.churn)}"`));
    assert.match(model.body, /auc<\/td><td>0\.91/);
    const group = await page(base, linkOf(base, SAMPLE.modelGroups.churn));
    assert.match(group.body, /<h2>Models \(1\)<\/h2>/);
    assert.ok(group.body.includes(`href="${linkOf(base, SAMPLE.models.churnV3)}"`), 'members: the models naming it');
    const feature = await page(base, linkOf(base, SAMPLE.features.age));
    assert.ok(feature.body.includes(`href="${linkOf(base, SAMPLE.datasets.users)}"`), 'sources');
    assert.ok(feature.body.includes(`href="${linkOf(base, SAMPLE.featureTables.users)}"`), 'in feature tables');
    assert.ok(feature.body.includes(`href="${linkOf(base, SAMPLE.models.churnV3)}"`), 'used by models');
  });

  test('a column link opens its dataset with the column marked; a schemaField path redirects there', async () => {
    const fieldUrn = `urn:li:schemaField:(${SAMPLE.datasets.clicks},${CLICKS_FIELDS.deviceOs})`;
    const link = linkOf(base, fieldUrn);
    assert.match(link, /^\/dataset\/.+\/Columns\?highlightedPath=/, link);
    const p = await page(base, link);
    assertHtmlPage(p, 200, link);
    assert.match(p.body, /<tr id="column-1" class="hl" aria-current="true">/, 'device.os is marked');
    assert.match(p.body, /<p class="callout">Column <a href="#column-1">/, 'and named first, with an anchor');
    const bySimplePath = await page(base, `${linkOf(base, SAMPLE.datasets.clicks)}/Columns?highlightedPath=device.os`);
    assert.match(bySimplePath.body, /<tr id="column-1" class="hl"/, 'a simple path finds the v2 field');
    const missing = await page(base, `${linkOf(base, SAMPLE.datasets.users)}/Columns?highlightedPath=ghost`);
    assert.equal(missing.status, 200);
    assert.match(missing.body, /has no column <code>ghost<\/code>/);
    const viaSchemaField = await page(
      base,
      `/schemaField/${encodeURIComponent(`urn:li:schemaField:(${SAMPLE.datasets.users},email)`)}`,
    );
    assert.equal(viaSchemaField.status, 302);
    assert.equal(
      viaSchemaField.headers.get('location'),
      `${linkOf(base, SAMPLE.datasets.users)}/Columns?highlightedPath=email`,
    );
  });

  test('the URN in the path: raw, DataHub-encoded, fully encoded, {{encoded_percent}}, a raw "/", either namespace', async () => {
    const users = SAMPLE.datasets.users;
    const svc = users.replaceAll('urn:li:', 'urn:svc:');
    for (const p of [
      `/dataset/${users}`,
      `/dataset/${encodeURIComponent(users)}`,
      `/dataset/${encodeURIComponent(users)}/Schema`,
      `/dataset/${svc}`,
      `/dataset/${encodeURIComponent(svc)}`,
    ]) {
      const r = await page(base, p);
      assertHtmlPage(r, 200, p);
      assert.match(r.body, /<h1>users<\/h1>/, p);
    }
    const svcPage = await page(base, `/dataset/${svc}`);
    assert.ok(svcPage.body.includes(`Stored as <code>${users}</code>`), 'a svc URN names the same entity');
    // A name holding an escaped comma (DataHub's UrnEncoder) and one holding "/".
    const comma = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.a%2Cb,PROD)';
    const slash = 'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/path/file.csv,PROD)';
    assert.equal(await ingest(base, 'dataset', comma, 'datasetProperties', { description: 'comma' }), 200);
    assert.equal(await ingest(base, 'dataset', slash, 'datasetProperties', { description: 'slash' }), 200);
    for (const p of [
      linkOf(base, comma),
      `/dataset/${comma.replace('%', '{{encoded_percent}}')}`,
      `/dataset/${encodeURIComponent(comma)}`,
    ]) {
      const r = await page(base, p);
      assertHtmlPage(r, 200, p);
      assert.match(r.body, /<h1>db\.a,b<\/h1>/, `${p}: the decoded name`);
    }
    for (const p of [linkOf(base, slash), `/dataset/${slash}`, `/dataset/${slash}/Columns?highlightedPath=x`]) {
      const r = await page(base, p);
      assertHtmlPage(r, 200, p);
      assert.match(r.body, /<h1>bucket\/path\/file\.csv<\/h1>/, p);
    }
    const wrongPath = await page(base, `/features/${users}`);
    assert.equal(wrongPath.status, 302, 'a dataset URN under /features');
    assert.equal(wrongPath.headers.get('location'), linkOf(base, users));
  });

  test('hostile catalog text is shown as text: names, descriptions, columns, types, links, properties', async () => {
    const link = linkOf(base, HOSTILE_URN);
    const p = await page(base, link);
    assertHtmlPage(p, 200, link);
    assertInert(p.body, link);
    assert.ok(
      p.body.includes('&lt;script&gt;window.__pwned=1&lt;/script&gt;'),
      'the <script> of the description, as text',
    );
    assert.ok(p.body.includes('&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;'), 'the <img onerror>, as text');
    assert.ok(p.body.includes('<strong>Bold</strong>'), 'Markdown is rendered');
    assert.ok(p.body.includes('href="https://docs.example.com/evil"'), 'an https link stays a link');
    for (const bad of ['javascript:', 'data:', 'command:'])
      assert.ok(!hrefs(p.body).some((h) => h.toLowerCase().includes(bad)), `no ${bad} href`);
    assert.ok(p.body.includes('[js link](javascript:window.__pwned=3)'), 'a javascript: link stays literal text');
    assert.ok(p.body.includes('!<a href="https://tracker.example.com/pixel.png"'), 'an image is a link, never loaded');
    assert.ok(
      p.body.includes('<h1>&lt;b&gt;evil&lt;/b&gt;\\u202Egnp.exe</h1>'),
      'the name: tags as text, the bidi override shown',
    );
    assert.ok(
      p.body.includes(`<code>${HOSTILE_COLUMN.replace('<', '&lt;').replace('>', '&gt;')}</code>`),
      'the column path',
    );
    assert.ok(p.body.includes('&quot;&gt;&lt;script&gt;alert(7)&lt;/script&gt;'), 'the native type');
    assert.match(
      p.body,
      /&lt;script&gt;alert\(11\)&lt;\/script&gt; <span class="badge absent">not a web link<\/span>/,
      'a javascript: link is labelled, not linked',
    );
    assert.ok(p.body.includes('href="https://wiki.example.com/evil?a=1&amp;b=%222%22"'), 'an https link, escaped');
    assert.ok(
      p.body.includes('&lt;i&gt;k&lt;/i&gt;') && p.body.includes('&lt;script&gt;alert(6)&lt;/script&gt;'),
      'custom properties',
    );
    assert.ok(p.body.includes(`href="${linkOf(base, SAMPLE.user)}"`), 'the link author has a page link');
    // Lists show the first line of a description, its inline Markdown rendered by the same rules.
    const listed = await page(base, '/?q=evil');
    assertInert(listed.body, '/?q=evil');
    assert.ok(
      listed.body.includes('<strong>Bold</strong> text and a <a href="https://docs.example.com/evil"'),
      'inline Markdown',
    );
    assert.ok(
      listed.body.includes('&lt;script&gt;window.__pwned=0&lt;/script&gt; [js](javascript:alert(0))'),
      'as text',
    );
  });

  test('a write through the API shows on reload: the pages read the store the API writes', async () => {
    const link = linkOf(base, SAMPLE.datasets.orders);
    const before = await page(base, link);
    assert.match(before.body, /No description\./);
    const written = 'Orders, **one row each**, written through the API.';
    assert.equal(
      await ingest(base, 'dataset', SAMPLE.datasets.orders, 'editableDatasetProperties', { description: written }),
      200,
    );
    const reloaded = await page(base, link);
    assert.ok(reloaded.body.includes('Orders, <strong>one row each</strong>, written through the API.'));
  });

  test('not-found pages are HTML with a way back: absent entity, kind not stored, foreign namespace, not a URN', async () => {
    const cases: Array<[string, number, RegExp]> = [
      [
        linkOf(base, SAMPLE.missing.dataset),
        404,
        /The local catalog has no dataset <code>urn:li:dataset:\(urn:li:dataPlatform:hive,db\.ghost,PROD\)<\/code>/,
      ],
      [linkOf(base, SAMPLE.missing.feature), 404, /has no ml feature/],
      [
        linkOf(base, 'urn:li:glossaryTerm:Finance.Revenue'),
        404,
        /has no glossary term <code>urn:li:glossaryTerm:Finance\.Revenue<\/code>/,
      ],
      [linkOf(base, 'urn:li:dataHubPolicy:p1'), 404, /has no pages for <code>dataHubPolicy<\/code> entities/],
      [linkOf(base, 'urn:li:corpuser:nobody'), 404, /has no user <code>urn:li:corpuser:nobody<\/code>: no profile/],
      [linkOf(base, 'urn:li:dataPlatform:oracle'), 404, /nothing on platform/],
      ['/dataset/urn:foo:dataset:(urn:foo:dataPlatform:hive,db.users,PROD)', 404, /namespace <code>foo<\/code>/],
      ['/dataset/not-a-urn', 400, /is not a URN/],
    ];
    for (const [p, status, says] of cases) {
      const r = await page(base, p);
      assertHtmlPage(r, status, p);
      assert.match(r.body, says, p);
      assert.ok(r.body.includes('<a href="/">All entities of the local catalog</a>'), `${p}: a link back to /`);
    }
    // Programs that ask for an unknown resource keep the APIs' JSON 404.
    const api = await fetch(`${base}/dataHubPolicy/urn:li:dataHubPolicy:x`);
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /application\/json/);
    await api.text();
  });

  test('user and platform pages list what the catalog holds for them', async () => {
    const user = await page(base, linkOf(base, SAMPLE.user));
    assertHtmlPage(user, 200, 'user');
    assert.match(user.body, /<h2>Links added \(2\)<\/h2>/);
    assert.ok(user.body.includes(`href="${linkOf(base, HOSTILE_URN)}"`));
    assertInert(user.body, 'user');
    const platform = await page(base, linkOf(base, 'urn:li:dataPlatform:mlflow'));
    assertHtmlPage(platform, 200, 'platform');
    assert.ok(platform.body.includes(`href="${linkOf(base, SAMPLE.models.ltvV1)}"`));
  });

  test('pages are read-only: HEAD answers headers only, other methods 405', async () => {
    const link = linkOf(base, SAMPLE.datasets.users);
    const head = await fetch(`${base}${link}`, { method: 'HEAD', headers: BROWSER });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await head.text(), '');
    const post = await fetch(`${base}${link}`, {
      method: 'POST',
      headers: { ...BROWSER, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    assert.match(await post.text(), /read-only/);
  });
});

/** Each kind of the sample beyond the catalog kinds: its URN, the name its page shows, an aspect it holds. */
const KIND_PAGES: ReadonlyArray<{ urn: string; path: string; name: string; aspect: string; links?: string[] }> = [
  { urn: SAMPLE.people.alice, path: 'user', name: 'Alice Smith', aspect: 'corpUserInfo' },
  { urn: SAMPLE.user, path: 'user', name: 'jdoe', aspect: 'corpUserInfo' },
  {
    urn: SAMPLE.people.group,
    path: 'group',
    name: 'Data Platform',
    aspect: 'corpGroupInfo',
    links: [SAMPLE.people.alice, SAMPLE.people.bob],
  },
  { urn: SAMPLE.tags.gdpr, path: 'tag', name: 'GDPR', aspect: 'tagProperties' },
  { urn: SAMPLE.glossary.node, path: 'glossaryNode', name: 'Classification', aspect: 'glossaryNodeInfo' },
  {
    urn: SAMPLE.glossary.sensitive,
    path: 'glossaryTerm',
    name: 'Sensitive Data',
    aspect: 'glossaryTermInfo',
    links: [SAMPLE.glossary.node],
  },
  {
    urn: SAMPLE.glossary.secret,
    path: 'glossaryTerm',
    name: 'Secret',
    aspect: 'deprecation',
    links: [SAMPLE.glossary.sensitive],
  },
  { urn: SAMPLE.domain, path: 'domain', name: 'Marketing', aspect: 'domainProperties' },
  {
    urn: SAMPLE.container,
    path: 'container',
    name: 'analytics',
    aspect: 'containerProperties',
    links: ['urn:li:dataPlatform:snowflake', SAMPLE.people.alice],
  },
  { urn: SAMPLE.flow, path: 'pipelines', name: 'Daily revenue', aspect: 'dataFlowInfo', links: [SAMPLE.people.group] },
  { urn: SAMPLE.jobs.load, path: 'tasks', name: 'Load revenue', aspect: 'dataJobInfo' },
  { urn: SAMPLE.chart, path: 'chart', name: 'Revenue by day', aspect: 'chartInfo' },
  {
    urn: SAMPLE.dashboard,
    path: 'dashboard',
    name: 'Revenue overview',
    aspect: 'dashboardInfo',
    links: [SAMPLE.chart],
  },
  {
    urn: SAMPLE.dataProduct,
    path: 'dataProduct',
    name: 'Revenue reporting',
    aspect: 'dataProductProperties',
    links: [SAMPLE.domain, SAMPLE.datasets.revenue, SAMPLE.dashboard],
  },
  { urn: SAMPLE.platforms.airflow, path: 'platform', name: 'Airflow', aspect: 'dataPlatformInfo' },
  {
    urn: SAMPLE.primaryKey,
    path: 'mlPrimaryKeys',
    name: 'user_id',
    aspect: 'mlPrimaryKeyProperties',
    links: [SAMPLE.datasets.users],
  },
  { urn: SAMPLE.query, path: 'query', name: 'Revenue by day', aspect: 'queryProperties' },
];

for (const mode of ['spec', 'datahub'] as const) {
  describe(`local catalog pages of every kind (${mode} mode)`, () => {
    let cat: CatalogProcess;
    let base: string;

    before(async () => {
      cat = await startCatalogProcess({ sample: true, args: mode === 'datahub' ? ['--compat', 'datahub'] : [] });
      base = cat.url;
    });

    after(async () => {
      await cat?.stop();
    });

    test("each kind's link (DataHub's path name) opens a page with its name, id, aspects and linked entities", async () => {
      for (const k of KIND_PAGES) {
        const link = linkOf(base, k.urn);
        assert.ok(link.startsWith(`/${k.path}/`), `${k.urn}: ${link} is at DataHub's /${k.path}/`);
        const p = await page(base, link);
        assertHtmlPage(p, 200, link);
        assertInert(p.body, link);
        assert.ok(p.body.includes(`<h1>${k.name}</h1>`), `${link}: the name as the hover shows it (${k.name})`);
        assert.ok(p.body.includes(`<code>${k.urn}</code>`), `${link}: its URN`);
        assert.match(p.body, /<dt>Id<\/dt><dd><code>[^<]+<\/code><\/dd>/, `${link}: its id`);
        assert.match(p.body, /<h2>Aspects \(\d+\)<\/h2>/, `${link}: the aspects section`);
        assert.ok(
          p.body.includes(`<details id="aspect-${k.aspect}"><summary><code>${k.aspect}</code>`),
          `${link}: aspect ${k.aspect}`,
        );
        for (const target of k.links ?? [])
          assert.ok(p.body.includes(`href="${linkOf(base, target)}"`), `${link} links ${target}`);
      }
    });

    test('the hover facts and description show on the page; a container is named beside its hash', async () => {
      const term = await page(base, linkOf(base, SAMPLE.glossary.sensitive));
      assert.match(term.body, /<dt>Parent nodes<\/dt><dd>Classification<\/dd>/);
      assert.ok(term.body.includes('Data that must be masked outside the warehouse.'), 'the definition');
      const container = await page(base, linkOf(base, SAMPLE.container));
      assert.match(container.body, /<h1>analytics<\/h1>/);
      assert.match(container.body, /<dt>Id<\/dt><dd><code>25384e01fcde1063114925e9661766e7<\/code><\/dd>/);
      assert.match(container.body, /<dt>Type<\/dt><dd>Database<\/dd>/);
      const job = await page(base, linkOf(base, SAMPLE.jobs.load));
      assert.match(job.body, /<dt>Id<\/dt><dd><code>load_revenue<\/code><\/dd>/);
      const user = await page(base, linkOf(base, SAMPLE.people.alice));
      assert.match(user.body, /<dt>Email<\/dt><dd>asmith@example\.com<\/dd>/);
      assert.match(user.body, /<h2>Links added \(0\)<\/h2>/, "a user's page keeps what they did here");
    });

    test('the home page lists every kind with names; a kind path lists that kind', async () => {
      const home = await page(base, '/');
      assertHtmlPage(home, 200, '/');
      for (const [heading, urn, name] of [
        ['Users', SAMPLE.people.alice, 'Alice Smith'],
        ['Groups', SAMPLE.people.group, 'Data Platform'],
        ['Tags', SAMPLE.tags.gold, 'Gold'],
        ['Glossary terms', SAMPLE.glossary.sensitive, 'Sensitive Data'],
        ['Term groups', SAMPLE.glossary.node, 'Classification'],
        ['Domains', SAMPLE.domain, 'Marketing'],
        ['Containers', SAMPLE.container, 'analytics'],
        ['Data flows', SAMPLE.flow, 'Daily revenue'],
        ['Data jobs', SAMPLE.jobs.load, 'Load revenue'],
        ['Charts', SAMPLE.chart, 'Revenue by day'],
        ['Dashboards', SAMPLE.dashboard, 'Revenue overview'],
        ['Data products', SAMPLE.dataProduct, 'Revenue reporting'],
        ['Queries', SAMPLE.query, 'Revenue by day'],
      ] as const) {
        assert.match(home.body, new RegExp(`<h2>${heading} \\(\\d+\\)</h2>`), heading);
        assert.ok(home.body.includes(`href="${linkOf(base, urn)}">${name}</a>`), `/ lists ${name}`);
      }
      const flows = await page(base, '/pipelines');
      assertHtmlPage(flows, 200, '/pipelines');
      assert.match(flows.body, /<h2>Data flows \(1\)<\/h2>/);
      assert.ok(!flows.body.includes(linkOf(base, SAMPLE.jobs.load)), '/pipelines lists flows only');
      const found = await page(base, '/?q=sensitive');
      assert.ok(found.body.includes(linkOf(base, SAMPLE.glossary.sensitive)), 'the search finds a term by its name');
      const terms = await page(base, '/?kind=glossaryTerm');
      assert.match(terms.body, /<h2>Glossary terms \(2\)<\/h2>/);
      assert.match(terms.body, /<option value="glossaryTerm" selected>glossary terms<\/option>/);
    });

    test("a URN under another kind's path is redirected; an absent one of each kind is the not-found page", async () => {
      const wrong = await page(base, `/tag/${SAMPLE.glossary.sensitive}`);
      assert.equal(wrong.status, 302);
      assert.equal(wrong.headers.get('location'), linkOf(base, SAMPLE.glossary.sensitive));
      for (const urn of [
        'urn:li:tag:nope',
        'urn:li:corpGroup:nope',
        'urn:li:domain:nope',
        'urn:li:container:0000',
        'urn:li:dataFlow:(airflow,nope,PROD)',
        'urn:li:dataJob:(urn:li:dataFlow:(airflow,nope,PROD),nope)',
        'urn:li:dashboard:(looker,nope)',
        'urn:li:query:nope',
      ]) {
        const p = await page(base, linkOf(base, urn));
        assertHtmlPage(p, 404, urn);
        assert.match(p.body, /<h1>Not in the local catalog<\/h1>/, urn);
      }
    });

    test('the search box: near spellings when nothing matches, tag:… and a tag by its id or name, a column tag', async () => {
      // A typo: nothing holds "reveune"; the names spelled near it are shown, with a did-you-mean link.
      const typo = await page(base, '/?q=reveune');
      assertHtmlPage(typo, 200, '?q=reveune');
      assertInert(typo.body, '?q=reveune');
      assert.ok(
        typo.body.includes(linkOf(base, SAMPLE.datasets.revenue)),
        'analytics.public.revenue, by its last name part',
      );
      assert.ok(!typo.body.includes(linkOf(base, SAMPLE.datasets.users)), 'not db.users');
      assert.match(typo.body, /Nothing matches “reveune”\. Did you mean <a href="\/\?q=revenue">revenue<\/a>\?/i);
      const swapped = await page(base, '/?q=' + encodeURIComponent('ordres'));
      assert.ok(swapped.body.includes(linkOf(base, SAMPLE.datasets.orders)), 'a swap of neighbours is one edit');
      // Bounded: a short query is not respelled, a far one finds nothing.
      for (const q of ['ordx', 'zzzzzzzz']) {
        const none = await page(base, '/?q=' + q);
        assert.match(none.body, /<p class="none">Nothing matches\.<\/p>/, q);
      }
      // db.users carries urn:li:tag:pii: tag:pii, the bare id, any case, and the tag's URN find it.
      for (const q of ['tag:pii', 'tag:PII', 'pii', `tag:${'urn:li:tag:pii'}`]) {
        const p = await page(base, '/?q=' + encodeURIComponent(q));
        assertHtmlPage(p, 200, q);
        assert.ok(p.body.includes(linkOf(base, SAMPLE.datasets.users)), `${q} finds db.users`);
        assert.ok(!p.body.includes(linkOf(base, SAMPLE.datasets.orders)), `${q} leaves db.orders out`);
      }
      assert.match((await page(base, '/?q=tag%3Apii')).body, /1 of \d+ entities are tagged “pii”/);
      // A tag on a column, named otherwise than its id: tag:Finance finds the dataset.
      const ledger = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ledger,PROD)';
      const finance = 'urn:li:tag:t-7f3c';
      const ok = (status: number): void => assert.equal(status, 200);
      ok(await ingest(base, 'tag', finance, 'tagProperties', { name: 'Finance' }));
      ok(await ingest(base, 'dataset', ledger, 'datasetProperties', { name: 'db.ledger', customProperties: {} }));
      ok(
        await ingest(base, 'dataset', ledger, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [{ fieldPath: 'amount', globalTags: { tags: [{ tag: finance }] } }],
        }),
      );
      for (const q of ['tag:finance', 'Finance', 'tag:t-7f3c']) {
        const p = await page(base, '/?q=' + encodeURIComponent(q));
        assert.ok(p.body.includes(linkOf(base, ledger)), `${q} finds db.ledger by its column's tag`);
        assert.ok(!p.body.includes(linkOf(base, SAMPLE.datasets.users)), `${q} leaves db.users out`);
      }
      // A tag nothing carries finds nothing; the query is echoed as text.
      const hostile = await page(base, '/?q=' + encodeURIComponent('tag:<script>alert(1)</script>'));
      assertHtmlPage(hostile, 200, 'hostile tag');
      assertInert(hostile.body, 'hostile tag');
      assert.match(hostile.body, /0 of \d+ entities are tagged “&lt;script&gt;alert\(1\)&lt;\/script&gt;”/);
    });

    test("hostile text in another kind's aspects is shown as text", async () => {
      const tag = 'urn:li:tag:hostile';
      assert.equal(
        await ingest(base, 'tag', tag, 'tagProperties', {
          name: '<script>alert(1)</script>\u202Etag',
          description: '<img src=x onerror=alert(2)> [js](javascript:alert(3))',
          colorHex: '"><script>alert(4)</script>',
        }),
        200,
      );
      const link = linkOf(base, tag);
      const p = await page(base, link);
      assertHtmlPage(p, 200, link);
      assertInert(p.body, link);
      assert.ok(p.body.includes('<h1>&lt;script&gt;alert(1)&lt;/script&gt;\\u202Etag</h1>'), 'the name, as text');
      assert.ok(p.body.includes('&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;'), 'the colour fact, as text');
      assert.ok(
        p.body.includes('&quot;colorHex&quot;: &quot;\\&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;&quot;'),
        'the JSON of the aspect, escaped',
      );
    });
  });
}

describe('local catalog pages in the DataHub mode', () => {
  test('a URN is the entity as written: the li page opens, the same URN in svc is another (absent) entity', async () => {
    const cat = await startCatalogProcess({ sample: true, args: ['--compat', 'datahub'] });
    try {
      const users = SAMPLE.datasets.users;
      assertHtmlPage(await page(cat.url, linkOf(cat.url, users)), 200, 'li');
      const svc = await page(cat.url, linkOf(cat.url, users.replaceAll('urn:li:', 'urn:svc:')));
      assertHtmlPage(svc, 404, 'svc');
      assert.match(svc.body, /has no dataset/);
      await assertHoverFacts(cat.url);
    } finally {
      await cat.stop();
    }
  });
});

describe('local catalog pages and the token', () => {
  const TOKEN = 'pages-test-token-7d2f';
  const users = SAMPLE.datasets.users;

  test('on loopback the pages need no token (a browser following a link has none); the API still does', async () => {
    const cat = await startCatalogProcess({ sample: true, token: TOKEN });
    try {
      assert.match(cat.output(), /pages: +GET .*open without the token/);
      const p = await page(cat.url, `/dataset/${users}`);
      assertHtmlPage(p, 200, 'open page');
      const api = await fetch(`${cat.url}/entitiesV2/${encodeURIComponent(users)}?aspects=List(datasetProperties)`);
      assert.equal(api.status, 401, 'the API keeps its token');
      await api.text();
      const foreignHost = await send(cat.port, {
        path: `/dataset/${users}`,
        headers: { ...BROWSER, Host: `evil.example:${cat.port}` },
      });
      assert.equal(foreignHost.status, 403, 'a rebound Host is refused before any page');
    } finally {
      await cat.stop();
    }
  });

  test('--pages token: 401 with a Basic sign-in; the token as Bearer or as the Basic password opens them', async () => {
    const cat = await startCatalogProcess({ sample: true, token: TOKEN, args: ['--pages', 'token'] });
    try {
      assert.match(cat.output(), /pages: +GET .*need the token/);
      const link = `/dataset/${users}`;
      const none = await page(cat.url, link);
      assertHtmlPage(none, 401, 'no token');
      assert.match(none.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+", charset="UTF-8"$/);
      assert.match(none.body, /token as the password/);
      assert.ok(!none.body.includes('<h1>users</h1>'), 'nothing of the entity without the token');
      const basic = (user: string, password: string): Record<string, string> => ({
        Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
      });
      assertHtmlPage(await page(cat.url, link, { Authorization: `Bearer ${TOKEN}` }), 200, 'Bearer');
      const signedIn = await page(cat.url, link, basic('anyone', TOKEN));
      assertHtmlPage(signedIn, 200, 'Basic');
      assert.match(signedIn.body, /<h1>users<\/h1>/);
      assertHtmlPage(await page(cat.url, link, basic('anyone', 'wrong')), 401, 'Basic, wrong password');
      assertHtmlPage(await page(cat.url, '/', basic(TOKEN, '')), 401, 'the token as user name is not the password');
      // Basic opens pages only: the API wants its Bearer token.
      const api = await fetch(`${cat.url}/entitiesV2/${encodeURIComponent(users)}`, {
        headers: basic('anyone', TOKEN),
      });
      assert.equal(api.status, 401);
      await api.text();
    } finally {
      await cat.stop();
    }
  });

  test('--pages takes open or token only', () => {
    const main = path.resolve(__dirname, '..', '..', 'catalog', 'src', 'main.js');
    const r = spawnSync(process.execPath, [main, '--pages', 'public', '--db', ':memory:'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--pages must be open or token, found 'public'/);
  });
});
