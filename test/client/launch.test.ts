/**
 * How the client launches the language server: the token travels only in the server process's
 * environment (never in initializationOptions, which the LSP trace shows), a CATALOG_LENS_TOKEN
 * inherited from the shell is not passed on, and the document selector covers the activation
 * languages for file and untitled documents. The status bar maps each state to its fix.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SERVER_LANGUAGES,
  sameLaunch,
  serverDocumentSelector,
  serverInitializationOptions,
  serverNodeArgs,
  serverProcessEnv,
} from '../../client/src/launch';
import { ClientCommands } from '../../model/src/commandIds';
import { statusView } from '../../client/src/statusView';
import { SERVER_TOKEN_ENV, type ConnectionState } from '../../model/src/protocol';

describe('the token reaches the server only through its environment', () => {
  test('the stored token is CATALOG_LENS_TOKEN of the server process; the rest of the environment is kept', () => {
    const env = serverProcessEnv({ PATH: '/usr/bin', HOME: '/home/u' }, 's3cr3t');
    assert.equal(env[SERVER_TOKEN_ENV], 's3cr3t');
    assert.equal(env['PATH'], '/usr/bin');
  });

  test("a token inherited from the shell is removed when none is stored for the catalog's origin", () => {
    const env = serverProcessEnv({ [SERVER_TOKEN_ENV]: 'from-shell', PATH: '/usr/bin' }, undefined);
    assert.ok(!(SERVER_TOKEN_ENV in env));
  });

  test("V8's young generation is held to 8 MiB semi-spaces unless NODE_OPTIONS sizes it", () => {
    assert.deepEqual(serverNodeArgs({ PATH: '/usr/bin' }), ['--max-semi-space-size=8']);
    assert.deepEqual(serverNodeArgs({ NODE_OPTIONS: '--max-old-space-size=4096' }), ['--max-semi-space-size=8']);
    assert.deepEqual(serverNodeArgs({ NODE_OPTIONS: '--max-semi-space-size=32' }), []);
    // A fresh array each time: the launch may add to it.
    assert.notEqual(serverNodeArgs({}), serverNodeArgs({}));
  });

  test("glibc's mmap threshold is fixed unless the environment sets it", () => {
    assert.equal(serverProcessEnv({ PATH: '/usr/bin' }, undefined)['MALLOC_MMAP_THRESHOLD_'], '131072');
    assert.equal(serverProcessEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }, undefined)['MALLOC_MMAP_THRESHOLD_'], '65536');
  });

  test('the stored token replaces an inherited one, and the base environment is not changed', () => {
    const base = { [SERVER_TOKEN_ENV]: 'from-shell' };
    assert.equal(serverProcessEnv(base, 'stored')[SERVER_TOKEN_ENV], 'stored');
    assert.equal(base[SERVER_TOKEN_ENV], 'from-shell');
  });

  test('initializationOptions are {clientCommands, hoverShowsDiagnostics, hoverShowsLinkTooltips, statusNotifications, trusted, allowInsecureHosts, allowTokenOrigins}: never the token', () => {
    assert.deepEqual(serverInitializationOptions(true), {
      clientCommands: true,
      hoverShowsDiagnostics: true,
      hoverShowsLinkTooltips: true,
      statusNotifications: true,
      trusted: true,
      allowInsecureHosts: [],
      allowTokenOrigins: [],
    });
    assert.deepEqual(serverInitializationOptions(false, ['datahub.internal:8080'], ['https://datahub.internal:9002']), {
      clientCommands: true,
      hoverShowsDiagnostics: true,
      hoverShowsLinkTooltips: true,
      statusNotifications: true,
      trusted: false,
      allowInsecureHosts: ['datahub.internal:8080'],
      allowTokenOrigins: ['https://datahub.internal:9002'],
    });
    assert.deepEqual(Object.keys(serverInitializationOptions(false)).sort(), [
      'allowInsecureHosts',
      'allowTokenOrigins',
      'clientCommands',
      'hoverShowsDiagnostics',
      'hoverShowsLinkTooltips',
      'statusNotifications',
      'trusted',
    ]);
  });
});

describe('document selector and restarts', () => {
  test('every default language, for file and untitled documents; configured languages are added', () => {
    const selector = serverDocumentSelector(['rust']);
    for (const language of [...SERVER_LANGUAGES, 'rust']) {
      for (const scheme of ['file', 'untitled'])
        assert.ok(
          selector.some((s) => s.language === language && s.scheme === scheme),
          `${language} ${scheme}`,
        );
    }
    assert.equal(new Set(selector.map((s) => `${s.scheme}:${s.language}`)).size, selector.length, 'no duplicates');
  });

  test('a change of token, origin, accepted hosts, trust or languages means a restart; the order of languages does not', () => {
    const a = {
      origin: 'http://localhost:8080',
      token: 't',
      allowInsecureHosts: [],
      allowTokenOrigins: [],
      trusted: true,
      languages: ['python', 'yaml'],
    };
    assert.ok(sameLaunch(a, { ...a, languages: ['yaml', 'python'] }));
    assert.ok(!sameLaunch(a, { ...a, token: 'u' }));
    assert.ok(!sameLaunch(a, { ...a, token: undefined }));
    assert.ok(!sameLaunch(a, { ...a, origin: 'http://localhost:9410' }));
    assert.ok(!sameLaunch(a, { ...a, trusted: false }));
    assert.ok(!sameLaunch(a, { ...a, languages: ['python'] }));
    assert.ok(!sameLaunch(a, { ...a, allowInsecureHosts: ['datahub.internal:8080'] }));
    assert.ok(!sameLaunch(a, { ...a, allowTokenOrigins: ['http://localhost:9002'] }));
  });
});

describe('status bar: each state shows its text and a click runs its fix', () => {
  const cases: Array<[ConnectionState, string, 'error' | 'warning' | undefined, RegExp]> = [
    ['connected', ClientCommands.showOutput, undefined, /^\$\(database\) Catalog: localhost:8080$/],
    ['checking', ClientCommands.showOutput, undefined, /^\$\(sync~spin\) Catalog: checking…$/],
    ['notConfigured', ClientCommands.configure, 'warning', /not configured/],
    ['unauthorized', ClientCommands.setAccessToken, 'error', /unauthorized/],
    ['unreachable', ClientCommands.retryConnection, 'error', /unreachable/],
    ['error', ClientCommands.showOutput, 'error', /error/],
  ];
  for (const [state, command, background, text] of cases) {
    test(state, () => {
      const v = statusView({ state, message: `message for ${state}`, endpoint: 'http://localhost:8080/api/graphql' });
      assert.equal(v.command, command);
      assert.equal(v.background, background);
      assert.match(v.text, text);
      assert.match(v.tooltip, new RegExp(`message for ${state}`));
      assert.match(v.tooltip, /Endpoint: http:\/\/localhost:8080\/api\/graphql/);
    });
  }
});
