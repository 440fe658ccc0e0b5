/**
 * Restricted Mode in a real VS Code: workspace trust on and the folder not trusted, with a
 * `.vscode/settings.json` that points every catalog endpoint at a decoy server on 127.0.0.1.
 * The decoy gets no request (the endpoint comes from the machine settings only), hovers still
 * read the machine-level catalog, the write commands are not in the palette, the write quick
 * fix is not offered, and the catalog sees no write (no aspect upsert, no GraphQL mutation).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { startRecorder, type HttpRecorder } from './support/recorder';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const WRITE_COMMANDS = [
  'Catalog Lens: Write Dataset Description…',
  'Catalog Lens: Write Column Description…',
  'Catalog Lens: Add Feature to Feature Table…',
  'Catalog Lens: Add Feature to Model…',
  'Catalog Lens: Add Model Group…',
  'Catalog Lens: Create Entity in Catalog…',
];

interface CatalogStats {
  graphql: number;
  aspectWrites: number;
  aspectReads: number;
  byPath: Record<string, number>;
}

describe('Catalog Lens in Restricted Mode (workspace not trusted)', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let decoy: HttpRecorder;
  let session: E2eSession;
  before(async () => {
    decoy = await startRecorder();
    session = await startSession({
      restricted: true,
      recordTraffic: true,
      prepareWorkspace: (workspace) => {
        // What a cloned repository could carry to send the user's token and writes elsewhere.
        mkdirSync(path.join(workspace, '.vscode'));
        writeFileSync(
          path.join(workspace, '.vscode', 'settings.json'),
          JSON.stringify(
            {
              'catalogLens.url': decoy.url,
              'catalogLens.graphqlUrl': `${decoy.url}/api/graphql`,
              'catalogLens.uiUrl': decoy.url,
              'catalogLens.entityUrlTemplate': `${decoy.url}/{path}/{urn}`,
              'catalogLens.writePath': 'graphql',
            },
            null,
            2,
          ),
        );
      },
    });
  });
  after(async () => {
    await session?.stop();
    await decoy?.stop();
  });

  async function catalogStats(): Promise<CatalogStats> {
    const res = await fetch(`${session.catalog.url}/_catalog-lens/stats`);
    assert.equal(res.status, 200);
    return (await res.json()) as CatalogStats;
  }

  test('the window is in Restricted Mode and the extension runs there', async (t) => {
    await step(t, session, 'trust-restricted', async () => {
      const wb = session.workbench;
      await wb.page
        .locator('#workbench\\.parts\\.statusbar')
        .getByText('Restricted Mode')
        .first()
        .waitFor({ timeout: 20_000 });
      // The harness waited for "connected": the server started, against the machine-level catalog.
      assert.match(await wb.statusLabel(), /^Catalog Lens: Catalog connected/);
      assert.match(
        await wb.statusTooltip(/connected to /),
        new RegExp(`connected to ${regexpLiteral(session.catalogUrl)}/api/graphql`),
      );
      // The item says it only reads here, and its tooltip says why.
      assert.equal(
        (await wb.statusItem().innerText()).trim(),
        `Catalog: ${new URL(session.catalogUrl).host} (read-only)`,
      );
      assert.match(
        await wb.statusTooltip(/connected to /),
        /Restricted Mode: Catalog Lens reads the catalog but writes nothing/,
      );
    });
  });

  test("hovers read the catalog of the machine settings, and the workspace's endpoint gets no request", async (t) => {
    await step(t, session, 'trust-hover', async () => {
      const wb = session.workbench;
      const before = session.traffic!.requests.length;
      await wb.openFile('pipelines/features.py');
      const line = lineOf(session.workspace, 'pipelines/features.py', `USERS = "${USERS}"`);
      await wb.hoverAt(
        await wb.revealText(line.number, line.text, 'db.users'),
        /One row per registered user of the product\./,
      );
      assert.ok(
        session.traffic!.requests.slice(before).some((r) => r.url === '/api/graphql'),
        'the hover asked the machine-level catalog',
      );
      assert.deepEqual(decoy.requests, [], 'the endpoint of .vscode/settings.json got no request');
    });
  });

  test('the write commands are not in the command palette', async (t) => {
    await step(t, session, 'trust-palette', async () => {
      const wb = session.workbench;
      // The palette does list the extension's other commands.
      assert.ok(
        (await wb.paletteRows('Catalog Lens: Restart Server')).some((r) => r.includes('Catalog Lens: Restart Server')),
      );
      for (const title of WRITE_COMMANDS) {
        const rows = await wb.paletteRows(title);
        assert.ok(
          !rows.some((r) => r.includes(title.replace(/…$/, ''))),
          `"${title}" is offered: ${JSON.stringify(rows)}`,
        );
      }
    });
  });

  test('the quick fix that writes a missing description is not offered; the trust action is', async (t) => {
    await step(t, session, 'trust-quick-fix', async () => {
      const wb = session.workbench;
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', ORDERS);
      // The diagnostic the fix belongs to is there (the catalog was asked), and its hover asks for
      // its quick fixes (Ctrl+.'s question) … but nothing that writes is offered for it.
      const { items } = await wb.quickFixesOf(
        await wb.revealText(line.number, line.text, 'db.orders'),
        /has no description/,
      );
      assert.ok(!items.some((i) => /Write dataset description/i.test(i)), `quick fixes: ${JSON.stringify(items)}`);
      // … and in its place the menu says why and offers the trust editor.
      assert.ok(
        items.some((i) => /Trust this workspace to write to the catalog/.test(i)),
        `quick fixes: ${JSON.stringify(items)}`,
      );
      await wb.closeWidgets();
    });
  });

  test('the catalog recorded no write and the decoy no request at all', async (t) => {
    await step(t, session, 'trust-no-writes', async () => {
      const stats = await catalogStats();
      assert.equal(stats.aspectWrites, 0, `aspect writes: ${JSON.stringify(stats)}`);
      assert.ok(stats.graphql > 0, 'the catalog was read');
      const mutations = session.traffic!.requests.filter(
        (r) => r.url.startsWith('/api/graphql') && /\bmutation\b/.test(r.body),
      );
      assert.deepEqual(
        mutations.map((r) => r.body),
        [],
        'no GraphQL mutation reached the catalog',
      );
      assert.equal(await editedDatasetDescription(session.catalog, ORDERS), null);
      assert.deepEqual(decoy.requests, []);
    });
  });
});

function regexpLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
