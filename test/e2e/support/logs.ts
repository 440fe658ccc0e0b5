/** The log files an e2e run leaves (code-server's user-data-dir/logs, code-server's and the catalog's output). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pollUntil } from './poll';

export interface LogFile {
  file: string;
  text: string;
}

/** Every file under `dir`, with its text. */
export function readTree(dir: string): LogFile[] {
  const out: LogFile[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...readTree(file));
    else out.push({ file, text: readFileSync(file, 'utf8') });
  }
  return out;
}

/**
 * Waits until some file under `dir` whose name ends with `fileName` holds every pattern, and
 * returns it. VS Code writes log files through a buffer, so what just happened appears a moment
 * later; the files are read again (support/poll.ts, every 200 ms) until `timeoutMs`.
 */
export async function waitForLogFile(
  dir: string,
  fileName: string,
  patterns: RegExp[],
  timeoutMs: number,
): Promise<LogFile> {
  let candidates: LogFile[] = [];
  return pollUntil(
    () => {
      candidates = readTree(dir).filter((f) => f.file.endsWith(fileName));
      return candidates.find((f) => patterns.every((p) => p.test(f.text)));
    },
    { timeoutMs, intervalMs: 200 },
    () => {
      const seen = candidates.map(
        (f) => `${f.file} (${f.text.length} characters, missing ${patterns.filter((p) => !p.test(f.text)).join(', ')})`,
      );
      return `no ${fileName} under ${dir} holds ${patterns.join(', ')} within ${timeoutMs / 1000} s; found: ${seen.join('; ') || 'none'}`;
    },
  );
}
