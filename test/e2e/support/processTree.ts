/**
 * The processes a test started and what they started in turn, read from /proc (Linux): the
 * language server is found under code-server's own pid, never by a name pattern across the machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pollUntil } from './poll';

/** Direct children of `pid`, from every thread's `children` list (empty once it has exited). */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch (err) {
    if (exited(err)) return [];
    throw err;
  }
  const children = new Set<number>();
  for (const task of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch (err) {
      // A thread that ended between the listing and the read has no children to report.
      if (exited(err)) continue;
      throw err;
    }
    for (const word of text.split(/\s+/)) if (word) children.add(Number(word));
  }
  return [...children];
}

/** `pid` and everything below it, parents first. */
export function processTree(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...childrenOf(next));
  }
  return out;
}

/** argv of a process, or undefined once it has exited. */
export function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch (err) {
    if (exited(err)) return undefined;
    throw err;
  }
}

export interface TreeProcess {
  pid: number;
  argv: string[];
}

/** The processes under `rootPid` (itself included) whose argv satisfies `match`. */
export function findInTree(rootPid: number, match: (argv: string[]) => boolean): TreeProcess[] {
  return processTree(rootPid).flatMap((pid) => {
    const argv = commandLine(pid);
    return argv && match(argv) ? [{ pid, argv }] : [];
  });
}

/**
 * Waits until exactly one process under `rootPid` satisfies `match` (and is not `notPid`), and
 * returns it. /proc has no change events, so the tree is read again (support/poll.ts) until `timeoutMs`.
 */
export async function waitForProcessInTree(
  rootPid: number,
  match: (argv: string[]) => boolean,
  opts: { notPid?: number; timeoutMs: number; what: string },
): Promise<TreeProcess> {
  let found: TreeProcess[] = [];
  return pollUntil(
    () => {
      found = findInTree(rootPid, match).filter((p) => p.pid !== opts.notPid);
      return found.length === 1 ? found[0] : undefined;
    },
    { timeoutMs: opts.timeoutMs },
    () =>
      `${opts.what}: expected one process under pid ${rootPid}, found ${JSON.stringify(found)} within ${opts.timeoutMs / 1000} s`,
  );
}

/** Resolves once `pid` is gone (or a zombie nobody reaped yet, which runs no code either). */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  await pollUntil(
    () => {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch (err) {
        if (exited(err)) return true;
        throw err;
      }
      // The state letter follows the command name in parentheses, which may itself hold spaces.
      return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') ? true : undefined;
    },
    { timeoutMs },
    () => `pid ${pid} did not exit within ${timeoutMs / 1000} s`,
  );
}

/** A /proc read that failed because the process (or thread) ended: before the open (ENOENT) or between the open and the read (ESRCH). */
function exited(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ESRCH';
}
