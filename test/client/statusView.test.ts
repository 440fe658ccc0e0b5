/**
 * The status bar item's words for each connection state: it shows its state in text.
 * statusView is pure (no vscode), so what the item says is checked here; test/e2e/accessToken.test.ts
 * checks the same text in a real VS Code.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  connectionFixes,
  RESTRICTED_LINE,
  shortHost,
  statusView,
  type ClientStatus,
} from '../../client/src/statusView';

const GRAPHQL = 'http://localhost:9002/api/graphql';

describe('status bar text: each state in words', () => {
  const cases: Array<[ClientStatus, string]> = [
    [{ state: 'connected', message: 'connected', endpoint: GRAPHQL }, '$(database) Catalog: localhost:9002'],
    [{ state: 'connected', message: 'connected' }, '$(database) Catalog: connected'],
    [{ state: 'checking', message: 'starting', endpoint: GRAPHQL }, '$(sync~spin) Catalog: checking…'],
    [{ state: 'notConfigured', message: 'no URL' }, '$(plug) Catalog: not configured'],
    [{ state: 'unauthorized', message: '401', endpoint: GRAPHQL }, '$(key) Catalog: unauthorized'],
    [{ state: 'unreachable', message: 'ECONNREFUSED', endpoint: GRAPHQL }, '$(debug-disconnect) Catalog: unreachable'],
    [{ state: 'error', message: '500', endpoint: GRAPHQL }, '$(error) Catalog: error'],
    [{ state: 'restarting', message: 'crashed' }, '$(sync~spin) Catalog: restarting'],
  ];
  for (const [status, text] of cases) {
    test(`${status.state}${status.endpoint ? '' : ' (no endpoint)'}: ${text}`, () => {
      assert.equal(statusView(status).text, text);
    });
  }

  test('the tooltip names the state, the message and the whole endpoint', () => {
    const v = statusView({ state: 'connected', message: 'connected to http://localhost:9002', endpoint: GRAPHQL });
    assert.equal(v.tooltip, `Catalog connected\nconnected to http://localhost:9002\nEndpoint: ${GRAPHQL}`);
  });

  test('the endpoint is not repeated when the message names it', () => {
    const v = statusView({
      state: 'unauthorized',
      message: `${GRAPHQL} refused the access token (401)`,
      endpoint: GRAPHQL,
    });
    assert.equal(
      v.tooltip,
      `The catalog refused the access token — click to set one\n${GRAPHQL} refused the access token (401)`,
    );
  });
});

describe('the host shown for a connected catalog', () => {
  test('a host and port of up to 28 characters is shown whole, the default port left out as the URL does', () => {
    assert.equal(shortHost('https://datahub.example.com/api/graphql'), 'datahub.example.com');
    assert.equal(shortHost('http://127.0.0.1:8080/api/graphql'), '127.0.0.1:8080');
    assert.equal(shortHost('https://datahub.internal.acme.io:443/api/graphql'), 'datahub.internal.acme.io');
  });

  test('a longer name keeps its first label and the port', () => {
    assert.equal(shortHost('http://datahub-gms.prod.eu-west-1.corp.acme.com:8080/api/graphql'), 'datahub-gms…:8080');
    assert.equal(shortHost('https://metadata-catalog.platform.acme.com/api/graphql'), 'metadata-catalog…');
    const long = shortHost(`https://${'a'.repeat(60)}.example.com:9002/api/graphql`);
    assert.equal(long, `${'a'.repeat(22)}…:9002`);
    assert.ok(long.length <= 28, long);
  });

  test('an IPv6 address is cut, not split at its dots', () => {
    const v6 = shortHost('http://[2001:db8:85a3:8d3:1319:8a2e:370:7348]:9002/api/graphql');
    assert.ok(v6!.startsWith('[2001:db8:'), v6);
    assert.ok(v6!.endsWith('…:9002'), v6);
  });

  test('no endpoint, or one that is not a URL, shows the state instead', () => {
    assert.equal(shortHost(undefined), undefined);
    assert.equal(shortHost('not a url'), undefined);
    assert.equal(
      statusView({ state: 'connected', message: 'x', endpoint: 'not a url' }).text,
      '$(database) Catalog: connected',
    );
  });

  test('a host that spells an icon is shown as text', () => {
    const text = statusView({ state: 'connected', message: 'x', endpoint: 'http://a$(zap)b.example/api/graphql' }).text;
    assert.doesNotMatch(text.replace('$(database)', ''), /(^|[^\\])\$\(zap\)/);
  });
});

describe('an unreachable catalog: down, not misconfigured', () => {
  test('the tooltip says it is down or not answering and retried on its own; a click retries now, not Configure', () => {
    const v = statusView({
      state: 'unreachable',
      message: `no answer from ${GRAPHQL} within 10000 ms`,
      endpoint: GRAPHQL,
    });
    assert.equal(v.text, '$(debug-disconnect) Catalog: unreachable');
    assert.match(
      v.tooltip,
      /^The catalog is down or not answering; Catalog Lens asks it again on its own — click to retry now/,
    );
    assert.doesNotMatch(v.tooltip, /configure/i);
    assert.equal(v.command, 'catalogLens.retryConnection');
    assert.equal(v.background, 'error');
  });

  test('a failed connection test offers Retry and Show Log when the catalog is down, the token when it refuses it', () => {
    assert.deepEqual(connectionFixes('unreachable'), ['Retry', 'Show Log', 'Configure Catalog']);
    assert.deepEqual(connectionFixes('unauthorized'), ['Set Access Token', 'Show Output']);
    assert.deepEqual(connectionFixes('error'), ['Configure Catalog', 'Show Output']);
  });

  test('not configured still opens Configure', () => {
    const v = statusView({ state: 'notConfigured', message: 'no URL' });
    assert.equal(v.command, 'catalogLens.configure');
    assert.match(v.tooltip, /click to configure/);
  });
});

describe('Restricted Mode (the workspace is not trusted)', () => {
  test('connected says read-only, its tooltip says why, and a click opens the trust editor', () => {
    const v = statusView({ state: 'connected', message: 'connected', endpoint: GRAPHQL }, false);
    assert.equal(v.text, '$(database) Catalog: localhost:9002 (read-only)');
    assert.equal(v.command, 'catalogLens.manageTrust');
    assert.equal(v.tooltip.split('\n').at(-1), RESTRICTED_LINE);
    assert.match(RESTRICTED_LINE, /Restricted Mode: .*writes nothing .*trust this workspace/);
  });

  test('the other states keep their fix and also say so in the tooltip', () => {
    const v = statusView({ state: 'unreachable', message: 'ECONNREFUSED', endpoint: GRAPHQL }, false);
    assert.equal(v.text, '$(debug-disconnect) Catalog: unreachable');
    assert.equal(v.command, 'catalogLens.retryConnection');
    assert.ok(v.tooltip.includes(RESTRICTED_LINE));
  });

  test('a trusted workspace never mentions trust', () => {
    for (const state of ['connected', 'unreachable', 'error'] as const) {
      const v = statusView({ state, message: 'm', endpoint: GRAPHQL }, true);
      assert.ok(!/Restricted|read-only|trust/.test(`${v.text}\n${v.tooltip}`), `${state}: ${v.tooltip}`);
    }
  });
});
