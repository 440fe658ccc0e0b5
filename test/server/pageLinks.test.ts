/**
 * The links the language server gives (document links: Ctrl+click; the hover's "Open in catalog")
 * for a file naming every kind, followed as a browser follows them to the local catalog: each opens
 * an HTML page, and the kinds the catalog does not store open its HTML not-found page, never JSON.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLICKS_FIELDS, SAMPLE } from '../../catalog/src/sample';
import { hoverText } from '../support/lspClient';
import { S, useSampleServer } from '../support/fixture';

const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the links of a file open pages of the local catalog', () => {
  const env = useSampleServer();

  test('Ctrl+click and hover links, every kind, both namespaces: HTML pages (404 pages for what is not stored)', async () => {
    const stored = [
      S.users,
      S.clicks,
      S.age,
      S.usersTable,
      S.churnGroup,
      'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)',
      S.users.replaceAll('urn:li:', 'urn:svc:'),
      `urn:li:schemaField:(${S.clicks},${CLICKS_FIELDS.deviceOs})`,
      'urn:li:dataPlatform:hive',
      // Every looked-up kind of the sample: its page at DataHub's path name.
      SAMPLE.user,
      SAMPLE.people.alice,
      SAMPLE.people.group,
      SAMPLE.tags.gdpr,
      SAMPLE.glossary.node,
      SAMPLE.glossary.sensitive,
      SAMPLE.domain,
      SAMPLE.container,
      SAMPLE.flow,
      SAMPLE.jobs.load,
      SAMPLE.chart,
      SAMPLE.dashboard,
      SAMPLE.dataProduct,
      SAMPLE.primaryKey,
      SAMPLE.query,
    ];
    const absent = [
      S.ghost,
      'urn:li:glossaryTerm:Finance.Revenue',
      'urn:li:corpuser:nobody',
      'urn:li:chart:(looker,c1)',
      'urn:li:dataHubPolicy:p1',
    ];
    const lines = [...stored, ...absent].map((u, i) => `u${i} = "${u}"`);
    const uri = 'file:///w/pages.py';
    await env.lsp.open(uri, 'python', lines.join('\n') + '\n');
    const links = await env.lsp.links(uri);
    assert.equal(links.length, stored.length + absent.length, 'one link per URN');
    const targets = links.map((l) => l.target!);
    const hover = hoverText(await env.lsp.hover(uri, { line: 0, character: 8 }));
    assert.ok(hover.includes(`[Open in catalog](${targets[0]})`), `the hover opens what Ctrl+click opens: ${hover}`);
    for (const [i, target] of targets.entries()) {
      assert.ok(target.startsWith(`${env.catalog.url}/`), target);
      const r = await fetch(target, { headers: BROWSER });
      const body = await r.text();
      const expected = i < stored.length ? 200 : 404;
      assert.equal(r.status, expected, `${target}: ${body.slice(0, 200)}`);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8', target);
      if (expected === 404) assert.match(body, /<h1>Not in the local catalog<\/h1>/, target);
    }
    for (const [i, urn] of stored.entries()) {
      const text = hoverText(await env.lsp.hover(uri, { line: i, character: 9 }));
      assert.ok(text.includes(`[Open in catalog](${targets[i]})`), `${urn}: the hover's link is the page's: ${text}`);
    }
    const column = await (await fetch(targets[stored.indexOf(stored[7]!)]!, { headers: BROWSER })).text();
    assert.match(column, /<tr id="column-1" class="hl"/, 'the column link marks device.os');
  });
});
