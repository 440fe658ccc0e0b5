/**
 * code-server started exactly as `npm start` starts it (a unix socket in a 0700 folder, the
 * editor gate in front, the local catalog's token handed over) against the attacks of security
 * probe finding 1: a DNS-rebound Host and a request without the secret are refused, for the
 * workbench page and for the WebSocket upgrade the probe used to get a shell, and a rebound page's
 * popup (the probe's one-click attack in Chromium) gets a refusal instead of the workbench. With
 * the secret the workbench works (this session, and every other suite, goes through the gate),
 * and the extension connects to a catalog that needs a token with the token npm start handed it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REBOUND_HOST, startSession, step, type E2eSession } from './harness';
import { installedServerScript } from './support/codeServer';
import { waitForLogFile } from './support/logs';
import { packageVersion } from './support/paths';
import { findInTree } from './support/processTree';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';
import { send } from '../support/rawHttp';
import { upgrade } from '../support/webSocket';

const TOKEN = 'cl-e2e-handoff-Vb6nQ2xW9kLm4pRt';
const CONNECTED = /^Catalog Lens: Catalog connected/;

describe(
  'code-server as npm start runs it: the gate refuses rebinding and requests without the secret',
  { skip: !E2E_ENABLED && E2E_SKIP_REASON },
  () => {
    let session: E2eSession;
    let port: number;
    let secret: string;
    let cookie: string;

    before(async () => {
      session = await startSession({ token: TOKEN, handOffToken: true });
      port = session.codeServer.gate.port;
      secret = new URL(session.codeServer.url).searchParams.get('tkn')!;
      const traded = await send(port, { path: `/?tkn=${secret}` });
      assert.equal(traded.status, 302);
      cookie = traded.headers['set-cookie']![0]!.split(';')[0]!;
    });
    after(async () => {
      await session?.stop();
    });

    /** The probe's WebSocket: the management connection code-server gives a terminal through. */
    const wsTarget = (): string =>
      `/?reconnectionToken=${randomBytes(8).toString('hex')}&reconnection=false&skipWebSocketFrames=false`;

    test("the extension took over the catalog token npm start handed it: connected without Set Access Token, the token only in the server's environment", async (t) => {
      await step(t, session, 'gate-handoff', async () => {
        assert.match(await session.workbench.statusLabel(), CONNECTED);
        const log = await waitForLogFile(
          path.join(session.profile.userDataDir, 'logs'),
          'Catalog Lens.log',
          [/took over the token of the local catalog at http:\/\/127\.0\.0\.1:\d+/],
          20_000,
        );
        assert.ok(!log.text.includes(TOKEN), 'the log shows no token');
        const codeServerEnv = readFileSync(`/proc/${session.codeServer.process.pid}/environ`, 'utf8');
        assert.ok(
          !codeServerEnv.includes(TOKEN),
          "the editor's environment holds the token file's path, not the token",
        );
        const servers = findInTree(session.codeServer.process.pid, (argv) =>
          argv.includes(installedServerScript(session.profile, packageVersion())),
        );
        assert.equal(servers.length, 1);
        assert.ok(
          readFileSync(`/proc/${servers[0]!.pid}/environ`, 'utf8').split('\0').includes(`CATALOG_LENS_TOKEN=${TOKEN}`),
        );
      });
    });

    test('a rebound Host is refused, page and WebSocket upgrade, even with the secret and when Origin agrees with it', async (t) => {
      await step(t, session, 'gate-rebound', async () => {
        const rebound = `${REBOUND_HOST}:${port}`;
        for (const headers of [{ Host: rebound }, { Host: rebound, Cookie: cookie }] as Record<string, string>[]) {
          const page = await send(port, { path: `/?folder=${encodeURIComponent(session.workspace)}`, headers });
          assert.equal(page.status, 403, `page ${JSON.stringify(headers)}`);
          assert.match(page.body, /refused\. This editor answers only at/);
          const ws = await upgrade(port, wsTarget(), { ...headers, Origin: `http://${rebound}` });
          assert.equal(ws.status, 403, `upgrade ${JSON.stringify(headers)} (the probe got 101 Switching Protocols)`);
        }
        const withSecret = await send(port, { path: `/?tkn=${secret}`, headers: { Host: rebound } });
        assert.equal(withSecret.status, 403);
        assert.equal(withSecret.headers['set-cookie'], undefined);
      });
    });

    test('without the secret the page and the upgrade get 403; with it the upgrade reaches code-server (101), from this origin only', async (t) => {
      await step(t, session, 'gate-secret', async () => {
        const page = await send(port, { path: '/' });
        assert.equal(page.status, 403);
        assert.match(page.body, /the URL that `npm start` printed .*Open that URL/);
        for (const headers of [
          {},
          { Cookie: `${session.codeServer.gate.cookieName}=not-the-secret-0123456789` },
        ] as Record<string, string>[]) {
          assert.equal((await upgrade(port, wsTarget(), headers)).status, 403, JSON.stringify(headers));
        }
        const foreignOrigin = await upgrade(port, wsTarget(), {
          Cookie: cookie,
          Origin: `http://localhost:${port + 1}`,
        });
        assert.equal(foreignOrigin.status, 403);

        const ws = await upgrade(port, wsTarget(), { Cookie: cookie, Origin: session.codeServer.gate.origin });
        ws.socket.destroy();
        assert.equal(ws.status, 101, 'code-server answers the upgrade that carries the secret');
        assert.equal((await send(port, { path: '/healthz', headers: { Cookie: cookie } })).status, 200);
      });
    });

    test("in Chromium, a rebound page's popup gets the refusal, not the workbench; a browser without the secret gets the page that says which URL to open", async (t) => {
      await step(t, session, 'gate-browser', async () => {
        const browser = session.workbench.page.context().browser()!;
        const context = await browser.newContext();
        try {
          const attacker = `http://${REBOUND_HOST}:${port}/attacker`;
          // The attacker's page as its own server sent it before the rebind (the probe did the same).
          await context.route(attacker, (route) =>
            route.fulfill({
              contentType: 'text/html',
              body: `<button id="go" onclick="window.w = window.open('/?folder=${encodeURIComponent(session.workspace)}')">go</button>`,
            }),
          );
          const answers: { url: string; status: number }[] = [];
          context.on('response', (r) => answers.push({ url: r.url(), status: r.status() }));
          const page = await context.newPage();
          await page.goto(attacker);
          const [popup] = await Promise.all([context.waitForEvent('page'), page.click('#go')]);
          await popup.waitForLoadState();
          assert.deepEqual(
            answers.filter((a) => a.url !== attacker).map((a) => a.status),
            [403],
            JSON.stringify(answers),
          );
          // The opener reads its popup: same origin, as in the probe.
          const seen = String(await page.evaluate('window.w.document.body.innerText'));
          assert.match(seen, /refused\. This editor answers only at http:\/\/127\.0\.0\.1:\d+\//);
          assert.equal(await popup.locator('.monaco-workbench').count(), 0);

          const stranger = await context.newPage();
          const refused = await stranger.goto(
            `http://127.0.0.1:${port}/?folder=${encodeURIComponent(session.workspace)}`,
          );
          assert.equal(refused?.status(), 403);
          assert.match(await stranger.locator('body').innerText(), /Open that URL/);
        } finally {
          await context.close();
        }
      });
    });
  },
);
