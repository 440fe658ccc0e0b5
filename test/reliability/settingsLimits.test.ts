/**
 * Settings that must not turn against the user: credentials
 * written into `catalogLens.url` or `uiUrl` are never copied into the links a document shows, and
 * a `maxFileSize` from the project's settings (other editors read it from there) cannot raise the
 * limit past the server's bound. The real server process over LSP, the real local catalog.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_FILE_SIZE_BOUND } from '../../model/src/protocol';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';

describe('credentials in the catalog URLs never reach a link', () => {
  let catalog: Catalog;
  let lsp: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    lsp = await serverFor(catalog.url.replace('http://', 'http://alice:pw-in-url-9@'));
  });
  after(async () => {
    await lsp.stop();
    await catalog.close();
  });

  test('document links and the hover\'s "Open in catalog" drop the user and password of catalogLens.url, and of uiUrl', async () => {
    const uri = 'file:///w/creds.py';
    const text = `a = "${S.users}"\nb = "${S.age}"\n`;
    await lsp.open(uri, 'python', text);
    const links = (await lsp.links(uri)).map((l) => l.target);
    assert.deepEqual(links, [`${catalog.url}/dataset/${S.users}`, `${catalog.url}/features/${S.age}`]);
    const hover = hoverText(await lsp.hover(uri, positionOf(text, 'db.users')));
    assert.match(
      hover,
      /One row per registered user/,
      'the catalog answered: the URL with credentials was used for requests',
    );
    assert.ok(hover.includes(`[Open in catalog](${catalog.url}/dataset/`), hover);

    lsp.settings['uiUrl'] = 'https://bob:pw-in-ui-url@datahub.example.com:9443/';
    await lsp.configurationChanged();
    assert.deepEqual(
      (await lsp.links(uri)).map((l) => l.target)[0],
      `https://datahub.example.com:9443/dataset/${S.users}`,
    );
    lsp.settings['entityUrlTemplate'] = 'https://carol:pw-in-template@pages.example.com/{path}/{urn}';
    await lsp.configurationChanged();
    assert.deepEqual((await lsp.links(uri)).map((l) => l.target)[0], `https://pages.example.com/dataset/${S.users}`);
    const again = hoverText(await lsp.hover(uri, positionOf(text, 'db.users')));
    for (const secret of ['alice', 'pw-in-url-9', 'bob', 'pw-in-ui-url', 'carol', 'pw-in-template']) {
      assert.ok(!again.includes(secret), `the hover holds ${secret}`);
    }
  });
});

describe("maxFileSize from the project's settings", () => {
  let catalog: Catalog;
  let lsp: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    // What a workspace/configuration answer holds when a project's settings raise the limit.
    lsp = await serverFor(catalog.url, { settings: { maxFileSize: 1e12 } });
  });
  after(async () => {
    await lsp.stop();
    await catalog.close();
  });

  test(`is honoured up to ${MAX_FILE_SIZE_BOUND} characters and no further`, async () => {
    const under = 'file:///w/under-the-bound.py';
    await lsp.open(under, 'python', `x = "${S.ghost}"\n#${'#'.repeat(6 * 1024 * 1024)}\n`);
    const scanned = await lsp.diagnostics(under, (d) => d.length > 0);
    assert.deepEqual(
      scanned.map((d) => d.code),
      ['unknown-urn'],
      'a file over the default limit, under the bound, is read',
    );
    await lsp.close(under);

    const over = 'file:///w/over-the-bound.py';
    await lsp.open(over, 'python', `x = "${S.ghost}"\n${'#'.repeat(MAX_FILE_SIZE_BOUND)}\n`);
    assert.deepEqual(await lsp.diagnostics(over), []);
    const skipped = lsp.logs.filter((l) => l.startsWith(`skipped ${over}`));
    assert.equal(skipped.length, 1, lsp.logs.join('\n').slice(0, 2000));
    assert.match(skipped[0]!, new RegExp(`over catalogLens\\.maxFileSize \\(${MAX_FILE_SIZE_BOUND}\\)`));
    await lsp.close(over);
  });
});
