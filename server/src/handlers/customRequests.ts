/** Catalog Lens's own requests (`catalogLens/*`, docs/dev/lsp-extensions.md), each routed through the guard. */
import type { CancellationToken, Connection } from 'vscode-languageserver';
import {
  DataHubYamlRequest,
  DescriptionRequest,
  EntityPageRequest,
  KnownUrnsRequest,
  LineageRequest,
  MembersRequest,
  SearchRequest,
  ToolRequest,
  UrnAtRequest,
  type ToolParams,
  type ToolResult,
  UsagesRequest,
  type CustomRequest,
  YamlFormatRequest,
} from '../../../model/src/protocol';
import { cancelled, onCustomRequest, signalOf, type guardWith } from '../lsp';
import type { CatalogLanguageService } from '../service/languageService';
import { runTool, type ToolHost } from '../tools/tools';

export function registerCustomRequests(
  connection: Connection,
  service: CatalogLanguageService,
  guard: ReturnType<typeof guardWith>,
  tools: ToolHost,
): void {
  const on = <P, R>(type: CustomRequest<P, R>, handler: (params: P, token: CancellationToken) => Promise<R>): void =>
    onCustomRequest(connection, type, handler);
  on(
    UrnAtRequest,
    guard('urnAt', null, (p) => service.urnAt(p.textDocument.uri, p.position)),
  );
  on(
    KnownUrnsRequest,
    guard('knownUrns', [], (p) => service.knownUrns(p)),
  );
  on(
    MembersRequest,
    guard('members', { error: 'the members could not be read' }, (p, t) => service.members(p, t)),
  );
  on(
    DescriptionRequest,
    guard('description', { error: 'the description could not be read' }, (p, t) => service.description(p, t)),
  );
  on(
    YamlFormatRequest,
    guard('yamlFormat', { format: null }, (p) => service.yamlFormat(p)),
  );
  on(
    DataHubYamlRequest,
    guard('dataHubYaml', { error: 'the file could not be compared with the catalog' }, (p, t) =>
      service.dataHubYaml(p, t),
    ),
  );
  on(
    EntityPageRequest,
    guard('entityPage', { error: 'the page could not be made' }, (p) => service.entityPage(p)),
  );
  on(
    LineageRequest,
    guard('lineage', { error: 'the lineage could not be read' }, (p, t) => service.lineage(p, t)),
  );
  on(
    SearchRequest,
    guard('search', { error: 'the catalog could not be searched' }, (p, t) => service.search(p, t)),
  );
  on(
    UsagesRequest,
    guard('usages', { error: 'the workspace index could not be read' }, (p) => service.usages(p)),
  );
  on(
    ToolRequest,
    guard('tool', { error: 'the tool failed' }, async (p: ToolParams | null, token): Promise<ToolResult> => {
      // Other editors send what they like: the name is checked here, the input by the tool's schema.
      const name: unknown = p?.name;
      if (typeof name !== 'string') return { error: 'catalogLens/tool: name must be a string' };
      // The editor's cancellation (the tool invocation's token) aborts the tool's catalog requests.
      const answer = await runTool(tools, name, p?.input, signalOf(token));
      if (token?.isCancellationRequested) throw cancelled();
      return answer.error !== undefined
        ? { error: answer.error }
        : { text: answer.text, structured: answer.structured };
    }),
  );
}
