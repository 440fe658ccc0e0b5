/** Where a text is in a workspace file, so a test can scroll to it and point at it. */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pollUntil } from './poll';

export interface LineOf {
  /** 1-based, as Go to Line takes it. */
  number: number;
  text: string;
}

/** The `nth` (0-based) line of `file` that contains `needle`. */
export function lineOf(workspace: string, file: string, needle: string, nth = 0): LineOf {
  const lines = readFileSync(path.join(workspace, file), 'utf8').split(/\r?\n/);
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle) && seen++ === nth) return { number: i + 1, text: lines[i]! };
  }
  throw new Error(`${file} has no line #${nth} holding ${JSON.stringify(needle)}`);
}

/** node:test skips the e2e suites unless the e2e runner (test/e2e/run.mjs) set this. */
export const E2E_ENABLED = process.env.CATALOG_LENS_E2E === '1';
export const E2E_SKIP_REASON = 'end-to-end test in a real VS Code: run `npm run test:e2e`';

/** Waits (up to 10 s) for the saved file to read `expected`, and fails naming the file and what it read. */
export async function waitForFile(file: string, expected: string): Promise<void> {
  let text = '';
  await pollUntil(
    () => ((text = existsSync(file) ? readFileSync(file, 'utf8') : '') === expected ? true : undefined),
    { timeoutMs: 10_000 },
    () => `${file} does not read ${JSON.stringify(expected)} within 10 s: it reads ${JSON.stringify(text)}`,
  );
}
