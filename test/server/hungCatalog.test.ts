/**
 * A catalog that hangs (accepts the connection, never answers): the first hover waits the request
 * timeout; once the catalog is known not to answer (status unreachable), hovers and diagnostics
 * answer without it at once, and everything comes back when it answers again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HUNG_READ_WAIT_MS } from '../../server/src/catalogClient/http';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';
import { startProxy, type FaultRule, type TestProxy } from '../support/proxy';
import { COMPAT_MODES, S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';

const TIMEOUT_MS = 3000;

for (const compat of COMPAT_MODES)
  describe(`a hung catalog (${compat} catalog)`, () => {
    let catalog: Catalog;
    let proxy: TestProxy;
    let lsp: LspSession;
    let n = 0;
    before(async () => {
      catalog = await sampleCatalog({ compat });
      proxy = await startProxy({ target: catalog.url });
      lsp = await serverFor(proxy.url, {
        settings: { requestTimeoutMs: TIMEOUT_MS, cache: { ttlSeconds: 0, maxEntries: 100 } },
      });
    });
    after(async () => {
      await lsp.stop();
      await proxy.stop();
      await catalog.close();
    });

    /** Hovers db.users in a new document (ttl 0: nothing cached); its text and how long it took. */
    async function hover(): Promise<{ text: string; ms: number }> {
      const uri = `file:///w/hung${n++}.py`;
      const text = `x = "${S.users}"\n`;
      await lsp.open(uri, 'python', text);
      const started = Date.now();
      const h = hoverText(await lsp.hover(uri, positionOf(text, 'db.users')));
      const ms = Date.now() - started;
      await lsp.close(uri);
      return { text: h, ms };
    }

    test('hovers answer at once once the status is unreachable, diagnostics too, and both recover when the catalog answers', async (t) => {
      const healthy = await hover();
      assert.match(healthy.text, /One row per registered user/);
      let hang: FaultRule | undefined = proxy.fault({ hang: true });
      try {
        const first = await hover();
        assert.ok(first.ms >= TIMEOUT_MS - 100, `the first hover waits the timeout: ${first.ms} ms`);
        assert.match(first.text, new RegExp(`no answer from .* within ${TIMEOUT_MS} ms`));
        await lsp.waitForStatus((s) => s.state === 'unreachable');
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          const h = await hover();
          times.push(h.ms);
          assert.match(h.text, /has not answered since, so reads do not wait for it/);
          assert.match(h.text, /platform: `hive` · name: `db\.users` · env: `PROD`/, 'the parts, without the catalog');
        }
        assert.ok(
          times.every((ms) => ms < HUNG_READ_WAIT_MS + 1000),
          `hovers while hung: ${times.join(', ')} ms (timeout ${TIMEOUT_MS} ms)`,
        );
        t.diagnostic(`first hover ${first.ms} ms; hovers once unreachable: ${times.join(', ')} ms`);
        // Diagnostics of a new document: no wait for the catalog either.
        const uri = 'file:///w/hung-diagnostics.py';
        const started = Date.now();
        await lsp.open(uri, 'python', `a = "${S.ghost}"\nbad = "urn:li:dataset:(x)"\n`);
        const ds = await lsp.diagnostics(uri);
        assert.deepEqual(
          ds.map((d) => d.code),
          ['malformed-urn'],
        );
        assert.ok(Date.now() - started < TIMEOUT_MS, `diagnostics while hung: ${Date.now() - started} ms`);
        hang.remove();
        hang = undefined;
        // The catalog answers again: the next hover asks it and gets its answer.
        const back = await hover();
        assert.match(back.text, /One row per registered user/);
        await lsp.waitForStatus((s) => s.state === 'connected');
        const again = await lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'unknown-urn'));
        assert.ok(again.some((d) => d.code === 'unknown-urn'));
      } finally {
        hang?.remove();
      }
    });
  });
