/**
 * Pages through an editor's port proxy (catalog/src/security.ts): code-server forwards
 * `http://127.0.0.1:EDITOR/proxy/9410/…` to the catalog with the editor's Host. A catalog started
 * with a pages secret serves its pages under `/_pages/SECRET/…` to such a request (a loopback Host,
 * any port), with relative links; without the secret, with a wrong one, with a foreign Host or
 * Origin, for an API or a write, the request is still refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPAT_MODES } from '../../catalog/src/compat';
import { SAMPLE } from '../../catalog/src/sample';
import { PAGES_SECRET_ENV, parseCliOptions, UsageError } from '../../catalog/src/cliOptions';
import { encodeUrnForUi } from '../../model/src/urn';
import { rawRequest, type RawAnswer } from '../reliability/support/rawHttp';
import { testCatalog } from './helpers';

const SECRET = 'run-secret-0123456789abcdef';
const EDITOR_HOST = '127.0.0.1:9420';
const USERS = SAMPLE.datasets.users;
const USERS_PAGE = `/dataset/${encodeUrnForUi(USERS)}`;
const HTML = { Accept: 'text/html' };

function get(base: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return rawRequest(base, { method: 'GET', path, headers: { ...HTML, ...headers } });
}

/** Where a browser at `pageUrl` goes for `href`, then as the catalog sees it once the proxy strips its prefix. */
function followThroughProxy(pageUrl: string, href: string): string {
  const target = new URL(href, pageUrl);
  assert.ok(
    target.pathname.startsWith('/proxy/9410/'),
    `${href} from ${pageUrl} stays under the proxy: ${target.href}`,
  );
  return target.pathname.slice('/proxy/9410'.length) + target.search;
}

for (const compat of COMPAT_MODES)
  describe(`security: pages through an editor port proxy (${compat} catalog)`, () => {
    test('with the secret, a loopback Host on another port reads the pages; the links and redirects stay under the proxy', async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true, pagesSecret: SECRET });
      const editorPage = (catalogPath: string): string => `http://${EDITOR_HOST}/proxy/9410${catalogPath}`;
      for (const host of [EDITOR_HOST, 'localhost:9420', '[::1]:8080', `127.0.0.1:${catalog.port}`]) {
        const r = await get(catalog.url, `/_pages/${SECRET}${USERS_PAGE}`, { Host: host });
        assert.equal(r.status, 200, `${host}: ${r.text.slice(0, 300)}`);
        assert.match(r.text, /<h1>users<\/h1>/, host);
      }
      // Every link of the home page and of an entity page resolves to a page that loads through the proxy.
      for (const start of [`/_pages/${SECRET}/`, `/_pages/${SECRET}${USERS_PAGE}`]) {
        const r = await get(catalog.url, start, { Host: EDITOR_HOST });
        assert.equal(r.status, 200, start);
        const links = [...r.text.matchAll(/\s(?:href|action)="([^"#][^"]*)"/g)]
          .map((m) => m[1]!.replaceAll('&amp;', '&'))
          .filter((h) => !/^(https?:|mailto:)/i.test(h));
        assert.ok(links.length >= 3, `${start}: links ${links.join(' ')}`);
        for (const href of links) {
          assert.doesNotMatch(href, /^\//, `${start}: ${href} is relative`);
          const next = followThroughProxy(editorPage(start), href);
          const n = await get(catalog.url, next, { Host: EDITOR_HOST });
          assert.ok(
            n.status === 200 || n.status === 302,
            `${start} → ${href} (${next}): ${n.status} ${n.text.slice(0, 200)}`,
          );
        }
      }
      // The search form (a GET to the root) and a redirect (a column link) stay under the proxy too.
      const search = await get(catalog.url, `/_pages/${SECRET}/?q=revenue`, { Host: EDITOR_HOST });
      assert.equal(search.status, 200);
      assert.match(search.text, /action="\.\/"/);
      const column = `/schemaField/${encodeURIComponent(`urn:li:schemaField:(${USERS},email)`)}`;
      const redirect = await get(catalog.url, `/_pages/${SECRET}${column}`, { Host: EDITOR_HOST });
      assert.equal(redirect.status, 302);
      const location = String(redirect.headers.location);
      const landed = followThroughProxy(editorPage(`/_pages/${SECRET}${column}`), location);
      assert.equal(landed, `/_pages/${SECRET}${USERS_PAGE}/Columns?highlightedPath=email`);
      const columnPage = await get(catalog.url, landed, { Host: EDITOR_HOST });
      assert.equal(columnPage.status, 200);
      assert.match(columnPage.text, /<p class="callout">Column/);
    });

    test('without the secret, with a wrong one, or with a catalog that has none, the proxied request is still refused', async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true, pagesSecret: SECRET });
      for (const path of [USERS_PAGE, `/_pages/${SECRET.replace('0', '1')}${USERS_PAGE}`, `/_pages/${USERS_PAGE}`]) {
        const r = await get(catalog.url, path, { Host: EDITOR_HOST });
        assert.equal(r.status, 403, `${path}: ${r.text}`);
        assert.match(r.text, /is not this catalog's name/);
      }
      const none = await testCatalog(t, { compat, sample: true });
      const r = await get(none.url, `/_pages/${SECRET}${USERS_PAGE}`, { Host: EDITOR_HOST });
      assert.equal(r.status, 403, r.text);
    });

    test('the secret does not open a foreign Host (a rebind), a foreign Origin, the APIs or writes', async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true, pagesSecret: SECRET, token: 'api-token' });
      const page = `/_pages/${SECRET}${USERS_PAGE}`;
      for (const host of [
        `evil.example:${catalog.port}`,
        'evil.example:9420',
        `127.0.0.1.nip.io:9420`,
        'localhost.:9420',
      ]) {
        assert.equal((await get(catalog.url, page, { Host: host })).status, 403, host);
      }
      const foreignOrigin = await get(catalog.url, page, { Host: EDITOR_HOST, Origin: 'http://evil.example' });
      assert.equal(foreignOrigin.status, 403);
      const ownOrigin = await get(catalog.url, page, { Host: EDITOR_HOST, Origin: `http://${EDITOR_HOST}` });
      assert.equal(ownOrigin.status, 200);
      // The prefix reaches pages only: the APIs answer 404 under it, whatever the Host.
      for (const host of [EDITOR_HOST, `127.0.0.1:${catalog.port}`]) {
        for (const api of ['/health', '/config', `/entitiesV2/${encodeURIComponent(USERS)}`]) {
          const r = await rawRequest(catalog.url, {
            method: 'GET',
            path: `/_pages/${SECRET}${api}`,
            headers: { Host: host, Authorization: 'Bearer api-token' },
          });
          assert.equal(r.status, 404, `${host} ${api}: ${r.text}`);
        }
      }
      const post = await rawRequest(catalog.url, {
        path: `/_pages/${SECRET}/api/graphql`,
        headers: { Host: EDITOR_HOST, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      assert.equal(post.status, 403, 'a POST through the proxy is refused before routing');
    });
  });

describe('security: the pages secret option', () => {
  test(`${PAGES_SECRET_ENV} sets the secret; a short or unsafe one is a usage error`, () => {
    assert.equal(parseCliOptions([], { [PAGES_SECRET_ENV]: SECRET }, '/tmp').pagesSecret, SECRET);
    assert.equal(parseCliOptions([], {}, '/tmp').pagesSecret, undefined);
    for (const bad of ['short', 'has/slash-0123456789abcdef', 'x'.repeat(129)])
      assert.throws(() => parseCliOptions([], { [PAGES_SECRET_ENV]: bad }, '/tmp'), UsageError, bad);
  });
});
