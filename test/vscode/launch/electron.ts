/**
 * Runs the in-host suite in VS Code desktop with @vscode/test-electron (`npm run test:vscode`):
 * it downloads VS Code (cached under the e2e cache folder), starts it with the repository as
 * `--extensionDevelopmentPath` and the suite as `--extensionTestsPath`, and returns its exit code.
 * On Linux without a display, run it under `xvfb-run -a`.
 *
 * Where VS Code cannot be downloaded (machines that reach only the npm registry), this fails
 * with a message that names `npm run test:vscode:web`, which runs the same suite in code-server.
 * It does not fall back on its own: a run that says "desktop" must have been one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { E2E_USER_SETTINGS } from '../../e2e/support/codeServer';
import { REPO_ROOT } from '../../e2e/support/paths';
import { SUITE_ENTRY, startFixture, verdict, type InhostRunOptions } from './fixture';

export async function runInDesktop(opts: InhostRunOptions): Promise<number> {
  const cache = process.env.CATALOG_LENS_CACHE || path.join(homedir(), '.cache', 'catalog-lens');
  let vscodeExecutablePath: string;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({
      version: process.env.CATALOG_LENS_VSCODE_VERSION || 'stable',
      cachePath: path.join(cache, 'vscode-test'),
      timeout: 30_000,
    });
  } catch (err) {
    log(
      `VS Code desktop could not be downloaded (${err instanceof Error ? err.message : String(err)}). ` +
        'Where only the npm registry is reachable, run the same suite in code-server: npm run test:vscode:web',
    );
    return 1;
  }
  const fixture = await startFixture(opts.namePatterns);
  try {
    const userDataDir = path.join(fixture.runDir, 'user-data');
    mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    // A desktop window reads machine-scoped settings (catalogLens.url) from the user settings.
    writeFileSync(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...E2E_USER_SETTINGS, 'catalogLens.url': fixture.catalog.url }, null, 2) + '\n',
    );
    writeFileSync(fixture.report.file, '');
    fixture.report.follow();
    let exitCode: number;
    try {
      exitCode = await runTests({
        vscodeExecutablePath,
        extensionDevelopmentPath: REPO_ROOT,
        extensionTestsPath: SUITE_ENTRY,
        extensionTestsEnv: fixture.suiteEnv,
        launchArgs: [
          fixture.workspace,
          '--user-data-dir',
          userDataDir,
          '--extensions-dir',
          path.join(fixture.runDir, 'extensions'),
          // Only the extension under development (runTests adds --disable-workspace-trust and the like).
          '--disable-extensions',
        ],
      });
    } catch (err) {
      // runTests rejects on a non-zero exit (TestRunFailedError); the report says why.
      exitCode = typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1;
    }
    const result = verdict(exitCode, fixture.report.counts());
    log(`${result.ok ? 'passed' : 'FAILED'}: ${result.why}`);
    return result.ok ? 0 : 1;
  } finally {
    await fixture.stop();
  }
}

function log(message: string): void {
  process.stderr.write(`[test:vscode] ${message}\n`);
}
