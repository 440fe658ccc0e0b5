/**
 * The hand-off of the local catalog's token from `npm start` to the extension
 * (client/src/localCatalogHandOff.ts), with real files: a loopback URL and a 0600 file give the
 * token for that origin; anything else is refused with a message that says what to fix.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { HAND_OFF_TOKEN_FILE_ENV, HAND_OFF_URL_ENV, readHandOff } from '../../client/src/localCatalogHandOff';

const TOKEN = 'hand-off-token-Q7mZx2pLr9vW4kN8';

function tokenFile(t: { after: (fn: () => void) => void }, text = `${TOKEN}\n`, mode = 0o600): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-handoff-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'catalog.token');
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

const env = (url: string | undefined, file: string | undefined): NodeJS.ProcessEnv => ({
  ...(url !== undefined ? { [HAND_OFF_URL_ENV]: url } : {}),
  ...(file !== undefined ? { [HAND_OFF_TOKEN_FILE_ENV]: file } : {}),
});

describe('the local catalog token handed over by npm start', () => {
  test('nothing handed over: nothing to do', () => {
    assert.deepEqual(readHandOff({ PATH: '/usr/bin' }), { kind: 'none' });
    assert.deepEqual(readHandOff(env('', ' ')), { kind: 'none' });
  });

  test('a loopback URL and a 0600 token file: the token, for that origin', (t) => {
    const file = tokenFile(t);
    assert.deepEqual(readHandOff(env('http://127.0.0.1:9410', file)), {
      kind: 'token',
      origin: 'http://127.0.0.1:9410',
      token: TOKEN,
    });
    assert.deepEqual(readHandOff(env('http://localhost:9411/', file)), {
      kind: 'token',
      origin: 'http://localhost:9411',
      token: TOKEN,
    });
  });

  test('one variable without the other is an error naming the missing one', (t) => {
    const file = tokenFile(t);
    assert.deepEqual(readHandOff(env(undefined, file)), {
      kind: 'error',
      message: `${HAND_OFF_URL_ENV} is not set, but ${HAND_OFF_TOKEN_FILE_ENV} is: set both or neither`,
    });
    assert.match(
      errorOf(readHandOff(env('http://127.0.0.1:9410', undefined))),
      new RegExp(`^${HAND_OFF_TOKEN_FILE_ENV} is not set`),
    );
  });

  test('a URL that is not plain HTTP on this machine is refused: the token would leave it', (t) => {
    const file = tokenFile(t);
    for (const url of [
      'https://127.0.0.1:9410',
      'http://datahub.corp:8080',
      'http://127.0.0.2:9410',
      'http://u:p@127.0.0.1:9410',
      'http://127.0.0.1:9410/api',
      'not a url',
    ]) {
      assert.match(
        errorOf(readHandOff(env(url, file))),
        /must be http:\/\/127\.0\.0\.1:PORT or http:\/\/localhost:PORT/,
        url,
      );
    }
  });

  test('a token file that others can read, is missing, empty, relative or holds more than one token is refused', (t) => {
    const url = 'http://127.0.0.1:9410';
    assert.match(
      errorOf(readHandOff(env(url, tokenFile(t, TOKEN, 0o644)))),
      /can be read by other users \(mode 0644\); it is not used: run `chmod 600`/,
    );
    assert.match(
      errorOf(readHandOff(env(url, path.join(tmpdir(), 'no-such-dir-cl', 'catalog.token')))),
      /cannot read the local catalog's token file .*ENOENT/,
    );
    assert.match(errorOf(readHandOff(env(url, tokenFile(t, ' \n')))), /is empty/);
    assert.match(errorOf(readHandOff(env(url, 'catalog.token'))), /must be an absolute path/);
    assert.match(errorOf(readHandOff(env(url, tokenFile(t, `${TOKEN}\n${TOKEN}\n`)))), /does not hold one token/);
  });

  test('no message shows the token', (t) => {
    const messages = [
      readHandOff(env('http://example.com', tokenFile(t))),
      readHandOff(env('http://127.0.0.1:9410', tokenFile(t, `${TOKEN} ${TOKEN}`))),
      readHandOff(env('http://127.0.0.1:9410', tokenFile(t, TOKEN, 0o640))),
    ].map(errorOf);
    for (const m of messages) assert.ok(!m.includes(TOKEN), m);
  });
});

function errorOf(r: ReturnType<typeof readHandOff>): string {
  assert.equal(r.kind, 'error', JSON.stringify(r));
  return r.kind === 'error' ? r.message : '';
}
