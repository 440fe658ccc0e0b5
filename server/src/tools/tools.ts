/**
 * The agent bridge's tools, defined once: what the workspace names of the catalog and what the
 * catalog says of it, for a coding agent. Each tool has a JSON Schema for its input and its output,
 * answers structured data and a text rendering for models, and keeps both small: lists come in
 * pages (`offset`, `limit`, `nextOffset`), catalog text is cut and made inert. The MCP server
 * (cli/mcp.ts) and the editor's language model tools (the `catalogLens/tool` request) run these
 * over a ToolHost: the workspace index, the resolution and Check Workspace of their side.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { isAgentWriteTool } from '../../../model/src/agentWrites';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { entityName } from '../../../model/src/entityNames';
import { entityPageUrl } from '../../../model/src/entityPage';
import { inertText } from '../../../model/src/inertText';
import { CATALOG_KINDS, type CatalogKind } from '../../../model/src/kinds';
import type { CatalogStatus, Settings } from '../../../model/src/protocol';
import { shownColumns } from '../../../model/src/readShapes';
import { entityKey, parseUrn, printUrn } from '../../../model/src/urn';
import type { Resolution } from '../catalogClient/client';
import { catalogDescription, type DiagnosticCode, type PlainDiagnostic } from '../features/diagnostics';
import type { Place, WorkspaceIndex } from '../index/workspaceIndex';
import { lookupOf } from '../resolution/lookup';
import type { ResolutionService } from '../resolution/resolution';
import { resolveItems, type ResolvableItem } from '../resolution/resolve';
import { checkWorkspace, normalUri, type WorkspaceDeps } from '../workspace';
import { schemaProblem, type JsonSchema } from './schema';
import { isLineageKind, type LineageKind } from '../catalogClient/queries';
import { runWriteTool, WRITE_TOOLS, type WriteRun } from './writeTools';

/** What the tools need of their side (the language server, or the MCP server's own pipeline). */
export interface ToolHost {
  /** The workspace folders (file: URIs). */
  folders(): string[];
  settingsFor(uri?: string): Promise<Settings>;
  /** The workspace index, built. */
  index(): Promise<WorkspaceIndex>;
  resolution: Pick<ResolutionService, 'clientFor' | 'hoverAnswers' | 'search' | 'lineage' | 'linkSettings'>;
  /** Check Workspace's diagnostics, for every file that has some. */
  check(): Promise<CheckedFile[]>;
  /** The catalog connection's state, as the status bar shows it. */
  catalogStatus(): CatalogStatus;
  /** Runs a write tool's write; absent where writes are not allowed (the write tools then refuse). */
  write?: WriteRun;
}

export interface CheckedFile {
  doc: TextDocument;
  diagnostics: PlainDiagnostic[];
}

/** A tool's answer: structured (matching its output schema) with its text, or why it could not answer. */
export type ToolAnswer = { structured: Record<string, unknown>; text: string; error?: undefined } | { error: string };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

/** Most characters of a tool's text rendering: an agent's context is small. */
export const MAX_TOOL_TEXT = 12_000;
/** Rows per page, unless `limit` says fewer (or more, up to MAX_LIMIT). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/** Places listed per entity in a list of entities (the count says how many there are). */
const PLACES_PER_ENTITY = 5;
/** Catalog text (descriptions, notes) in an answer: cut to this, made inert. */
const TEXT_LIMIT = 300;
/** Entities the impact walk visits at most, and hops at most. */
const IMPACT_MAX_ENTITIES = 200;
const IMPACT_MAX_DEPTH = 3;

const PROBLEM_KINDS = ['unknown', 'deprecated', 'malformed', 'undocumented', 'other'] as const;
type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** Which problem kind a diagnostic code belongs to. */
const KIND_OF_CODE: Record<DiagnosticCode, ProblemKind> = {
  'unknown-urn': 'unknown',
  'unknown-env': 'unknown',
  'unknown-column': 'unknown',
  'deprecated-urn': 'deprecated',
  'malformed-urn': 'malformed',
  'yaml-syntax': 'malformed',
  // A DataHub YAML file's own rules (keys, values, required keys): the file is malformed for DataHub.
  'datahub-format': 'malformed',
  // A structured property value its definition does not take.
  'structured-property-value': 'other',
  'missing-description': 'undocumented',
  'missing-column-description': 'undocumented',
  'description-mismatch': 'other',
  'column-description-mismatch': 'other',
  'missing-list-member': 'other',
  'unregistered-entity-type': 'other',
};

// Schemas. Shared pieces first.

const paging: Record<string, JsonSchema> = {
  offset: { type: 'integer', minimum: 0, description: 'Rows to skip (the nextOffset of the page before).' },
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    description: `Rows per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`,
  },
};
const pathsInput: JsonSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 1000 },
  maxItems: 100,
  description: 'Files or folders, relative to the workspace folder (or absolute); all of the workspace when absent.',
};
const urnInput: JsonSchema = { type: 'string', minLength: 4, maxLength: 2000, description: 'The entity’s URN.' };
const place: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Relative to the workspace folder.' },
    line: { type: 'integer', description: '1-based.' },
    column: { type: 'integer', description: '1-based, in UTF-16 code units.' },
    entry: { type: 'boolean', description: 'A docs-as-code entry (a YAML mapping’s own urn: key).' },
  },
  required: ['path', 'line', 'column'],
};
const pageOut: Record<string, JsonSchema> = {
  total: { type: 'integer', description: 'How many there are in all.' },
  offset: { type: 'integer' },
  nextOffset: { type: 'integer', description: 'Present when there are more: the offset of the next page.' },
};
const catalogOut: JsonSchema = {
  type: 'string',
  description: 'Whether the catalog answered: connected, not configured, or why not.',
};
const STATES = ['known', 'unknown', 'deprecated', 'undocumented', 'unchecked', 'error'] as const;
type State = (typeof STATES)[number];
const deprecationOut: JsonSchema = {
  type: 'object',
  properties: {
    note: { type: 'string' },
    replacement: { type: 'string', description: 'The URN to use instead, when the catalog names one.' },
    decommissionTime: { type: 'integer', description: 'Milliseconds since 1970, when the catalog names a date.' },
  },
};

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'entities_in_files',
    title: 'Catalog entities in files',
    description:
      'The DataHub catalog entities (datasets, ML features, models …) that the given files or folders — or the whole workspace — name by URN, with where, their kind, what the catalog says of each (state known, unknown, deprecated with its replacement, undocumented), and the catalog’s name and description.',
    inputSchema: {
      type: 'object',
      properties: { paths: pathsInput, ...paging },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              urn: { type: 'string' },
              kind: { type: 'string' },
              name: { type: 'string' },
              state: { type: 'string', enum: STATES },
              description: { type: 'string' },
              deprecation: deprecationOut,
              placeCount: { type: 'integer' },
              places: { type: 'array', items: place },
            },
            required: ['urn', 'kind', 'name', 'state', 'placeCount', 'places'],
          },
        },
        catalog: catalogOut,
        ...pageOut,
      },
      required: ['entities', 'catalog', 'total', 'offset'],
    },
  },
  {
    name: 'where_used',
    title: 'Where an entity is used',
    description:
      'Every place in the workspace that names a catalog entity, given its URN or its name (a table, feature or model name): code in both namespace words, SDK builders and YAML.',
    inputSchema: {
      type: 'object',
      properties: {
        urn: urnInput,
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 500,
          description: 'The entity’s name, when the URN is not known.',
        },
        ...paging,
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        urn: { type: 'string' },
        otherMatches: { type: 'array', items: { type: 'string' }, description: 'Other entities of that name.' },
        files: { type: 'integer' },
        places: { type: 'array', items: place },
        ...pageOut,
      },
      required: ['places', 'files', 'total', 'offset'],
    },
  },
  {
    name: 'problems',
    title: 'Catalog problems in the workspace',
    description:
      'What Check Workspace finds: URNs the catalog does not know (unknown), deprecated ones with their replacement, malformed ones, entities without a description (undocumented), and other mismatches — by kind and path, each at its line and column.',
    inputSchema: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: PROBLEM_KINDS, description: 'Only problems of this kind.' },
        paths: pathsInput,
        ...paging,
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        problems: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              line: { type: 'integer' },
              column: { type: 'integer' },
              severity: { type: 'string' },
              kind: { type: 'string', enum: PROBLEM_KINDS },
              code: { type: 'string' },
              message: { type: 'string' },
              urn: { type: 'string' },
              replacement: { type: 'string' },
            },
            required: ['path', 'line', 'column', 'severity', 'kind', 'code', 'message'],
          },
        },
        counts: {
          type: 'object',
          properties: Object.fromEntries(PROBLEM_KINDS.map((k) => [k, { type: 'integer' }])),
        },
        catalog: catalogOut,
        ...pageOut,
      },
      required: ['problems', 'counts', 'catalog', 'total', 'offset'],
    },
  },
  {
    name: 'describe',
    title: 'Describe a catalog entity',
    description:
      'What the catalog says of one entity, as the editor’s hover shows it: name, description, owners, tags, glossary terms, domain, deprecation (with the replacement), columns, how many entities are one hop up and down its lineage, its page, and how often the workspace names it.',
    inputSchema: { type: 'object', properties: { urn: urnInput }, required: ['urn'], additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        urn: { type: 'string' },
        kind: { type: 'string' },
        name: { type: 'string' },
        state: { type: 'string', enum: STATES },
        description: { type: 'string' },
        owners: { type: 'array', items: { type: 'string' } },
        tags: { type: 'array', items: { type: 'string' } },
        terms: { type: 'array', items: { type: 'string' } },
        domain: { type: 'string' },
        deprecation: deprecationOut,
        columns: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, description: { type: 'string' } },
            required: ['name'],
          },
        },
        columnCount: { type: 'integer' },
        upstream: { type: 'integer' },
        downstream: { type: 'integer' },
        url: { type: 'string' },
        workspacePlaces: { type: 'integer' },
      },
      required: ['urn', 'kind', 'name', 'state', 'workspacePlaces'],
    },
  },
  {
    name: 'search',
    title: 'Search the catalog',
    description:
      'Full-text search of the catalog (names and descriptions), as the editor’s catalog search does, optionally of one kind; with how often the workspace names each entity found.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500 },
        kind: { type: 'string', enum: CATALOG_KINDS, description: 'Only entities of this kind.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many (default 10, at most 50).' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              urn: { type: 'string' },
              kind: { type: 'string' },
              name: { type: 'string' },
              platform: { type: 'string' },
              description: { type: 'string' },
              workspacePlaces: { type: 'integer' },
            },
            required: ['urn', 'kind', 'name', 'workspacePlaces'],
          },
        },
        total: { type: 'integer' },
      },
      required: ['items', 'total'],
    },
  },
  {
    name: 'impact',
    title: 'Downstream impact',
    description:
      'The entities downstream of one (one or more hops, as the lineage view walks: through the data jobs that read a dataset to the datasets they write, through the charts that read it to the dashboards that hold them) with the places in the workspace that name each: what in this repository is affected if the entity changes. Starts from a dataset, an ML entity, a data job or flow, a chart or a dashboard.',
    inputSchema: {
      type: 'object',
      properties: {
        urn: urnInput,
        depth: {
          type: 'integer',
          minimum: 1,
          maximum: IMPACT_MAX_DEPTH,
          description: `Hops to walk (default 2, at most ${IMPACT_MAX_DEPTH}).`,
        },
        ...paging,
      },
      required: ['urn'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        urn: { type: 'string' },
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              urn: { type: 'string' },
              kind: { type: 'string' },
              name: { type: 'string' },
              platform: { type: 'string' },
              hop: { type: 'integer' },
              via: { type: 'string', description: 'The entity one hop up it was reached from.' },
              placeCount: { type: 'integer' },
              places: { type: 'array', items: place },
            },
            required: ['urn', 'kind', 'name', 'hop', 'via', 'placeCount', 'places'],
          },
        },
        usedInWorkspace: { type: 'integer', description: 'How many of them the workspace names.' },
        truncated: { type: 'boolean', description: 'The walk stopped at its bound before the end of the lineage.' },
        ...pageOut,
      },
      required: ['urn', 'entities', 'usedInWorkspace', 'total', 'offset'],
    },
  },
];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** What a tool answers when its caller cancelled it. */
export const cancelledAnswer = (name: string): ToolAnswer => ({ error: `${name}: cancelled` });

/**
 * Runs the tool `name` on `input` (checked against its schema first). When `signal` aborts (the
 * caller cancelled), the catalog requests under way are aborted and the answer is at once that
 * the call was cancelled.
 */
export async function runTool(host: ToolHost, name: string, input: unknown, signal?: AbortSignal): Promise<ToolAnswer> {
  if (signal?.aborted) return cancelledAnswer(name);
  if (!signal) return runToolOnce(host, name, input);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ToolAnswer>((resolve) => {
    onAbort = () => resolve(cancelledAnswer(name));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // What does not take the signal (the workspace's reading, Check Workspace) is not waited for.
    return await Promise.race([runToolOnce(host, name, input, signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

async function runToolOnce(host: ToolHost, name: string, input: unknown, signal?: AbortSignal): Promise<ToolAnswer> {
  if (isAgentWriteTool(name)) {
    const writeTool = WRITE_TOOLS.find((t) => t.name === name)!;
    const writeArgs = (input ?? {}) as Record<string, unknown>;
    const writeProblem = schemaProblem(writeArgs, writeTool.inputSchema);
    if (writeProblem) return { error: `${name}: ${writeProblem}.` };
    return runWriteTool(host.write, name, writeArgs);
  }
  const tool = BY_NAME.get(name);
  if (!tool)
    return {
      error: `There is no tool ${inertText(name, 'plain', 60)}: the tools are ${TOOLS.map((t) => t.name).join(', ')}.`,
    };
  const args = (input ?? {}) as Record<string, unknown>;
  const problem = schemaProblem(args, tool.inputSchema);
  if (problem) return { error: `${name}: ${problem}.` };
  switch (name) {
    case 'entities_in_files':
      return entitiesInFiles(host, args, signal);
    case 'where_used':
      return whereUsed(host, args);
    case 'problems':
      return problems(host, args);
    case 'describe':
      return describe(host, args['urn'] as string, signal);
    case 'search':
      return search(host, args, signal);
    default:
      return impact(host, args, signal);
  }
}

// What the tools share.

interface Page {
  offset: number;
  limit: number;
}
const pageOf = (args: Record<string, unknown>): Page => ({
  offset: (args['offset'] as number | undefined) ?? 0,
  limit: (args['limit'] as number | undefined) ?? DEFAULT_LIMIT,
});
function paged<T>(all: readonly T[], page: Page): { rows: T[]; total: number; offset: number; nextOffset?: number } {
  const rows = all.slice(page.offset, page.offset + page.limit);
  const next = page.offset + rows.length;
  return { rows, total: all.length, offset: page.offset, ...(next < all.length ? { nextOffset: next } : {}) };
}

/** A URI as a path relative to the workspace folder holding it (with the folder's name when there are several). */
function pathOf(host: ToolHost, uri: string): string {
  const folders = host.folders().filter((f) => f.startsWith('file:'));
  const file = fileURLToPath(uri);
  for (const folder of folders) {
    const root = fileURLToPath(folder);
    const rel = relative(root, file);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) {
      const posix = rel.split(sep).join('/');
      return folders.length > 1 ? `${root.split(sep).pop() ?? ''}/${posix}` : posix;
    }
  }
  return file.split(sep).join('/');
}

/** Which files `paths` cover (undefined: all); a path is resolved against the first workspace folder. */
function fileFilter(host: ToolHost, paths: readonly string[] | undefined): ((uri: string) => boolean) | undefined {
  if (!paths || paths.length === 0) return undefined;
  const folder = host.folders().find((f) => f.startsWith('file:'));
  const root = folder ? fileURLToPath(folder) : process.cwd();
  const prefixes = paths.map((p) => {
    const uri = normalUri(pathToFileURL(isAbsolute(p) ? p : join(root, p)).toString()).replace(/\/+$/, '');
    return uri;
  });
  return (uri) => {
    const u = normalUri(uri);
    return prefixes.some((p) => u === p || u.startsWith(`${p}/`));
  };
}

const placeOut = (host: ToolHost, p: Place): Record<string, unknown> => ({
  path: pathOf(host, p.uri),
  line: p.range.start.line + 1,
  column: p.range.start.character + 1,
  ...(p.entry ? { entry: true } : {}),
});
const placeText = (p: Record<string, unknown>): string =>
  `${String(p['path'])}:${String(p['line'])}:${String(p['column'])}`;

const quote = (text: string | undefined | null): string | undefined =>
  text ? inertText(text, 'plain', TEXT_LIMIT) : undefined;

/** The text rendering, cut to MAX_TOOL_TEXT. */
function bounded(lines: readonly string[]): string {
  const text = lines.join('\n');
  return text.length <= MAX_TOOL_TEXT ? text : `${text.slice(0, MAX_TOOL_TEXT - 40)}\n… (cut: ask for a smaller page)`;
}
const moreLine = (p: { total: number; offset: number; nextOffset?: number }, rows: number): string[] =>
  p.nextOffset !== undefined
    ? [`(${p.offset + 1}–${p.offset + rows} of ${p.total}; call again with offset ${p.nextOffset} for more)`]
    : [];

/** Whether the catalog answered, in a word or a sentence: an agent must not read "no problems" off a catalog that was not asked. */
function catalogState(host: ToolHost, settings: Settings): string {
  if (!host.resolution.clientFor(settings).configured) return 'not configured (only the URNs’ syntax is known)';
  const status = host.catalogStatus();
  return status.state === 'unauthorized' || status.state === 'unreachable' || status.state === 'error'
    ? `${status.state}: ${inertText(status.message, 'plain', TEXT_LIMIT)}`
    : 'connected';
}

/** What the catalog says of an entity, as a state, its catalog name, description and deprecation. */
function stateOf(
  r: Resolution | undefined,
  configured: boolean,
): {
  state: State;
  description?: string;
  name?: string;
  deprecation?: Record<string, unknown>;
} {
  if (!configured || r === undefined) return { state: 'unchecked' };
  if (r.state === 'missing') return { state: 'unknown' };
  if (r.state === 'error') return { state: 'error' };
  const entity = r.entity as {
    deprecation?: {
      deprecated?: boolean;
      note?: string | null;
      decommissionTime?: number | null;
      replacement?: { urn: string } | null;
    } | null;
    name?: string;
    properties?: { name?: string } | null;
  };
  const description = quote(catalogDescription(r));
  const d = entity.deprecation;
  const name = entity.properties?.name ?? entity.name;
  const out = { ...(description ? { description } : {}), ...(name ? { name: inertText(name, 'plain', 200) } : {}) };
  if (d?.deprecated) {
    const deprecation = {
      ...(d.note ? { note: quote(d.note) } : {}),
      ...(d.replacement?.urn ? { replacement: d.replacement.urn } : {}),
      ...(typeof d.decommissionTime === 'number' && d.decommissionTime > 0
        ? { decommissionTime: d.decommissionTime }
        : {}),
    };
    return { state: 'deprecated', ...out, deprecation };
  }
  const described = ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'].includes(r.kind);
  return { state: described && !description ? 'undocumented' : 'known', ...out };
}

/** Resolves `urns` (each once, batched) with the workspace's settings. */
async function resolveAll(
  host: ToolHost,
  settings: Settings,
  urns: readonly string[],
  signal?: AbortSignal,
): Promise<{ lookup: (urn: string) => Resolution | undefined; configured: boolean }> {
  const client = host.resolution.clientFor(settings);
  if (!client.configured) return { lookup: () => undefined, configured: false };
  const items: ResolvableItem[] = [];
  const lookupUrn = new Map<string, string>();
  for (const urn of urns) {
    const parsed = parseUrn(urn);
    const l = parsed.ok ? lookupOf(parsed.urn, urn) : undefined;
    if (!l || l.column !== undefined) continue;
    lookupUrn.set(urn, l.urn);
    items.push({ urn: l.urn, kind: l.kind });
  }
  const resolved = await resolveItems(client, items, signal);
  return { lookup: (urn) => (lookupUrn.has(urn) ? resolved(lookupUrn.get(urn)!) : undefined), configured: true };
}

/** The entity key of a URN (both namespace words one entity), or the URN itself when it has none. */
function keyOf(urn: string): string {
  try {
    return entityKey(urn);
  } catch {
    return urn;
  }
}

const kindAndName = (urn: string): { kind: string; name: string } => {
  const parsed = parseUrn(urn);
  if (!parsed.ok) return { kind: 'unknown', name: urn };
  const kind = parsed.urn.kind === 'other' ? parsed.urn.entityType : parsed.urn.kind;
  return { kind, name: entityName(parsed.urn) };
};

// The tools.

async function entitiesInFiles(
  host: ToolHost,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const index = await host.index();
  const inFile = fileFilter(host, args['paths'] as string[] | undefined);
  const urns = index.entitiesNamedIn(inFile);
  const page = paged(urns, pageOf(args));
  const settings = await host.settingsFor();
  const { lookup, configured } = await resolveAll(host, settings, page.rows, signal);
  const entities = page.rows.map((urn) => {
    const places = index.placesOf(urn).filter((p) => !inFile || inFile(p.uri));
    const s = stateOf(lookup(urn), configured);
    const { kind, name } = kindAndName(urn);
    return {
      urn,
      kind,
      name: s.name ?? name,
      state: s.state,
      ...(s.description ? { description: s.description } : {}),
      ...(s.deprecation ? { deprecation: s.deprecation } : {}),
      placeCount: places.length,
      places: places.slice(0, PLACES_PER_ENTITY).map((p) => placeOut(host, p)),
    };
  });
  const catalog = catalogState(host, settings);
  const structured = { entities, catalog, total: page.total, offset: page.offset, ...nextOf(page) };
  const lines = [
    `${page.total} entities named${inFile ? ' in those paths' : ' in the workspace'} (catalog: ${catalog}).`,
    ...entities.map((e) => {
      const dep = e.deprecation as { replacement?: string; note?: string } | undefined;
      const head = `- ${e.urn} [${e.kind}, ${e.state}${dep?.replacement ? `, use ${dep.replacement} instead` : ''}]`;
      const where = `  named at ${e.places.map(placeText).join(', ')}${e.placeCount > e.places.length ? ` and ${e.placeCount - e.places.length} more` : ''}`;
      return [head, ...(e.description ? [`  ${e.description}`] : []), where].join('\n');
    }),
    ...moreLine(page, entities.length),
  ];
  return { structured, text: bounded(lines) };
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

const nextOf = (p: { nextOffset?: number }): { nextOffset?: number } =>
  p.nextOffset !== undefined ? { nextOffset: p.nextOffset } : {};

async function whereUsed(host: ToolHost, args: Record<string, unknown>): Promise<ToolAnswer> {
  const index = await host.index();
  let urn = args['urn'] as string | undefined;
  const name = args['name'] as string | undefined;
  if ((urn === undefined) === (name === undefined)) return { error: 'where_used: give either urn or name.' };
  let otherMatches: string[] = [];
  if (urn !== undefined) {
    if (!parseUrn(urn).ok) return { error: `where_used: ${inertText(urn, 'plain', 200)} is not a URN.` };
  } else {
    const wanted = name!.toLowerCase();
    // The name as the index knows it (`db.users`), or its last dotted part (`users`): exact ones first.
    const found = index
      .symbols(name!, 200)
      .filter((s) => s.name.toLowerCase() === wanted || s.name.toLowerCase().endsWith(`.${wanted}`))
      .sort((a, b) => Number(b.name.toLowerCase() === wanted) - Number(a.name.toLowerCase() === wanted));
    if (found.length === 0)
      return {
        structured: { places: [], files: 0, total: 0, offset: 0 },
        text: `Nothing in the workspace is named ${inertText(name!, 'plain', 200)}.`,
      };
    const spellings = found.map((s) => printUrn(s.urn));
    urn = spellings[0]!;
    otherMatches = spellings.slice(1);
  }
  const all = index.placesOf(urn).map((p) => placeOut(host, p));
  const page = paged(all, pageOf(args));
  const files = new Set(all.map((p) => p['path'])).size;
  const structured = {
    urn,
    ...(otherMatches.length > 0 ? { otherMatches } : {}),
    files,
    places: page.rows,
    total: page.total,
    offset: page.offset,
    ...nextOf(page),
  };
  const lines = [
    all.length === 0
      ? `The workspace does not name ${urn}.`
      : `${urn} is named ${times(all.length)} in ${files} file${files === 1 ? '' : 's'}:`,
    ...page.rows.map((p) => `- ${placeText(p)}${p['entry'] ? ' (docs-as-code entry)' : ''}`),
    ...moreLine(page, page.rows.length),
    ...(otherMatches.length > 0 ? [`Other entities of that name: ${otherMatches.join(', ')}`] : []),
  ];
  return { structured, text: bounded(lines) };
}

async function problems(host: ToolHost, args: Record<string, unknown>): Promise<ToolAnswer> {
  const inFile = fileFilter(host, args['paths'] as string[] | undefined);
  const wanted = args['kind'] as ProblemKind | undefined;
  const checked = (await host.check()).filter((f) => !inFile || inFile(f.doc.uri));
  const counts: Record<ProblemKind, number> = { unknown: 0, deprecated: 0, malformed: 0, undocumented: 0, other: 0 };
  const all: Array<Record<string, unknown>> = [];
  for (const { doc, diagnostics } of checked.sort((a, b) => (a.doc.uri < b.doc.uri ? -1 : 1))) {
    const path = pathOf(host, doc.uri);
    for (const d of [...diagnostics].sort((a, b) => a.start - b.start)) {
      const kind = KIND_OF_CODE[d.code];
      counts[kind]++;
      if (wanted && kind !== wanted) continue;
      const at = doc.positionAt(d.start);
      all.push({
        path,
        line: at.line + 1,
        column: at.character + 1,
        severity: d.severity,
        kind,
        code: d.code,
        message: inertText(d.message, 'plain', TEXT_LIMIT),
        ...(d.data.urn ? { urn: d.data.urn } : {}),
        ...(d.data.replacement ? { replacement: d.data.replacement } : {}),
      });
    }
  }
  const page = paged(all, pageOf(args));
  const catalog = catalogState(host, await host.settingsFor());
  const structured = { problems: page.rows, counts, catalog, total: page.total, offset: page.offset, ...nextOf(page) };
  const countLine = PROBLEM_KINDS.map((k) => `${counts[k]} ${k}`).join(', ');
  const lines = [
    `${page.total} ${wanted ? `${wanted} ` : ''}problems${inFile ? ' in those paths' : ''} (in all: ${countLine}; catalog: ${catalog}).`,
    ...page.rows.map(
      (p) => `- ${placeText(p)} ${String(p['severity'])} [${String(p['code'])}]: ${String(p['message'])}`,
    ),
    ...moreLine(page, page.rows.length),
  ];
  return { structured, text: bounded(lines) };
}

async function describe(host: ToolHost, urn: string, signal?: AbortSignal): Promise<ToolAnswer> {
  const parsed = parseUrn(urn);
  if (!parsed.ok) return { error: `describe: ${inertText(urn, 'plain', 200)} is not a URN: ${parsed.error.message}` };
  const lookup = lookupOf(parsed.urn, urn);
  const settings = await host.settingsFor();
  const index = await host.index();
  const workspacePlaces = index.placesOf(urn).length;
  const { kind, name } = kindAndName(urn);
  const client = host.resolution.clientFor(settings);
  const out: Record<string, unknown> = { urn, kind, name, state: 'unchecked', workspacePlaces };
  if (lookup && lookup.column === undefined && client.configured) {
    // As the hover asks it: the entity and its context in one document when neither is known.
    const [resolved, context] = await host.resolution.hoverAnswers(lookup, settings, signal);
    const r = resolved(lookup.urn);
    const s = stateOf(r, true);
    if (s.state === 'error' && r?.state === 'error')
      return { error: `describe: the catalog could not be asked: ${inertText(r.error.message, 'plain', 300)}` };
    Object.assign(out, { state: s.state });
    if (s.name) out['name'] = s.name;
    if (s.description) out['description'] = s.description;
    if (s.deprecation) out['deprecation'] = s.deprecation;
    if (context) {
      out['owners'] = context.owners.slice(0, 20);
      out['tags'] = context.tags.slice(0, 20);
      out['terms'] = context.terms.slice(0, 20);
      if (context.domain) out['domain'] = context.domain;
      if (context.deprecation && !out['deprecation'])
        out['deprecation'] = {
          note: quote(context.deprecation.note),
          ...(context.deprecation.replacement ? { replacement: context.deprecation.replacement } : {}),
        };
      if (context.upstream !== undefined) out['upstream'] = context.upstream;
      if (context.downstream !== undefined) out['downstream'] = context.downstream;
    }
    if (r?.state === 'found' && r.kind === 'dataset') {
      const columns = shownColumns(r.entity);
      out['columnCount'] = columns.length;
      out['columns'] = columns.slice(0, 50).map((c) => ({
        name: inertText(c.fieldPath, 'plain', 200),
        ...(c.description ? { description: quote(c.description) } : {}),
      }));
    }
  }
  const page = entityPageUrl(host.resolution.linkSettings(settings), parsed.urn, urn);
  if ('url' in page) out['url'] = page.url;
  const dep = out['deprecation'] as { note?: string; replacement?: string } | undefined;
  const list = (label: string, v: unknown): string[] =>
    Array.isArray(v) && v.length > 0 ? [`${label}: ${v.join(', ')}`] : [];
  const columns = (out['columns'] as Array<{ name: string; description?: string }> | undefined) ?? [];
  const lines = [
    `${urn}: ${String(out['kind'])} ${String(out['name'])} (${String(out['state'])})`,
    ...(out['description'] ? [`Description: ${String(out['description'])}`] : []),
    ...(dep
      ? [`Deprecated${dep.note ? `: ${dep.note}` : ''}${dep.replacement ? ` — use ${dep.replacement}` : ''}`]
      : []),
    ...list('Owners', out['owners']),
    ...list('Tags', out['tags']),
    ...list('Terms', out['terms']),
    ...(out['domain'] ? [`Domain: ${String(out['domain'])}`] : []),
    ...(out['upstream'] !== undefined || out['downstream'] !== undefined
      ? [
          `Lineage: ${String(out['upstream'] ?? '?')} upstream, ${String(out['downstream'] ?? '?')} downstream (one hop)`,
        ]
      : []),
    ...(columns.length > 0
      ? [
          `Columns (${String(out['columnCount'])}): ${columns.map((c) => (c.description ? `${c.name} — ${c.description}` : c.name)).join('; ')}`,
        ]
      : []),
    `Named ${times(workspacePlaces)} in the workspace.`,
    ...(out['url'] ? [`Page: ${String(out['url'])}`] : []),
  ];
  return { structured: out, text: bounded(lines) };
}

async function search(host: ToolHost, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolAnswer> {
  const settings = await host.settingsFor();
  const kind = args['kind'] as CatalogKind | undefined;
  const result = await host.resolution.search(
    settings,
    {
      query: args['query'] as string,
      kinds: kind ? [kind] : [],
      count: (args['limit'] as number | undefined) ?? 10,
      mode: 'search',
    },
    signal,
  );
  if (result.error !== undefined) return { error: `search: ${inertText(result.error, 'plain', 300)}` };
  const index = await host.index();
  const items = result.items.map((i) => ({
    urn: i.urn,
    kind: i.kind,
    name: inertText(i.name, 'plain', 200),
    ...(i.platform ? { platform: i.platform } : {}),
    ...(i.description ? { description: quote(i.description) } : {}),
    workspacePlaces: index.placesOf(i.urn).length,
  }));
  const lines = [
    `${result.total} found${result.total > items.length ? `, the first ${items.length}` : ''}:`,
    ...items.map(
      (i) =>
        `- ${i.urn} [${i.kind}${i.platform ? `, ${i.platform}` : ''}]${i.workspacePlaces > 0 ? ` named ${times(i.workspacePlaces)} in the workspace` : ''}${i.description ? `\n  ${i.description}` : ''}`,
    ),
  ];
  return { structured: { items, total: result.total }, text: bounded(lines) };
}

/** The kind whose lineage is read for `urn` (a column, or a kind without lineage: none). */
function lineageKindOf(urn: string): LineageKind | undefined {
  const parsed = parseUrn(urn);
  if (!parsed.ok) return undefined;
  const lookup = lookupOf(parsed.urn, urn);
  if (lookup) return lookup.column === undefined && isLineageKind(lookup.kind) ? lookup.kind : undefined;
  const word = parsed.urn.kind === 'other' ? parsed.urn.entityType : parsed.urn.kind;
  return isLineageKind(word) ? word : undefined;
}

async function impact(host: ToolHost, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolAnswer> {
  const urn = args['urn'] as string;
  const startKind = lineageKindOf(urn);
  if (!startKind)
    return {
      error: `impact: ${inertText(urn, 'plain', 200)} is not a dataset or ML entity, nor a data job, flow, chart or dashboard.`,
    };
  const depth = (args['depth'] as number | undefined) ?? 2;
  const settings = await host.settingsFor();
  const index = await host.index();
  const seen = new Set<string>([keyOf(urn)]);
  const found: Array<{ urn: string; kind: string; name: string; platform?: string; hop: number; via: string }> = [];
  // Through every kind the lineage names that has lineage of its own: a dataset's downstream holds
  // the jobs that read it, whose downstream holds the datasets they write; a chart's, its dashboards.
  let frontier: Array<{ urn: string; kind: LineageKind }> = [{ urn, kind: startKind }];
  let truncated = false;
  for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
    const next: typeof frontier = [];
    for (const from of frontier) {
      if (found.length >= IMPACT_MAX_ENTITIES) {
        truncated = true;
        break;
      }
      const r = await host.resolution.lineage(settings, from.urn, from.kind, 'downstream', signal);
      if (r.error !== undefined) {
        if (hop === 1) return { error: `impact: ${inertText(r.error, 'plain', 300)}` };
        continue;
      }
      if (r.total > r.items.length) truncated = true;
      for (const item of r.items) {
        const key = keyOf(item.urn);
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({
          urn: item.urn,
          // The URN's own kind word (`dataJob`, `chart` …), as the other tools say it.
          kind: kindAndName(item.urn).kind,
          name: inertText(item.name, 'plain', 200),
          ...(item.platform ? { platform: item.platform } : {}),
          hop,
          via: from.urn,
        });
        const kind = lineageKindOf(item.urn);
        if (kind) next.push({ urn: item.urn, kind });
      }
    }
    frontier = next;
  }
  const withPlaces = found.map((e) => {
    const places = index.placesOf(e.urn);
    return {
      ...e,
      placeCount: places.length,
      places: places.slice(0, PLACES_PER_ENTITY).map((p) => placeOut(host, p)),
    };
  });
  // The ones the workspace uses first: those are what this repository must look at.
  withPlaces.sort((a, b) => Number(b.placeCount > 0) - Number(a.placeCount > 0) || a.hop - b.hop);
  const usedInWorkspace = withPlaces.filter((e) => e.placeCount > 0).length;
  const page = paged(withPlaces, pageOf(args));
  const structured = {
    urn,
    entities: page.rows,
    usedInWorkspace,
    ...(truncated ? { truncated } : {}),
    total: page.total,
    offset: page.offset,
    ...nextOf(page),
  };
  const lines = [
    `${page.total} entities downstream of ${urn} within ${depth} hop${depth === 1 ? '' : 's'}; the workspace names ${usedInWorkspace} of them.${truncated ? ' (The walk stopped at its bound: there may be more.)' : ''}`,
    ...page.rows.map(
      (e) =>
        `- hop ${e.hop}: ${e.urn} [${e.kind}]${e.placeCount > 0 ? ` named at ${e.places.map(placeText).join(', ')}${e.placeCount > e.places.length ? ` and ${e.placeCount - e.places.length} more` : ''}` : ' (not named in the workspace)'}`,
    ),
    ...moreLine(page, page.rows.length),
  ];
  return { structured, text: bounded(lines) };
}

/**
 * Check Workspace for the tools: the same listing, scanning, resolution and diagnostics, the
 * diagnostics collected instead of published (nothing the editor shows changes).
 */
export async function collectDiagnostics(deps: Omit<WorkspaceDeps, 'publish' | 'clear'>): Promise<CheckedFile[]> {
  const out: CheckedFile[] = [];
  await checkWorkspace(
    {
      ...deps,
      // Every file's diagnostics are collected: none is taken as already shown.
      reuse: undefined,
      publish: (doc, diagnostics) => {
        if (diagnostics.length > 0) out.push({ doc, diagnostics });
      },
      clear: () => undefined,
    },
    { cancelled: () => false },
  );
  return out;
}
