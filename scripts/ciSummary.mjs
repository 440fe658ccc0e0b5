// The closing line of CI (.ci/run): what the test runs' TAP logs add up to, and a check that no
// test that needs ../shared skipped while ../shared is there.
//
//   node scripts/ciSummary.mjs LOG…                  "N passed, M failed, K skipped"
//   node scripts/ciSummary.mjs --shared=DIR LOG…     also: exit 1, naming them, when DIR exists and
//                                                    tests or blocks skipped for want of it
//
// Counted from Node's TAP: passed and failed tests from its totals, with cancelled tests and the
// blocks that failed outside any test (a hook, an exception in a describe body) as failed; a test
// file that crashed is a failed test in Node's totals. Skipped: tests and describe blocks (Node's
// "# skipped" leaves blocks out). A skip that needs ../shared has a reason starting
// "needs ../shared/" (test/support/shared.ts).
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const NEEDS_SHARED = 'needs ../shared/';

/**
 * @typedef {{ passed: number, failed: number, skipped: number, failedBlocks: string[], skippedBlocks: string[], needShared: string[] }} Summary
 */

/**
 * What one TAP log holds.
 * @param {string} text
 * @returns {Summary}
 */
export function summarize(text) {
  const lines = text.split(/\r?\n/);
  /** @type {Summary} */
  const s = { passed: 0, failed: 0, skipped: 0, failedBlocks: [], skippedBlocks: [], needShared: [] };
  /** @type {string[]} the names of the subtests being read, by nesting */
  const names = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const total = /^# (pass|fail|cancelled|skipped) (\d+)$/.exec(line);
    if (total) {
      const n = Number(total[2]);
      if (total[1] === 'pass') s.passed += n;
      else if (total[1] === 'skipped') s.skipped += n;
      else s.failed += n;
      continue;
    }
    const result = /^( *)(not )?ok \d+ - (.*)$/.exec(line);
    if (!result) continue;
    const depth = (result[1] ?? '').length / 4;
    const [title = '', directive] = (result[3] ?? '').split(/ # (?=(?:SKIP|TODO)\b)/);
    names.length = depth;
    names.push(title.replace(/\\#/g, '#'));
    // The YAML block under the result says whether it is a block (suite) and why it failed.
    const yaml = [];
    if ((lines[i + 1] ?? '').trim() === '---') {
      for (let j = i + 2; j < lines.length && (lines[j] ?? '').trim() !== '...'; j++) yaml.push(lines[j] ?? '');
    }
    const isBlock = yaml.some((y) => /^\s*type: 'suite'$/.test(y));
    const failure = yaml.map((y) => /^\s*failureType: '(\w+)'$/.exec(y)?.[1]).find(Boolean);
    const name = names.join(' › ');
    const skip = directive?.startsWith('SKIP') ? directive.slice('SKIP'.length).trim() : undefined;
    if (isBlock && result[2] && failure !== 'subtestsFailed') s.failedBlocks.push(`${name} (${failure ?? 'failed'})`);
    if (isBlock && skip !== undefined) s.skippedBlocks.push(name);
    if (skip?.startsWith(NEEDS_SHARED)) s.needShared.push(`${name}: ${skip}`);
  }
  s.failed += s.failedBlocks.length;
  s.skipped += s.skippedBlocks.length;
  return s;
}

/**
 * Several logs added up.
 * @param {string[]} texts
 * @returns {Summary}
 */
export function summarizeAll(texts) {
  const all = texts.map(summarize);
  return {
    passed: all.reduce((n, s) => n + s.passed, 0),
    failed: all.reduce((n, s) => n + s.failed, 0),
    skipped: all.reduce((n, s) => n + s.skipped, 0),
    failedBlocks: all.flatMap((s) => s.failedBlocks),
    skippedBlocks: all.flatMap((s) => s.skippedBlocks),
    needShared: all.flatMap((s) => s.needShared),
  };
}

function main() {
  const args = process.argv.slice(2);
  const sharedArg = args.find((a) => a.startsWith('--shared='));
  const shared = sharedArg?.slice('--shared='.length);
  const unknown = args.filter((a) => a.startsWith('--') && a !== sharedArg);
  if (unknown.length > 0) {
    console.error(`ciSummary: unknown option ${unknown.join(' ')}`);
    process.exit(2);
  }
  // A log that is not there (a step that did not run) adds nothing.
  const logs = args.filter((a) => !a.startsWith('--') && existsSync(a));
  const s = summarizeAll(logs.map((f) => readFileSync(f, 'utf8')));
  console.log(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  for (const b of s.failedBlocks) console.log(`  failed outside its tests: ${b}`);
  if (shared === undefined) return;
  if (!existsSync(shared)) {
    if (s.needShared.length > 0)
      console.log(`${shared} is missing: ${s.needShared.length} tests and blocks that need it skipped`);
    return;
  }
  if (s.needShared.length > 0) {
    console.error(`FAILED: ${shared} is there, yet these skipped for want of it:`);
    for (const n of s.needShared) console.error(`  ${n}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
