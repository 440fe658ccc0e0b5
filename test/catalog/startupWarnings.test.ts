/**
 * What the catalog says at start about how it was started (a readable token, no token beyond
 * loopback), and which Host names it answers to, tested on the functions the command line uses: no
 * test binds an address beyond loopback.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { banner, startupWarnings } from '../../catalog/src/banner';
import { parseCliOptions } from '../../catalog/src/cliOptions';
import { isLoopbackHost as isLoopback } from '../../model/src/origin';
import { acceptedHosts } from '../../catalog/src/security';

const options = (...args: string[]) => parseCliOptions(args, {}, '/tmp');

describe('start-up warnings', () => {
  test('binding beyond loopback without a token warns, on stderr and in the banner; with a token, or on loopback, it does not', () => {
    const open = options('--host', '0.0.0.0', '--port', '9410', '--db', ':memory:');
    const warnings = startupWarnings(open);
    assert.deepEqual(warnings, [
      'listening on 0.0.0.0, beyond this machine, with no token: anyone who can reach port 9410 can read and change the catalog; set CATALOG_LENS_CATALOG_TOKEN or --token-file FILE',
    ]);
    const lines = banner(
      'http://0.0.0.0:9410',
      acceptedHosts({ bindHost: '0.0.0.0', port: 9410 }),
      open,
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
    );
    assert.ok(lines.includes(`  warning: ${warnings[0]}`), lines.join('\n'));
    assert.equal(lines[0], 'catalog-lens catalog listening on http://0.0.0.0:9410');
    assert.deepEqual(startupWarnings(options('--host', '192.168.1.20', '--db', ':memory:')).length, 1);
    assert.deepEqual(
      startupWarnings(parseCliOptions(['--host', '0.0.0.0'], { CATALOG_LENS_CATALOG_TOKEN: 't' }, '/tmp')),
      [],
    );
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1'])
      assert.deepEqual(startupWarnings(options('--host', host)), [], host);
  });

  test('--token warns that any local user can read it with ps', () => {
    assert.deepEqual(startupWarnings(options('--token', 'abc')), [
      '--token puts the token on the command line, where any user of this machine can read it (ps); set CATALOG_LENS_CATALOG_TOKEN or use --token-file FILE instead',
    ]);
  });

  test('loopback addresses and the Host names of each bind', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]']) assert.ok(isLoopback(h), h);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1']) assert.ok(!isLoopback(h), h);
    assert.deepEqual(acceptedHosts({ bindHost: '127.0.0.1', port: 1 }), ['127.0.0.1:1', 'localhost:1', '[::1]:1']);
    assert.deepEqual(acceptedHosts({ bindHost: '127.0.0.2', port: 1 }), [
      '127.0.0.1:1',
      'localhost:1',
      '[::1]:1',
      '127.0.0.2:1',
    ]);
    assert.deepEqual(acceptedHosts({ bindHost: '::1', port: 1 }), ['127.0.0.1:1', 'localhost:1', '[::1]:1']);
    assert.deepEqual(acceptedHosts({ bindHost: '192.168.1.2', port: 1, allowedHosts: ['Catalog.Example', 'x:2'] }), [
      '192.168.1.2:1',
      'catalog.example:1',
      'x:2',
    ]);
    assert.deepEqual(acceptedHosts({ bindHost: '0.0.0.0', port: 1 }), [
      '127.0.0.1:1',
      'localhost:1',
      '[::1]:1',
      '0.0.0.0:1',
    ]);
  });
});
