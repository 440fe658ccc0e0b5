/**
 * What the client and the server share: the server commands' arguments and results (their ids, and
 * every other command id, are in model/src/commandIds.ts), settings, initialization options, custom
 * messages with their params and results. These are public contracts (README "Server commands",
 * "Custom messages", "Settings"); keep them stable.
 */
import { ServerCommands, type ServerCommandId } from './commandIds';
import { DEFAULT_ENTITY_URL_TEMPLATE } from './entityPage';
import type { CatalogKind } from './kinds';
import { DEFAULT_LANGUAGES } from './languages';
import type { Urn } from './urn';

/** A server command's id (model/src/commandIds.ts holds every command id). */
export type CommandId = ServerCommandId;

/** Every command's argument may name a document: the settings of its folder apply (write path, actor). */
export interface CommandScope {
  uri?: string;
}

export interface SetDatasetDescriptionArgs extends CommandScope {
  urn: string;
  /** Absent with a link: only the link is added. */
  description?: string;
  link?: { url: string; description?: string } | null;
  /** The write puts back the text an earlier write replaced (Undo): its message says "Restored the earlier description". */
  restoring?: boolean;
}

export interface SetColumnDescriptionArgs extends CommandScope {
  urn: string;
  fieldPath: string;
  description: string;
  /** The write puts back the text an earlier write replaced (Undo): its message says "Restored the earlier description". */
  restoring?: boolean;
}

export interface AddFeaturesToTableArgs extends CommandScope {
  table: string;
  features: string[];
}

export interface AddFeaturesToModelArgs extends CommandScope {
  model: string;
  features: string[];
}

export interface AddGroupsToModelArgs extends CommandScope {
  model: string;
  groups: string[];
}

export interface CreateEntityArgs extends CommandScope {
  urn: string;
  /** The ML kind's properties aspect (`mlFeatureProperties` …), as model/src/aspects.ts types it. */
  properties: Record<string, unknown>;
  overwrite?: boolean;
}

export interface SetMlDescriptionArgs extends CommandScope {
  /** An mlFeature, mlFeatureTable, mlModel or mlModelGroup URN; the entity must exist. */
  urn: string;
  description: string;
  /** The write puts back the text an earlier write replaced (Undo): its message says "Restored the earlier description". */
  restoring?: boolean;
}

/** Argument of `setDescription`: a glossary term, glossary node, data product or structured property the catalog has, and its new description. */
export interface SetDescriptionArgs extends CommandScope {
  urn: string;
  description: string;
  /** The write puts back the text an earlier write replaced (Undo): its message says "Restored the earlier description". */
  restoring?: boolean;
}

/**
 * Tags or glossary terms appended to a dataset (`fieldPath` absent) or to one of its columns, or
 * removed again (Undo). Each list holds `urn:li:tag:` (or `urn:li:glossaryTerm:`) URNs.
 */
export interface DatasetTagsArgs extends CommandScope {
  urn: string;
  tags: string[];
  /** The column, as the catalog's schema spells its path. */
  fieldPath?: string;
}

export interface DatasetTermsArgs extends CommandScope {
  urn: string;
  terms: string[];
  /** The column, as the catalog's schema spells its path. */
  fieldPath?: string;
}

/** Owners (user or group URNs) of one ownership type appended to a dataset, or removed again (Undo). */
export interface DatasetOwnersArgs extends CommandScope {
  urn: string;
  owners: string[];
  /** An OwnershipType name (TECHNICAL_OWNER, BUSINESS_OWNER …) or an `urn:li:ownershipType:` URN. */
  ownershipType: string;
}

/** What `checkWorkspace` did: files scanned and skipped (too large, unreadable), distinct URNs, diagnostics. */
export interface CheckWorkspaceResult {
  files: number;
  skipped: number;
  urns: number;
  diagnostics: number;
  cancelled: boolean;
}

/** What `refresh` did: how many open documents are checked again. */
export interface RefreshResult {
  refreshed: number;
}

/** What `testConnection` found: the connection status now, and whether the catalog answered. */
export type ConnectionTestResult = CatalogStatus & { ok: boolean };

/** Argument of `pushDataHubYaml`: a file in one of DataHub's YAML formats, and one entry of it (its URN) or the whole file. */
export interface PushDataHubYamlArgs extends CommandScope {
  uri: string;
  entry?: string;
}

/**
 * What `pushDataHubYaml` did: `nothing` to write, `cancelled` (the user said no: nothing written),
 * `pushed` (each write's line and result), or `failed` (not a DataHub YAML file sync covers, the
 * catalog not answering, Restricted Mode).
 */
export interface PushDataHubYamlResult {
  status: 'pushed' | 'nothing' | 'cancelled' | 'failed';
  message: string;
  results: Array<{ line: string; result: WriteResult }>;
}

/** The argument and the result of each server command. */
export interface ServerCommandTypes {
  [ServerCommands.setDatasetDescription]: { args: SetDatasetDescriptionArgs; result: WriteResult };
  [ServerCommands.setColumnDescription]: { args: SetColumnDescriptionArgs; result: WriteResult };
  [ServerCommands.addFeaturesToTable]: { args: AddFeaturesToTableArgs; result: WriteResult };
  [ServerCommands.addFeaturesToModel]: { args: AddFeaturesToModelArgs; result: WriteResult };
  [ServerCommands.addGroupsToModel]: { args: AddGroupsToModelArgs; result: WriteResult };
  [ServerCommands.removeFeaturesFromTable]: { args: AddFeaturesToTableArgs; result: WriteResult };
  [ServerCommands.removeFeaturesFromModel]: { args: AddFeaturesToModelArgs; result: WriteResult };
  [ServerCommands.removeGroupsFromModel]: { args: AddGroupsToModelArgs; result: WriteResult };
  [ServerCommands.createEntity]: { args: CreateEntityArgs; result: WriteResult };
  [ServerCommands.setMlDescription]: { args: SetMlDescriptionArgs; result: WriteResult };
  [ServerCommands.setDescription]: { args: SetDescriptionArgs; result: WriteResult };
  [ServerCommands.addTags]: { args: DatasetTagsArgs; result: WriteResult };
  [ServerCommands.removeTags]: { args: DatasetTagsArgs; result: WriteResult };
  [ServerCommands.addTerms]: { args: DatasetTermsArgs; result: WriteResult };
  [ServerCommands.removeTerms]: { args: DatasetTermsArgs; result: WriteResult };
  [ServerCommands.addOwners]: { args: DatasetOwnersArgs; result: WriteResult };
  [ServerCommands.removeOwners]: { args: DatasetOwnersArgs; result: WriteResult };
  [ServerCommands.checkWorkspace]: { args: CommandScope; result: CheckWorkspaceResult };
  [ServerCommands.refresh]: { args: CommandScope; result: RefreshResult };
  [ServerCommands.testConnection]: { args: CommandScope; result: ConnectionTestResult };
  [ServerCommands.pushDataHubYaml]: { args: PushDataHubYamlArgs; result: PushDataHubYamlResult };
}

export type CommandArgs<C extends CommandId> = ServerCommandTypes[C]['args'];
export type CommandResult<C extends CommandId> = ServerCommandTypes[C]['result'];

/** The server commands that write to the catalog: each answers a WriteResult. */
export type WriteCommandId = { [C in CommandId]: CommandResult<C> extends WriteResult ? C : never }[CommandId];

/** Every server command that writes to the catalog (the client shows progress and the result of each). */
export const WRITE_COMMANDS: readonly WriteCommandId[] = [
  ServerCommands.setDatasetDescription,
  ServerCommands.setColumnDescription,
  ServerCommands.addFeaturesToTable,
  ServerCommands.addFeaturesToModel,
  ServerCommands.addGroupsToModel,
  ServerCommands.removeFeaturesFromTable,
  ServerCommands.removeFeaturesFromModel,
  ServerCommands.removeGroupsFromModel,
  ServerCommands.createEntity,
  ServerCommands.setMlDescription,
  ServerCommands.setDescription,
  ServerCommands.addTags,
  ServerCommands.removeTags,
  ServerCommands.addTerms,
  ServerCommands.removeTerms,
  ServerCommands.addOwners,
  ServerCommands.removeOwners,
];

/**
 * The append commands and the remove command that undoes each: the client's Undo runs the remove
 * with exactly the members the append's result names in `added`.
 */
export const UNDO_OF = {
  [ServerCommands.addFeaturesToTable]: ServerCommands.removeFeaturesFromTable,
  [ServerCommands.addFeaturesToModel]: ServerCommands.removeFeaturesFromModel,
  [ServerCommands.addGroupsToModel]: ServerCommands.removeGroupsFromModel,
  [ServerCommands.addTags]: ServerCommands.removeTags,
  [ServerCommands.addTerms]: ServerCommands.removeTerms,
  [ServerCommands.addOwners]: ServerCommands.removeOwners,
} as const;

/**
 * What a write command did: written (which aspects), unchanged (nothing needed writing), or failed
 * with a kind the user can act on. Each variant names the others' fields as absent, so a reader
 * may look at `aspects` or `kind` before narrowing on `status`.
 */
export type WriteResult =
  | {
      status: 'written';
      message: string;
      aspects: string[];
      kind?: undefined;
      /**
       * The append commands: exactly the members this write added, as written (never one that was
       * there before). Undo removes these and nothing else.
       */
      added?: string[];
      /** The remove commands: exactly the members this write took out, as the list spelt them. */
      removed?: string[];
      /**
       * The description commands, when the description was written: the text this write replaced
       * in the aspect it wrote (null: it held none). Undo writes it back.
       */
      previous?: string | null;
    }
  | {
      status: 'unchanged';
      message: string;
      aspects?: undefined;
      kind?: undefined;
      added?: undefined;
      removed?: undefined;
      previous?: undefined;
    }
  | {
      status: 'failed';
      message: string;
      kind: CatalogErrorKind;
      aspects?: undefined;
      added?: undefined;
      removed?: undefined;
      previous?: undefined;
    };

/** What came of a write, for a log line: `written <aspects>`, `unchanged` or `failed (<kind>)`. */
export function writeOutcome(r: WriteResult): string {
  return r.status === 'written'
    ? `written ${r.aspects.join(', ')}`
    : r.status === 'unchanged'
      ? 'unchanged'
      : `failed (${r.kind})`;
}

export type CatalogErrorKind =
  | 'notConfigured'
  | 'unauthorized'
  | 'forbidden'
  | 'unreachable'
  | 'timeout'
  | 'notFound'
  | 'badResponse'
  | 'rejected'
  | 'conflict'
  | 'cancelled'
  | 'badInput';

export type Severity = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** Settings, section `catalogLens` (VS Code settings or `workspace/configuration`). */
export interface Settings {
  /** The catalog's base URL: DataHub GMS or the local catalog. Empty: not configured. */
  url: string;
  /** Override of the GraphQL endpoint; default `{url}/api/graphql`. */
  graphqlUrl: string;
  /** Base URL of the catalog's web UI; default: `url` (with GMS port 8080 read as the frontend's 9002). */
  uiUrl: string;
  /** Link to an entity's page: `{uiUrl}`, `{path}` (DataHub's page name for the kind) and `{urn}` are filled in. */
  entityUrlTemplate: string;
  writePath: 'aspects' | 'graphql';
  /** User URN written as actor of audit stamps and author of links. */
  actor: string;
  namespaces: string[];
  languages: string[];
  /** Documents longer than this many characters are skipped with one notice; at most MAX_FILE_SIZE_BOUND. */
  maxFileSize: number;
  diagnostics: {
    malformed: Severity;
    unknown: Severity;
    missingDescription: Severity;
    unknownEnv: Severity;
    yamlMismatch: Severity;
    /** A URN of an entity type that is in no registry (a custom type): read, never looked up. */
    unregisteredEntityType: Severity;
    /** A URN of an entity the catalog marks deprecated (its `deprecation` aspect). */
    deprecated: Severity;
  };
  cache: { ttlSeconds: number; maxEntries: number };
  requestTimeoutMs: number;
  /** Most URNs per GraphQL document: an upper bound; the complexity budget decides below it. */
  batchSize: number;
  /**
   * Most complexity per GraphQL document as graphql-java counts it (each field 1 plus its children).
   * DataHub refuses documents over 2000 (GRAPHQL_QUERY_COMPLEXITY_LIMIT); a lower limit the catalog
   * names in a refusal is learnt.
   */
  graphqlComplexityBudget: number;
  /**
   * Origins (scheme://host:port) besides `url`'s that may receive the access token, e.g. the
   * frontend a `graphqlUrl` names. Other editors never get asked: without this, such origins get no token.
   */
  allowTokenOrigins: string[];
  /** Glob-free list of folder names skipped by Check Workspace. */
  excludeFolders: string[];
  inlayHints: {
    /** After a URN whose id is not what people call it (a GUID, a hash, another name), the catalog's name. */
    names: boolean;
  };
  agentTools: {
    /**
     * The agent bridge's write tools (set a description, add a link, append members) are offered
     * to language models. Read by the editor from the user's or the machine's settings only.
     */
    writes: boolean;
  };
  datahubYaml: {
    /**
     * The `enable_auto_id` of the recipe that ingests a business glossary file (the
     * `datahub-business-glossary` source's config, not the file's): term and node ids are GUIDs of
     * their paths instead of the paths themselves.
     */
    glossaryEnableAutoId: boolean;
  };
  index: {
    /**
     * Most bytes of URN text the workspace index keeps (each entity's spelling, name and key);
     * past it, files that would add more are left out, and the log says so. At most MAX_INDEX_BYTES_BOUND.
     */
    maxBytes: number;
  };
}

/**
 * The largest `maxFileSize` the server takes, whatever the settings say: other editors read
 * settings from the project, and a 50 MB file cost 12 s per keystroke and 1.7 GB.
 */
export const MAX_FILE_SIZE_BOUND = 16 * 1024 * 1024;

/**
 * The largest `index.maxBytes` the server takes, whatever the settings say: the index of an
 * 859 MiB checkout of long URNs crashed the server.
 */
export const MAX_INDEX_BYTES_BOUND = 1024 * 1024 * 1024;

export const DEFAULT_SETTINGS: Settings = {
  url: '',
  graphqlUrl: '',
  uiUrl: '',
  entityUrlTemplate: DEFAULT_ENTITY_URL_TEMPLATE,
  writePath: 'aspects',
  actor: 'urn:li:corpuser:datahub',
  namespaces: ['li', 'svc'],
  // The languages table's (languages.ts): not jsonc, which editor settings files are.
  languages: [...DEFAULT_LANGUAGES],
  maxFileSize: 5 * 1024 * 1024,
  diagnostics: {
    malformed: 'error',
    unknown: 'warning',
    missingDescription: 'information',
    unknownEnv: 'warning',
    yamlMismatch: 'information',
    unregisteredEntityType: 'information',
    deprecated: 'warning',
  },
  cache: { ttlSeconds: 300, maxEntries: 20000 },
  requestTimeoutMs: 10000,
  batchSize: 100,
  graphqlComplexityBudget: 2000,
  allowTokenOrigins: [],
  excludeFolders: ['node_modules', '.git', '.venv', 'venv', '__pycache__', 'dist', 'build', 'out', 'target'],
  inlayHints: { names: true },
  agentTools: { writes: false },
  datahubYaml: { glossaryEnableAutoId: false },
  index: { maxBytes: 64 * 1024 * 1024 },
};

/** Connection state, shown by the client's status bar. */
export type ConnectionState = 'connected' | 'notConfigured' | 'unauthorized' | 'unreachable' | 'error' | 'checking';

export interface CatalogStatus {
  state: ConnectionState;
  message: string;
  endpoint?: string;
}

/**
 * The environment variable the server reads the access token from. The Catalog Lens extension
 * sets it for the server's process; the token never travels in a message (the LSP trace shows them).
 */
export const SERVER_TOKEN_ENV = 'CATALOG_LENS_TOKEN';

/**
 * `initializationOptions` of `initialize`. The extension sends `clientCommands`, the two `hoverShows…`
 * flags, `trusted` and the origins the user already allowed, never the token; other editors may
 * send `settings` (when they have no `workspace/configuration`) and `token` (when they cannot set
 * the server's environment). An editor that sends none of the flags gets hovers that say everything
 * themselves, and no command it has not declared.
 */
export interface ServerInitializationOptions {
  /**
   * The client registers ClientCommands: code actions may name them, and hovers may hold
   * `command:` links to `catalogLens.showLineage`.
   */
  clientCommands?: boolean;
  /**
   * The client's hover box shows the messages of the diagnostics under the mouse above the hover
   * (VS Code): hovers then leave out what those diagnostics say. Without it a hover starts with them.
   */
  hoverShowsDiagnostics?: boolean;
  /**
   * The client's hover box shows the tooltip of the document link under the mouse, as a link
   * (VS Code; it also declares `textDocument.documentLink.tooltipSupport`): the hover over a link
   * then leaves its own "Open in catalog" out. Both are needed.
   */
  hoverShowsLinkTooltips?: boolean;
  /** false in a workspace the user does not trust (Restricted Mode): nothing is written. */
  trusted?: boolean;
  /** Plain-HTTP hosts (host:port) the user already agreed to send the token to. */
  allowInsecureHosts?: string[];
  /** Other origins (a graphqlUrl's) the user already agreed to send the token to. */
  allowTokenOrigins?: string[];
  settings?: unknown;
  token?: string;
  /** Send `catalogLens/indexed` when the workspace index changes. */
  indexedNotifications?: boolean;
  /**
   * Send `catalogLens/status` and `catalogLens/skipped` (the extension's status item and notices).
   * Without it the server says a catalog that fails, and a file it skipped, with `window/showMessage`.
   */
  statusNotifications?: boolean;
}

/**
 * A custom request: its method, with its params and result as types. vscode-eslint's
 * `RequestType` idea without its class: the server's vscode-languageserver and the client's
 * vscode-languageclient link two versions of vscode-jsonrpc, whose `RequestType`s are not
 * assignable to each other, so each side registers and sends by `method` through a typed helper.
 */
export interface CustomRequest<P, R> {
  readonly method: string;
  /** Types only; never set. */
  readonly _types?: { message: 'request'; params: P; result: R };
}

/** A custom notification: its method, with its params as a type. */
export interface CustomNotification<P> {
  readonly method: string;
  /** Types only; never set. */
  readonly _types?: { message: 'notification'; params: P };
}

/** The params of a custom request or notification. */
export type ParamsOf<T> = T extends { readonly _types?: { params: infer P } } ? P : never;

/** A document and a position in it (LSP's TextDocumentPositionParams). */
export interface DocumentPosition {
  textDocument: { uri: string };
  position: { line: number; character: number };
}

/** Params of `catalogLens/skipped`: the document and its size, over the limit (characters). */
export interface SkippedFile {
  uri: string;
  size: number;
  limit: number;
}

/** What `catalogLens/urnAt` answers: the URN under the cursor (a schemaField's dataset, with the column). */
export interface UrnAt {
  urn: string;
  kind: Urn['kind'];
  column?: string | undefined;
}

/** Notification server → client: the catalog connection changed (sent when the client asks: `statusNotifications`). */
export const StatusNotification: CustomNotification<CatalogStatus> = { method: 'catalogLens/status' };

/** Notification server → client: a document was skipped (too large), once per document (sent when the client asks: `statusNotifications`). */
export const SkippedNotification: CustomNotification<SkippedFile> = { method: 'catalogLens/skipped' };

/** What the workspace index holds after a change, and what changed. */
export interface IndexedParams {
  /**
   * `build`: folders were read; `folders`: folders were removed; `file`: a file reported by the
   * watcher (or a closed document's file) was read again or dropped; `open`: an open document's
   * text was indexed after an edit.
   */
  reason: 'build' | 'folders' | 'file' | 'open';
  files: number;
  urns: number;
}

/**
 * Notification server → client: the workspace index changed (a build ended, folders were removed,
 * a watched file was read again, an open document's edit was indexed). Sent only to a client that asks for it with
 * `initializationOptions.indexedNotifications` (a test, or an editor that shows the index's state).
 */
export const IndexedNotification: CustomNotification<IndexedParams> = { method: 'catalogLens/indexed' };

/** Request client → server: the URN at a position, or null. */
export const UrnAtRequest: CustomRequest<DocumentPosition, UrnAt | null> = { method: 'catalogLens/urnAt' };

/** Request client → server: URNs (of one kind, or all) seen in open documents (or in the one `uri` names), sorted. */
export const KnownUrnsRequest: CustomRequest<{ kind?: CatalogKind; uri?: string }, string[]> = {
  method: 'catalogLens/knownUrns',
};

/** Params of `catalogLens/members`: a feature table or model, and which of its lists. */
export interface MembersParams extends CommandScope {
  urn: string;
  list: 'mlFeatures' | 'groups';
}

/** The members the list holds now in the catalog (read fresh), or why they could not be read. */
export type MembersResult = { members: string[]; error?: undefined } | { error: string; members?: undefined };

/** Request client → server: the members a feature table or model lists now (the Remove commands' picker). */
export const MembersRequest: CustomRequest<MembersParams, MembersResult> = { method: 'catalogLens/members' };

/** Params of `catalogLens/description`: an entity, or a column of a dataset (`fieldPath`). */
export interface DescriptionParams extends CommandScope {
  urn: string;
  fieldPath?: string;
}

/** The description the catalog shows for it now (null: none), or why it could not be read. */
export type DescriptionResult =
  { description: string | null; error?: undefined } | { error: string; description?: undefined };

/** Request client → server: what the catalog holds (the description commands' input box starts from it). */
export const DescriptionRequest: CustomRequest<DescriptionParams, DescriptionResult> = {
  method: 'catalogLens/description',
};

/** Params of `catalogLens/lineage`: an entity, and which way to look (one hop). */
export interface LineageParams extends CommandScope {
  urn: string;
  direction: 'upstream' | 'downstream';
}

/** One entity one hop away, as the catalog names it. */
export interface LineageItem {
  urn: string;
  /** Our kind word (`dataset`, `mlFeature` …), or DataHub's entity type lower-cased for others (`datajob`). */
  kind: string;
  name: string;
  platform?: string;
  /** DataHub's relationship name (`DownstreamOf`, `DerivedFrom`, `Consumes` …). */
  relationship: string;
}

/** The entities one hop away (at most LINEAGE_PAGE of `total`), or why they could not be read. */
export type LineageResult =
  { items: LineageItem[]; total: number; error?: undefined } | { error: string; items?: undefined; total?: undefined };

/** Most entities one lineage request lists: a view row each. */
export const LINEAGE_PAGE = 100;

/** Request client → server: the lineage one hop up or down from an entity (the lineage view). */
export const LineageRequest: CustomRequest<LineageParams, LineageResult> = { method: 'catalogLens/lineage' };

/** Params of `catalogLens/entityPage`: a URN, and the document whose settings apply (optional). */
export interface EntityPageParams {
  urn: string;
  uri?: string;
}
/** The page of the entity in the catalog's web UI, or why there is none. */
export type EntityPageResult = { url: string } | { error: string };
/**
 * Request client → server: the page of an entity in the catalog's web UI, the one the server's
 * hover and document links open (the same settings, with the same fallback to DataHub's CLI
 * configuration), so the client's Open in Catalog and the links agree.
 */
export const EntityPageRequest: CustomRequest<EntityPageParams, EntityPageResult> = {
  method: 'catalogLens/entityPage',
};

/** Params of `catalogLens/usages`: an entity, in any namespace word. */
export interface UsagesParams {
  urn: string;
}

/** A place in the workspace that names the entity (LSP's zero-based lines and UTF-16 characters). */
export interface UsagePlace {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** The docs-as-code entry that documents it. */
  entry: boolean;
}

/** Every place the workspace index knows that names the entity, by file then position; or why not. */
export type UsagesResult =
  { places: UsagePlace[]; files: number; error?: undefined } | { error: string; places?: undefined; files?: undefined };

/** Request client → server: where an entity is named in the workspace (the lineage view's rows). */
export const UsagesRequest: CustomRequest<UsagesParams, UsagesResult> = { method: 'catalogLens/usages' };

/** Params of `catalogLens/search`: what is typed, and optionally which kinds and platform to search. */
export interface SearchParams extends CommandScope {
  query: string;
  /** Our kind words (`dataset`, `mlFeature` …); all the catalog kinds when absent. */
  kinds?: CatalogKind[];
  /** A platform name (`hive`): only its entities. */
  platform?: string;
  /** How many, at most SEARCH_PAGE (the default). */
  count?: number;
}

/** One entity a search found, as the catalog names it. */
export interface SearchItem {
  urn: string;
  /** Our kind word (`dataset`, `mlFeature` …). */
  kind: CatalogKind;
  name: string;
  platform?: string;
  /** The description the catalog's UI shows (the edited one over the ingested one). */
  description?: string;
}

/** The entities found, best first (at most `count` of `total`), or why the catalog could not search. */
export type SearchResult =
  { items: SearchItem[]; total: number; error?: undefined } | { error: string; items?: undefined; total?: undefined };

/** Most entities one search request lists. */
export const SEARCH_PAGE = 50;

/** Request client → server: search the catalog across entity types ("Catalog: Search…"). */
export const SearchRequest: CustomRequest<SearchParams, SearchResult> = { method: 'catalogLens/search' };

/** The agent bridge's tools (server/src/tools), by name: the language model tools call them. */
export const AGENT_TOOLS = ['entities_in_files', 'where_used', 'problems', 'describe', 'search', 'impact'] as const;
export type AgentToolName = (typeof AGENT_TOOLS)[number];

/** Params of `catalogLens/tool`: which tool, and its input (checked by the server against the tool's schema). */
export interface ToolParams {
  name: AgentToolName;
  input: unknown;
}

/** A tool's answer: its text for a model and its structured data, or why it could not answer. */
export type ToolResult =
  | { text: string; structured: Record<string, unknown>; error?: undefined }
  | { error: string; text?: undefined; structured?: undefined };

/** Request client → server: run one of the agent bridge's read-only tools on the workspace. */
export const ToolRequest: CustomRequest<ToolParams, ToolResult> = { method: 'catalogLens/tool' };

/**
 * Params of `catalogLens/dataHubYaml`: a file in one of DataHub's YAML formats (dataset, glossary,
 * data product, structured properties), and one entry of it (its URN) or the whole file.
 */
export interface DataHubYamlParams extends CommandScope {
  uri: string;
  entry?: string;
}

/** A replacement in a document (LSP's TextEdit). */
export interface TextEditAt {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

/**
 * One write a push makes: the server write command, its argument, and one line that says it
 * (entry, field, old → new; or the tag, term or owner it adds).
 */
export type DataHubYamlWrite =
  | { command: typeof ServerCommands.setDatasetDescription; arg: SetDatasetDescriptionArgs; line: string }
  | { command: typeof ServerCommands.setColumnDescription; arg: SetColumnDescriptionArgs; line: string }
  | { command: typeof ServerCommands.setDescription; arg: SetDescriptionArgs; line: string }
  | { command: typeof ServerCommands.addTags; arg: DatasetTagsArgs; line: string }
  | { command: typeof ServerCommands.addTerms; arg: DatasetTermsArgs; line: string }
  | { command: typeof ServerCommands.addOwners; arg: DatasetOwnersArgs; line: string };

/**
 * The file (or one entry) against the catalog: `catalogText` is the document as the catalog would
 * have it (only the differing values replaced, everything else as written), `edits` make it from
 * the document at `version` (a pull), `writes` are what a push makes, `notes` what neither touches
 * and why; or `{error}` (not a DataHub YAML file sync covers, the catalog not answering).
 */
export type DataHubYamlResult =
  | {
      version: number;
      catalogText: string;
      edits: TextEditAt[];
      writes: DataHubYamlWrite[];
      notes: string[];
      /**
       * What the file says otherwise than the catalog and a push does not write, one line each with
       * why (a structured property's display name: Catalog Lens writes none).
       */
      unpushed: string[];
      /** The URNs of the entries compared. */
      entries: string[];
      error?: undefined;
    }
  | {
      error: string;
      version?: undefined;
      catalogText?: undefined;
      edits?: undefined;
      writes?: undefined;
      notes?: undefined;
      unpushed?: undefined;
      entries?: undefined;
    };

/** Request client → server: a DataHub YAML file against the catalog (Compare, Pull and Push with Catalog). */
export const DataHubYamlRequest: CustomRequest<DataHubYamlParams, DataHubYamlResult> = {
  method: 'catalogLens/dataHubYaml',
};

/** Request client → server: which of DataHub's YAML formats an open document is in (null: none); read from its scan, no catalog asked. */
export const YamlFormatRequest: CustomRequest<{ uri: string }, { format: string | null }> = {
  method: 'catalogLens/yamlFormat',
};
