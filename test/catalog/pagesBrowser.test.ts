/**
 * The local catalog's pages in a real browser (Debian's Chromium, driven by playwright-core): a
 * dataset page whose catalog text holds `<script>` and `<img onerror>` runs nothing and shows them
 * as text, the page breaks no rule of its own Content-Security-Policy, fits 1400 px, and its search
 * box works. It saves the local catalog page's screenshot (docs/screenshots/local-catalog-page.png when
 * UPDATE_SCREENSHOTS=1, else test-results/pages/).
 *
 * Skipped, saying so, where there is no Chromium; CI (.ci/run) installs it, and there (CI=true) a
 * missing browser fails the test instead.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type ConsoleMessage } from 'playwright-core';
import { DEFAULT_ENTITY_URL_TEMPLATE, entityPageUrl } from '../../model/src/entityPage';
import { parseUrn } from '../../model/src/urn';
import { SAMPLE } from '../../catalog/src/sample';
import { ingest } from '../support/catalogHttp';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

const CHROMIUM = process.env.CATALOG_LENS_CHROMIUM || '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SKIP =
  !HAVE_CHROMIUM && process.env.CI !== 'true'
    ? `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CATALOG_LENS_CHROMIUM)`
    : false;
/** Chromium's sandbox does not start as root, and nothing here may reach the network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
const REPO = path.resolve(__dirname, '..', '..', '..');
const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? path.join(REPO, 'docs', 'screenshots', 'local-catalog-page.png')
    : path.join(REPO, 'test-results', 'pages', 'local-catalog-page.png');
/** What may be committed for the README. */
const MAX_SCREENSHOT_BYTES = 200 * 1024;

const DESCRIPTION = [
  'One row per **registered user** of the product; see the [data contract](https://wiki.example.com/contracts/users).',
  '',
  '- PII: `email`',
  '- Loaded hourly from the accounts service',
  '',
  'Catalog text is untrusted — this shows as text: <script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2">',
  '[not a link](javascript:window.__pwned=3)',
].join('\n');

function linkOf(base: string, urn: string): string {
  const parsed = parseUrn(urn);
  assert.ok(parsed.ok);
  const made = entityPageUrl({ url: base, uiUrl: '', entityUrlTemplate: DEFAULT_ENTITY_URL_TEMPLATE }, parsed.urn, urn);
  assert.ok('url' in made);
  return made.url;
}

describe('local catalog pages in Chromium', { skip: SKIP }, () => {
  let cat: CatalogProcess;
  let browser: Browser;
  let profile: string;

  before(async () => {
    assert.ok(HAVE_CHROMIUM, `CI=true and no Chromium at ${CHROMIUM}: .ci/run installs the chromium package`);
    cat = await startCatalogProcess({ sample: true });
    const users = SAMPLE.datasets.users;
    assert.equal(
      await ingest(cat.url, 'dataset', users, 'editableDatasetProperties', { description: DESCRIPTION }),
      200,
    );
    assert.equal(
      await ingest(cat.url, 'dataset', users, 'editableSchemaMetadata', {
        editableSchemaFieldInfo: [{ fieldPath: 'email', description: 'Login e-mail, unique. **PII**.' }],
      }),
      200,
    );
    assert.equal(
      await ingest(cat.url, 'dataset', users, 'institutionalMemory', {
        elements: [
          {
            url: 'https://wiki.example.com/runbooks/users',
            description: 'Runbook',
            createStamp: { time: 1735689600000, actor: SAMPLE.user },
          },
          {
            url: 'javascript:window.__pwned=4',
            description: '<b>Click me</b>',
            createStamp: { time: 1735689600000, actor: SAMPLE.user },
          },
        ],
      }),
      200,
    );
    profile = mkdtempSync(path.join(tmpdir(), 'catalog-lens-pages-chromium-'));
    // Chromium writes crash reports and dconf state under the XDG folders even with a temporary profile.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(profile, 'config'),
        XDG_CACHE_HOME: path.join(profile, 'cache'),
      },
    });
  });

  after(async () => {
    await browser?.close();
    await cat?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test('a column link: the page runs no catalog script, shows it as text, breaks no CSP rule, fits 1400 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    const errors: Error[] = [];
    page.on('console', (m) => messages.push(m));
    page.on('pageerror', (e) => errors.push(e));
    try {
      const link = linkOf(cat.url, `urn:li:schemaField:(${SAMPLE.datasets.users},email)`);
      const answer = await page.goto(link);
      assert.equal(answer?.status(), 200);
      assert.equal(await page.title(), 'users · local catalog');

      assert.equal(await page.evaluate('window.__pwned'), undefined);
      assert.equal(await page.locator('script, img, iframe, object, embed').count(), 0, 'no active element');
      const description = await page.locator('#description').innerText();
      assert.ok(description.includes('<script>window.__pwned=1</script>'), `shown as text: ${description}`);
      assert.ok(description.includes('<img src=x onerror="window.__pwned=2">'), 'the <img> as text');
      assert.ok(description.includes('[not a link](javascript:window.__pwned=3)'), 'the javascript: link as text');
      assert.equal(await page.locator('#description strong').innerText(), 'registered user', 'Markdown rendered');
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
      for (const h of hrefs)
        assert.ok(h.startsWith(`${cat.url}/`) || h.startsWith('https://'), `a link to a page here or a web page: ${h}`);
      assert.ok(hrefs.includes('https://wiki.example.com/runbooks/users'));
      assert.equal(await page.locator('a', { hasText: 'Click me' }).count(), 0, 'javascript: not linked');

      const marked = page.locator('tr.hl');
      assert.equal(await marked.count(), 1);
      assert.match(await marked.innerText(), /^email\s+string\s+Login e-mail, unique\. PII\.\s+edited$/);
      assert.ok(await marked.isVisible());
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 1400, `no horizontal scroll at 1400 px (${width})`);

      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      const size = statSync(SCREENSHOT).size;
      assert.ok(size < MAX_SCREENSHOT_BYTES, `the screenshot is ${size} bytes, over ${MAX_SCREENSHOT_BYTES}`);

      // The search box is a GET form to / (form-action 'self').
      await page.locator('input[name=q]').fill('revenue');
      await Promise.all([page.waitForURL(/\/\?q=revenue/), page.locator('header button[type=submit]').click()]);
      assert.equal(await page.locator('main a', { hasText: /^revenue$/ }).count(), 1);
      assert.equal(await page.locator('main a', { hasText: /^users$/ }).count(), 0);

      assert.deepEqual(errors, [], 'no page error');
      const complaints = messages.filter((m) => m.type() === 'error' || m.type() === 'warning').map((m) => m.text());
      assert.deepEqual(complaints, [], 'no console error or warning (a CSP violation would be one)');
    } finally {
      await context.close();
    }
  });

  test('dark mode: the colours follow prefers-color-scheme', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    try {
      await page.goto(`${cat.url}/`);
      const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
      assert.equal(background, 'rgb(21, 25, 29)');
    } finally {
      await context.close();
    }
  });
});
