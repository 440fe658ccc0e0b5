/**
 * Catalog faults seen by a write command (test/server/faults.test.ts covers them for hover,
 * diagnostics and the status): for each fault the command answers `failed` with the kind the
 * user can act on and a message naming the endpoint and what went wrong, the server stays up,
 * and once the catalog behaves again the same command writes, without a restart.
 *
 * Three places a fault can hit: the existence check before a write (GraphQL), the aspect write
 * itself (`POST /aspects`, through a fault proxy whose faults apply to that path only), and the
 * GraphQL write path (`updateDescription`, the same way).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { aspects } from '../support/catalogHttp';
import { startFaultProxy, type FaultMode, type FaultProxy } from '../support/faultProxy';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';
import type { WriteResult } from '../../model/src/protocol';

const TIMEOUT_MS = 1000;
const SETTINGS = { requestTimeoutMs: TIMEOUT_MS, cache: { ttlSeconds: 0, maxEntries: 100 } };

/** The fault's message, as the user reads it, for a request to `path` (what the endpoint is named). */
const EXPECTED: Record<Exclude<FaultMode, 'forward'>, { kind: string; message: (path: string) => RegExp }> = {
  refuse: { kind: 'unreachable', message: (p) => new RegExp(`connection refused at http://127\\.0\\.0\\.1:\\d+${p}`) },
  slow: {
    kind: 'timeout',
    message: (p) => new RegExp(`no answer from http://127\\.0\\.0\\.1:\\d+${p} within ${TIMEOUT_MS} ms`),
  },
  drip: {
    kind: 'timeout',
    message: (p) => new RegExp(`no answer from http://127\\.0\\.0\\.1:\\d+${p} within ${TIMEOUT_MS} ms`),
  },
  status401: { kind: 'unauthorized', message: () => /refused the access token \(401\)/ },
  status403: { kind: 'forbidden', message: () => /answered 403: is unauthorized to READ entities\./ },
  status404: { kind: 'badResponse', message: () => /answered 404: an HTML error page/ },
  status500: { kind: 'badResponse', message: () => /answered 500: Internal server error occurred/ },
  status502: { kind: 'badResponse', message: () => /answered 502: an HTML error page/ },
  html: { kind: 'badResponse', message: () => /answered an HTML page \(status 200\) instead of JSON/ },
  garbage: { kind: 'badResponse', message: () => /answered text that is not JSON/ },
  truncated: { kind: 'badResponse', message: () => /answered truncated or invalid JSON/ },
  partialErrors: { kind: 'rejected', message: () => /: An unknown error occurred\./ },
};
const MODES = Object.keys(EXPECTED) as Array<Exclude<FaultMode, 'forward'>>;

describe('catalog faults seen by write commands', () => {
  let catalog: Catalog;
  let proxy: FaultProxy;
  /** Fault proxies whose faults apply only to the aspect write, and only to the updateDescription mutation. */
  let aspectProxy: FaultProxy;
  let mutationProxy: FaultProxy;
  let viaProxy: LspSession;
  let viaAspects: LspSession;
  let viaGraphql: LspSession;
  let n = 0;

  before(async () => {
    catalog = await sampleCatalog();
    proxy = await startFaultProxy(catalog.url, 60_000);
    aspectProxy = await startFaultProxy(
      catalog.url,
      60_000,
      (r) => r.method === 'POST' && r.path.startsWith('/aspects'),
    );
    mutationProxy = await startFaultProxy(catalog.url, 60_000, (r) => r.body.includes('mutation updateDescription'));
    viaProxy = await serverFor(proxy.url, { settings: SETTINGS });
    viaAspects = await serverFor(aspectProxy.url, { settings: SETTINGS });
    viaGraphql = await serverFor(mutationProxy.url, { settings: { ...SETTINGS, writePath: 'graphql' } });
  });
  let cases = 0;
  after(async () => {
    console.log(
      `write-command fault cases: ${cases} (${MODES.length} faults at the existence check, the aspect write and the updateDescription mutation)`,
    );
    for (const s of [viaProxy, viaAspects, viaGraphql]) await s.stop();
    await aspectProxy.close();
    await mutationProxy.close();
    await proxy.close();
    await catalog.close();
  });

  interface WriteKind {
    run(lsp: LspSession): Promise<WriteResult>;
    written(): Promise<string | undefined>;
  }
  const describeDataset: WriteKind = {
    run: (lsp) =>
      lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: `Orders, take ${n++}.`,
      }),
    written: async () =>
      (await aspects(catalog.url, S.orders, ['editableDatasetProperties'])).editableDatasetProperties?.description,
  };
  // On the GraphQL path a column description is always the updateDescription mutation (a dataset's
  // description is one only while the dataset has no edited description yet).
  const describeColumn: WriteKind = {
    run: (lsp) =>
      lsp.command<WriteResult>('catalogLens.setColumnDescription', {
        urn: S.orders,
        fieldPath: 'amount',
        description: `Orders, take ${n++}.`,
      }),
    written: async () =>
      (
        await aspects(catalog.url, S.orders, ['editableSchemaMetadata'])
      ).editableSchemaMetadata?.editableSchemaFieldInfo?.find((e: { fieldPath: string }) => e.fieldPath === 'amount')
        ?.description,
  };

  async function faultThenRecover(
    lsp: LspSession,
    faults: FaultProxy,
    mode: Exclude<FaultMode, 'forward'>,
    path: string,
    kind = EXPECTED[mode].kind,
    write = describeDataset,
  ): Promise<void> {
    cases++;
    await faults.setMode(mode);
    const r = await write.run(lsp);
    assert.equal(r.status, 'failed', JSON.stringify(r));
    assert.equal(r.kind, kind, r.message);
    assert.match(r.message, EXPECTED[mode].message(path));
    assert.ok(r.message.length < 600, `the message is ${r.message.length} characters`);
    assert.equal(lsp.child.exitCode, null, 'the server is still running');
    await faults.setMode('forward');
    const again = await write.run(lsp);
    assert.equal(again.status, 'written', `after the catalog came back: ${JSON.stringify(again)}`);
    await lsp.waitForStatus((st) => st.state === 'connected', 10_000);
    assert.equal(await write.written(), `Orders, take ${n - 1}.`, 'what the catalog holds is the write after recovery');
  }

  for (const mode of MODES) {
    test(`the existence check meets ${mode}: failed (${EXPECTED[mode].kind}) with the endpoint and the cause; after recovery the write goes through`, async () => {
      await faultThenRecover(viaProxy, proxy, mode, '/api/graphql');
    });
  }

  for (const mode of MODES.filter((m) => m !== 'refuse' && m !== 'partialErrors')) {
    // A 404 from the write path is what the catalog answers for an entity that does not exist.
    const kind = mode === 'status404' ? 'notFound' : EXPECTED[mode].kind;
    test(`the aspect write itself meets ${mode}: failed (${kind}), never retried, and after recovery the write goes through`, async () => {
      const writesBefore = aspectProxy.requests;
      await faultThenRecover(viaAspects, aspectProxy, mode, '/aspects', kind);
      // One faulted POST plus the one that went through after recovery: a write is never retried.
      assert.equal(aspectProxy.requests - writesBefore, 2);
    });
  }

  for (const mode of MODES.filter((m) => m !== 'refuse')) {
    test(`the updateDescription mutation (GraphQL write path) meets ${mode}: failed (${EXPECTED[mode].kind}), never retried, and after recovery it goes through`, async () => {
      const before = mutationProxy.requests;
      await faultThenRecover(viaGraphql, mutationProxy, mode, '/api/graphql', EXPECTED[mode].kind, describeColumn);
      assert.equal(mutationProxy.requests - before, 2);
    });
  }
});
