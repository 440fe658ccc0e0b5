/**
 * The access token never shows: against a catalog started with a token, with the LSP trace at
 * `verbose` and both output channels at Trace, the user sets the token, hovers, writes through a
 * quick fix and runs a write the catalog fails. Then the token is looked for everywhere text ends
 * up — every log file of code-server's profile (the output channels among them), code-server's
 * and the catalog's own output, the page (hovers, notifications), the process command lines —
 * and in the requests: it went to the catalog only, and only as the Authorization header.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { installedServerScript } from './support/codeServer';
import { readTree, waitForLogFile } from './support/logs';
import { packageVersion } from './support/paths';
import { commandLine, findInTree, processTree } from './support/processTree';
import { startRecorder, type HttpRecorder } from './support/recorder';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

/** Distinctive enough that any occurrence is the token itself. */
const TOKEN = 'cl-e2e-tok-Q7mZx2pLr9vW4kN8sYd3';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const CONNECTED = /^Catalog Lens: Catalog connected/;
const UNAUTHORIZED = /^Catalog Lens: The catalog refused the access token/;
const INJECTED = 'injected by the e2e fault proxy';
const OPEN_PATHS = new Set(['/health', '/config']);

describe(
  'the access token stays out of every log, trace, page and request but its own',
  { skip: !E2E_ENABLED && E2E_SKIP_REASON },
  () => {
    let session: E2eSession;
    let decoyUi: HttpRecorder;
    /** Texts the page showed during the scenario (hovers, notifications), checked at the end. */
    const shown: string[] = [];
    /** Index of the first recorded request of the server that has the token. */
    let tokenInUseFrom = -1;

    before(async () => {
      // The entity links of hovers point here: a second host, which must never be given the token.
      decoyUi = await startRecorder();
      session = await startSession({
        token: TOKEN,
        readyStatus: UNAUTHORIZED,
        recordTraffic: true,
        userSettings: { 'catalogLens.trace.server': 'verbose' },
        machineSettings: { 'catalogLens.uiUrl': decoyUi.url },
      });
    });
    after(async () => {
      await session?.stop();
      await decoyUi?.stop();
    });

    const logsDir = (): string => path.join(session.profile.userDataDir, 'logs');

    test('with both output channels at Trace, the user sets the token and the catalog accepts it', async (t) => {
      await step(t, session, 'token-set', async () => {
        const wb = session.workbench;
        // vscode-languageclient writes the LSP trace only when its output channel's level is Trace.
        for (const channel of ['Catalog Lens Language Server', 'Catalog Lens']) await wb.setLogLevel(channel, 'Trace');
        await wb.runCommand('Catalog Lens: Set Access Token');
        await wb.submitInputBox(TOKEN, /Set Access Token/);
        shown.push(await wb.waitForNotification(/Catalog Lens: access token stored for/));
        await wb.waitForStatus(CONNECTED);
        // "Connected" comes from the restarted server; the one without the token was stopped before it started.
        tokenInUseFrom = session.traffic!.requests.findIndex((r) => r.headers.authorization !== undefined);
        assert.ok(tokenInUseFrom >= 0, 'the catalog got the token');
        // The restarted server traced its start: the trace is on, and it is what is checked below.
        await waitForLogFile(
          logsDir(),
          'Catalog Lens Language Server.log',
          [/Sending request 'initialize/, /Params: /],
          20_000,
        );
      });
    });

    test('a hover, a quick fix that writes and a write the catalog fails show no token', async (t) => {
      await step(t, session, 'token-use', async () => {
        const wb = session.workbench;
        await wb.openFile('catalog/datasets.yml');
        const users = lineOf(session.workspace, 'catalog/datasets.yml', USERS);
        shown.push(
          await wb.hoverAt(
            await wb.revealText(users.number, users.text, 'db.users'),
            /One row per registered user of the product\./,
          ),
        );

        const orders = lineOf(session.workspace, 'catalog/datasets.yml', ORDERS);
        const fixes = await wb.openQuickFixMenu(
          await wb.revealText(orders.number, orders.text, 'db.orders'),
          /has no description/,
          'Write dataset description…',
        );
        shown.push(fixes.hover);
        await wb.chooseQuickFix('Write dataset description…');
        await wb.submitInputBox('Orders, written with a token that shows nowhere.', /Description of dataset/);
        shown.push(await wb.waitForNotification(/Catalog Lens: Wrote /));
        assert.equal(
          await editedDatasetDescription(session.catalog, ORDERS),
          'Orders, written with a token that shows nowhere.',
        );

        // The next aspect write fails at the catalog: the error reaches the user and the logs.
        session.traffic!.failNext({
          matches: (r) => r.method === 'POST' && r.url.startsWith('/aspects'),
          status: 500,
          body: { exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', message: INJECTED, status: 500 },
        });
        await wb.cursorAt(await wb.revealText(users.number, users.text, 'db.users'));
        await wb.runCommand('Catalog Lens: Write Dataset Description');
        await wb.submitInputBox('A description the catalog refuses.', /Description of dataset/);
        // In the notifications center: the write just before toasted two notifications, and VS Code
        // toasts at most three in 800 ms (the others go to the center only).
        shown.push(await wb.waitForNotificationInCenter(/Catalog Lens: .*(500|injected)/));
        assert.equal(session.traffic!.faulted.length, 1, 'the write reached the fault');

        // The center lists every notification of the session: the ones toasted above too.
        const center = wb.page.locator('.notifications-center');
        await wb.waitForNotificationInCenter(/access token stored for/);
        shown.push(await center.innerText());
        shown.push(await wb.page.content());
        for (const text of shown) assert.ok(!text.includes(TOKEN), `the page showed the token: ${text.slice(0, 500)}`);
        await wb.closeWidgets();
      });
    });

    test('no log file (output channels, LSP trace, extension host, code-server, catalog) holds the token', async (t) => {
      await step(t, session, 'token-logs', async () => {
        // Wait for the failed write to be flushed to both channels' files: then everything before it is there too.
        const serverLog = await waitForLogFile(
          logsDir(),
          'Catalog Lens Language Server.log',
          [
            /Sending request 'textDocument\/hover/,
            /One row per registered user/,
            /Received response 'workspace\/executeCommand/,
            new RegExp(INJECTED),
          ],
          20_000,
        );
        const clientLog = await waitForLogFile(
          logsDir(),
          'Catalog Lens.log',
          [/access token stored for/, /\[trace\]|\[debug\]|\[info\]/],
          20_000,
        );
        const files = [
          ...readTree(logsDir()),
          {
            file: path.join(session.runDir, 'code-server.log'),
            text: readFileSync(path.join(session.runDir, 'code-server.log'), 'utf8'),
          },
          {
            file: path.join(session.runDir, 'catalog', 'catalog.log'),
            text: readFileSync(path.join(session.runDir, 'catalog', 'catalog.log'), 'utf8'),
          },
        ];
        assert.ok(files.some((f) => f.file === serverLog.file) && files.some((f) => f.file === clientLog.file));
        assert.ok(
          files.find((f) => f.file.endsWith('catalog.log'))!.text.includes('POST /api/graphql 200'),
          'the catalog logged the requests',
        );
        const leaking = files.filter((f) => f.text.includes(TOKEN)).map((f) => f.file);
        assert.deepEqual(leaking, [], `files holding the token (of ${files.length} read)`);
      });
    });

    test('the token reaches the server in its environment, not its command line, and travels only to the catalog as a bearer header', async (t) => {
      await step(t, session, 'token-requests', async () => {
        const root = session.codeServer.process.pid;
        const script = installedServerScript(session.profile, packageVersion());
        const servers = findInTree(root, (argv) => argv.includes(script));
        assert.equal(servers.length, 1, 'one language server runs');
        const environ = readFileSync(`/proc/${servers[0]!.pid}/environ`, 'utf8').split('\0');
        assert.ok(environ.includes(`CATALOG_LENS_TOKEN=${TOKEN}`), 'the server got the token in CATALOG_LENS_TOKEN');
        for (const pid of processTree(root)) {
          const argv = commandLine(pid);
          assert.ok(!argv?.some((a) => a.includes(TOKEN)), `pid ${pid} has the token in its command line`);
        }

        const requests = session.traffic!.requests;
        const withToken = requests.filter((r) => r.headers.authorization === `Bearer ${TOKEN}`);
        assert.ok(
          withToken.some((r) => r.url === '/api/graphql'),
          'reads carried the token',
        );
        assert.ok(
          withToken.some((r) => r.method === 'POST' && r.url.startsWith('/aspects')),
          'writes carried the token',
        );
        requests.forEach((r, i) => {
          const auth = r.headers.authorization;
          assert.ok(
            auth === undefined || auth === `Bearer ${TOKEN}`,
            `${r.method} ${r.url} sent authorization ${auth}`,
          );
          if (i >= tokenInUseFrom && !OPEN_PATHS.has(r.url.split('?')[0]!))
            assert.equal(auth, `Bearer ${TOKEN}`, `${r.method} ${r.url} went without the token`);
          const elsewhere = JSON.stringify({
            url: r.url,
            body: r.body,
            headers: { ...r.headers, authorization: undefined },
          });
          assert.ok(
            !elsewhere.includes(TOKEN),
            `${r.method} ${r.url} carries the token outside its Authorization header`,
          );
        });
        assert.deepEqual(decoyUi.requests, [], "the web UI's host got no request");
      });
    });
  },
);
