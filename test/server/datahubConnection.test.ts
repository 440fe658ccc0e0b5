/**
 * Reaching DataHub as users configure it: the address forms (GMS, the frontend's /api/gms proxy, a
 * frontend root), the frontend's own 401, DataHub's CLI configuration (environment and
 * ~/.datahubenv), and what a write leaves behind (one rollback run id per command). A real server
 * process over LSP, a real catalog, and a stand-in of DataHub's frontend routing in front of it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aspects } from '../support/catalogHttp';
import { startDatahubFrontend, type DatahubFrontend } from '../support/datahubFrontend';
import { CatalogClient } from '../../server/src/catalogClient/client';
import { startFaultProxy } from '../support/faultProxy';
import { startRecordingProxy } from '../support/recordingProxy';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import { hoverText, startSession } from '../support/lspClient';
import {
  EntityPageRequest,
  type ConnectionTestResult,
  type EntityPageResult,
  type WriteResult,
} from '../../model/src/protocol';

describe("catalogLens.url in each form of DataHub's address", () => {
  let catalog: Catalog;
  let frontend: DatahubFrontend;
  before(async () => {
    catalog = await sampleCatalog();
    frontend = await startDatahubFrontend(catalog.url);
  });
  after(async () => {
    await frontend.close();
    await catalog.close();
  });

  test('the frontend root: GraphQL works through it, aspect reads and writes go through its /api/gms, and the status names the URL to set', async () => {
    const lsp = await serverFor(frontend.url);
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, true, status.message);
      const proxy = `${frontend.url}/api/gms`;
      assert.ok(status.message.includes(`set catalogLens.url to ${proxy}`), status.message);
      const r = await lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'Orders, through the frontend.',
      });
      assert.equal(r.status, 'written', r.message);
      assert.equal(
        (await aspects(catalog.url, S.orders, ['editableDatasetProperties'])).editableDatasetProperties.description,
        'Orders, through the frontend.',
      );
      assert.ok(
        frontend.proxied.some((p) => p.startsWith('/entitiesV2/')),
        'the read went through /api/gms',
      );
      assert.ok(frontend.proxied.includes('/aspects?action=ingestProposal'), 'the write went through /api/gms');
      assert.ok(
        !frontend.served.some((p) => p.startsWith('/entitiesV2') || p.startsWith('/aspects')),
        'nothing was asked of the web app',
      );
      const uri = 'file:///w/front.py';
      await lsp.open(uri, 'python', `x = "${S.orders}"\n`);
      const [link] = await lsp.links(uri);
      assert.ok(link?.target?.startsWith(`${frontend.url}/dataset/`), link?.target);
    } finally {
      await lsp.stop();
    }
  });

  test("the frontend's /api/gms: no correction, and links open the frontend", async () => {
    const lsp = await serverFor(`${frontend.url}/api/gms`);
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, true, status.message);
      assert.ok(!/set catalogLens\.url/.test(status.message), status.message);
      const r = await lsp.command<WriteResult>('catalogLens.setColumnDescription', {
        urn: S.orders,
        fieldPath: 'amount',
        description: 'EUR, via the proxy.',
      });
      assert.equal(r.status, 'written', r.message);
      const uri = 'file:///w/proxy.py';
      await lsp.open(uri, 'python', `x = "${S.orders}"\n`);
      const [link] = await lsp.links(uri);
      assert.ok(link?.target?.startsWith(`${frontend.url}/dataset/`), link?.target);
      const hover = hoverText(await lsp.hover(uri, { line: 0, character: 10 }));
      assert.ok(hover.includes('db.orders'), hover);
    } finally {
      await lsp.stop();
    }
  });

  test("a passing failure of GET /config (a load balancer's 502 page) is not taken for the web app: the next write finds GMS and goes through", async () => {
    const gms = await startRecordingProxy(catalog.url);
    const lsp = await serverFor(gms.url);
    try {
      gms.configDown = true;
      const first = await lsp.command<WriteResult>('catalogLens.setColumnDescription', {
        urn: S.orders,
        fieldPath: 'amount',
        description: 'While /config was down.',
      });
      assert.equal(first.status, 'failed');
      assert.ok(!/web app/.test(first.message), first.message);
      gms.configDown = false;
      const askedWhileDown = gms.paths.filter((p) => p === '/config').length;
      const again = await lsp.command<WriteResult>('catalogLens.setColumnDescription', {
        urn: S.orders,
        fieldPath: 'amount',
        description: 'After /config came back.',
      });
      assert.equal(again.status, 'written', again.message);
      assert.equal(
        gms.paths.filter((p) => p === '/config').length,
        askedWhileDown + 1,
        '/config was asked again, once',
      );
    } finally {
      await lsp.stop();
      await gms.close();
    }
  });

  test('a caller cancelled while the address is being found does not let another go ahead on the unchecked frontend root', async () => {
    const client = new CatalogClient({
      url: frontend.url,
      graphqlUrl: '',
      token: undefined,
      timeoutMs: 10_000,
      batchSize: 100,
      complexityBudget: 2000,
      cacheEntries: 100,
      cacheTtlMs: 0,
    });
    const cancel = new AbortController();
    const first = client.readAspects(S.orders, ['editableSchemaMetadata'], cancel.signal);
    cancel.abort();
    const second = client.readAspects(S.orders, ['editableSchemaMetadata']);
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.ok, false);
    assert.equal(b.ok, true, b.ok ? '' : b.error.message);
  });

  test("the frontend's own 401 (empty body, no session) is explained as an address problem, not as a refused token", async () => {
    frontend.sessionRequired = true;
    const lsp = await serverFor(`${frontend.url}/api/gms`, { env: { CATALOG_LENS_TOKEN: 'a-valid-token' } });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, false);
      assert.match(status.message, /401 with an empty body, as DataHub's frontend does/);
      assert.match(status.message, /The token may be fine: point catalogLens\.url at DataHub's metadata service/);
      assert.ok(!/refused the access token/.test(status.message), status.message);
    } finally {
      frontend.sessionRequired = false;
      await lsp.stop();
    }
  });
});

describe("connection without configuration, as DataHub's CLI finds its server", () => {
  const TOKEN = 'dh-cli-token-7f3a';
  let catalog: Catalog;
  let home: string;
  before(async () => {
    catalog = await sampleCatalog({ token: TOKEN });
    home = mkdtempSync(path.join(tmpdir(), 'cl-home-'));
  });
  after(async () => {
    rmSync(home, { recursive: true, force: true });
    await catalog.close();
  });

  test('DATAHUB_GMS_URL and DATAHUB_GMS_TOKEN, when catalogLens.url is empty: connected, and the status says where from', async () => {
    const lsp = await startSession({ env: { DATAHUB_GMS_URL: catalog.url, DATAHUB_GMS_TOKEN: TOKEN } });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, true, status.message);
      assert.match(status.message, /\(from DATAHUB_GMS_URL\)/);
      const uri = 'file:///w/env.py';
      await lsp.open(uri, 'python', `x = "${S.users}"\n`);
      assert.match(hoverText(await lsp.hover(uri, { line: 0, character: 10 })), /One row per registered user/);
      const [link] = await lsp.links(uri);
      assert.ok(
        link?.target?.startsWith(`${catalog.url}/dataset/`),
        `links open the catalog found there: ${link?.target}`,
      );
    } finally {
      await lsp.stop();
    }
  });

  test('~/.datahubenv (what `datahub init` writes): used when the environment names no server', async () => {
    writeFileSync(path.join(home, '.datahubenv'), `gms:\n  server: ${catalog.url}\n  token: ${TOKEN}\n`);
    const lsp = await startSession({ env: { HOME: home, DATAHUB_SKIP_CONFIG: '' } });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, true, status.message);
      assert.match(status.message, /\(from ~\/\.datahubenv\)/);
    } finally {
      await lsp.stop();
    }
  });

  test("Open in Catalog's page (catalogLens/entityPage) is the hover link's, from ~/.datahubenv too: the client's command and the links agree", async () => {
    writeFileSync(path.join(home, '.datahubenv'), `gms:\n  server: ${catalog.url}\n  token: ${TOKEN}\n`);
    const lsp = await startSession({ env: { HOME: home, DATAHUB_SKIP_CONFIG: '' } });
    try {
      const uri = 'file:///w/page.py';
      await lsp.open(uri, 'python', `x = "${S.orders}"\n`);
      const [link] = await lsp.links(uri);
      const page = await lsp.connection.sendRequest<EntityPageResult>(EntityPageRequest.method, { urn: S.orders, uri });
      assert.ok(link?.target?.startsWith(`${catalog.url}/dataset/`), link?.target);
      assert.deepEqual(page, { url: link!.target });
      assert.deepEqual(
        await lsp.connection.sendRequest<EntityPageResult>(EntityPageRequest.method, { urn: 'not a urn' }),
        { error: "Not a URN: a URN starts with 'urn:'" },
      );
    } finally {
      await lsp.stop();
    }
  });

  test('not read in an untrusted workspace: no catalog at all', async () => {
    const lsp = await startSession({
      env: { DATAHUB_GMS_URL: catalog.url, DATAHUB_GMS_TOKEN: TOKEN },
      initializationOptions: { trusted: false },
    });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.ok, false);
      assert.equal(status.state, 'notConfigured');
    } finally {
      await lsp.stop();
    }
  });

  test("its token never follows graphqlUrl to another origin, even one catalogLens.allowTokenOrigins lists: the server's own GraphQL endpoint is used", async () => {
    const other = await startFaultProxy(catalog.url);
    try {
      for (const settings of [
        { graphqlUrl: `${other.url}/api/graphql`, allowTokenOrigins: [other.url] },
        { url: catalog.url, graphqlUrl: `${other.url}/api/graphql`, allowTokenOrigins: [other.url] },
      ]) {
        const lsp = await startSession({ env: { DATAHUB_GMS_URL: catalog.url, DATAHUB_GMS_TOKEN: TOKEN }, settings });
        try {
          const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
          assert.equal(status.ok, true, status.message);
          assert.ok(status.message.includes(`connected to ${catalog.url}/api/graphql`), status.message);
        } finally {
          await lsp.stop();
        }
      }
      assert.equal(other.requests, 0, 'nothing, and so no token, went to the other origin');
    } finally {
      await other.close();
    }
  });

  test('~/.datahubenv is not read in an untrusted workspace, also when catalogLens.url names its server', async () => {
    writeFileSync(path.join(home, '.datahubenv'), `gms:\n  server: ${catalog.url}\n  token: ${TOKEN}\n`);
    const lsp = await serverFor(catalog.url, {
      env: { HOME: home, DATAHUB_SKIP_CONFIG: '' },
      initializationOptions: { trusted: false },
    });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.state, 'unauthorized', status.message);
    } finally {
      await lsp.stop();
    }
  });

  test('its token goes to its own server only: with catalogLens.url naming another catalog, that one never sees it', async () => {
    const other = await startFaultProxy(catalog.url);
    const lsp = await serverFor(other.url, { env: { DATAHUB_GMS_URL: catalog.url, DATAHUB_GMS_TOKEN: TOKEN } });
    try {
      const status = await lsp.command<ConnectionTestResult>('catalogLens.testConnection', {});
      assert.equal(status.state, 'unauthorized', status.message);
      assert.ok(other.requests > 0);
      assert.deepEqual(other.authorizations, [], 'no token went to the other catalog');
    } finally {
      await lsp.stop();
      await other.close();
    }
  });
});

describe('what a write leaves behind', () => {
  test("each command writes under its own run id, so DataHub's rollback undoes one edit, not all", async () => {
    const catalog = await sampleCatalog();
    const lsp = await serverFor(catalog.url);
    try {
      const runIdOf = async (aspect: string): Promise<string> => {
        const r = await fetch(`${catalog.url}/entitiesV2/${encodeURIComponent(S.orders)}?aspects=List(${aspect})`, {
          headers: { 'X-RestLi-Protocol-Version': '2.0.0' },
        });
        const body = (await r.json()) as { aspects: Record<string, { systemMetadata: { runId: string } }> };
        return body.aspects[aspect]!.systemMetadata.runId;
      };
      assert.equal(
        (await lsp.command<WriteResult>('catalogLens.setDatasetDescription', { urn: S.orders, description: 'One.' }))
          .status,
        'written',
      );
      const first = await runIdOf('editableDatasetProperties');
      assert.equal(
        (
          await lsp.command<WriteResult>('catalogLens.setColumnDescription', {
            urn: S.orders,
            fieldPath: 'amount',
            description: 'Two.',
          })
        ).status,
        'written',
      );
      const second = await runIdOf('editableSchemaMetadata');
      assert.match(first, /^catalog-lens-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
      assert.match(second, /^catalog-lens-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
      assert.notEqual(first, second);
    } finally {
      await lsp.stop();
      await catalog.close();
    }
  });
});
