// Child processes of the benchmark: the local catalog, the bare HTTP server, wrk and ripgrep.
// Every one is registered here and stopped by its own pid, by its owner or, if the run fails
// half-way, by `stopAll` (never by name).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** @typedef {import('node:stream').Readable} Readable */
/** @typedef {import('node:stream').Writable} Writable */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The checkout whose build is measured: this one, or (`--compare`) the other ref's worktree for
 * the passes that measure it. `BUILD_ROOT` and `DIST` are live bindings that `useBuild` moves.
 */
export let BUILD_ROOT = ROOT;
export let DIST = path.join(ROOT, 'dist');

/** Measure the build of the checkout at `root` from now on (its dist/ and out/). */
export function useBuild(root) {
  BUILD_ROOT = root;
  DIST = path.join(root, 'dist');
}

const running = new Map();

/**
 * Spawns and registers a child; `exited` settles when it is gone. Its stdout and stderr are pipes.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, stdio?: ['ignore' | 'pipe', 'pipe', 'pipe'] }} [options]
 */
export function startChild(command, args, options = {}) {
  const child = /** @type {import('node:child_process').ChildProcessByStdio<Writable | null, Readable, Readable>} */ (
    spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
  );
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child.pid);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      running.delete(child.pid);
      resolve({ code: null, signal: null, error });
    });
  });
  if (child.pid !== undefined) running.set(child.pid, { child, exited });
  return { child, pid: child.pid, exited };
}

/** SIGTERM to this pid, SIGKILL if it is still there after `graceMs`; resolves once it exited. */
export async function stopChild(handle, graceMs = 5000) {
  const { child, exited } = handle;
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  process.kill(handle.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(handle.pid, 'SIGKILL');
  }, graceMs);
  const result = await exited;
  clearTimeout(timer);
  return result;
}

/** Stops every child this process started and that is still running (after a failure). */
export async function stopAll() {
  await Promise.all([...running.values()].map((h) => stopChild({ ...h, pid: h.child.pid }, 2000)));
}

/** Resolves with the first match of `re` in the child's stdout, or rejects when it exits or the time is up. */
export function waitForOutput(handle, re, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = re.exec(out);
      if (m) {
        done();
        resolve(m);
      }
    };
    const onExit = (code, signal) => {
      done();
      reject(new Error(`${what} exited (code ${code}, signal ${signal}) before it was ready:\n${out}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what} was not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      handle.child.stdout.off('data', onData);
      handle.child.off('exit', onExit);
    };
    handle.child.stdout.setEncoding('utf8');
    handle.child.stdout.on('data', onData);
    handle.child.once('exit', onExit);
  });
}

/** Throws a clear message when a command-line tool the benchmark uses is not installed. */
export function requireTool(command, debianPackage) {
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && existsSync(path.join(dir, command)));
  if (!found) throw new Error(`'${command}' is not installed: apt-get install -y ${debianPackage}`);
}

/** Collects a child's whole stdout and stderr and its exit. */
export async function runToEnd(command, args, options = {}) {
  const handle = startChild(command, args, options);
  let stdout = '';
  let stderr = '';
  handle.child.stdout.setEncoding('utf8');
  handle.child.stderr.setEncoding('utf8');
  handle.child.stdout.on('data', (d) => {
    stdout += d;
  });
  handle.child.stderr.on('data', (d) => {
    stderr += d;
  });
  const { code, signal, error } = await handle.exited;
  if (error) throw error;
  return { code, signal, stdout, stderr };
}

/**
 * The local catalog as its own process (dist/catalog.js), on a free port, with the sample data.
 * `durability` 'full' (the default, synchronous=FULL) or 'normal'.
 * @param {{ db: string, durability?: 'full' | 'normal', nodeArgs?: string[] }} options
 */
export async function startCatalog({ db, durability = 'full', nodeArgs = [] }) {
  const args = [
    ...nodeArgs,
    path.join(DIST, 'catalog.js'),
    '--port',
    '0',
    '--db',
    db,
    '--sample',
    '--quiet',
    '--durability',
    durability,
  ];
  const handle = startChild(process.execPath, args, { cwd: ROOT });
  handle.child.stderr.setEncoding('utf8');
  let stderr = '';
  handle.child.stderr.on('data', (d) => {
    stderr += d;
  });
  const m = await waitForOutput(
    handle,
    /catalog-lens catalog listening on (http:\/\/\S+)\r?\n/,
    30_000,
    'the local catalog',
  ).catch((e) => {
    throw new Error(`${e.message}\n${stderr}`);
  });
  handle.child.stdout.resume();
  return { ...handle, url: m[1], stop: () => stopChild(handle) };
}

/** The floor of benchmark 7: a bare node:http server answering a fixed JSON body (bench/lib/bareServer.mjs). */
export async function startBareServer(body) {
  const handle = startChild(process.execPath, [path.join(ROOT, 'bench', 'lib', 'bareServer.mjs')], {
    cwd: ROOT,
    env: { ...process.env, BENCH_BARE_BODY: body },
  });
  const m = await waitForOutput(handle, /listening on (http:\/\/\S+)\r?\n/, 10_000, 'the bare HTTP server');
  handle.child.stdout.resume();
  handle.child.stderr.resume();
  return { ...handle, url: m[1], stop: () => stopChild(handle) };
}

/**
 * A new folder under `tmp` for one run's database. Each run starts on a file of its own: the two
 * builds of --compare alternate, and one build's catalog must never open the file the other wrote
 * (an older catalog may not read what a newer one wrote). The caller removes it (`rmSync`).
 */
export function freshDbFolder(tmp, name) {
  return mkdtempSync(path.join(tmp, `${name}-`));
}
