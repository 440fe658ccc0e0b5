/**
 * One end-to-end session: a local catalog with the sample data, a copy of examples/, the
 * packaged .vsix installed into a fresh code-server profile, code-server, and Chromium showing
 * the workbench with the extension connected. `stop()` ends every process it started, by pid,
 * and the session cleans up after itself when starting fails half-way.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { HAND_OFF_TOKEN_FILE_ENV, HAND_OFF_URL_ENV } from '../../client/src/localCatalogHandOff';
import { startCatalog, type E2eCatalog } from './support/catalog';
import {
  createProfile,
  installExtension,
  RESTRICTED_MODE_SETTINGS,
  startCodeServer,
  type CodeServerProfile,
  type RunningCodeServer,
} from './support/codeServer';
import { e2eTools, packageVersion, REPO_ROOT, type E2eTools } from './support/paths';
import { killGroup, trackGroup } from './support/processes';
import { startRecorder, type HttpRecorder } from './support/recorder';
import { Workbench } from './support/workbench';

/** The name a DNS rebinding attacker's page has: Chromium resolves it to 127.0.0.1 (see editorGate.test.ts). */
export const REBOUND_HOST = 'evil.example';

/**
 * The window the scenarios and the README's screenshots are taken in: a laptop's 1400×900, the size
 * issue 15 asks hovers to fit (test/e2e/editor.test.ts checks that the hover's link is inside it).
 */
export const E2E_VIEWPORT = { width: 1400, height: 900 } as const;

/** Flags from notes/real-vscode-here.md: no sandbox as root, nothing that reaches the network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  `--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`,
];

export interface SessionOptions {
  /** Start the catalog with this token; the extension then has none until a test sets one (or `handOffToken`). */
  token?: string;
  /** Hand `token` to the extension as `npm start` does: the catalog's URL and a 0600 token file in the editor's environment. */
  handOffToken?: boolean;
  /** Wait for this status bar label before handing the session over (default: connected). */
  readyStatus?: RegExp;
  /** The file opened first; the extension activates on its language (default catalog/datasets.yml). */
  firstFile?: string;
  /** Workspace trust on and the folder not trusted: the window opens in Restricted Mode. */
  restricted?: boolean;
  /** More user settings (User/settings.json), over the e2e defaults. */
  userSettings?: Record<string, unknown>;
  /** More machine settings (Machine/settings.json) besides catalogLens.url. */
  machineSettings?: Record<string, unknown>;
  /** Put a recording proxy (support/recorder.ts) between the editor and the catalog: catalogLens.url is the proxy's. */
  recordTraffic?: boolean;
  /** Changes the workspace copy before code-server opens it (e.g. writes .vscode/settings.json). */
  prepareWorkspace?: (workspace: string) => void;
  /**
   * Hand the window over as it first shows: no file opened, no status waited for (`firstFile` and
   * `readyStatus` unused), for a scenario that starts with what a new user sees first.
   */
  asOpened?: boolean;
  /** Other extensions (.vsix files) installed beside Catalog Lens. */
  otherExtensions?: string[];
}

export interface E2eSession {
  catalog: E2eCatalog;
  codeServer: RunningCodeServer;
  workbench: Workbench;
  /** The copy of examples/ the window has open. */
  workspace: string;
  runDir: string;
  profile: CodeServerProfile;
  /** catalogLens.url of the machine settings: the catalog's URL, or the recording proxy's. */
  catalogUrl: string;
  /** The recording proxy in front of the catalog, with `recordTraffic`. */
  traffic: HttpRecorder | undefined;
  /** Saves a screenshot and the logs of a failed step under test-results/e2e/. */
  captureFailure(step: string): Promise<void>;
  stop(): Promise<void>;
}

/** The .vsix users install: CATALOG_LENS_VSIX, or `npm run package` when it is not built yet. */
export function ensureVsix(): string {
  const given = process.env.CATALOG_LENS_VSIX;
  if (given) return path.resolve(given);
  const vsix = path.join(REPO_ROOT, `catalog-lens-${packageVersion()}.vsix`);
  if (!existsSync(vsix)) {
    const r = spawnSync('npm', ['run', 'package'], { cwd: REPO_ROOT, stdio: ['ignore', 2, 2] });
    if (r.status !== 0 || !existsSync(vsix))
      throw new Error(`\`npm run package\` did not produce ${vsix} (exit ${r.status})`);
  }
  return vsix;
}

export async function startSession(opts: SessionOptions = {}): Promise<E2eSession> {
  const tools = e2eTools();
  const runDir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-e2e-'));
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async (): Promise<void> => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((err: unknown) => errors.push(err));
    }
    if (errors.length > 0) throw new AggregateError(errors, 'stopping the e2e session');
  };
  try {
    const vsix = ensureVsix();
    const catalogDir = path.join(runDir, 'catalog');
    mkdirSync(catalogDir);
    const catalog = await startCatalog({ dir: catalogDir, ...(opts.token !== undefined ? { token: opts.token } : {}) });
    cleanups.push(() => catalog.stop());

    let traffic: HttpRecorder | undefined;
    if (opts.recordTraffic) {
      const recorder = await startRecorder({ upstream: catalog.url });
      cleanups.push(() => recorder.stop());
      traffic = recorder;
    }
    const catalogUrl = traffic?.url ?? catalog.url;

    const workspace = path.join(runDir, 'examples');
    cpSync(path.join(REPO_ROOT, 'examples'), workspace, { recursive: true });
    opts.prepareWorkspace?.(workspace);
    const userSettings = { ...(opts.restricted ? RESTRICTED_MODE_SETTINGS : {}), ...opts.userSettings };
    // As `npm start` does: page links carry the catalog's pages secret, so they open through code-server's port proxy.
    const profile = createProfile(
      runDir,
      { 'catalogLens.uiUrl': catalog.pagesUrl, ...opts.machineSettings, 'catalogLens.url': catalogUrl },
      userSettings,
    );
    installExtension(tools, profile, vsix);
    for (const other of opts.otherExtensions ?? []) installExtension(tools, profile, other);
    const codeServer = await startCodeServer(
      tools,
      profile,
      workspace,
      path.join(runDir, 'code-server.log'),
      handOffEnv(opts, runDir, catalogUrl),
    );
    cleanups.push(() => codeServer.stop());

    const { browserServer, browser } = await launchChromium(tools, runDir);
    cleanups.push(async () => {
      await browser.close();
      await browserServer.close();
      // close() waits for Chromium's exit; its helpers (zygote, GPU, renderers) share its group.
      const pid = browserServer.process().pid;
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
    });
    const context = await browser.newContext({ viewport: E2E_VIEWPORT });
    const workbench = new Workbench(await context.newPage());
    await workbench.open(codeServer.url);
    if (!opts.asOpened) {
      await workbench.openFile(opts.firstFile ?? 'catalog/datasets.yml');
      await workbench.waitForStatus(opts.readyStatus ?? /^Catalog Lens: Catalog connected/);
    }

    const captureFailure = async (step: string): Promise<void> => {
      // A stress run (test/e2e/run.mjs --repeat) keeps each round's failures apart.
      const round = process.env.CATALOG_LENS_E2E_ROUND;
      const dir = path.join(
        REPO_ROOT,
        'test-results',
        'e2e',
        ...(round ? [`round-${round}`] : []),
        step.replace(/[^\w.-]+/g, '-'),
      );
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await workbench.page.screenshot({ path: path.join(dir, 'screen.png') });
      cpSync(path.join(runDir, 'code-server.log'), path.join(dir, 'code-server.log'));
      cpSync(path.join(catalogDir, 'catalog.log'), path.join(dir, 'catalog.log'));
      const logs = path.join(profile.userDataDir, 'logs');
      if (existsSync(logs)) cpSync(logs, path.join(dir, 'vscode-logs'), { recursive: true });
      process.stderr.write(`e2e: screenshot and logs of the failed step in ${dir}\n`);
    };
    return {
      catalog,
      codeServer,
      workbench,
      workspace,
      runDir,
      profile,
      catalogUrl,
      traffic,
      captureFailure,
      stop: async () => {
        await stopAll();
        rmSync(runDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    process.stderr.write(`e2e: the session did not start; its files are in ${runDir}\n`);
    await stopAll();
    throw err;
  }
}

/** The editor's environment that hands the catalog's token over (client/src/localCatalogHandOff.ts), as scripts/start.mjs does. */
function handOffEnv(opts: SessionOptions, runDir: string, catalogUrl: string): NodeJS.ProcessEnv {
  if (!opts.handOffToken) return {};
  if (opts.token === undefined) throw new Error('handOffToken needs a token');
  const file = path.join(runDir, 'catalog.token');
  writeFileSync(file, `${opts.token}\n`, { mode: 0o600 });
  return { [HAND_OFF_URL_ENV]: catalogUrl, [HAND_OFF_TOKEN_FILE_ENV]: file };
}

/** Debian's Chromium with the flags above, in its own process group (tracked for the exit hook); the in-host launcher uses it too. */
export async function launchChromium(
  tools: E2eTools,
  runDir: string,
): Promise<{ browserServer: BrowserServer; browser: Browser }> {
  // Chromium keeps crash reports and dconf state under the XDG folders (~/.config, ~/.cache) even with a temporary profile.
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(runDir, 'chromium-config'),
    XDG_CACHE_HOME: path.join(runDir, 'chromium-cache'),
  };
  const browserServer = await chromium.launchServer({
    executablePath: tools.chromium,
    args: CHROMIUM_ARGS,
    headless: true,
    env,
  });
  const pid = browserServer.process().pid;
  // Playwright starts Chromium in its own process group; the exit hook kills it there if all else fails.
  const untrack = pid !== undefined ? trackGroup(pid, 'chromium') : () => false;
  browserServer.on('close', () => void untrack());
  try {
    return { browserServer, browser: await chromium.connect(browserServer.wsEndpoint()) };
  } catch (err) {
    await browserServer.close();
    throw err;
  }
}

/** What step() needs of node:test's test context: a diagnostic line under the test's result. */
export interface ScenarioContext {
  diagnostic(message: string): void;
}

/**
 * Runs a scenario's step, named for the runner's counts (`search-pick 5/5`: the diagnostic
 * "scenario: NAME" under the test's result, read by test/e2e/scenarioReporter.mjs); when it fails,
 * its screenshot and logs are kept before the error goes on.
 */
export async function step<T>(
  t: ScenarioContext,
  session: E2eSession,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  t.diagnostic(`scenario: ${name}`);
  try {
    return await run();
  } catch (err) {
    await session.captureFailure(name).catch((captureErr: unknown) => {
      process.stderr.write(`e2e: could not capture the failure of ${name}: ${String(captureErr)}\n`);
    });
    throw err;
  }
}
