/**
 * `catalog-lens mcp [folder]`: the agent bridge's tools (tools/tools.ts) over MCP on standard
 * input and output, for Claude Code, Cursor or any MCP client. The folder is the workspace: it is
 * listed, scanned and checked as the CLI's check does, with the catalog and token from the same
 * places (flags, environment, ~/.datahubenv; never a URL from a file in the repository with a
 * token: options.ts refuses it). Standard output carries the protocol only; notices go to standard
 * error. The workspace is read again for a call when the last reading is older than a few seconds:
 * an agent edits the files it asks about. With --allow-writes the write tools are listed too and
 * run the language server's write commands (server/src/writes) against the same catalog; without
 * it they answer a tool error.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { PRODUCT_VERSION } from '../../../model/src/version';
import { WorkspaceIndex } from '../index/workspaceIndex';
import { scanText } from '../pipeline/check';
import { CatalogResolution } from '../resolution/resolution';
import { collectDiagnostics, runTool, TOOLS, type CheckedFile, type ToolHost } from '../tools/tools';
import { WRITE_TOOLS, type WriteRun } from '../tools/writeTools';
import { normalUri } from '../workspace';
import { writeCommands } from '../writes/writeCommands';
import { cliCatalogClients, type CheckIo } from './check';
import type { CheckOptions } from './options';

/** How long a reading of the workspace (index, check) answers calls before the files are read again. */
const FRESH_MS = 3_000;

/** The tools' host over a folder on disk: its own index and check, the CLI's catalog clients. */
export function folderToolHost(options: CheckOptions, io: CheckIo): { host: ToolHost; dispose: () => void } {
  const folder = normalUri(pathToFileURL(resolve(io.cwd, options.paths[0] ?? '.')).toString());
  const settings = options.settings;
  const clients = cliCatalogClients(options, io, (s) => {
    if (s.state === 'unauthorized' || s.state === 'unreachable' || s.state === 'error')
      io.note(`catalog-lens mcp: catalog ${s.state}: ${s.message}`);
  });
  const resolution = new CatalogResolution(clients, (m) => io.note(m));
  const settingsFor = (): Promise<typeof settings> => Promise.resolve(settings);
  let index: { at: number; built: Promise<WorkspaceIndex> } | undefined;
  let checked: { at: number; files: Promise<CheckedFile[]> } | undefined;
  const fresh = (at: number | undefined): boolean => at !== undefined && Date.now() - at < FRESH_MS;
  const host: ToolHost = {
    folders: () => [folder],
    catalogStatus: () => clients.current(),
    settingsFor,
    resolution,
    index: () => {
      if (!index || !fresh(index.at)) {
        const built = new WorkspaceIndex({
          settingsFor,
          openDocument: () => undefined,
          scan: (text, languageId, s) => scanText(text, languageId, s),
          log: (m) => io.note(m),
        });
        index = {
          at: Date.now(),
          built: built
            .build(
              [folder],
              () => undefined,
              () => false,
            )
            .then(() => built),
        };
      }
      return index.built;
    },
    check: () => {
      if (!checked || !fresh(checked.at))
        checked = {
          at: Date.now(),
          files: collectDiagnostics({
            settingsFor,
            clientFor: (s) => clients.clientFor(s),
            log: () => undefined,
            workspaceFolders: () => [folder],
            openDocument: () => undefined,
            scanOf: () => undefined,
          }),
        };
      return checked.files;
    },
  };
  if (options.allowWrites)
    host.write = writesOf(options, io, clients, () => {
      index = undefined;
      checked = undefined;
    });
  return { host, dispose: () => clients.dispose() };
}

/** The write tools' writes: the server's write commands, with the CLI's settings and catalog clients. */
function writesOf(
  options: CheckOptions,
  io: CheckIo,
  clients: ReturnType<typeof cliCatalogClients>,
  forget: () => void,
): WriteRun {
  const commands = writeCommands({
    settingsFor: () => Promise.resolve(options.settings),
    clientFor: (s) => clients.clientFor(s),
    log: (m) => io.note(`catalog-lens mcp: ${m}`),
    // The user started the server with --allow-writes on a folder of their choosing.
    trusted: true,
    // What the catalog answers changed: the next call reads and checks again.
    revalidateAll: forget,
  });
  const never = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
  return (write) => commands[write.command](write.arg, never);
}

/** The MCP server of `host`'s tools (not yet connected). */
export function toolServer(host: ToolHost): McpServer {
  const mcp = new McpServer(
    { name: 'catalog-lens', version: PRODUCT_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Catalog Lens: what this repository’s code names of the DataHub catalog (datasets, ML features, models …), where, and what the catalog says of it. Paths are relative to the workspace folder.',
    },
  );
  // The tools' schemas are JSON Schemas, defined once for MCP and the editor: served as they are.
  // The write tools are listed only where they write (a call of one elsewhere says why it is refused).
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...TOOLS.map((t): Tool => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as Tool['inputSchema'],
        outputSchema: t.outputSchema as NonNullable<Tool['outputSchema']>,
        annotations: { title: t.title, readOnlyHint: true, openWorldHint: false },
      })),
      ...(host.write ? WRITE_TOOLS : []).map((t): Tool => ({
        name: t.name,
        title: t.title,
        description: t.description.replace(/ The user confirms each write\./, ''),
        inputSchema: t.inputSchema as Tool['inputSchema'],
        outputSchema: t.outputSchema as NonNullable<Tool['outputSchema']>,
        annotations: {
          title: t.title,
          readOnlyHint: false,
          destructiveHint: t.name === 'set_description',
          idempotentHint: true,
          openWorldHint: true,
        },
      })),
    ],
  }));
  // The client's notifications/cancelled aborts `extra.signal`: the tool's catalog requests stop.
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    try {
      const answer = await runTool(host, request.params.name, request.params.arguments ?? {}, extra.signal);
      if (answer.error !== undefined) return { isError: true, content: [{ type: 'text', text: answer.error }] };
      return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
    } catch (err) {
      return {
        isError: true,
        content: [
          { type: 'text', text: `${request.params.name} failed: ${err instanceof Error ? err.message : String(err)}` },
        ],
      };
    }
  });
  return mcp;
}

/** Serves the tools on `transport` (standard input and output by default) until the client closes it. */
export async function serveMcp(options: CheckOptions, io: CheckIo, transport?: Transport): Promise<void> {
  const { host, dispose } = folderToolHost(options, io);
  const mcp = toolServer(host);
  const closed = new Promise<void>((resolveClosed) => {
    mcp.server.onclose = () => resolveClosed();
  });
  await mcp.connect(transport ?? new StdioServerTransport());
  // The client gone (its end of standard input closed): the server ends too.
  if (!transport) process.stdin.once('end', () => void mcp.close());
  const writes = host.write
    ? `, and ${WRITE_TOOLS.length} write tools`
    : ' (read-only: --allow-writes lets agents write)';
  io.note(`catalog-lens mcp: serving ${TOOLS.length} tools${writes} on ${host.folders()[0]}`);
  await closed;
  dispose();
}
