/** `catalog-lens check`'s options: flags over environment over config file over defaults, and clear refusals. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { parseCheckArgs, type CheckOptions, type OptionsIo } from '../../server/src/cli/options';

function io(files: Record<string, string> = {}, stderrIsTerminal = false): OptionsIo {
  return { cwd: '/repo', stderrIsTerminal, readText: (path) => files[path] };
}

function options(argv: string[], env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}): CheckOptions {
  const parsed = parseCheckArgs(argv, env, io(files));
  assert.ok('command' in parsed && parsed.command === 'check', JSON.stringify(parsed));
  return parsed.options;
}

function refusal(argv: string[], env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}): string {
  const parsed = parseCheckArgs(argv, env, io(files));
  assert.ok('error' in parsed, `expected a refusal, got ${JSON.stringify(parsed)}`);
  return parsed.error;
}

describe('catalog-lens check options', () => {
  test('defaults: the current folder, text, fail on errors, the editor’s settings, no catalog', () => {
    const o = options(['check']);
    assert.deepEqual(o.paths, ['.']);
    assert.equal(o.format, 'text');
    assert.equal(o.failOn, 'error');
    assert.equal(o.output, undefined);
    assert.equal(o.progress, false);
    assert.equal(o.token, undefined);
    assert.equal(o.configFile, undefined);
    assert.deepEqual(o.settings, DEFAULT_SETTINGS);
  });

  test('progress is on when standard error is a terminal, and --no-progress turns it off', () => {
    const on = parseCheckArgs(['check'], {}, io({}, true));
    assert.ok('command' in on && on.command === 'check' && on.options.progress);
    const off = parseCheckArgs(['check', '--no-progress'], {}, io({}, true));
    assert.ok('command' in off && off.command === 'check' && !off.options.progress);
  });

  test('paths, formats, --fail-on, --output and --exclude, in both --flag value and --flag=value forms', () => {
    const o = options([
      'check',
      'src',
      '--format',
      'sarif',
      '--fail-on=warning',
      '--output',
      'out.sarif',
      'etl',
      '--exclude',
      'vendor',
      '--exclude=gen',
    ]);
    assert.deepEqual(o.paths, ['src', 'etl']);
    assert.equal(o.format, 'sarif');
    assert.equal(o.failOn, 'warning');
    assert.equal(o.output, 'out.sarif');
    assert.deepEqual(o.settings.excludeFolders, [...DEFAULT_SETTINGS.excludeFolders, 'vendor', 'gen']);
    assert.deepEqual(options(['check', '--', '--odd-name']).paths, ['--odd-name']);
  });

  test('the catalog: a flag beats the environment, which beats the config file', () => {
    const file = { '/repo/.catalog-lens.json': '{"url": "http://from-file:8080"}' };
    assert.equal(options(['check'], {}, file).settings.url, 'http://from-file:8080');
    assert.equal(
      options(['check'], { CATALOG_LENS_URL: 'http://from-env:8080' }, file).settings.url,
      'http://from-env:8080',
    );
    assert.equal(
      options(['check', '--url', 'http://from-flag:8080'], { CATALOG_LENS_URL: 'http://from-env:8080' }, file).settings
        .url,
      'http://from-flag:8080',
    );
    assert.equal(options(['check'], {}, file).configFile, '/repo/.catalog-lens.json');
  });

  test('the token comes from CATALOG_LENS_TOKEN or the first line of --token-file, never a flag or the config file', () => {
    assert.equal(options(['check'], { CATALOG_LENS_TOKEN: 'env-token' }).token, 'env-token');
    assert.equal(
      options(
        ['check', '--token-file', '/secrets/t'],
        { CATALOG_LENS_TOKEN: 'env-token' },
        { '/secrets/t': 'file-token\n' },
      ).token,
      'file-token',
    );
    assert.match(refusal(['check', '--token', 'x']), /unknown option '--token'/);
    assert.match(
      refusal(['check'], {}, { '/repo/.catalog-lens.json': '{"token": "x"}' }),
      /"token": a token does not belong in a file/,
    );
    assert.match(refusal(['check', '--token-file', '/nope']), /--token-file \/nope: no such file/);
    assert.match(refusal(['check', '--token-file', '/t'], {}, { '/t': '\n' }), /the first line is empty/);
  });

  test('a token from the environment or --token-file goes only to a catalog named by a flag or the environment', () => {
    // A repository's .catalog-lens.json must not choose where CI's token goes.
    const file = { '/repo/.catalog-lens.json': '{"url": "http://attacker.example:19555"}' };
    const viaEnv = refusal(['check'], { CATALOG_LENS_TOKEN: 'ci-secret' }, file);
    assert.match(
      viaEnv,
      /^\/repo\/\.catalog-lens\.json: "url" names the catalog, and a token is set \(CATALOG_LENS_TOKEN\)/,
    );
    assert.match(viaEnv, /pass --url URL or set CATALOG_LENS_URL/);
    assert.doesNotMatch(viaEnv, /ci-secret/);
    const tokenFile = { ...file, '/secrets/t': 'file-token\n' };
    assert.match(
      refusal(['check', '--token-file', '/secrets/t'], {}, tokenFile),
      /"url" names the catalog, and a token is set \(--token-file\)/,
    );
    // graphqlUrl too, also beside a --url of the user's, and a --config file is a file as well.
    assert.match(
      refusal(
        ['check', '--url', 'https://gms.example'],
        { CATALOG_LENS_TOKEN: 't' },
        {
          '/repo/.catalog-lens.json': '{"graphqlUrl": "http://attacker.example/api/graphql"}',
        },
      ),
      /"graphqlUrl" names the catalog's GraphQL endpoint, and a token is set .*--graphql-url URL or set CATALOG_LENS_GRAPHQL_URL/,
    );
    assert.match(
      refusal(
        ['check', '--config', '/etc/cl.json'],
        { CATALOG_LENS_TOKEN: 't' },
        {
          '/etc/cl.json': '{"catalogLens.url": "http://attacker.example"}',
        },
      ),
      /\/etc\/cl\.json: "url" names the catalog/,
    );
    // The URL from a flag or the environment wins over the file's, and then the token goes with it.
    const flag = options(['check', '--url', 'https://gms.example'], { CATALOG_LENS_TOKEN: 't' }, file);
    assert.equal(flag.settings.url, 'https://gms.example');
    assert.equal(flag.token, 't');
    const fromEnv = options(['check'], { CATALOG_LENS_TOKEN: 't', CATALOG_LENS_URL: 'https://gms.example' }, file);
    assert.equal(fromEnv.settings.url, 'https://gms.example');
    // Without a token the file's URL is used as before: nothing secret goes there.
    const noToken = options(['check'], {}, file);
    assert.equal(noToken.settings.url, 'http://attacker.example:19555');
    assert.equal(noToken.token, undefined);
  });

  test('config file: the editor’s names, with or without the catalogLens. prefix, dotted or nested', () => {
    const o = options(
      ['check', '--config', '/cfg.json'],
      {},
      {
        '/cfg.json': JSON.stringify({
          'catalogLens.diagnostics.unknown': 'error',
          diagnostics: { missingDescription: 'off' },
          namespaces: ['li'],
          requestTimeoutMs: 2500,
        }),
      },
    );
    assert.equal(o.settings.diagnostics.unknown, 'error');
    assert.equal(o.settings.diagnostics.missingDescription, 'off');
    assert.equal(o.settings.diagnostics.malformed, 'error');
    assert.deepEqual(o.settings.namespaces, ['li']);
    assert.equal(o.settings.requestTimeoutMs, 2500);
  });

  test('bad input is refused with what is wrong and where', () => {
    assert.match(refusal(['lint']), /unknown command 'lint'/);
    assert.match(refusal(['check', '--format', 'xml']), /--format must be one of text, json, sarif, not 'xml'/);
    assert.match(refusal(['check', '--fail-on', 'hint']), /--fail-on must be one of error, warning, information/);
    assert.match(refusal(['check', '--output']), /--output needs a value/);
    assert.match(refusal(['check', '--url', 'localhost:8080']), /url must be an http:\/\/ or https:\/\/ URL/);
    assert.match(refusal(['check', '--config', '/missing.json']), /\/missing\.json: no such file/);
    const cfg = (text: string): string => refusal(['check'], {}, { '/repo/.catalog-lens.json': text });
    assert.match(cfg('{"url": '), /\/repo\/\.catalog-lens\.json: not JSON/);
    assert.match(cfg('[1]'), /must hold a JSON object of settings/);
    assert.match(cfg('{"urll": "x"}'), /"urll" is not a setting/);
    assert.match(cfg('{"diagnostics": {"unknown": "fatal"}}'), /"diagnostics" \.unknown must be one of error, warning/);
    assert.match(cfg('{"diagnostics.nope": "error"}'), /"diagnostics\.nope" is not a setting/);
    assert.match(cfg('{"namespaces": "li"}'), /"namespaces" must be a list of strings/);
    assert.match(cfg('{"batchSize": "10"}'), /"batchSize" must be a number/);
    assert.match(cfg('{"writePath": "rest"}'), /"writePath" must be "aspects" or "graphql"/);
    const unreadable = parseCheckArgs(
      ['check'],
      {},
      {
        cwd: '/repo',
        stderrIsTerminal: false,
        readText: () => {
          throw new Error('EACCES: permission denied');
        },
      },
    );
    assert.ok('error' in unreadable && /cannot be read \(EACCES/.test(unreadable.error));
  });

  test('help and version', () => {
    assert.deepEqual(parseCheckArgs([], {}, io()), { command: 'help' });
    assert.deepEqual(parseCheckArgs(['check', '--help'], {}, io()), { command: 'help' });
    assert.deepEqual(parseCheckArgs(['--version'], {}, io()), { command: 'version' });
  });
});

describe('mcp --allow-writes', () => {
  const mcpOptions = (argv: string[]): CheckOptions => {
    const parsed = parseCheckArgs(argv, {}, io());
    assert.ok('command' in parsed && parsed.command === 'mcp', JSON.stringify(parsed));
    return parsed.options;
  };
  test('only the flag lets the MCP server write; check has no such option', () => {
    assert.equal(mcpOptions(['mcp', '.']).allowWrites, false);
    assert.equal(mcpOptions(['mcp', '.', '--allow-writes']).allowWrites, true);
    assert.equal(mcpOptions(['mcp', '--allow-writes', 'folder']).paths[0], 'folder');
    assert.match(refusal(['check', '--allow-writes']), /unknown option '--allow-writes'/);
  });
});
