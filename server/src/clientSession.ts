/**
 * What the editor said at `initialize` — its capabilities and Catalog Lens's initialization
 * options — read once into one typed value, and its workspace folders as they change since.
 * Other editors send what they like: every option is checked before it is used.
 */
import type { InitializeParams } from 'vscode-languageserver';
import { SERVER_TOKEN_ENV, type ServerInitializationOptions } from '../../model/src/protocol';

export interface ClientSession {
  /** The Catalog Lens extension: code actions may name its client commands, hovers its lineage link. */
  readonly clientCommands: boolean;
  /**
   * The editor shows the messages of the diagnostics under the mouse in the hover box (VS Code):
   * hovers leave out what they say. Other editors get a hover that starts with those messages.
   */
  readonly hoverShowsDiagnostics: boolean;
  /** The workspace is trusted (the editor says so; other editors are trusted). */
  readonly trusted: boolean;
  /** The editor shows work-done progress the server creates. */
  readonly progress: boolean;
  /**
   * The editor shows a document link's tooltip in the hover over it (VS Code): hovers then leave
   * their link out. It says so twice: the `tooltipSupport` capability (which other editors declare
   * for a tooltip shown elsewhere, as Emacs' lsp-mode does) and `hoverShowsLinkTooltips`.
   */
  readonly linkTooltips: boolean;
  /** Origins the editor already had the user allow a token to go to. */
  readonly allowedOrigins: readonly string[];
  /** The editor tells of workspace folders added and removed. */
  readonly workspaceFolders: boolean;
  /** The client asked for `catalogLens/indexed` notifications. */
  readonly indexedNotifications: boolean;
  /**
   * The client asked for `catalogLens/status` and `catalogLens/skipped` (the extension's status
   * item): other editors are told a failing catalog and a skipped file with `window/showMessage`.
   */
  readonly statusNotifications: boolean;
  /**
   * Hovers are Markdown unless the editor declares hover formats without `markdown`
   * (`textDocument.hover.contentFormat`): then they are plain text. An editor that declares
   * nothing gets Markdown, which every editor tried renders or shows as it is.
   */
  readonly hoverMarkdown: boolean;
  /** The same for completion items' documentation (`completionItem.documentationFormat`). */
  readonly completionMarkdown: boolean;
  /**
   * Completion items may leave their documentation for `completionItem/resolve`: the editor lists
   * `documentation` in `completionItem.resolveSupport.properties` (VS Code does). Else every item
   * is answered whole, and the server offers no resolve.
   */
  readonly completionResolveDocumentation: boolean;
  /**
   * The editor takes a completion list's default edit range (`completionList.itemDefaults` holds
   * `editRange`, LSP 3.17; VS Code's does): items then carry only their text.
   */
  readonly completionEditRange: boolean;
  /** The editor lets the server register file watchers (the workspace index follows files on disk). */
  readonly watchedFiles: boolean;
  /** The editor shows a WorkspaceEdit's change annotations (rename: "the catalog is not changed"). */
  readonly changeAnnotations: boolean;
  /** The editor shows `window/showMessageRequest` actions (it declares `window.showMessage`). */
  readonly messageActions: boolean;
  /** The editor opens a page the server names (`window/showDocument`). */
  readonly showDocument: boolean;
  /** The editor lets the server ask for settings (`workspace/configuration`). */
  readonly configuration: boolean;
  /** The editor shows inlay hints (`textDocument/inlayHint`): the server offers the catalog's names beside ids. */
  readonly inlayHints: boolean;
  /** The editor asks for inlay hints again when told to (`workspace/inlayHint/refresh`). */
  readonly inlayHintRefresh: boolean;
  /** A token the editor gave at initialize (none when the server's environment has one). */
  readonly token: string | undefined;
  /** The settings the editor pushed at initialize (`initializationOptions.settings`), unchecked. */
  readonly initialSettings: unknown;
  /** The workspace folders' URIs, kept current as folders are added and removed. */
  folders: string[];
}

/** The session an editor that says nothing gets: trusted, no extras. */
export function defaultSession(): ClientSession {
  return readClientSession({ processId: null, rootUri: null, capabilities: {}, workspaceFolders: null }, {});
}

export function readClientSession(params: InitializeParams, env: NodeJS.ProcessEnv): ClientSession {
  const caps = params.capabilities;
  const init = (params.initializationOptions ?? {}) as Partial<Record<keyof ServerInitializationOptions, unknown>>;
  const folders = (params.workspaceFolders ?? []).map((f) => f.uri);
  if (folders.length === 0 && params.rootUri) folders.push(params.rootUri);
  return {
    clientCommands: init.clientCommands === true,
    hoverShowsDiagnostics: init.hoverShowsDiagnostics === true,
    trusted: init.trusted !== false,
    progress: caps.window?.workDoneProgress === true,
    linkTooltips: caps.textDocument?.documentLink?.tooltipSupport === true && init.hoverShowsLinkTooltips === true,
    allowedOrigins: allowedOriginsOf(init),
    workspaceFolders: caps.workspace?.workspaceFolders === true,
    indexedNotifications: init.indexedNotifications === true,
    statusNotifications: init.statusNotifications === true,
    hoverMarkdown: saysMarkdown(caps.textDocument?.hover?.contentFormat),
    completionMarkdown: saysMarkdown(caps.textDocument?.completion?.completionItem?.documentationFormat),
    completionResolveDocumentation: listHas(
      caps.textDocument?.completion?.completionItem?.resolveSupport?.properties,
      'documentation',
    ),
    completionEditRange: listHas(caps.textDocument?.completion?.completionList?.itemDefaults, 'editRange'),
    watchedFiles: caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    changeAnnotations:
      caps.workspace?.workspaceEdit?.documentChanges === true &&
      caps.workspace.workspaceEdit.changeAnnotationSupport !== undefined,
    configuration: caps.workspace?.configuration === true,
    messageActions: caps.window?.showMessage !== undefined && caps.window.showMessage !== null,
    showDocument: caps.window?.showDocument?.support === true,
    inlayHints: caps.textDocument?.inlayHint !== undefined && caps.textDocument.inlayHint !== null,
    inlayHintRefresh: caps.workspace?.inlayHint?.refreshSupport === true,
    token: typeof init.token === 'string' && init.token !== '' && !env[SERVER_TOKEN_ENV] ? init.token : undefined,
    initialSettings: init.settings ?? {},
    folders,
  };
}

/** Whether `list` is an array that holds `value`. */
function listHas(list: unknown, value: string): boolean {
  return Array.isArray(list) && list.includes(value);
}

/** Markdown is fine unless the editor lists formats and `markdown` is not among them. */
function saysMarkdown(formats: unknown): boolean {
  return !Array.isArray(formats) || formats.length === 0 || formats.includes('markdown');
}

/**
 * Origins the editor already had the user allow before it started the server: `allowTokenOrigins`,
 * and `allowInsecureHosts` (host:port reached over plain HTTP) of earlier clients.
 */
function allowedOriginsOf(init: Partial<Record<keyof ServerInitializationOptions, unknown>>): string[] {
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return [...strings(init.allowTokenOrigins), ...strings(init.allowInsecureHosts).map((h) => `http://${h}`)];
}
