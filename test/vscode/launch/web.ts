/**
 * Runs the in-host suite inside code-server's extension host (`npm run test:vscode:web`), the
 * way @vscode/test-web runs a suite in VS Code for the web, with the extension under development
 * loaded from the repository rather than installed:
 *
 * - The workbench URL carries `payload=[["extensionDevelopmentPath", …], ["extensionTestsPath", …]]`
 *   (VS Code's web WorkspaceProvider parses it as JSON). A built workbench honours those two
 *   entries only with the smoke-test driver on (BrowserWorkbenchEnvironmentService
 *   .resolveExtensionHostDebugEnvironment: "only valid in development or smoke test builds"), so
 *   code-server gets `--vscode-option enable-smoke-test-driver` (here through VSCODE_OPTIONS),
 *   which its VS Code server turns into developmentOptions.enableSmokeTestDriver.
 * - Both are `vscode-remote://<host>/<path>` URIs: code-server's workbench sets the remote
 *   authority to location.host, and the server maps such URIs to its own files.
 * - When the suite's `run()` settles, the workbench's extension service calls
 *   `window.codeAutomationExit(code)`, which Playwright exposes to this process: that is the
 *   exit code, as with test-web. The report comes through a file (launch/fixture.ts).
 */
import { mkdirSync, rmSync, writeFileSync, cpSync, existsSync, createWriteStream } from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserServer, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/harness';
import { createProfile, startCodeServer, type RunningCodeServer } from '../../e2e/support/codeServer';
import { e2eTools, REPO_ROOT } from '../../e2e/support/paths';
import { killGroup } from '../../e2e/support/processes';
import { SUITE_ENTRY, startFixture, verdict, type InhostFixture, type InhostRunOptions } from './fixture';

/** Runs the suite once; resolves with the process exit code (0: every test passed). */
export async function runInCodeServer(opts: InhostRunOptions): Promise<number> {
  const tools = e2eTools();
  const fixture = await startFixture(opts.namePatterns);
  let codeServer: RunningCodeServer | undefined;
  let chromium: { browserServer: BrowserServer; browser: Browser } | undefined;
  let page: Page | undefined;
  let ok = false;
  try {
    // catalogLens.url is machine-scoped: a remote window reads it from Machine/settings.json.
    const profile = createProfile(fixture.runDir, { 'catalogLens.url': fixture.catalog.url });
    writeFileSync(fixture.report.file, '');
    codeServer = await startCodeServer(
      tools,
      profile,
      fixture.workspace,
      path.join(fixture.runDir, 'code-server.log'),
      {
        ...fixture.suiteEnv,
        VSCODE_OPTIONS: 'enable-smoke-test-driver',
      },
    );
    chromium = await launchChromium(tools, fixture.runDir);
    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    const consoleLog = createWriteStream(path.join(fixture.runDir, 'browser-console.log'));
    page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));

    let exit: (code: number) => void = () => undefined;
    const ended = new Promise<number>((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    const url = workbenchUrl(codeServer, fixture.workspace);
    fixture.report.follow();
    const started = Date.now();
    await page.goto(url);
    const exitCode = await within(ended, opts.timeoutMs ?? 600_000, page, codeServer);
    const counts = fixture.report.counts();
    const result = verdict(exitCode, counts);
    log(
      `${result.ok ? 'passed' : 'FAILED'}: ${result.why} (${((Date.now() - started) / 1000).toFixed(1)}s in the editor)`,
    );
    ok = result.ok;
    if (!ok) await keepFailure(fixture, page, profile.userDataDir);
  } catch (err) {
    log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
    if (page) await keepFailure(fixture, page, path.join(fixture.runDir, 'user-data')).catch(() => undefined);
  } finally {
    if (chromium) {
      await chromium.browser.close().catch(() => undefined);
      await chromium.browserServer.close();
      const pid = chromium.browserServer.process().pid;
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
    }
    await codeServer?.stop();
    await fixture.stop();
  }
  return ok ? 0 : 1;
}

/** The gate's URL (with its secret) opening the workspace, with the payload that names the extension and the suite. */
function workbenchUrl(codeServer: RunningCodeServer, workspace: string): string {
  const host = new URL(codeServer.url).host;
  const remote = (file: string): string => `vscode-remote://${host}${file.split(path.sep).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(REPO_ROOT)],
    ['extensionTestsPath', remote(SUITE_ENTRY)],
  ];
  const query = new URLSearchParams({ folder: workspace, payload: JSON.stringify(payload) });
  return codeServer.gate.urlWithSecret(`/?${query.toString()}`);
}

/** The suite's exit code, or an error when the page, code-server or the time runs out first. */
function within(ended: Promise<number>, timeoutMs: number, page: Page, codeServer: RunningCodeServer): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the suite did not end within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (why: string) => () => reject(new Error(why));
    page.once('crash', fail('the workbench page crashed'));
    page.once('close', fail('the workbench page closed'));
    void codeServer.process.exited.then(fail('code-server exited'));
    void ended.then((code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** A screenshot, the report and every log of a failed run, under test-results/vscode/. */
async function keepFailure(fixture: InhostFixture, page: Page, userDataDir: string): Promise<void> {
  const dir = path.join(REPO_ROOT, 'test-results', 'vscode');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'screen.png') }).catch(() => undefined);
  fixture.keepLogs(dir);
  for (const name of ['code-server.log', 'browser-console.log']) {
    const file = path.join(fixture.runDir, name);
    if (existsSync(file)) cpSync(file, path.join(dir, name));
  }
  const logs = path.join(userDataDir, 'logs');
  if (existsSync(logs)) cpSync(logs, path.join(dir, 'vscode-logs'), { recursive: true });
  log(`screenshot and logs of the failed run in ${dir}`);
}

function log(message: string): void {
  process.stderr.write(`[test:vscode:web] ${message}\n`);
}
