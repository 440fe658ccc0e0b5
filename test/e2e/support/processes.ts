/**
 * Child processes of an end-to-end run (the catalog, code-server, Chromium). Each starts in its
 * own process group, so stopping it by its pid also stops what it started (code-server's
 * extension host and the language server under it). A last-resort exit hook kills any group a
 * failed test left behind, still by its own pid.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output (now or later); rejects on exit or timeout. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  readonly exited: Promise<void>;
}

const live = new Map<number, string>();

process.on('exit', () => {
  for (const pid of live.keys()) killGroup(pid, 'SIGKILL');
});

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    // ESRCH: the group is already gone, which is what we wanted.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Registers a process group someone else spawned (Chromium, launched by Playwright) for the exit hook. */
export function trackGroup(pid: number, name: string): () => void {
  live.set(pid, name);
  return () => live.delete(pid);
}

export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: SpawnOptions & { logFile?: string } = {},
): ManagedProcess {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const pid = child.pid;
  live.set(pid, name);
  // Appended to: a process started again (the catalog's restart) adds to the log of the one before.
  let log: WriteStream | undefined = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: string): void => {
    text += chunk;
    log?.write(chunk);
    for (const l of listeners) l();
  };
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);
  let exitDescription = '';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitDescription = `exited (code ${code}, signal ${signal})`;
      live.delete(pid);
      // The group may outlive its leader (e.g. code-server's extension host): take it down too.
      killGroup(pid, 'SIGKILL');
      log?.end();
      log = undefined;
      for (const l of listeners) l();
      resolve();
    });
  });

  const waitForOutput = (pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const m = pattern.exec(text);
        if (m) finish(() => resolve(m));
        else if (exitDescription)
          finish(() =>
            reject(new Error(`${name} ${exitDescription} before printing ${pattern}; output:\n${tail(text)}`)),
          );
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`${name} did not print ${pattern} within ${timeoutMs / 1000} s; output:\n${tail(text)}`)),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });

  const stop = async (graceMs = 5000): Promise<void> => {
    if (!exitDescription) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };

  return { name, pid, child, output: () => text, waitForOutput, stop, exited };
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}
