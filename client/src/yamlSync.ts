/**
 * A file in one of DataHub's YAML formats against the catalog — a dataset, glossary, data product
 * or structured properties file — for the whole file (the palette) or one entry (the code lenses
 * above each entry): the server's `catalogLens/dataHubYaml` answers the file as the catalog would
 * have it, the edits of a pull and the writes of a push.
 *
 * - Compare with Catalog: VS Code's diff of that text (a read-only document of the
 *   `catalog-lens-yaml:` scheme) against the file.
 * - Pull from Catalog: the edits as one WorkspaceEdit, each needing confirmation, so VS Code's
 *   refactor preview shows them before anything changes.
 * - Push to Catalog: the writes listed one line each in one modal dialog (descriptions, and the
 *   tags, glossary terms and owners the catalog's dataset lacks); once the user picks Push, each
 *   runs through writes.ts (progress, its result, Undo). What the file says and a push does not
 *   write (a structured property's display name) is listed too, as not pushed.
 *
 * The `catalogLens.dataHubYaml` context key is true while the active editor holds a file in one
 * of those formats: the palette offers the commands only then.
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { isRecord } from '../../model/src/json';
import {
  DataHubYamlRequest,
  YamlFormatRequest,
  type DataHubYamlResult,
  type DataHubYamlWrite,
} from '../../model/src/protocol';
import { ClientCommands, ServerCommands } from '../../model/src/commandIds';
import type { CatalogLanguageServer } from './languageClient';
import type { Log } from './log';
import { reportFailure } from './paletteCommands';
import { urnLabel } from './userText';
import { progressTitle, type WriteRunner } from './writes';

export const YAML_SCHEME = 'catalog-lens-yaml';
export const DATAHUB_YAML_CONTEXT = 'catalogLens.dataHubYaml';
export const PUSH = 'Push';
/** The formats Compare, Pull and Push cover (the server's `yamlFormat` names). */
const SYNCED: readonly string[] = [
  'datahub-dataset',
  'datahub-glossary',
  'datahub-data-product',
  'datahub-structured-properties',
];
/** At most this many writes in one dialog (more: one dialog per batch, each confirmed). */
export const PUSH_DIALOG_BATCH = 20;

/** Which file and entry a command acts on. */
interface Target {
  /** The file as the server knows it. */
  uri: string;
  file: vscode.Uri;
  entry?: string;
}

export function registerYamlSync(
  context: vscode.ExtensionContext,
  server: CatalogLanguageServer,
  log: Log,
  writes: WriteRunner,
): void {
  const provider = new CatalogVersions(server);
  context.subscriptions.push(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(YAML_SCHEME, provider),
    vscode.commands.registerCommand(ClientCommands.compareYamlWithCatalog, (args?: unknown) =>
      run(ClientCommands.compareYamlWithCatalog, args, (t) => compare(server, provider, log, t)),
    ),
    vscode.commands.registerCommand(ClientCommands.pullYamlFromCatalog, (args?: unknown) =>
      run(ClientCommands.pullYamlFromCatalog, args, (t) => pull(server, log, t)),
    ),
    vscode.commands.registerCommand(ClientCommands.pushYamlToCatalog, (args?: unknown) => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          'Catalog Lens writes nothing to the catalog in Restricted Mode: trust this workspace first.',
        );
        return undefined;
      }
      return run(ClientCommands.pushYamlToCatalog, args, async (t) => {
        await push(server, log, writes, t);
        provider.refresh();
      });
    }),
  );
  const run = async (id: string, args: unknown, act: (t: Target) => Promise<void>): Promise<void> => {
    try {
      const target = await targetOf(server, args);
      if (!target) {
        void vscode.window.showInformationMessage(
          'Catalog Lens: open a DataHub YAML file (dataset, glossary, data product or structured properties) first.',
        );
        return;
      }
      await act(target);
    } catch (e) {
      reportFailure(log, id, e);
    }
  };
  watchFormat(context, server);
}

/** The file and entry a code lens names, or the active editor's file. */
async function targetOf(server: CatalogLanguageServer, args: unknown): Promise<Target | undefined> {
  if (isRecord(args) && typeof args['uri'] === 'string') {
    const entry = typeof args['entry'] === 'string' ? args['entry'] : undefined;
    return { uri: args['uri'], file: await server.codeUri(args['uri']), ...(entry ? { entry } : {}) };
  }
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme === YAML_SCHEME) return undefined;
  return { uri: await server.protocolUri(doc.uri), file: doc.uri };
}

async function planOf(
  server: CatalogLanguageServer,
  t: Target,
): Promise<Exclude<DataHubYamlResult, { error: string }> | undefined> {
  // The server reads the open document: the file is opened (not shown) if it is not.
  await vscode.workspace.openTextDocument(t.file);
  const r = await server.request(DataHubYamlRequest, { uri: t.uri, ...(t.entry ? { entry: t.entry } : {}) });
  if (r.error !== undefined) {
    void vscode.window.showWarningMessage(inertText(`Catalog Lens: ${r.error}`, 'notification', MESSAGE_LIMIT));
    return undefined;
  }
  return r;
}

/** "users.yaml" or "users.yaml (db.users)". */
function subject(t: Target): string {
  const base = t.file.path.slice(t.file.path.lastIndexOf('/') + 1);
  return t.entry ? `${base} (${urnLabel(t.entry).label})` : base;
}

function logNotes(log: Log, t: Target, notes: readonly string[]): void {
  for (const n of notes) log.info(`${subject(t)}: ${n}`);
}

async function compare(server: CatalogLanguageServer, provider: CatalogVersions, log: Log, t: Target): Promise<void> {
  const plan = await planOf(server, t);
  if (!plan) return;
  logNotes(log, t, plan.notes);
  if (plan.edits.length === 0) {
    const push = plan.writes.length > 0 ? ` Push to Catalog would write ${plan.writes.length}.` : '';
    void vscode.window.showInformationMessage(
      inertText(`Catalog Lens: ${subject(t)} has every value the catalog has.${push}`, 'notification', MESSAGE_LIMIT),
    );
    return;
  }
  const left = provider.put(t, plan.catalogText);
  await vscode.commands.executeCommand('vscode.diff', left, t.file, `${subject(t)}: catalog ↔ file`);
}

async function pull(server: CatalogLanguageServer, log: Log, t: Target): Promise<void> {
  const plan = await planOf(server, t);
  if (!plan) return;
  logNotes(log, t, plan.notes);
  if (plan.edits.length === 0) {
    void vscode.window.showInformationMessage(
      inertText(`Catalog Lens: nothing to pull: ${subject(t)} has every value the catalog has.`, 'notification'),
    );
    return;
  }
  const doc = await vscode.workspace.openTextDocument(t.file);
  if (doc.version !== plan.version) {
    void vscode.window.showWarningMessage('Catalog Lens: the file changed meanwhile; pull again.');
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  for (const e of plan.edits) {
    const range = new vscode.Range(
      e.range.start.line,
      e.range.start.character,
      e.range.end.line,
      e.range.end.character,
    );
    edit.replace(t.file, range, e.newText, {
      needsConfirmation: true,
      label: 'Pull from catalog',
      description: subject(t),
    });
  }
  const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
  log.info(`pull ${subject(t)}: ${plan.edits.length} edit(s) ${applied ? 'applied' : 'not applied'}`);
}

async function push(server: CatalogLanguageServer, log: Log, writes: WriteRunner, t: Target): Promise<void> {
  const plan = await planOf(server, t);
  if (!plan) return;
  logNotes(log, t, plan.notes);
  for (const u of plan.unpushed) log.info(`${subject(t)}: not pushed: ${u}`);
  if (plan.writes.length === 0) {
    void vscode.window.showInformationMessage(
      inertText(
        plan.unpushed.length > 0
          ? `Catalog Lens: nothing Catalog Lens can push from ${subject(t)}: ${plan.unpushed.join('; ')}`
          : `Catalog Lens: nothing to push: the catalog already says what ${subject(t)} says.`,
        'notification',
        MESSAGE_LIMIT,
      ),
    );
    return;
  }
  for (let i = 0; i < plan.writes.length; i += PUSH_DIALOG_BATCH) {
    const batch = plan.writes.slice(i, i + PUSH_DIALOG_BATCH);
    const n = plan.writes.length;
    const which = n > PUSH_DIALOG_BATCH ? ` (${i + 1}–${i + batch.length} of ${n})` : '';
    const pick = await vscode.window.showWarningMessage(
      `Push ${batch.length} write${batch.length === 1 ? '' : 's'} from ${subject(t)} to the catalog${which}?`,
      { modal: true, detail: pushDetail(batch, i === 0 ? plan.unpushed : []) },
      PUSH,
    );
    if (pick !== PUSH) {
      log.info(`push ${subject(t)}: cancelled; ${n - i} write(s) not run`);
      return;
    }
    for (const w of batch) await runWrite(writes, w);
  }
}

/**
 * The dialog's list: one line per write (entry, field, old → new; or what it adds), as the server says it; then
 * what the file says that the push does not write, and why.
 */
export function pushDetail(batch: readonly DataHubYamlWrite[], unpushed: readonly string[] = []): string {
  const lines = batch.map((w) => `• ${inertText(w.line, 'plain', 400)}`);
  if (unpushed.length > 0) lines.push('', 'Not pushed:', ...unpushed.map((u) => `• ${inertText(u, 'plain', 400)}`));
  return lines.join('\n');
}

/** Each write through its own command (a switch, so each call is typed with its own argument). */
function runWrite(writes: WriteRunner, w: DataHubYamlWrite): Promise<unknown> {
  const title = progressTitle(w.command, w.arg);
  switch (w.command) {
    case ServerCommands.setDatasetDescription:
      return writes.run(w.command, w.arg, title);
    case ServerCommands.setColumnDescription:
      return writes.run(w.command, w.arg, title);
    case ServerCommands.addTags:
      return writes.run(w.command, w.arg, title);
    case ServerCommands.addTerms:
      return writes.run(w.command, w.arg, title);
    case ServerCommands.addOwners:
      return writes.run(w.command, w.arg, title);
    case ServerCommands.setDescription:
      return writes.run(w.command, w.arg, title);
  }
}

/** The `catalog-lens-yaml:` documents: the text as the catalog would have it, asked again on refresh. */
class CatalogVersions implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, { target: Target; text: string }>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly server: CatalogLanguageServer) {}

  /** The virtual document that holds `text` for `t`: the file's path (so its language), the target in the query. */
  put(t: Target, text: string): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: YAML_SCHEME,
      path: t.file.path,
      query: JSON.stringify({ uri: t.uri, entry: t.entry ?? null }),
    });
    this.texts.set(uri.toString(), { target: t, text });
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString())?.text ?? '';
  }

  /** After a push: each open comparison asked again. */
  refresh(): void {
    for (const [key, { target }] of this.texts) {
      void this.server
        .request(DataHubYamlRequest, { uri: target.uri, ...(target.entry ? { entry: target.entry } : {}) })
        .then((r) => {
          if (r.error !== undefined) return;
          this.texts.set(key, { target, text: r.catalogText });
          this.changed.fire(vscode.Uri.parse(key));
        })
        .catch(() => undefined);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The context key follows the active editor (and its edits, a moment later). */
function watchFormat(context: vscode.ExtensionContext, server: CatalogLanguageServer): void {
  let timer: NodeJS.Timeout | undefined;
  let asked = 0;
  const update = async (): Promise<void> => {
    const doc = vscode.window.activeTextEditor?.document;
    const mine = ++asked;
    let is = false;
    if (doc && doc.languageId === 'yaml' && doc.uri.scheme !== YAML_SCHEME) {
      try {
        const r = await server.request(YamlFormatRequest, { uri: await server.protocolUri(doc.uri) });
        is = r.format !== null && SYNCED.includes(r.format);
      } catch {
        is = false;
      }
    }
    if (mine === asked) await vscode.commands.executeCommand('setContext', DATAHUB_YAML_CONTEXT, is);
  };
  const later = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void update(), 500);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => later()),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) later();
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
  later();
}
