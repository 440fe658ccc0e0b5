/**
 * Names beside ids (`textDocument/inlayHint`) through the real server process against the real
 * local catalog with the sample data, in both modes: after a URN whose id is not what people call
 * it (a domain's GUID, a container's hash, a dataset whose `properties.name` is another name) the
 * catalog's name; nothing for an unknown URN or one whose name is its id; nothing when the setting
 * is off; no capability for an editor that does not declare inlay hints; and the editor told to
 * ask again once the catalog has answered.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { SAMPLE } from '../../catalog/src/sample';
import { ingest } from '../support/catalogHttp';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';
import { positionOf, startSession } from '../support/lspClient';

/** A dataset ingested by the test, whose catalog name is not its URN's. */
const RENAMED = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.cust_acct_v2,PROD)';
const UNKNOWN_DOMAIN = 'urn:li:domain:00000000-0000-0000-0000-000000000000';

const TEXT = [
  `DOMAIN = "${SAMPLE.domain}"`,
  `CONTAINER = "${SAMPLE.container}"`,
  `RENAMED = "${RENAMED}"`,
  `USERS = "${SAMPLE.datasets.users}"`,
  `TAG = "${SAMPLE.tags.gdpr}"`,
  `TERM = "${SAMPLE.glossary.sensitive}"`,
  `GHOST = "${UNKNOWN_DOMAIN}"`,
  `PROSE = "owned by ${SAMPLE.domain} since May"`,
  '',
].join('\n');

const labels = (hints: InlayHint[]): string[] => hints.map((h) => (typeof h.label === 'string' ? h.label : '?'));

for (const compat of COMPAT_MODES)
  describe(`inlay hints: the catalog's names beside ids (${compat} catalog)`, () => {
    const env = useSampleServer({ inlayHints: true }, compat);

    test('a GUID domain, a hashed container, a renamed dataset and a term named otherwise get their names; an unknown URN, or one named by its id, none', async () => {
      assert.equal(
        await ingest(env.catalog.url, 'dataset', RENAMED, 'datasetProperties', {
          name: 'Customer accounts',
          description: 'Accounts of paying customers.',
          customProperties: {},
          tags: [],
        }),
        200,
      );
      assert.deepEqual(env.lsp.init.capabilities.inlayHintProvider, { resolveProvider: false });
      const uri = `file:///w/inlay-${compat}.py`;
      const before = env.lsp.inlayHintRefreshes();
      await env.lsp.open(uri, 'python', TEXT);
      // The document's check asks the catalog; then the editor is told to ask for hints again.
      await env.lsp.waitUntil(
        async () => env.lsp.inlayHintRefreshes() > before && (await env.lsp.inlayHints(uri)).length === 5,
        'workspace/inlayHint/refresh, then the hints',
      );
      const hints = await env.lsp.inlayHints(uri);
      assert.deepEqual(labels(hints), [
        '‹Marketing›',
        '‹analytics›',
        '‹Customer accounts›',
        '‹Sensitive Data›',
        '‹Marketing›',
      ]);
      // After the closing quote of a URN that fills its string; right after the URN inside a longer one.
      assert.deepEqual(hints[0]!.position, positionOf(TEXT, `${SAMPLE.domain}"`, SAMPLE.domain.length + 1));
      assert.deepEqual(hints[2]!.position, positionOf(TEXT, `${RENAMED}"`, RENAMED.length + 1));
      assert.deepEqual(hints[4]!.position, positionOf(TEXT, `${SAMPLE.domain} since`, SAMPLE.domain.length));
      for (const h of hints) {
        assert.equal(h.paddingLeft, true);
        assert.equal(typeof h.tooltip, 'string', 'a plain-text tooltip');
      }
      assert.equal(hints[0]!.tooltip, "Domain Marketing: the catalog's name for 7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10");
      assert.equal(hints[2]!.tooltip, "Dataset Customer accounts: the catalog's name for db.cust_acct_v2");
      // Only the lines asked for.
      const second = await env.lsp.inlayHints(uri, {
        start: { line: 1, character: 0 },
        end: { line: 2, character: 0 },
      });
      assert.deepEqual(labels(second), ['‹analytics›']);
    });

    test('catalog text in a name is inert: one plain line, hidden characters shown, cut', async () => {
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.odd_name,PROD)';
      assert.equal(
        await ingest(env.catalog.url, 'dataset', urn, 'datasetProperties', {
          name: `Line one\nline\u202Etwo [link](command:x) ${'x'.repeat(100)}`,
          customProperties: {},
          tags: [],
        }),
        200,
      );
      const uri = `file:///w/inlay-odd-${compat}.py`;
      const before = env.lsp.inlayHintRefreshes();
      await env.lsp.open(uri, 'python', `X = "${urn}"\n`);
      await env.lsp.waitUntil(
        async () => env.lsp.inlayHintRefreshes() > before && (await env.lsp.inlayHints(uri)).length === 1,
        'workspace/inlayHint/refresh, then the hint',
      );
      const [hint] = await env.lsp.inlayHints(uri);
      const label = hint?.label as string;
      assert.ok(label.startsWith('‹Line one line\\u202Etwo [link](command:x'), label);
      assert.ok(label.endsWith('…›'), label);
      assert.equal(label.length, 42, label);
      assert.doesNotMatch(label, /[\n\u202E]/);
    });

    test('none when catalogLens.inlayHints.names is off; back when it is on again', async () => {
      const uri = `file:///w/inlay-off-${compat}.py`;
      await env.lsp.open(uri, 'python', `A = "${SAMPLE.domain}"\nB = "${SAMPLE.container}"\n`);
      await env.lsp.waitUntil(async () => (await env.lsp.inlayHints(uri)).length === 2, 'the hints');
      env.lsp.settings['inlayHints'] = { names: false };
      const before = env.lsp.inlayHintRefreshes();
      await env.lsp.configurationChanged();
      // A settings change tells the editor to ask again.
      await env.lsp.waitUntil(() => env.lsp.inlayHintRefreshes() > before, 'workspace/inlayHint/refresh');
      assert.deepEqual(await env.lsp.inlayHints(uri), []);
      delete env.lsp.settings['inlayHints'];
      await env.lsp.configurationChanged();
      await env.lsp.waitUntil(async () => (await env.lsp.inlayHints(uri)).length === 2, 'the hints again');
    });
  });

describe('inlay hints: an editor that does not declare them', () => {
  const env = useSampleServer({});

  test('gets no inlayHint capability, and no refresh after the catalog answers', async () => {
    assert.equal(env.lsp.init.capabilities.inlayHintProvider, undefined);
    const uri = 'file:///w/no-inlay.py';
    await env.lsp.open(uri, 'python', TEXT);
    await env.lsp.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown-urn'));
    assert.equal(env.lsp.inlayHintRefreshes(), 0);
  });
});

describe('inlay hints: no catalog configured', () => {
  test('the editor is not told to ask again: errors are no answers', async () => {
    const lsp = await startSession({ inlayHints: true });
    try {
      assert.deepEqual(lsp.init.capabilities.inlayHintProvider, { resolveProvider: false });
      const uri = 'file:///w/no-catalog.py';
      await lsp.open(uri, 'python', TEXT);
      await lsp.diagnostics(uri);
      // A second check, 200 ms after the edit: a refresh the first one had asked for is in by then.
      await lsp.change(uri, `${TEXT}BAD = "urn:li:dataset:(urn:li:dataPlatform:hive,db.x)"\n`);
      await lsp.diagnostics(uri, (ds) => ds.some((d) => d.code === 'malformed-urn'));
      assert.equal(lsp.inlayHintRefreshes(), 0);
      assert.deepEqual(await lsp.inlayHints(uri), []);
    } finally {
      await lsp.stop();
    }
  });
});
