/**
 * A web page's attacks on the local catalog (catalog/src/security.ts), performed over real HTTP
 * with node:http (which, unlike fetch, lets a test set Host and Origin), each refused, with a
 * read-back proving nothing was written: form and text/plain writes through ingestProposal,
 * updateDataset and updateDescription, a foreign Host (a DNS rebind) on reads and writes, a foreign
 * Origin, CORS. Plus the database file's mode. docs/local-catalog.md "Security" names these tests.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { startCatalog, type RunningCatalog } from '../../catalog/src/server';
import { encodeUrnForPath } from '../../model/src/urn';
import { rawRequest, type RawAnswer, type RawRequest } from '../reliability/support/rawHttp';
import { DATASET_DESCRIPTIONS } from './documents';
import { testCatalog } from './helpers';

const USERS = SAMPLE.datasets.users;
const PWNED = 'PWNED';

const ingestBody = JSON.stringify({
  proposal: {
    entityType: 'dataset',
    entityUrn: USERS,
    changeType: 'UPSERT',
    aspectName: 'editableDatasetProperties',
    aspect: { value: JSON.stringify({ description: `${PWNED} via CSRF` }), contentType: 'application/json' },
  },
  async: 'false',
});
const updateDatasetBody = JSON.stringify({
  query: `mutation { updateDataset(urn: "${USERS}", input: {editableProperties: {description: "${PWNED}"}}) { urn } }`,
});
// What `<form enctype=text/plain>` sends with <input name='{"query":"…","x":"' value='"}'>.
const updateDescriptionForm = `{"query":"mutation { updateDescription(input: {description: \\"${PWNED}\\", resourceUrn: \\"${USERS.replaceAll('"', '\\"')}\\", subResource: \\"user_id\\", subResourceType: DATASET_FIELD}) }","x":"="}\r\n`;

const WRITES = [
  { name: 'ingestProposal', path: '/aspects?action=ingestProposal', body: ingestBody },
  { name: 'updateDataset', path: '/api/graphql', body: updateDatasetBody },
  { name: 'updateDescription (the text/plain form body)', path: '/api/graphql', body: updateDescriptionForm },
];

/** Everything db.users holds, read with the catalog's own Host: a write that got through shows here. */
async function readBack(catalog: RunningCatalog): Promise<string> {
  const r = await rawRequest(catalog.url, { method: 'GET', path: `/entitiesV2/${encodeUrnForPath(USERS)}` });
  assert.equal(r.status, 200, r.text);
  return JSON.stringify(JSON.parse(r.text).aspects);
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function error(r: RawAnswer): string {
  return (JSON.parse(r.text) as { error: string }).error;
}

describe('security: writes a web page can send without a preflight are refused', () => {
  for (const contentType of [
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
  ]) {
    test(`POST with ${contentType ?? 'no Content-Type'} to ingestProposal, updateDataset and updateDescription: 415, nothing written`, async (t) => {
      const catalog = await testCatalog(t, { sample: true });
      const before = await readBack(catalog);
      for (const w of WRITES) {
        const r = await rawRequest(catalog.url, {
          path: w.path,
          body: w.body,
          headers: contentType ? { 'Content-Type': contentType } : {},
        });
        assert.equal(r.status, 415, `${w.name}: ${r.text}`);
        assert.match(
          error(r),
          new RegExp(
            `^POST needs Content-Type: application/json; found ${escapeRe(contentType ? `'${contentType}'` : 'none')}`,
          ),
        );
      }
      const after = await readBack(catalog);
      assert.equal(after, before);
      assert.ok(!after.includes(PWNED));
      // The same write as JSON (a charset parameter and any case allowed) goes through: what is refused is the kind of body.
      const json = await rawRequest(catalog.url, {
        path: WRITES[0]!.path,
        body: WRITES[0]!.body,
        headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
      });
      assert.equal(json.status, 200, json.text);
      assert.ok((await readBack(catalog)).includes(PWNED));
    });
  }
});

describe('security: Host (DNS rebinding) and Origin', () => {
  test('a foreign Host is refused on reads and writes, with the Host received and the names accepted', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const before = await readBack(catalog);
    const evil = `evil.example:${catalog.port}`;
    for (const [method, p] of [
      ['GET', `/entitiesV2/${encodeUrnForPath(USERS)}`],
      ['GET', '/config'],
      ['GET', '/health'],
      ['POST', '/aspects?action=ingestProposal'],
      ['POST', '/api/graphql'],
    ] as const) {
      const r = await rawRequest(catalog.url, {
        method,
        path: p,
        headers: { Host: evil, 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: p === '/api/graphql' ? updateDatasetBody : ingestBody } : {}),
      });
      assert.equal(r.status, 403, `${method} ${p}: ${r.text}`);
      assert.equal(
        error(r),
        `Host '${evil}' is not this catalog's name: it answers to Host 127.0.0.1:${catalog.port}, localhost:${catalog.port}, [::1]:${catalog.port} ` +
          '(a page reached through another name, e.g. after a DNS rebind, is refused; start the catalog with --allowed-hosts NAME to add one)',
      );
      assert.ok(!r.text.includes('One row per registered user'), 'no catalog data in the answer');
    }
    assert.equal(await readBack(catalog), before);
  });

  test("the catalog's own names pass, in any case; a name without the port, another port or a missing Host does not; --allowed-hosts adds names", async (t) => {
    const catalog = await testCatalog(t, { allowedHosts: ['catalog.internal', 'other.internal:8443'] });
    const status = async (host: string): Promise<number> =>
      (await rawRequest(catalog.url, { method: 'GET', path: '/health', headers: { Host: host } })).status;
    for (const ok of [
      `127.0.0.1:${catalog.port}`,
      `localhost:${catalog.port}`,
      `LOCALHOST:${catalog.port}`,
      `[::1]:${catalog.port}`,
      `catalog.internal:${catalog.port}`,
      'other.internal:8443',
    ]) {
      assert.equal(await status(ok), 200, ok);
    }
    for (const bad of [
      'localhost',
      `127.0.0.1:${catalog.port + 1}`,
      `127.0.0.1.nip.io:${catalog.port}`,
      `localhost.:${catalog.port}`,
      `catalog.internal:${catalog.port + 1}`,
    ]) {
      assert.equal(await status(bad), 403, bad);
    }
    // HTTP/1.0 needs no Host (Node itself answers 400 to HTTP/1.1 without one): the catalog refuses it too.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(catalog.port, '127.0.0.1', () => socket.end('GET /health HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        text += d;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(
      answer,
      /the request has no Host header; this catalog answers to Host 127\.0\.0\.1:\d+, localhost:\d+, \[::1\]:\d+, catalog\.internal:\d+, other\.internal:8443/,
    );
  });

  test("an Origin other than the catalog's own is refused (null included); its own Origin passes, as a page of the catalog's own would send", async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const before = await readBack(catalog);
    for (const origin of [
      'https://evil.example',
      `http://evil.example:${catalog.port}`,
      'null',
      `http://127.0.0.1:${catalog.port + 1}`,
    ]) {
      const r = await rawRequest(catalog.url, {
        path: '/aspects?action=ingestProposal',
        body: ingestBody,
        headers: { Origin: origin, 'Content-Type': 'application/json' },
      });
      assert.equal(r.status, 403, origin);
      assert.match(
        error(r),
        new RegExp(
          `^Origin '${escapeRe(origin)}' is not this catalog's: requests from web pages of other origins are refused`,
        ),
      );
      const read = await rawRequest(catalog.url, { method: 'GET', path: '/config', headers: { Origin: origin } });
      assert.equal(read.status, 403, origin);
    }
    assert.equal(await readBack(catalog), before);
    // The page rule: a GET from the catalog's own origin, on its own Host, is answered.
    const own = await rawRequest(catalog.url, {
      method: 'GET',
      path: '/config',
      headers: { Origin: `http://localhost:${catalog.port}`, Host: `localhost:${catalog.port}` },
    });
    assert.equal(own.status, 200, own.text);
  });

  test('no answer carries a CORS header; OPTIONS (a preflight) is a 405 on every path', async (t) => {
    const catalog = await testCatalog(t, { sample: true, token: 'tok-cors' });
    const preflight = {
      Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,authorization',
    };
    const requests: RawRequest[] = [
      ...['/api/graphql', '/aspects?action=ingestProposal', '/health', '/config', '/nowhere'].map((p) => ({
        method: 'OPTIONS',
        path: p,
        headers: preflight,
      })),
      ...['/api/graphql', '/aspects?action=ingestProposal', '/health', '/config', '/nowhere'].map((p) => ({
        method: 'OPTIONS',
        path: p,
        headers: {},
      })),
      { method: 'GET', path: '/config', headers: {} },
      { method: 'GET', path: `/entitiesV2/${encodeUrnForPath(USERS)}`, headers: {} },
      { method: 'GET', path: `/entitiesV2/${encodeUrnForPath(USERS)}`, headers: { Authorization: 'Bearer tok-cors' } },
      {
        method: 'POST',
        path: '/api/graphql',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer tok-cors' },
        body: '{"query": "{ __typename }"}',
      },
      {
        method: 'POST',
        path: '/api/graphql',
        headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
        body: '{}',
      },
    ];
    for (const req of requests) {
      const r = await rawRequest(catalog.url, req);
      const cors = Object.keys(r.headers).filter((h) => h.startsWith('access-control-'));
      assert.deepEqual(cors, [], `${req.method} ${req.path} answered ${cors.join(', ')}`);
      if (req.method === 'OPTIONS' && Object.keys(req.headers ?? {}).length === 0) {
        assert.equal(r.status, 405, `${req.method} ${req.path}`);
        assert.match(error(r), /^OPTIONS is not supported: this catalog answers no CORS preflight/);
      }
    }
  });
});

describe('security: every answer says nosniff (security-probe Part 2, finding 18)', () => {
  test('X-Content-Type-Options: nosniff on JSON answers of every status, pages, redirects and the favicon', async (t) => {
    const catalog = await testCatalog(t, { sample: true, token: 'tok-nosniff', maxBodyBytes: 1024 });
    const auth = { Authorization: 'Bearer tok-nosniff' };
    const json = { 'Content-Type': 'application/json', ...auth };
    const cases: Array<RawRequest & { status: number }> = [
      { method: 'GET', path: '/health', status: 200 },
      { method: 'GET', path: '/config', status: 200 },
      { method: 'POST', path: '/api/graphql', headers: json, body: '{"query": "{ __typename }"}', status: 200 },
      { method: 'POST', path: '/api/graphql', headers: json, body: '{"query": "{ nope }"}', status: 200 },
      { method: 'GET', path: `/entitiesV2/${encodeUrnForPath(USERS)}`, headers: auth, status: 200 },
      {
        method: 'POST',
        path: '/api/graphql',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
        status: 401,
      },
      { method: 'GET', path: '/health', headers: { Host: 'evil.example' }, status: 403 },
      { method: 'GET', path: '/nowhere', headers: auth, status: 404 },
      {
        method: 'GET',
        path: `/dataset/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:hive,db.absent,PROD)')}`,
        status: 404,
      },
      { method: 'GET', path: '/entitiesV2/urn%3Ali%3Adataset%3Anope', headers: auth, status: 400 },
      { method: 'OPTIONS', path: '/api/graphql', status: 405 },
      {
        method: 'POST',
        path: '/api/graphql',
        headers: { ...auth, 'Content-Type': 'text/plain' },
        body: '{}',
        status: 415,
      },
      { method: 'POST', path: '/aspects?action=nope', headers: json, body: '{}', status: 400 },
      { method: 'POST', path: '/api/graphql', headers: json, body: 'x'.repeat(2048), status: 413 },
      { method: 'GET', path: '/', status: 200 },
      { method: 'GET', path: '/favicon.ico', status: 204 },
      { method: 'GET', path: `/dataset/${encodeURIComponent(USERS)}`, status: 200 },
    ];
    for (const c of cases) {
      const r = await rawRequest(catalog.url, c);
      const what = `${c.method} ${c.path} (${r.status})`;
      assert.equal(r.status, c.status, `${what}: ${r.text.slice(0, 200)}`);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
    }
  });
});

describe('security: a GraphQL body is capped while it streams', () => {
  test('a chunked body (no Content-Length) past maxBodyBytes is refused with 413 and nosniff; a cached answer, sent twice, says nosniff both times', async (t) => {
    const catalog = await testCatalog(t, { sample: true, token: 'tok-chunked', maxBodyBytes: 1024 });
    const answer = await new Promise<{ status: number; nosniff: unknown; text: string }>((resolve, reject) => {
      const req = request(
        `${catalog.url}/api/graphql`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer tok-chunked' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, nosniff: res.headers['x-content-type-options'], text }),
          );
        },
      );
      // The server may close after its answer while chunks are still being written.
      req.on('error', (e: NodeJS.ErrnoException) =>
        e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
      );
      assert.equal(req.getHeader('content-length'), undefined);
      for (let i = 0; i < 8; i++) req.write('{"query": "' + 'x'.repeat(200) + '"}');
      req.end();
    });
    assert.equal(answer.status, 413, answer.text.slice(0, 200));
    assert.equal(answer.nosniff, 'nosniff');
    const body = JSON.stringify({ query: DATASET_DESCRIPTIONS, variables: { urn: USERS } });
    for (let i = 0; i < 2; i++) {
      const r = await rawRequest(catalog.url, {
        method: 'POST',
        path: '/api/graphql',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer tok-chunked' },
        body,
      });
      assert.equal(r.status, 200, r.text.slice(0, 200));
      assert.equal(r.headers['x-content-type-options'], 'nosniff', `answer ${i + 1}`);
    }
  });
});

describe('security: the database file is private', () => {
  test('the folder the catalog creates is 0700, the database and its -wal and -shm files 0600; an existing 0644 file is narrowed', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-mode-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = path.join(dir, 'state', 'nested', 'catalog.db');
    const catalog = await startCatalog({ port: 0, db, sample: true });
    const mode = (f: string): string => (statSync(f).mode & 0o777).toString(8);
    try {
      assert.equal(mode(path.join(dir, 'state')), '700');
      assert.equal(mode(path.dirname(db)), '700');
      for (const f of [db, `${db}-wal`, `${db}-shm`]) assert.equal(mode(f), '600', f);
    } finally {
      await catalog.close();
    }
    const old = path.join(dir, 'old');
    mkdirSync(old);
    const folderMode = mode(old);
    const oldDb = path.join(old, 'catalog.db');
    writeFileSync(oldDb, '');
    chmodSync(oldDb, 0o644);
    const reopened = await startCatalog({ port: 0, db: oldDb });
    try {
      assert.equal(mode(oldDb), '600');
      assert.equal(mode(old), folderMode, 'a folder the catalog did not create keeps its mode');
    } finally {
      await reopened.close();
    }
  });
});
