/**
 * The local catalog as a child process of the extension host: it runs
 * on the user's `node` from PATH, never on the extension host's runtime, because better-sqlite3's
 * binary is built for one Node ABI. No `vscode` here, so it is tested with real processes.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { LISTENING_RE, LOCAL_CATALOG_TOKEN_ENV } from '../../model/src/localCatalog';

/** A new random token for one start of the local catalog. */
export function newCatalogToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The local catalog's environment: the extension host's, with its token, and without
 * ELECTRON_RUN_AS_NODE (meant for the extension host's own runtime, not the user's node).
 */
export function catalogEnv(base: NodeJS.ProcessEnv, token: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, [LOCAL_CATALOG_TOKEN_ENV]: token };
  delete env['ELECTRON_RUN_AS_NODE'];
  return env;
}

export type NodeCheck =
  { ok: true; version: string } | { ok: false; reason: 'missing' | 'cannotLoad'; message: string };

const PROBE_TIMEOUT_MS = 20_000;

// Opens a database for real: a binary of the wrong ABI fails at require, a broken one at open.
const PROBE =
  "const D = require(process.argv[1]); const db = new D(':memory:'); db.prepare('select 1').get(); db.close(); process.stdout.write(process.version);";

/** Whether `node` (a command on PATH or a path) exists and can load better-sqlite3 from `betterSqlite3Dir`. */
export async function checkNodeForCatalog(
  node: string,
  betterSqlite3Dir: string,
  env: NodeJS.ProcessEnv,
): Promise<NodeCheck> {
  const version = await run(node, ['--version'], env);
  if (!version.ok) {
    const missing = version.code === 'ENOENT';
    return {
      ok: false,
      reason: missing ? 'missing' : 'cannotLoad',
      message: missing
        ? `Node.js was not found on PATH ('${node}'). The local catalog runs on your own Node.js (version 20, which its database module was built for): install it and make sure 'node' is on the PATH VS Code sees.`
        : `'${node} --version' failed: ${version.detail}`,
    };
  }
  const probe = await run(node, ['-e', PROBE, betterSqlite3Dir], env);
  if (!probe.ok) {
    return {
      ok: false,
      reason: 'cannotLoad',
      message: `Node.js ${version.stdout.trim()} on PATH cannot load the local catalog's database module (better-sqlite3 in ${betterSqlite3Dir}): ${probe.detail}`,
    };
  }
  return { ok: true, version: probe.stdout.trim() };
}

interface RunResult {
  ok: boolean;
  stdout: string;
  code?: string;
  detail: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { env, timeout: PROBE_TIMEOUT_MS, windowsHide: true, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ ok: true, stdout, detail: '' });
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        resolve({
          ok: false,
          stdout,
          ...(typeof code === 'string' ? { code } : {}),
          detail: errorLine(stderr) ?? error.message,
        });
      },
    );
  });
}

/** The line of a Node error output that says what went wrong (not the stack or the source excerpt). */
export function errorLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => /^\w*Error\b|NODE_MODULE_VERSION|Cannot find module/.test(l)) ?? lines[0];
}

export interface CatalogLaunch {
  node: string;
  /** dist/catalog.js of the extension. */
  script: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Every line the catalog prints (its banner, then its request log). */
  onOutput?: (line: string) => void;
  startTimeoutMs?: number;
}

/** The local catalog running as a child process of the extension host. */
export interface LocalCatalogChild {
  url: string;
  pid: number;
  /** Resolves when the process has exited, for whatever reason. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (the catalog closes its database), then wait for the exit; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts the catalog and resolves once it says where it listens; rejects with its output when it does not. */
export function startCatalogProcess(launch: CatalogLaunch): Promise<LocalCatalogChild> {
  const child = spawn(launch.node, [launch.script, ...launch.args], {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let output = '';
  let listening = false;
  let partial = '';
  const onData = (chunk: string): void => {
    if (!listening) output += chunk;
    partial += chunk;
    const lines = partial.split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const l of lines) launch.onOutput?.(l);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  return new Promise<LocalCatalogChild>((resolve, reject) => {
    const timeoutMs = launch.startTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      finish();
      stopChild(child, exited, 2000).then(
        () =>
          reject(
            new Error(`the local catalog did not start listening within ${timeoutMs / 1000} s; its output:\n${output}`),
          ),
        (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
      );
    }, timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      finish();
      reject(
        new Error(
          `the local catalog exited (code ${code}, signal ${signal}) before listening; its output:\n${output.trim()}`,
        ),
      );
    };
    const onError = (e: Error): void => {
      finish();
      reject(new Error(`the local catalog could not be started with '${launch.node}': ${e.message}`));
    };
    const onOutput = (): void => {
      const m = LISTENING_RE.exec(output);
      if (!m) return;
      finish();
      listening = true;
      resolve({ url: m[1]!, pid: child.pid!, exited, stop: (graceMs = 5000) => stopChild(child, exited, graceMs) });
    };
    const finish = (): void => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', onError);
      child.stdout.off('data', onOutput);
      child.stderr.off('data', onOutput);
    };
    child.once('exit', onExit);
    child.once('error', onError);
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
  });
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const outcome = await Promise.race([exited.then(() => 'exited' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Starts the catalog on `preferredPort` (the port of its last run, so that a `catalogLens.url`
 * pointed at it stays right across restarts), or on a free port when that one is taken or there is
 * none. `argsFor` gives the catalog's arguments for a port.
 */
export async function startCatalogOnPort(
  launch: Omit<CatalogLaunch, 'args'>,
  argsFor: (port: number) => string[],
  preferredPort: number | undefined,
): Promise<LocalCatalogChild> {
  if (preferredPort !== undefined && Number.isInteger(preferredPort) && preferredPort > 0 && preferredPort < 65536) {
    try {
      return await startCatalogProcess({ ...launch, args: argsFor(preferredPort) });
    } catch (e) {
      if (!(e instanceof Error && /EADDRINUSE/.test(e.message))) throw e;
      launch.onOutput?.(`port ${preferredPort} is taken; starting on a free port`);
    }
  }
  return startCatalogProcess({ ...launch, args: argsFor(0) });
}

/** The port of a catalog URL ("http://127.0.0.1:41234"). */
export function portOf(url: string): number | undefined {
  const port = Number(new URL(url).port);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}
