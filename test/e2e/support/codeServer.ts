/**
 * A real VS Code: code-server (Code 1.139) under Node 24 from the e2e cache, with a fresh
 * user-data-dir and extensions dir, the .vsix installed the way users install it, and the
 * settings a test run needs. It is started as `npm start` starts it: on a unix socket in a 0700
 * folder, reached only through the editor gate (scripts/editorGate.ts) with its secret, so every
 * end-to-end test goes through the gate.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  CODE_SERVER_SOCKET_RE,
  codeServerListenArgs,
  createSocketDir,
  startEditorGate,
  type EditorGate,
} from '../../../scripts/editorGate';
import type { E2eTools } from './paths';
import { startProcess, type ManagedProcess } from './processes';

export interface CodeServerProfile {
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
  /** code-server writes logs, a default config and a device id under XDG folders; keep them in the run's folder. */
  env: NodeJS.ProcessEnv;
}

/**
 * User settings of every e2e window: nothing that pops up, steals focus or phones home. Workspace
 * trust is off here, in the profile, so that code-server's flags stay those of `npm start` (which
 * leaves trust on): the suites run write commands in the copied examples/ without the trust dialog.
 */
export const E2E_USER_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'editor.hover.delay': 150,
  'editor.hover.sticky': true,
  'editor.minimap.enabled': false,
  'editor.lightbulb.enabled': 'on',
  'editor.fontSize': 14,
  'files.autoSave': 'off',
};

/** User settings of a window whose folder opens in Restricted Mode, without the trust dialog asking first. */
export const RESTRICTED_MODE_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
};

/**
 * User settings of a window opened as `npm start` opens the demo (scripts/start.mjs): workspace
 * trust on, VS Code asking at every start whether to trust the folder, and the folder's README first.
 */
export const NPM_START_TRUST_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'always',
  'workbench.startupEditor': 'readme',
};

export function createProfile(
  runDir: string,
  machineSettings: Record<string, unknown>,
  userSettings: Record<string, unknown> = {},
): CodeServerProfile {
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...E2E_USER_SETTINGS, ...userSettings }, null, 2) + '\n',
  );
  // code-server's window is a remote window: machine-scoped settings (catalogLens.url) are
  // read from <user-data-dir>/Machine/settings.json there and ignored in User settings.
  writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2) + '\n');
  const configFile = path.join(runDir, 'code-server.yaml');
  // Without a config file code-server writes one to ~/.config; the listening flags are given at start.
  writeFileSync(configFile, 'cert: false\n');
  const env = {
    ...process.env,
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    // VS Code's device id (~/.cache/Microsoft/DeveloperTools).
    XDG_CACHE_HOME: path.join(runDir, 'xdg-cache'),
    // The machine's ~/.npmrc and a CI's NODE_OPTIONS are not meant for VS Code's Node.
    NODE_OPTIONS: '',
  };
  return { userDataDir, extensionsDir, configFile, env };
}

function baseArgs(tools: E2eTools, profile: CodeServerProfile): string[] {
  return [
    tools.codeServerEntry,
    '--config',
    profile.configFile,
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
  ];
}

/** `code-server --install-extension <vsix>`, as a user installs a downloaded .vsix. */
export function installExtension(tools: E2eTools, profile: CodeServerProfile, vsix: string): string {
  const r = spawnSync(tools.node, [...baseArgs(tools, profile), '--install-extension', vsix], {
    env: profile.env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  if (r.error) throw new Error(`installing ${vsix}: ${r.error.message}`);
  if (r.status !== 0 || !/was successfully installed/.test(output)) {
    throw new Error(`installing ${vsix} failed (exit ${r.status}):\n${output}`);
  }
  return output;
}

/** The language server script of the installed extension: what its node process runs. */
export function installedServerScript(profile: CodeServerProfile, version: string): string {
  return path.join(profile.extensionsDir, `catalog-lens.catalog-lens-${version}`, 'dist', 'server.js');
}

export interface RunningCodeServer {
  /** The URL `npm start` would print: the gate's, with its secret. */
  url: string;
  /** The gate in front of code-server (its port, origin and cookie name). */
  gate: EditorGate;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * Starts code-server on a unix socket and the gate in front of it, on a free port. `env` is added
 * to the profile's environment (e.g. the local catalog's token hand-off).
 */
export async function startCodeServer(
  tools: E2eTools,
  profile: CodeServerProfile,
  folder: string,
  logFile: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningCodeServer> {
  const socketDir = createSocketDir();
  const args = [
    ...baseArgs(tools, profile),
    ...codeServerListenArgs(socketDir.socket),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    folder,
  ];
  let proc: ManagedProcess | undefined;
  let gate: EditorGate | undefined;
  const stop = async (): Promise<void> => {
    await gate?.close();
    await proc?.stop();
    socketDir.remove();
  };
  try {
    proc = startProcess('code-server', tools.node, args, { env: { ...profile.env, ...env }, logFile });
    await proc.waitForOutput(CODE_SERVER_SOCKET_RE, 60_000);
    gate = await startEditorGate({ upstreamSocket: socketDir.socket, port: 0 });
    return { url: gate.urlWithSecret('/'), gate, process: proc, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
