/**
 * What the client and the server share: command ids, settings, custom messages.
 * These are public contracts (README "Server commands", "Settings"); keep them stable.
 */
import { DEFAULT_ENTITY_URL_TEMPLATE } from './entityPage';

/** Server commands (`workspace/executeCommand`); each takes one object argument. */
export const Commands = {
  /** `{urn, description, link?: {url, description}}` → WriteResult */
  setDatasetDescription: 'catalogLens.setDatasetDescription',
  /** `{urn, fieldPath, description}` → WriteResult */
  setColumnDescription: 'catalogLens.setColumnDescription',
  /** `{table, features: [urn…]}` → WriteResult */
  addFeaturesToTable: 'catalogLens.addFeaturesToTable',
  /** `{model, features: [urn…]}` → WriteResult */
  addFeaturesToModel: 'catalogLens.addFeaturesToModel',
  /** `{model, groups: [urn…]}` → WriteResult */
  addGroupsToModel: 'catalogLens.addGroupsToModel',
  /** `{urn, properties, overwrite?}` → WriteResult (ML kinds only) */
  createEntity: 'catalogLens.createEntity',
  /** `{}` → `{files, urns, diagnostics}`: scan every matching file of the workspace folders. */
  checkWorkspace: 'catalogLens.checkWorkspace',
  /** `{}` → `{}`: drop the cache and re-diagnose open documents. */
  refresh: 'catalogLens.refresh',
  /** `{}` → CatalogStatus: ask the catalog now (a connection test). */
  testConnection: 'catalogLens.testConnection',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/**
 * Client-side commands that code actions name when the client says it has them
 * (`initializationOptions.clientCommands: true`): they ask the user for text or a target, then
 * call the server command. Each takes one object argument.
 */
export const ClientCommands = {
  /** `{urn, current?}` → asks for the text, then setDatasetDescription */
  writeDatasetDescription: 'catalogLens.writeDatasetDescription',
  /** `{urn, fieldPath, current?}` → asks for the text, then setColumnDescription */
  writeColumnDescription: 'catalogLens.writeColumnDescription',
  /** `{feature}` → picks a feature table, then addFeaturesToTable */
  addFeatureToTable: 'catalogLens.addFeatureToTable',
  /** `{feature}` → picks a model, then addFeaturesToModel */
  addFeatureToModel: 'catalogLens.addFeatureToModel',
  /** `{model}` → picks a model group, then addGroupsToModel */
  addGroupToModel: 'catalogLens.addGroupToModel',
  /** `{urn}` → asks for a description, then createEntity */
  createEntity: 'catalogLens.createEntityInteractive',
} as const;

/** What a write command did. */
export type WriteResult =
  | { status: 'written'; message: string; aspects: string[] }
  | { status: 'unchanged'; message: string }
  | { status: 'failed'; message: string; kind: CatalogErrorKind };

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
}

/**
 * The largest `maxFileSize` the server takes, whatever the settings say: other editors read
 * settings from the project, and a 50 MB file cost 12 s per keystroke and 1.7 GB (security probe,
 * finding 6).
 */
export const MAX_FILE_SIZE_BOUND = 16 * 1024 * 1024;

export const DEFAULT_SETTINGS: Settings = {
  url: '',
  graphqlUrl: '',
  uiUrl: '',
  entityUrlTemplate: DEFAULT_ENTITY_URL_TEMPLATE,
  writePath: 'aspects',
  actor: 'urn:li:corpuser:datahub',
  namespaces: ['li', 'svc'],
  // Not jsonc: editor settings files are jsonc, and the server (and its trace) should not read them.
  languages: [
    'python',
    'yaml',
    'sql',
    'json',
    'markdown',
    'plaintext',
    'typescript',
    'javascript',
    'typescriptreact',
    'javascriptreact',
    'java',
    'scala',
    'go',
    'shellscript',
    'toml',
  ],
  maxFileSize: 5 * 1024 * 1024,
  diagnostics: {
    malformed: 'error',
    unknown: 'warning',
    missingDescription: 'information',
    unknownEnv: 'warning',
    yamlMismatch: 'information',
    unregisteredEntityType: 'information',
  },
  cache: { ttlSeconds: 300, maxEntries: 20000 },
  requestTimeoutMs: 10000,
  batchSize: 100,
  graphqlComplexityBudget: 2000,
  allowTokenOrigins: [],
  excludeFolders: ['node_modules', '.git', '.venv', 'venv', '__pycache__', 'dist', 'build', 'out', 'target'],
};

/** Connection state, shown by the client's status bar. */
export type ConnectionState = 'connected' | 'notConfigured' | 'unauthorized' | 'unreachable' | 'error' | 'checking';

export interface CatalogStatus {
  state: ConnectionState;
  message: string;
  endpoint?: string;
}

/** Notification server → client: the catalog connection changed. Params: CatalogStatus. */
export const StatusNotification = { method: 'catalogLens/status' } as const;

/** Notification server → client: a file was skipped (too large). Params: `{uri, size, limit}`. */
export const SkippedNotification = { method: 'catalogLens/skipped' } as const;

/** Request client → server: the URN at a position. Params: TextDocumentPositionParams; result: `{urn, kind} | null`. */
export const UrnAtRequest = { method: 'catalogLens/urnAt' } as const;

/** Request client → server: URNs of a kind seen in open documents and the workspace. Params `{kind}`; result `string[]`. */
export const KnownUrnsRequest = { method: 'catalogLens/knownUrns' } as const;
