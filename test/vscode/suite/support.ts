/**
 * What the in-host tests share: the workspace (a copy of examples/ the launcher opened), the
 * local catalog the launcher started, and waits for what the extension publishes. Every wait is
 * for an event (diagnostics changing), with a timeout whose error says what was there instead.
 */
import * as vscode from 'vscode';
import { INHOST_ENV } from '../inhostEnv';

export const EXTENSION_ID = 'catalog-lens.catalog-lens';

/** A busy 2-core machine: the first answer of the catalog can take seconds. */
export const WAIT_MS = 30_000;

export const URNS = {
  users: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
  orders: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
  clicks: 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)',
  revenue: 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)',
  ghost: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)',
  age: 'urn:li:mlFeature:(users_table,age)',
  signupDays: 'urn:li:mlFeature:(users_table,signup_days)',
  usersTable: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
} as const;

export function catalogUrl(): string {
  const url = process.env[INHOST_ENV.catalogUrl];
  if (!url) throw new Error(`${INHOST_ENV.catalogUrl} is not set: the launcher starts the catalog`);
  return url;
}

export function workspaceUri(relativePath: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the window has no folder open');
  return vscode.Uri.joinPath(folder.uri, ...relativePath.split('/'));
}

/** Opens a workspace file in an editor, as a user does; the extension activates on its language. */
export async function openFile(relativePath: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(relativePath));
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** Writes a new file into the workspace and opens it. */
export async function openNewFile(relativePath: string, text: string): Promise<vscode.TextDocument> {
  await vscode.workspace.fs.writeFile(workspaceUri(relativePath), new TextEncoder().encode(text));
  return openFile(relativePath);
}

/** The position of `needle`'s `at`-th character (default: its middle) on the first line holding `lineNeedle`. */
export function positionOf(
  doc: vscode.TextDocument,
  lineNeedle: string,
  needle = lineNeedle,
  at?: number,
): vscode.Position {
  const text = doc.getText();
  const lineStart = text.indexOf(lineNeedle);
  if (lineStart < 0) throw new Error(`${doc.uri.path} holds no ${JSON.stringify(lineNeedle)}`);
  const start = text.indexOf(needle, lineStart);
  if (start < 0)
    throw new Error(`${doc.uri.path} holds no ${JSON.stringify(needle)} after ${JSON.stringify(lineNeedle)}`);
  return doc.positionAt(start + (at ?? Math.floor(needle.length / 2)));
}

/** Catalog Lens's diagnostics of `uri` (other extensions' are left out). */
export function catalogDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'catalog-lens');
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/**
 * Resolves with Catalog Lens's diagnostics of `uri` once `ready` holds for them: now, or after a
 * change VS Code announces (onDidChangeDiagnostics). Rejects after `timeoutMs`, listing them.
 */
export function waitForDiagnostics(
  uri: vscode.Uri,
  ready: (diagnostics: vscode.Diagnostic[]) => boolean,
  what: string,
  timeoutMs = WAIT_MS,
): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const ds = catalogDiagnostics(uri);
      if (!ready(ds)) return false;
      finish();
      resolve(ds);
      return true;
    };
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      finish();
      const shown = catalogDiagnostics(uri).map((d) => `${codeOf(d)}: ${d.message}`);
      reject(new Error(`${what}: not within ${timeoutMs / 1000} s; ${uri.path} has ${JSON.stringify(shown)}`));
    }, timeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      listener.dispose();
    };
    check();
  });
}

/** The diagnostic with `code` whose range holds `position`, once the server has published it. */
export async function diagnosticAt(
  doc: vscode.TextDocument,
  position: vscode.Position,
  code: string,
): Promise<vscode.Diagnostic> {
  const ds = await waitForDiagnostics(
    doc.uri,
    (all) => all.some((d) => codeOf(d) === code && d.range.contains(position)),
    `a ${code} diagnostic at ${doc.uri.path}:${position.line + 1}:${position.character + 1}`,
  );
  return ds.find((d) => codeOf(d) === code && d.range.contains(position))!;
}

/** The plain text of a hover's contents (Markdown as written, without the code fences' language). */
export function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n---\n');
}

export async function hoverAt(doc: vscode.TextDocument, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position);
  return hoverText(hovers);
}

/** The code actions VS Code offers at `range` (its own context: the diagnostics there). */
export async function codeActionsAt(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    doc.uri,
    range,
  );
  // A bare Command has a string `command`; a CodeAction's is a Command object, or absent.
  return actions.filter((a): a is vscode.CodeAction => typeof a.command !== 'string');
}

/** Runs a code action's command as the editor does when the user picks it. */
export async function runActionCommand<T>(action: vscode.CodeAction): Promise<T> {
  if (!action.command) throw new Error(`"${action.title}" has no command`);
  return vscode.commands.executeCommand<T>(action.command.command, ...(action.command.arguments ?? []));
}

/** A GraphQL read (or write) against the local catalog, as a colleague's tool would make it. */
export async function catalogGraphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${catalogUrl()}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!res.ok || body.errors?.length || body.data === undefined) {
    throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body.errors ?? body)}`);
  }
  return body.data;
}

export async function editedDatasetDescription(urn: string): Promise<string | null> {
  const data = await catalogGraphql<{ dataset: { editableProperties: { description: string | null } | null } | null }>(
    'query ($urn: String!) { dataset(urn: $urn) { editableProperties { description } } }',
    { urn },
  );
  return data.dataset?.editableProperties?.description ?? null;
}
