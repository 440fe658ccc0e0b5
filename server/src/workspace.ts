/**
 * Check Workspace: scan every matching file of the workspace folders, resolve all their URNs
 * together (batched across files), and publish diagnostics for each file, with progress.
 */
import { promises as fs } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CancellationToken } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Settings } from '../../model/src/protocol';
import type { Resolution } from './catalog/client';
import { diagnosticsFor } from './features/diagnostics';
import { scanDocument } from './scan';
import type { ScanResult } from './scan/types';
import { resolvableItems, signalOf, toLspDiagnostic, type ServerState } from './server';

export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.py': 'python', '.yml': 'yaml', '.yaml': 'yaml', '.sql': 'sql', '.json': 'json', '.md': 'markdown',
  '.txt': 'plaintext', '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact',
  '.java': 'java', '.scala': 'scala', '.go': 'go', '.sh': 'shellscript', '.toml': 'toml',
};

export interface CheckResult { files: number; skipped: number; urns: number; diagnostics: number; cancelled: boolean }

export async function checkWorkspace(state: ServerState, token: CancellationToken, canProgress: boolean): Promise<CheckResult> {
  const progress = canProgress ? await state.connection.window.createWorkDoneProgress() : undefined;
  progress?.begin('Catalog Lens: checking workspace', 0, 'listing files', true);
  const result: CheckResult = { files: 0, skipped: 0, urns: 0, diagnostics: 0, cancelled: false };
  const cancelled = (): boolean => token.isCancellationRequested || (progress?.token.isCancellationRequested ?? false);
  try {
    // Settings are asked once per workspace folder (its files share them), not once per file.
    const files: Array<{ path: string; settings: Settings }> = [];
    for (const folder of state.workspaceFolders()) {
      if (!folder.startsWith('file:')) continue;
      const settings = await state.settings.get(folder);
      const paths: string[] = [];
      await listFiles(fileURLToPath(folder), settings.excludeFolders, paths, cancelled);
      for (const path of paths) files.push({ path, settings });
    }
    const scanned: Array<{ doc: TextDocument; scan: ScanResult; settings: Settings }> = [];
    for (let i = 0; i < files.length && !cancelled(); i++) {
      const { path, settings: s } = files[i]!;
      const uri = pathToFileURL(path).toString();
      const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()];
      if (!languageId || !s.languages.includes(languageId)) continue;
      const open = state.documents.get(uri);
      let doc = open;
      if (!doc) {
        const stat = await fs.stat(path);
        if (stat.size > s.maxFileSize) { result.skipped++; continue; }
        doc = TextDocument.create(uri, languageId, 0, await fs.readFile(path, 'utf8'));
      }
      const scan = open ? state.scanOf(open, s) : scanDocument(doc.getText(), languageId, { namespaces: s.namespaces });
      if (!scan) { result.skipped++; continue; }
      scanned.push({ doc, scan, settings: s });
      if (i % 200 === 0) progress?.report(Math.round((i / files.length) * 50), `scanned ${i} of ${files.length} files`);
    }
    // One resolve over all files: URNs shared by files are asked once, in batches.
    const all = scanned.flatMap((x) => resolvableItems(x.scan));
    result.urns = new Set(all.map((x) => x.urn)).size;
    progress?.report(50, `asking the catalog about ${result.urns} URNs`);
    const s = await state.settings.get();
    const client = state.catalogs.clientFor(s);
    const resolved = new Map<string, Resolution>();
    const unique = [...new Map(all.map((x) => [x.urn, x])).values()];
    for (const [k, v] of await client.resolve(unique, signalOf(token))) resolved.set(k, v);
    if (cancelled()) { result.cancelled = true; return result; }
    for (const { doc, scan, settings: fileSettings } of scanned) {
      const diags = diagnosticsFor(scan, (u) => resolved.get(u) ?? client.cached(u), fileSettings.diagnostics);
      result.files++;
      result.diagnostics += diags.length;
      void state.connection.sendDiagnostics({ uri: doc.uri, diagnostics: diags.map((d) => toLspDiagnostic(doc, d)) });
    }
    result.cancelled = cancelled();
    return result;
  } finally {
    progress?.done();
  }
}

async function listFiles(dir: string, exclude: readonly string[], out: string[], cancelled: () => boolean): Promise<void> {
  if (cancelled()) return;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folders are passed over, like editors' own file search does
  }
  for (const e of entries) {
    if (e.isDirectory()) {
      if (!exclude.includes(e.name) && !e.name.startsWith('.')) await listFiles(join(dir, e.name), exclude, out, cancelled);
    } else if (e.isFile() && LANGUAGE_BY_EXTENSION[extname(e.name).toLowerCase()]) {
      out.push(join(dir, e.name));
    }
  }
}
