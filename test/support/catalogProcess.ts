/**
 * Starts the local catalog as a real child process (`node out/catalog/src/main.js --port 0 …`),
 * waits for its "listening on" line, and stops it by its own pid. Tests that need a catalog in
 * another process (the language server's protocol tests, durability tests) use this.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export interface CatalogProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** SIGTERM, then wait for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL (no chance to clean up), then wait for the process to exit. */
  kill9(): Promise<void>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

export interface CatalogProcessOptions {
  /** Extra command-line arguments. */
  args?: string[];
  /** Database file; default ':memory:'. */
  db?: string;
  /** Passed in CATALOG_LENS_CATALOG_TOKEN, never on the command line (where `ps` shows it). */
  token?: string;
  sample?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** out/catalog/src/main.js, seen from this file at out/test/support. */
const MAIN = path.resolve(__dirname, '..', '..', 'catalog', 'src', 'main.js');
const START_TIMEOUT_MS = 20_000;
const LISTENING_RE = /catalog-lens catalog listening on (http:\/\/\S+):(\d+)\r?\n/;

export async function startCatalogProcess(opts: CatalogProcessOptions = {}): Promise<CatalogProcess> {
  const args = [MAIN, '--port', '0', '--db', opts.db ?? ':memory:'];
  if (opts.sample) args.push('--sample');
  args.push(...(opts.args ?? []));
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      ...opts.env,
      ...(opts.token !== undefined ? { CATALOG_LENS_CATALOG_TOKEN: opts.token } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let onOutput: (() => void) | undefined;
  const append = (s: string): void => {
    out += s;
    onOutput?.();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);

  const started = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      child.kill('SIGKILL');
      reject(
        new Error(`the catalog did not say "listening on" within ${START_TIMEOUT_MS / 1000} s; its output:\n${out}`),
      );
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      done();
      reject(new Error(`the catalog exited (code ${code}, signal ${signal}) before listening; its output:\n${out}`));
    };
    const done = (): void => {
      clearTimeout(timer);
      onOutput = undefined;
      child.off('exit', onExit);
    };
    onOutput = () => {
      const m = LISTENING_RE.exec(out);
      if (m) {
        done();
        resolve({ url: `${m[1]}:${m[2]}`, port: Number(m[2]) });
      }
    };
    child.once('exit', onExit);
  });

  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
    await exited;
  };
  return {
    ...started,
    pid: child.pid!,
    child,
    stop: () => stopWith('SIGTERM'),
    kill9: () => stopWith('SIGKILL'),
    output: () => out,
  };
}
