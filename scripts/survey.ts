/**
 * Survey of the server over real repositories: every file Check Workspace would scan is opened in
 * the real server process (dist/server.js, over LSP, no catalog configured, so only what needs no
 * catalog is reported: grammar Errors, YAML syntax Warnings), one at a time; its diagnostics and the
 * time from didOpen to its publishDiagnostics are recorded, and the same text is scanned in-process
 * with `scanDocument` to count URNs, time the scan and name the URN under each Error.
 *
 *   npm run survey -- DIR [DIR …] [--out PREFIX] [--timeout MS]
 *   (or, built already: node out/scripts/survey.js DIR …)
 *
 * Each DIR is one repository (its name is the folder's). Files: extensions of Check Workspace's
 * LANGUAGE_BY_EXTENSION, folders starting with "." and node_modules skipped, files with a NUL byte in
 * their first 8 KiB skipped as binary, files over the default catalogLens.maxFileSize skipped.
 * The revision shown is `git rev-parse HEAD` for a clone, else the first line of DIR/.survey-source.
 * Writes PREFIX.json (every file and every Error) and PREFIX.md (per-repo table, then every Error
 * with file:line, code, message, URN and source line); PREFIX defaults to survey-results.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { mergeSettings } from '../server/src/settings';
import { scanDocument } from '../server/src/scan';
import { LANGUAGE_BY_EXTENSION } from '../server/src/workspace';
import { startSession, type LspSession } from '../test/support/lspClient';

const SEVERITY = ['', 'Error', 'Warning', 'Information', 'Hint'] as const;

interface FileRecord {
  path: string;
  languageId: string;
  chars: number;
  /** URN occurrences from `scanDocument`: all of them, and those not nested in another URN. */
  occurrences: number;
  topLevel: number;
  templates: number;
  scanMs: number;
  lspMs: number;
  diagnostics: Record<string, number>;
}

interface ErrorRecord {
  repo: string;
  file: string;
  line: number;
  character: number;
  code: string;
  message: string;
  /** The URN of the occurrence the Error stands in (as the scanner read it), else the range's text. */
  urn: string;
  /** The source line, trimmed and cut at 240 characters. */
  source: string;
}

interface RepoSummary {
  repo: string;
  dir: string;
  revision: string;
  files: number;
  skipped: { binary: number; tooLarge: number; unreadable: number };
  occurrences: number;
  topLevel: number;
  templates: number;
  errors: number;
  warnings: number;
  otherDiagnostics: number;
  byCode: Record<string, number>;
  lspMsTotal: number;
  lspMsMedian: number;
  scanMsTotal: number;
  slowest?: { file: string; lspMs: number; scanMs: number; chars: number };
  slowestScan?: { file: string; lspMs: number; scanMs: number; chars: number };
  crashes: string[];
}

function parseArgs(argv: string[]): { dirs: string[]; out: string; timeoutMs: number } {
  const dirs: string[] = [];
  let out = 'survey-results';
  let timeoutMs = 60000;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out') out = argv[++i] ?? out;
    else if (a === '--timeout') timeoutMs = Number(argv[++i]);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else dirs.push(resolve(a));
  }
  if (dirs.length === 0) throw new Error('usage: survey DIR [DIR …] [--out PREFIX] [--timeout MS]');
  return { dirs, out, timeoutMs };
}

async function listFiles(dir: string, out: string[]): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && e.name !== 'node_modules') await listFiles(path, out);
    } else if (e.isFile() && LANGUAGE_BY_EXTENSION[extname(e.name).toLowerCase()]) {
      out.push(path);
    }
  }
}

function revisionOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    try {
      return readFileSync(join(dir, '.survey-source'), 'utf8').split('\n')[0]!.trim();
    } catch {
      return 'unknown';
    }
  }
}

function offsetAt(lineStarts: number[], line: number, character: number): number {
  return (lineStarts[line] ?? 0) + character;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

async function surveyRepo(
  lsp: LspSession,
  dir: string,
  timeoutMs: number,
  errors: ErrorRecord[],
  files: FileRecord[],
): Promise<RepoSummary> {
  const settings = mergeSettings({});
  const repo = basename(dir);
  const summary: RepoSummary = {
    repo,
    dir,
    revision: revisionOf(dir),
    files: 0,
    skipped: { binary: 0, tooLarge: 0, unreadable: 0 },
    occurrences: 0,
    topLevel: 0,
    templates: 0,
    errors: 0,
    warnings: 0,
    otherDiagnostics: 0,
    byCode: {},
    lspMsTotal: 0,
    lspMsMedian: 0,
    scanMsTotal: 0,
    crashes: [],
  };
  const paths: string[] = [];
  const lspTimes: number[] = [];
  await listFiles(dir, paths);
  for (const path of paths) {
    const rel = relative(dir, path);
    let buf: Buffer;
    try {
      buf = await fs.readFile(path);
    } catch {
      summary.skipped.unreadable++;
      continue;
    }
    if (buf.subarray(0, 8192).includes(0)) {
      summary.skipped.binary++;
      continue;
    }
    const text = buf.toString('utf8');
    if (text.length > settings.maxFileSize) {
      summary.skipped.tooLarge++;
      continue;
    }
    const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()]!;
    const t0 = performance.now();
    const scan = scanDocument(text, languageId, { namespaces: settings.namespaces });
    const scanMs = performance.now() - t0;

    const uri = pathToFileURL(path).toString();
    let ds: Diagnostic[];
    const t1 = performance.now();
    try {
      const published = lsp.diagnostics(uri, () => true, timeoutMs);
      await lsp.open(uri, languageId, text);
      ds = await published;
    } catch (e) {
      summary.crashes.push(`${rel}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      if (lsp.child.exitCode !== null || lsp.child.signalCode !== null)
        throw new Error(`the server exited while ${rel} was open`);
      continue;
    }
    const lspMs = performance.now() - t1;
    await lsp.close(uri);

    const record: FileRecord = {
      path: rel,
      languageId,
      chars: text.length,
      occurrences: scan.occurrences.length,
      topLevel: scan.occurrences.filter((o) => o.parent === undefined).length,
      templates: scan.occurrences.filter((o) => o.template).length,
      scanMs: round(scanMs),
      lspMs: round(lspMs),
      diagnostics: {},
    };
    const lineStarts = lineStartsOf(text);
    for (const d of ds) {
      const severity = SEVERITY[d.severity ?? 1] ?? 'Error';
      const key = `${severity}:${String(d.code)}`;
      record.diagnostics[key] = (record.diagnostics[key] ?? 0) + 1;
      summary.byCode[key] = (summary.byCode[key] ?? 0) + 1;
      if (severity === 'Error') summary.errors++;
      else if (severity === 'Warning') summary.warnings++;
      else summary.otherDiagnostics++;
      if (severity !== 'Error') continue;
      const start = offsetAt(lineStarts, d.range.start.line, d.range.start.character);
      const end = offsetAt(lineStarts, d.range.end.line, d.range.end.character);
      // The innermost occurrence holding the range (a nested dataPlatform follows its dataset).
      const holder = [...scan.occurrences].reverse().find((o) => o.start <= start && end <= o.end);
      const data = d.data as { urn?: unknown } | undefined;
      const lineText = text
        .slice(lineStarts[d.range.start.line] ?? 0, lineStarts[d.range.start.line + 1] ?? text.length)
        .trim();
      errors.push({
        repo,
        file: rel,
        line: d.range.start.line + 1,
        character: d.range.start.character + 1,
        code: String(d.code),
        message: typeof d.message === 'string' ? d.message : d.message.value,
        urn: holder?.urn ?? (typeof data?.urn === 'string' ? data.urn : text.slice(start, end)),
        source: lineText.length > 240 ? `${lineText.slice(0, 240)}…` : lineText,
      });
    }
    files.push({ ...record, path: `${repo}/${rel}` });
    summary.files++;
    summary.occurrences += record.occurrences;
    summary.topLevel += record.topLevel;
    summary.templates += record.templates;
    summary.lspMsTotal += lspMs;
    lspTimes.push(lspMs);
    summary.scanMsTotal += scanMs;
    if (!summary.slowest || lspMs > summary.slowest.lspMs)
      summary.slowest = { file: rel, lspMs: record.lspMs, scanMs: record.scanMs, chars: text.length };
    if (!summary.slowestScan || scanMs > summary.slowestScan.scanMs)
      summary.slowestScan = { file: rel, lspMs: record.lspMs, scanMs: record.scanMs, chars: text.length };
  }
  summary.lspMsTotal = round(summary.lspMsTotal);
  summary.lspMsMedian = round(lspTimes.sort((a, b) => a - b)[Math.floor(lspTimes.length / 2)] ?? 0);
  summary.scanMsTotal = round(summary.scanMsTotal);
  return summary;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/`/g, "'");

function markdown(repos: RepoSummary[], errors: ErrorRecord[], started: string): string {
  const lines = [
    `# Catalog Lens survey, ${started}`,
    '',
    'No catalog configured: only diagnostics that need no catalog (grammar Errors, YAML syntax Warnings).',
    '',
    '| repo | revision | files | URNs (top-level / all) | templates | Errors | Warnings | slowest file (didOpen → publish) | slowest scanDocument | LSP ms median / total |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |',
  ];
  for (const r of repos) {
    const slow = r.slowest ? `${cell(r.slowest.file)} ${r.slowest.lspMs} ms (${r.slowest.chars} chars)` : '–';
    const slowScan = r.slowestScan ? `${cell(r.slowestScan.file)} ${r.slowestScan.scanMs} ms` : '–';
    lines.push(
      `| ${r.repo} | ${cell(r.revision.split(' ')[0]!.replace(/\b([0-9a-f]{12})[0-9a-f]{28}\b/, '$1'))} | ${r.files} | ${r.topLevel} / ${r.occurrences} | ${r.templates} | ${r.errors} | ${r.warnings} | ${slow} | ${slowScan} | ${r.lspMsMedian} / ${r.lspMsTotal} |`,
    );
  }
  lines.push('');
  for (const r of repos) {
    const skipped = Object.entries(r.skipped)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const codes = Object.entries(r.byCode)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    lines.push(
      `- ${r.repo} (${cell(r.revision)}): ${codes || 'no diagnostics'}${skipped ? `; skipped: ${skipped}` : ''}${r.crashes.length ? `; failures: ${r.crashes.join('; ')}` : ''}`,
    );
  }
  lines.push(
    '',
    `## Errors (${errors.length})`,
    '',
    '| # | file:line:col | code | message | URN | source line |',
    '| ---: | --- | --- | --- | --- | --- |',
  );
  errors.forEach((e, i) => {
    lines.push(
      `| ${i + 1} | ${cell(`${e.repo}/${e.file}:${e.line}:${e.character}`)} | ${e.code} | ${cell(e.message)} | \`${cell(e.urn)}\` | \`${cell(e.source)}\` |`,
    );
  });
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { dirs, out, timeoutMs } = parseArgs(process.argv.slice(2));
  const started = new Date().toISOString();
  const lsp = await startSession({ settings: {} });
  // One document first, so that the first file of the first repo does not pay for the server's start.
  const warmUri = 'file:///survey-warm-up.py';
  const warm = lsp.diagnostics(warmUri, () => true, timeoutMs);
  await lsp.open(warmUri, 'python', 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"\n');
  await warm;
  await lsp.close(warmUri);
  const repos: RepoSummary[] = [];
  const errors: ErrorRecord[] = [];
  const files: FileRecord[] = [];
  try {
    for (const dir of dirs) {
      const summary = await surveyRepo(lsp, dir, timeoutMs, errors, files);
      repos.push(summary);
      process.stderr.write(
        `${summary.repo}: ${summary.files} files, ${summary.topLevel} URNs, ${summary.errors} Errors, ${summary.warnings} Warnings\n`,
      );
    }
  } finally {
    await lsp.stop();
  }
  await fs.writeFile(
    `${out}.json`,
    `${JSON.stringify({ started, node: process.version, repos, errors, files }, null, 1)}\n`,
  );
  await fs.writeFile(`${out}.md`, markdown(repos, errors, started));
  process.stdout.write(markdown(repos, [], started).split('\n## Errors')[0]!);
  process.stdout.write(`\n${errors.length} Errors listed in ${out}.md and ${out}.json\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
