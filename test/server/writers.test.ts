/**
 * The two writers of the write commands (server/src/writes/): which one the settings choose, and
 * what the GraphQL writer's link write asks of the client, in process with a stand-in client. The
 * writes themselves, on both paths and against both modes of the real local catalog, are in
 * test/server/writes.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { parseUrn } from '../../model/src/urn';
import type { CatalogClient } from '../../server/src/catalogClient/client';
import type { StepDeps } from '../../server/src/writes/catalogSteps';
import { aspectWriter } from '../../server/src/writes/aspectWriter';
import { graphqlWriter } from '../../server/src/writes/graphqlWriter';
import { Refusal } from '../../server/src/writes/refusal';
import { writerFor } from '../../server/src/writes/writerFor';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';

describe('writerFor', () => {
  test('the aspect writer by default and for writePath aspects, the GraphQL writer for writePath graphql', () => {
    assert.equal(writerFor(DEFAULT_SETTINGS), aspectWriter);
    assert.equal(writerFor({ ...DEFAULT_SETTINGS, writePath: 'aspects' }), aspectWriter);
    assert.equal(writerFor({ ...DEFAULT_SETTINGS, writePath: 'graphql' }), graphqlWriter);
  });

  test('each writer names its path (the log line says it)', () => {
    assert.equal(aspectWriter.path, 'aspects');
    assert.equal(graphqlWriter.path, 'graphql');
  });
});

describe('the GraphQL writer adds a link', () => {
  const p = parseUrn(ORDERS);
  assert.ok(p.ok);
  const urn = { text: ORDERS, urn: p.urn };
  const link = { url: 'https://wiki.example/orders', description: '' };

  /** A run whose client answers `links` to readLinks and records its mutations. */
  function run(links: Array<{ url: string | undefined; label: string | undefined }> | undefined): {
    ctx: StepDeps;
    mutations: Array<Record<string, unknown>>;
  } {
    const mutations: Array<Record<string, unknown>> = [];
    const client = {
      readLinks: () => Promise.resolve({ ok: true, links }),
      mutate: (_query: string, variables: Record<string, unknown>) => {
        mutations.push(variables);
        return Promise.resolve({ ok: true, data: { addLink: true } });
      },
    } as unknown as CatalogClient;
    return { ctx: { settings: DEFAULT_SETTINGS, client, signal: undefined, runId: 'run' }, mutations };
  }

  test('only when no link has its url; the label is the url when no description is given', async () => {
    const there = run([{ url: link.url, label: 'Other' }]);
    assert.equal(await graphqlWriter.addLink(there.ctx, urn, link), false);
    assert.deepEqual(there.mutations, []);
    const absent = run([{ url: 'https://elsewhere', label: 'E' }]);
    assert.equal(await graphqlWriter.addLink(absent.ctx, urn, link), true);
    assert.deepEqual(absent.mutations, [{ input: { linkUrl: link.url, label: link.url, resourceUrn: ORDERS } }]);
  });

  test('a dataset the catalog does not have: failed (notFound), nothing mutated', async () => {
    const gone = run(undefined);
    await assert.rejects(
      graphqlWriter.addLink(gone.ctx, urn, link),
      (e: unknown) => e instanceof Refusal && e.result.kind === 'notFound',
    );
    assert.deepEqual(gone.mutations, []);
  });
});
