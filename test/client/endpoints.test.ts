/**
 * Where the access token may go: a token is keyed by the origin of
 * catalogLens.url, and sending it over plain HTTP off this machine or to another GraphQL host is
 * a risk the user confirms. Also the catalog URL checks of Configure Catalog and the entity page
 * of Open in Catalog, which follows the server's links.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCatalogUrl, tokenRisks, tokenSecretKey } from '../../client/src/endpoints';
import { isLoopbackHost, originOf } from '../../model/src/origin';

describe('a token belongs to one origin', () => {
  test('the secret key is the origin of catalogLens.url: path, trailing slash and case of the host do not matter', () => {
    assert.equal(originOf('https://DataHub.example.com:8080/gms/'), 'https://datahub.example.com:8080');
    assert.equal(
      tokenSecretKey(originOf('https://datahub.example.com:8080/x')!),
      'catalogLens.token:https://datahub.example.com:8080',
    );
    assert.equal(originOf('http://localhost:8080'), originOf('http://localhost:8080/'));
  });

  test('another port or scheme is another origin, so another token', () => {
    assert.notEqual(originOf('http://host:8080'), originOf('http://host:9002'));
    assert.notEqual(originOf('http://host'), originOf('https://host'));
  });

  test('no origin (so no token) for an empty or non-http URL', () => {
    assert.equal(originOf(''), undefined);
    assert.equal(originOf('   '), undefined);
    assert.equal(originOf('file:///etc/passwd'), undefined);
    assert.equal(originOf('not a url'), undefined);
  });
});

describe('risks confirmed before the token is sent', () => {
  test('https and loopback http are no risk', () => {
    assert.deepEqual(tokenRisks('https://datahub.example.com', ''), []);
    assert.deepEqual(tokenRisks('http://localhost:8080', ''), []);
    assert.deepEqual(tokenRisks('http://[::1]:8080', ''), []);
  });

  test('plain http to another machine is a risk, keyed by its origin', () => {
    const risks = tokenRisks('http://datahub.internal:8080', '');
    assert.deepEqual(
      risks.map((r) => r.key),
      ['insecure:http://datahub.internal:8080'],
    );
    assert.match(risks[0]!.message, /plain HTTP/);
    assert.equal(risks[0]!.insecureHost, 'datahub.internal:8080', 'the host the server is told the user accepted');
  });

  test('a GraphQL URL on plain http off this machine is a risk of its own', () => {
    const risks = tokenRisks('https://gms.example.com', 'http://frontend.example.com/api/graphql');
    assert.deepEqual(
      risks.map((r) => r.key).sort(),
      ['graphql:https://gms.example.com->http://frontend.example.com', 'insecure:http://frontend.example.com'].sort(),
    );
  });

  test('a GraphQL URL on another origin is a risk: another host, and another port of the same host (another program may listen there)', () => {
    const risks = tokenRisks('https://datahub.example.com', 'https://evil.example.net/api/graphql');
    assert.equal(risks.length, 1);
    assert.match(risks[0]!.message, /evil\.example\.net/);
    assert.equal(risks[0]!.otherOrigin, 'https://evil.example.net');
    const port = tokenRisks('https://datahub.example.com:8080', 'https://datahub.example.com:9999/api/graphql');
    assert.deepEqual(
      port.map((r) => r.key),
      ['graphql:https://datahub.example.com:8080->https://datahub.example.com:9999'],
    );
    assert.match(port[0]!.message, /another port/);
    assert.deepEqual(
      tokenRisks('http://127.0.0.1:9410', 'http://127.0.0.1:9002/api/graphql').map((r) => r.otherOrigin),
      ['http://127.0.0.1:9002'],
    );
    assert.deepEqual(
      tokenRisks('https://datahub.example.com:8080', 'https://datahub.example.com:8080/other/api/graphql'),
      [],
      'same origin, other path: no risk',
    );
  });

  test('an origin listed in catalogLens.allowTokenOrigins is no risk', () => {
    assert.deepEqual(
      tokenRisks('https://datahub.example.com:8080', 'https://datahub.example.com:9999/api/graphql', [
        'https://datahub.example.com:9999',
      ]),
      [],
    );
    assert.equal(
      tokenRisks('https://datahub.example.com:8080', 'https://datahub.example.com:9999/api/graphql', [
        'https://datahub.example.com:9998',
      ]).length,
      1,
    );
  });

  test('loopback hosts', () => {
    for (const h of [
      'localhost',
      'LOCALHOST',
      'api.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
      '::ffff:127.0.0.1',
    ])
      assert.ok(isLoopbackHost(h), h);
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) assert.ok(!isLoopbackHost(h), h);
  });
});

describe('Configure Catalog accepts only plain http(s) base URLs', () => {
  test('good URLs', () => {
    for (const u of ['http://localhost:8080', 'https://datahub.example.com/gms', ' http://127.0.0.1:9410 '])
      assert.equal(checkCatalogUrl(u, { optional: false }), undefined, u);
  });

  test('empty is an error for the catalog URL and fine for the optional GraphQL URL', () => {
    assert.match(checkCatalogUrl('', { optional: false }) ?? '', /Enter the catalog URL/);
    assert.equal(checkCatalogUrl('', { optional: true }), undefined);
  });

  test('credentials in the URL are refused: the token belongs in secret storage', () => {
    assert.match(
      checkCatalogUrl('https://user:secret@datahub.example.com', { optional: false }) ?? '',
      /Set Access Token/,
    );
  });

  test('other schemes, queries and non-URLs are refused', () => {
    assert.match(checkCatalogUrl('ftp://host', { optional: false }) ?? '', /http/);
    assert.match(checkCatalogUrl('http://host/?token=x', { optional: false }) ?? '', /query/);
    assert.match(checkCatalogUrl('localhost:8080', { optional: false }) ?? '', /http|URL/);
  });
});
