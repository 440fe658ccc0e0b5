/**
 * What both launchers of the in-host suite set up around the editor: the local catalog with the
 * sample data (started here, by the Node that built its native module: the extension host runs
 * another Node), a copy of examples/ for the window to open, and the report file the suite
 * writes, printed here as it grows.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startCatalog, type E2eCatalog } from '../../e2e/support/catalog';
import { REPO_ROOT } from '../../e2e/support/paths';
import { INHOST_ENV } from '../inhostEnv';

/** The suite's entry, compiled by test/vscode/tsconfig.json; what VS Code loads as extensionTestsPath. */
export const SUITE_ENTRY = path.join(REPO_ROOT, 'out', 'test', 'vscode', 'suite', 'index.js');

export interface InhostRunOptions {
  /** node:test testNamePatterns; empty runs every test. */
  namePatterns: string[];
  /** The whole run, from the page load to the suite's end (the code-server run; default 600 s). */
  timeoutMs?: number;
}

export interface InhostFixture {
  runDir: string;
  catalog: E2eCatalog;
  /** The copy of examples/ the window opens. */
  workspace: string;
  report: ReportTail;
  /** The suite's environment: where the catalog and the report are, which tests to run. */
  suiteEnv: Record<string, string>;
  /** Copies the catalog's log into `dir` (the launcher adds the editor's). */
  keepLogs(dir: string): void;
  stop(): Promise<void>;
}

export async function startFixture(namePatterns: readonly string[]): Promise<InhostFixture> {
  if (!existsSync(SUITE_ENTRY)) throw new Error(`${SUITE_ENTRY} is missing: run \`npm run build\``);
  const runDir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-inhost-'));
  const catalogDir = path.join(runDir, 'catalog');
  mkdirSync(catalogDir);
  let catalog: E2eCatalog;
  try {
    catalog = await startCatalog({ dir: catalogDir });
  } catch (err) {
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  const workspace = path.join(runDir, 'examples');
  cpSync(path.join(REPO_ROOT, 'examples'), workspace, { recursive: true });
  const reportFile = path.join(runDir, 'report.tap');
  const report = new ReportTail(reportFile);
  return {
    runDir,
    catalog,
    workspace,
    report,
    suiteEnv: {
      [INHOST_ENV.catalogUrl]: catalog.url,
      [INHOST_ENV.report]: reportFile,
      ...(namePatterns.length > 0 ? { [INHOST_ENV.namePatterns]: JSON.stringify(namePatterns) } : {}),
    },
    keepLogs: (dir) => {
      cpSync(path.join(catalogDir, 'catalog.log'), path.join(dir, 'catalog.log'));
      if (existsSync(reportFile)) cpSync(reportFile, path.join(dir, 'report.tap'));
    },
    stop: async () => {
      report.close();
      await catalog.stop();
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

/** The counts of node:test's closing lines ("# pass N" …), as the suite writes them. */
export interface ReportCounts {
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
}

/**
 * Prints the suite's TAP report to stdout as the suite writes it (on the file's change events),
 * and reads its closing counts at the end.
 */
export class ReportTail {
  private offset = 0;
  private watcher: ReturnType<typeof watch> | undefined;
  private text = '';

  constructor(readonly file: string) {}

  /** Starts following the file; it must exist (the launcher creates it empty). */
  follow(): void {
    this.watcher = watch(this.file, () => this.drain());
    this.drain();
  }

  /** Prints what was written since the last call. */
  drain(): void {
    if (!existsSync(this.file)) return;
    const fd = openSync(this.file, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (n === 0) break;
        this.offset += n;
        const chunk = buffer.subarray(0, n).toString('utf8');
        this.text += chunk;
        process.stdout.write(chunk);
      }
    } finally {
      closeSync(fd);
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** The closing counts, or undefined when the suite did not get to write them. */
  counts(): ReportCounts | undefined {
    this.drain();
    const count = (name: string): number | undefined => {
      const m = new RegExp(`^# ${name} (\\d+)$`, 'm').exec(this.text);
      return m ? Number(m[1]) : undefined;
    };
    const pass = count('pass');
    const fail = count('fail');
    if (pass === undefined || fail === undefined) return undefined;
    return { pass, fail, cancelled: count('cancelled') ?? 0, skipped: count('skipped') ?? 0 };
  }
}

/** The verdict both launchers give: the suite's exit code and its own counts must agree. */
export function verdict(exitCode: number | undefined, counts: ReportCounts | undefined): { ok: boolean; why: string } {
  if (exitCode === undefined) return { ok: false, why: 'the extension host never reported the end of the suite' };
  if (!counts) return { ok: false, why: `the suite wrote no closing counts (exit code ${exitCode})` };
  if (exitCode !== 0 || counts.fail > 0 || counts.cancelled > 0) {
    return {
      ok: false,
      why: `exit code ${exitCode}: ${counts.fail} failed, ${counts.cancelled} cancelled, ${counts.pass} passed`,
    };
  }
  return { ok: true, why: `${counts.pass} passed, ${counts.skipped} skipped` };
}
