/**
 * `catalog-lens check`: Check Workspace without an editor. The same listing, scanning, resolution
 * and diagnostics (workspace.ts over pipeline/check.ts), with the paths as the workspace folders,
 * no open documents, and the diagnostics collected into a report instead of published.
 *
 * The token goes where the editor's would, by the same rules (catalogClient/registry.ts), except
 * that nobody can be asked: an origin the editor would ask about (plain HTTP off this machine,
 * another host than the catalog's) gets no token unless `allowTokenOrigins` lists it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CatalogStatus } from '../../../model/src/protocol';
import { PRODUCT_VERSION } from '../../../model/src/version';
import { CatalogClients } from '../catalogClient/registry';
import { displayUrl } from '../catalogClient/errors';
import type { Fetch } from '../catalogClient/http';
import type { PlainDiagnostic } from '../features/diagnostics';
import { checkWorkspace, LANGUAGE_BY_EXTENSION } from '../workspace';
import type { CheckOptions } from './options';
import type { CheckReport, FileFindings, Finding } from './report';

export interface CheckIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Progress and notices (standard error). */
  note(message: string): void;
  fetch?: Fetch;
}

/** Paths that are not there, or files Catalog Lens does not scan: a usage error, said before anything runs. */
export function pathProblems(paths: readonly string[], cwd: string): string[] {
  const problems: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (!existsSync(abs)) problems.push(`${p}: no such file or folder`);
    else if (statSync(abs).isFile() && !LANGUAGE_BY_EXTENSION[extname(abs).toLowerCase()])
      problems.push(`${p}: not a kind of file Catalog Lens scans (${Object.keys(LANGUAGE_BY_EXTENSION).join(' ')})`);
  }
  return problems;
}

/** The CLI's words for what to do: its flags and variables, not the editor's commands and settings. */
const CLI_HINTS = {
  // Never "url" in .catalog-lens.json with a token: a file in the repository does not choose where the token goes.
  notConfigured: 'Pass --url or set CATALOG_LENS_URL (the token, if any, in CATALOG_LENS_TOKEN or --token-file).',
  unauthorized: 'Set a valid access token in CATALOG_LENS_TOKEN or pass --token-file.',
  timeout: 'The catalog did not answer in time ("requestTimeoutMs" in .catalog-lens.json sets how long to wait).',
} as const;

const FAILED_STATES: ReadonlySet<CatalogStatus['state']> = new Set(['unauthorized', 'unreachable', 'error']);

/**
 * The catalog clients of the command line (check and mcp): the token from the options, DataHub's
 * CLI configuration as the fallback, and no one to ask about sending the token elsewhere.
 */
export function cliCatalogClients(
  options: Pick<CheckOptions, 'settings' | 'token'>,
  io: CheckIo,
  onStatus: (status: CatalogStatus) => void,
): CatalogClients {
  const settings = options.settings;
  return new CatalogClients({
    token: options.token,
    ...(io.fetch ? { fetch: io.fetch } : {}),
    onStatus,
    onRecovered: () => undefined,
    log: (m) => io.note(m),
    // Nobody to ask: only origins the settings allow receive the token.
    confirmToken: (origin, why) => {
      io.note(`the access token is not sent to ${origin}: ${why} List it in allowTokenOrigins to send it there.`);
      return Promise.resolve(false);
    },
    allowedOrigins: () => settings.allowTokenOrigins,
    hints: CLI_HINTS,
    environment: {
      env: io.env,
      home: io.env['HOME'] ?? io.env['USERPROFILE'],
      readText: (path) => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return undefined;
        }
      },
      trusted: () => true,
    },
  });
}

export async function runCheck(options: CheckOptions, io: CheckIo): Promise<CheckReport> {
  const settings = options.settings;
  let status: CatalogStatus | undefined;
  const clients = cliCatalogClients(options, io, (s) => {
    status = s;
  });
  const endpoint = clients.endpointFor(settings);
  const findings = new Map<string, FileFindings>();
  const skipped: CheckReport['skipped'] = [];
  const rel = (path: string): string => relative(io.cwd, path).split(sep).join('/') || '.';
  let lastProgress = '';
  try {
    const result = await checkWorkspace(
      {
        workspaceFolders: () => options.paths.map((p) => pathToFileURL(resolve(io.cwd, p)).toString()),
        settingsFor: () => Promise.resolve(settings),
        clientFor: (s) => clients.clientFor(s),
        log: () => undefined,
        openDocument: () => undefined,
        scanOf: () => undefined,
        publish: (doc, diagnostics) => {
          if (diagnostics.length === 0) return;
          const path = rel(fileURLToPath(doc.uri));
          const list = diagnostics.map((d) => toFinding(doc, d)).sort((a, b) => a.line - b.line || a.column - b.column);
          findings.set(path, { path, findings: list });
        },
        clear: () => undefined,
        skipped: (path, reason) => skipped.push({ path: rel(path), reason }),
      },
      {
        cancelled: () => false,
        ...(options.progress
          ? {
              report: (percentage: number, message: string) => {
                const line = `catalog-lens: ${percentage}% ${message}`;
                if (line !== lastProgress) io.note(line);
                lastProgress = line;
              },
            }
          : {}),
      },
    );
    const catalogProblem =
      endpoint.url && status && FAILED_STATES.has(status.state) ? `${status.state}: ${status.message}` : undefined;
    return {
      version: PRODUCT_VERSION,
      catalog: endpoint.url ? displayUrl(endpoint.url) : undefined,
      catalogProblem,
      root: io.cwd,
      filesChecked: result.files,
      urns: result.urns,
      skipped: skipped.sort((a, b) => a.path.localeCompare(b.path)),
      files: [...findings.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    };
  } finally {
    clients.dispose();
  }
}

/** LSP-style offsets to 1-based lines and UTF-16 columns. */
function toFinding(doc: TextDocument, d: PlainDiagnostic): Finding {
  const start = doc.positionAt(d.start);
  const end = doc.positionAt(d.end);
  return {
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    severity: d.severity,
    code: d.code,
    message: d.message,
  };
}
