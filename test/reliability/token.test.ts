/**
 * The access token. With a distinctive token set, nothing the project produces holds it (in any
 * spelling: as is, URL-encoded, base64): not the server's JSON-RPC output with the trace at
 * `verbose` (every response, notification, `$/logTrace`, log and show message), not its stderr,
 * not the catalogs' own log lines and banners (which also hold every URL requested), whatever
 * the server is asked (hovers, diagnostics, links, every command, failing ones included) and
 * whether the catalog works, refuses the token, is down, or redirects. It reaches only the
 * configured host: a decoy that links and a redirect point at never sees a request. And a plain
 * HTTP endpoint that is not this machine gets a question before the token is sent there, tested
 * with a recording fetch so that no packet leaves 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { RequestInit, Response } from 'node-fetch' with { 'resolution-mode': 'import' };
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, type Settings } from '../../model/src/protocol';
import type { Fetch } from '../../server/src/catalogClient/http';
import { CatalogClients } from '../../server/src/catalogClient/registry';
import { startServer } from '../../server/src/server';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';
import { startFaultProxy, type FaultProxy } from '../support/faultProxy';
import { S } from '../support/fixture';
import { startTracedSession, type TracedSession } from './support/tracedSession';

const TOKEN = 'CL-tok+9f3a/Zq7=distinctive';
const SPELLINGS = [
  TOKEN,
  encodeURIComponent(TOKEN),
  Buffer.from(TOKEN).toString('base64'),
  Buffer.from(`Bearer ${TOKEN}`).toString('base64'),
  TOKEN.slice(3, 17),
];

interface Listener {
  url: string;
  seen: IncomingMessage[];
  close(): Promise<void>;
}

async function listen(
  handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<Listener> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function spellingsIn(text: string): string[] {
  return SPELLINGS.filter((s) => text.includes(s));
}

describe('the token never shows, and goes only where it is configured to', () => {
  let catalogA: CatalogProcess;
  let catalogB: CatalogProcess;
  let proxy: FaultProxy;
  let decoy: Listener;
  let redirector: Listener;
  let workspace: string;
  const sessions: Array<{ name: string; session: TracedSession; results: unknown[] }> = [];

  before(async () => {
    catalogA = await startCatalogProcess({ sample: true, env: { CATALOG_LENS_CATALOG_TOKEN: TOKEN } });
    catalogB = await startCatalogProcess({ sample: true, env: { CATALOG_LENS_CATALOG_TOKEN: 'another-token' } });
    proxy = await startFaultProxy(catalogA.url);
    decoy = await listen((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": {}}'));
    redirector = await listen((req, res) => res.writeHead(307, { Location: `${decoy.url}${req.url ?? '/'}` }).end());
    workspace = mkdtempSync(path.join(tmpdir(), 'token-ws-'));
    writeFileSync(path.join(workspace, 'pipeline.py'), `a = "${S.users}"\nb = "${S.ghost}"\n`);
    writeFileSync(path.join(workspace, 'catalog.yml'), `datasets:\n  - urn: ${S.orders}\n    description: Orders.\n`);
  });
  after(async () => {
    for (const { session } of sessions) await session.stop();
    await proxy.close();
    await decoy.close();
    await redirector.close();
    await catalogA.stop();
    await catalogB.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  const python = [
    `users = "${S.users}"`,
    `ghost = "${S.ghost}"`,
    'bad = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"',
    'u = make_dataset_urn("hive", "db.orders", "PROD")',
    `f = "${S.age}"`,
    `m = "${S.churnModel}"`,
    'x = "urn:li:',
    '',
  ].join('\n');
  const yaml = `datasets:\n  - urn: ${S.users}\n    description: Not what the catalog says.\n    columns:\n      - name: age\n        description: Age.\n      - name: emial\n`;

  /** Everything a client can ask, working and failing, so that every message path runs. */
  async function exercise(
    name: string,
    settings: Record<string, unknown>,
    extra: { env?: NodeJS.ProcessEnv; initializationOptions?: Record<string, unknown> } = {},
  ): Promise<TracedSession> {
    const session = await startTracedSession({
      settings,
      env: extra.env ?? { CATALOG_LENS_TOKEN: TOKEN },
      initializationOptions: extra.initializationOptions ?? { clientCommands: true, statusNotifications: true },
      workspaceFolders: [{ uri: pathToFileURL(workspace).toString(), name: 'ws' }],
      answerMessage: (_m, items) => items[0] ?? null,
    });
    const results: unknown[] = [];
    sessions.push({ name, session, results });
    const py = TextDocument.create('file:///t/a.py', 'python', 1, python);
    const yml = TextDocument.create('file:///t/c.yml', 'yaml', 1, yaml);
    await session.open(py.uri, 'python', python);
    await session.open(yml.uri, 'yaml', yaml);
    const diagnostics = [...(await session.diagnostics(py.uri)), ...(await session.diagnostics(yml.uri))] as Array<{
      range: unknown;
    }>;
    for (const doc of [py, yml]) {
      const text = doc.getText();
      for (let i = text.indexOf('urn:'); i >= 0; i = text.indexOf('urn:', i + 1)) {
        const position = doc.positionAt(i + 8);
        results.push(await session.request('textDocument/hover', { textDocument: { uri: doc.uri }, position }));
        results.push(await session.request('catalogLens/urnAt', { textDocument: { uri: doc.uri }, position }));
        results.push(
          await session.request('textDocument/codeAction', {
            textDocument: { uri: doc.uri },
            range: { start: position, end: position },
            context: { diagnostics },
          }),
        );
      }
      results.push(await session.request('textDocument/documentLink', { textDocument: { uri: doc.uri } }));
      results.push(
        await session.request('textDocument/completion', {
          textDocument: { uri: doc.uri },
          position: doc.positionAt(text.lastIndexOf('urn:') + 7),
        }),
      );
    }
    results.push(await session.request('catalogLens/knownUrns', { kind: 'dataset' }));
    const commands: Array<[string, unknown]> = [
      [
        'catalogLens.setDatasetDescription',
        {
          urn: S.orders,
          description: 'Orders.',
          link: { url: 'https://wiki.example.com/orders', description: 'Runbook' },
        },
      ],
      ['catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'age', description: 'Age in years.' }],
      ['catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'emial', description: 'x' }],
      ['catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.signupDays] }],
      ['catalogLens.addFeaturesToModel', { model: S.churnModel, features: [S.avgAmount] }],
      ['catalogLens.addGroupsToModel', { model: S.ltvModel, groups: [S.ltvGroup] }],
      [
        'catalogLens.createEntity',
        { urn: 'urn:li:mlFeature:(users_table,tenure)', properties: { description: 'Tenure.' } },
      ],
      ['catalogLens.createEntity', { urn: S.age, properties: { description: 'again' } }],
      ['catalogLens.setDatasetDescription', { urn: S.ghost, description: 'x' }],
      ['catalogLens.setDatasetDescription', { urn: 'urn:li:dataset:(oops', description: 'x' }],
      ['catalogLens.addFeaturesToModel', { model: S.churnModel, features: [S.ghostFeature] }],
      ['catalogLens.setDatasetDescription', 'not an object'],
      ['catalogLens.checkWorkspace', {}],
      ['catalogLens.refresh', {}],
      ['catalogLens.testConnection', {}],
    ];
    for (const [command, arg] of commands) results.push(await session.command(command, arg));
    results.push(await session.command('catalogLens.noSuchCommand', {}).catch((e: unknown) => String(e)));
    nothingLeakedSoFar();
    return session;
  }

  /** What holds after any session, in any order: no spelling of the token in the catalogs' logs, and the token only where it may go. */
  function nothingLeakedSoFar(): void {
    assert.deepEqual(spellingsIn(catalogA.output()), []);
    assert.deepEqual(spellingsIn(catalogB.output()), []);
    assert.ok(proxy.authorizations.every((a) => a === `Bearer ${TOKEN}`));
    assert.ok(redirector.seen.every((r) => r.headers.authorization === `Bearer ${TOKEN}`));
    assert.equal(decoy.seen.length, 0, `the decoy saw ${decoy.seen.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  }

  test('a working catalog (through a proxy that records Authorization): everything runs, the token shows nowhere', async () => {
    const s = await exercise('working catalog', { url: proxy.url, uiUrl: decoy.url });
    assert.ok(
      s.received.some(
        (m) => m.method === 'catalogLens/status' && (m.params as { state: string }).state === 'connected',
      ),
    );
    assert.deepEqual(spellingsIn(s.output()), []);
  });

  test('a catalog that refuses the token (401): every failure says so, and the token shows nowhere', async () => {
    const s = await exercise('401 catalog', { url: catalogB.url });
    assert.match(s.output(), /refused the access token \(401\)/);
    assert.deepEqual(spellingsIn(s.output()), []);
  });

  test('a catalog that is down: every failure says so, and the token shows nowhere', async () => {
    const s = await exercise('catalog down', { url: `http://127.0.0.1:${await freePort()}` });
    assert.match(s.output(), /connection refused at http:\/\/127\.0\.0\.1:\d+/);
    assert.deepEqual(spellingsIn(s.output()), []);
  });

  test('a GraphQL endpoint that redirects elsewhere: the redirect is not followed and the target sees nothing', async () => {
    const s = await exercise('redirecting endpoint', { url: proxy.url, graphqlUrl: `${redirector.url}/api/graphql` });
    assert.match(
      s.output(),
      /redirects \(307\) to http:\/\/127\.0\.0\.1:\d+\/api\/graphql; configure the final address \(the token is not sent through redirects\)/,
    );
    assert.ok(redirector.seen.length > 0);
    assert.deepEqual(spellingsIn(s.output()), []);
  });

  test('the token given in initializationOptions (editors without an environment): shows nowhere either', async () => {
    const s = await exercise(
      'token in initializationOptions',
      { url: proxy.url },
      { env: {}, initializationOptions: { clientCommands: true, statusNotifications: true, token: TOKEN } },
    );
    assert.deepEqual(spellingsIn(s.output()), []);
  });

  test("the catalogs' own logs and banners (every URL requested is in them) hold no spelling of the token", async () => {
    // Sessions of its own, so both catalogs have answered (200 and 401) whatever ran before.
    await exercise('working catalog, for the logs', { url: proxy.url, uiUrl: decoy.url });
    await exercise('401 catalog, for the logs', { url: catalogB.url });
    assert.match(catalogA.output(), /POST \/api\/graphql 200/);
    assert.match(catalogA.output(), /POST \/aspects\?action=ingestProposal 200/);
    assert.match(catalogB.output(), /POST \/api\/graphql 401/);
    assert.deepEqual(spellingsIn(catalogA.output()), []);
    assert.deepEqual(spellingsIn(catalogB.output()), []);
  });

  test('it was sent only to configured hosts: the proxy and the redirecting endpoint saw exactly it; the decoy that links and the redirect point at saw no request', async () => {
    // Sessions of its own, through the proxy and through the redirecting endpoint, whatever ran before.
    const working = await exercise('working catalog, for the hosts', { url: proxy.url, uiUrl: decoy.url });
    await exercise('redirecting endpoint, for the hosts', {
      url: proxy.url,
      graphqlUrl: `${redirector.url}/api/graphql`,
    });
    assert.ok(proxy.authorizations.length > 0);
    assert.deepEqual([...new Set(proxy.authorizations)], [`Bearer ${TOKEN}`]);
    assert.deepEqual([...new Set(redirector.seen.map((r) => r.headers.authorization))], [`Bearer ${TOKEN}`]);
    assert.equal(decoy.seen.length, 0, `the decoy saw ${decoy.seen.map((r) => `${r.method} ${r.url}`).join(', ')}`);
    const links = JSON.stringify(sessions.find((s) => s.session === working)!.results);
    assert.ok(
      links.includes(decoy.url),
      'links do point at the decoy (so it would have seen a request had the server followed one)',
    );
    console.log(
      `token checks: ${sessions.length} server sessions, ${sessions.reduce((n, s) => n + s.results.length, 0)} answers, ${sessions.reduce((n, s) => n + s.session.output().length, 0)} bytes of server output, ${proxy.authorizations.length} authorized requests, all clean`,
    );
  });
});

/** A fetch that records every call and answers like an empty catalog; nothing leaves the process. */
function recordingFetch(events: string[]): Fetch {
  return async (url: string, init: RequestInit) => {
    const auth = (init.headers as Record<string, string> | undefined)?.['Authorization'];
    events.push(`fetch ${new URL(url).host} ${auth ? 'with token' : 'without token'}`);
    const { Response } = await import('node-fetch');
    return new Response(JSON.stringify({ data: { e0: null } }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
}

const settingsFor = (url: string): Settings => ({ ...DEFAULT_SETTINGS, url });

describe('a plain-HTTP catalog that is not this machine gets a question before the token is sent (no packet leaves 127.0.0.1)', () => {
  const resolveOne = (catalogs: CatalogClients, url: string): Promise<unknown> =>
    catalogs.clientFor(settingsFor(url)).resolve([{ urn: S.users, kind: 'dataset' }]);

  function catalogsWith(
    events: string[],
    answer: (host: string, kind: string) => Promise<boolean>,
    extra: Partial<ConstructorParameters<typeof CatalogClients>[0]> = {},
  ): CatalogClients {
    return new CatalogClients({
      token: TOKEN,
      fetch: recordingFetch(events),
      onStatus: () => undefined,
      onRecovered: () => undefined,
      log: () => undefined,
      confirmToken: (origin, _why, kind) => {
        const host = new URL(origin).host;
        events.push(kind === 'plainHttp' ? `ask ${host}` : `ask ${host} (${kind})`);
        return answer(host, kind);
      },
      ...extra,
    });
  }

  test('nothing at all is sent while the question is open; "send" then sends the token, asked once per host', async () => {
    const events: string[] = [];
    let answer!: (yes: boolean) => void;
    let asked!: () => void;
    const wasAsked = new Promise<void>((r) => {
      asked = r;
    });
    const catalogs = catalogsWith(events, () => {
      asked();
      return new Promise<boolean>((r) => {
        answer = r;
      });
    });
    const first = resolveOne(catalogs, 'http://catalog.example.com:8080');
    await wasAsked;
    assert.deepEqual(events, ['ask catalog.example.com:8080'], 'asked, and no request went out meanwhile');
    answer(true);
    await first;
    await resolveOne(catalogs, 'http://catalog.example.com:8080/');
    catalogs.reset();
    await resolveOne(catalogs, 'http://catalog.example.com:8080');
    assert.equal(events[0], 'ask catalog.example.com:8080');
    assert.equal(events.filter((e) => e.startsWith('ask')).length, 1, 'asked once for the host');
    assert.ok(
      events.slice(1).every((e) => e === 'fetch catalog.example.com:8080 with token'),
      events.join('\n'),
    );
  });

  test('"do not send": requests go without the token', async () => {
    const events: string[] = [];
    const catalogs = catalogsWith(events, async () => false);
    await resolveOne(catalogs, 'http://10.1.2.3:8080');
    assert.deepEqual(events, ['ask 10.1.2.3:8080', 'fetch 10.1.2.3:8080 without token']);
  });

  test('no question for loopback, for https, for hosts the user already allowed, or without a token', async () => {
    for (const url of [
      'http://127.0.0.1:9410',
      'http://localhost:9410',
      'http://[::1]:9410',
      'https://catalog.example.com',
    ]) {
      const events: string[] = [];
      await resolveOne(
        catalogsWith(events, async () => false),
        url,
      );
      assert.deepEqual(events, [`fetch ${new URL(url).host} with token`], url);
    }
    const allowed: string[] = [];
    await resolveOne(
      catalogsWith(allowed, async () => false, { allowedOrigins: () => ['http://catalog.example.com:8080'] }),
      'http://catalog.example.com:8080',
    );
    assert.deepEqual(allowed, ['fetch catalog.example.com:8080 with token']);
    const tokenless: string[] = [];
    await resolveOne(
      catalogsWith(tokenless, async () => true, { token: undefined }),
      'http://catalog.example.com:8080',
    );
    assert.deepEqual(tokenless, ['fetch catalog.example.com:8080 without token']);
  });

  test('a GraphQL override on another plain-HTTP host is asked about twice (another origin, plain HTTP), before anything goes there', async () => {
    const events: string[] = [];
    const catalogs = catalogsWith(events, async (host) => host === 'gql.example.com');
    await catalogs
      .clientFor({
        ...DEFAULT_SETTINGS,
        url: 'https://gms.example.com',
        graphqlUrl: 'http://gql.example.com/api/graphql',
      })
      .resolve([{ urn: S.users, kind: 'dataset' }]);
    assert.deepEqual(events, [
      'ask gql.example.com (otherOrigin)',
      'ask gql.example.com',
      'fetch gql.example.com with token',
    ]);
  });

  test('a GraphQL override on the same host but another port is another origin: asked, and without an answer no token goes there', async () => {
    const events: string[] = [];
    const catalogs = catalogsWith(events, async () => false);
    await catalogs
      .clientFor({
        ...DEFAULT_SETTINGS,
        url: 'https://datahub.corp:8080',
        graphqlUrl: 'https://datahub.corp:9999/api/graphql',
      })
      .resolve([{ urn: S.users, kind: 'dataset' }]);
    assert.deepEqual(events, ['ask datahub.corp:9999 (otherOrigin)', 'fetch datahub.corp:9999 without token']);
  });

  test('catalogLens.allowTokenOrigins lets the token go to another origin without a question', async () => {
    const events: string[] = [];
    const catalogs = catalogsWith(events, async () => false);
    await catalogs
      .clientFor({
        ...DEFAULT_SETTINGS,
        url: 'https://datahub.corp:8080',
        graphqlUrl: 'https://datahub.corp:9999/api/graphql',
        allowTokenOrigins: ['https://datahub.corp:9999'],
      })
      .resolve([{ urn: S.users, kind: 'dataset' }]);
    assert.deepEqual(events, ['fetch datahub.corp:9999 with token']);
  });

  test('a standalone editor (not the Catalog Lens extension) is never asked about another origin: the token is withheld, the reason logged, and a 401 says why', async () => {
    const events: string[] = [];
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const answers = async (url: string, init: RequestInit): Promise<Response> => {
      const auth = (init.headers as Record<string, string> | undefined)?.['Authorization'];
      events.push(`fetch ${new URL(url).host} ${auth ? 'with token' : 'without token'}`);
      const { Response } = await import('node-fetch');
      return new Response('', { status: 401 });
    };
    startServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
      env: { CATALOG_LENS_TOKEN: TOKEN },
      fetch: answers,
    });
    const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const logs: string[] = [];
    client.onRequest('workspace/configuration', (p: { items: unknown[] }) =>
      p.items.map(() => ({ url: 'https://datahub.corp:8080', graphqlUrl: 'https://datahub.corp:9999/api/graphql' })),
    );
    client.onRequest('window/showMessageRequest', () => {
      events.push('editor asked');
      return null;
    });
    client.onNotification('window/logMessage', (p: { message: string }) => {
      logs.push(p.message);
    });
    client.listen();
    await client.sendRequest('initialize', {
      processId: null,
      rootUri: null,
      capabilities: { workspace: { configuration: true } },
    });
    await client.sendNotification('initialized', {});
    const status = await client.sendRequest<{ message: string }>('workspace/executeCommand', {
      command: 'catalogLens.testConnection',
      arguments: [{}],
    });
    assert.deepEqual(events, ['fetch datahub.corp:9999 without token'], 'not asked, and no token sent');
    assert.match(
      status.message,
      /not sent to https:\/\/datahub\.corp:9999, another origin: allow it with catalogLens\.allowTokenOrigins/,
    );
    assert.ok(
      logs.some((l) => /withheld from https:\/\/datahub\.corp:9999/.test(l)),
      logs.join('\n'),
    );
    assert.deepEqual(spellingsIn([...logs, status.message].join('\n')), []);
    await client.sendRequest('shutdown');
    client.dispose();
  });

  test('the real server asks the editor (window/showMessageRequest) before the first request carries the token', async () => {
    for (const choice of ['Send the token', 'Do not send']) {
      const events: string[] = [];
      const toServer = new PassThrough();
      const toClient = new PassThrough();
      startServer(createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient)), {
        env: { CATALOG_LENS_TOKEN: TOKEN },
        fetch: recordingFetch(events),
      });
      const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
      const output: string[] = [];
      client.onRequest('workspace/configuration', (p: { items: unknown[] }) =>
        p.items.map(() => ({ url: 'http://catalog.example.com:8080' })),
      );
      client.onRequest('window/showMessageRequest', (p: { message: string; actions: Array<{ title: string }> }) => {
        events.push('editor asked');
        output.push(p.message);
        assert.ok(p.actions.some((a) => a.title === choice));
        return { title: choice };
      });
      client.onUnhandledNotification(({ params }) => {
        output.push(JSON.stringify(params));
      });
      client.listen();
      await client.sendRequest('initialize', {
        processId: null,
        rootUri: null,
        capabilities: { workspace: { configuration: true } },
      });
      await client.sendNotification('initialized', {});
      const hover = await client.sendRequest('textDocument/hover', {
        textDocument: { uri: 'file:///t/x.py' },
        position: { line: 0, character: 0 },
      });
      assert.equal(hover, null);
      await client.sendNotification('textDocument/didOpen', {
        textDocument: { uri: 'file:///t/x.py', languageId: 'python', version: 1, text: `x = "${S.users}"\n` },
      });
      await client.sendRequest('textDocument/hover', {
        textDocument: { uri: 'file:///t/x.py' },
        position: { line: 0, character: 20 },
      });
      assert.equal(events[0], 'editor asked', events.join('\n'));
      const expected = choice === 'Send the token' ? 'with token' : 'without token';
      assert.ok(
        events.length > 1 && events.slice(1).every((e) => e === `fetch catalog.example.com:8080 ${expected}`),
        events.join('\n'),
      );
      assert.match(output[0]!, /catalog\.example\.com:8080 is reached over plain HTTP/);
      assert.deepEqual(spellingsIn(output.join('\n')), []);
      await client.sendRequest('shutdown');
      client.dispose();
    }
  });
});
